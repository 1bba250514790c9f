import type { Server } from 'node:http';

/**
 * Closes a closing server's keep-alive connections as they fall idle. node's `server.close()`
 * closes the connections idle at that moment and then waits for the rest, and a keep-alive
 * connection whose request finishes later stays open until its client or `keepAliveTimeout`
 * (Fastify's: 72 s) ends it, so one browser or device could hold a shutdown past its timeout.
 * Returns the function that stops checking (call it once the server has closed).
 */
export function closeIdleWhileClosing(server: Server, everyMs = 50): () => void {
  server.closeIdleConnections();
  const timer = setInterval(() => server.closeIdleConnections(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
