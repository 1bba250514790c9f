import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, computed once at start-up and stamped on every reply: @fastify/helmet
 * rebuilds the Content-Security-Policy string on each request, which cost ~4 % of the CPU of an
 * authenticated request in the auth/me benchmark.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, () => undefined);
  return headers;
}

export function installSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    // Swagger UI sets its own CSP for its inline bootstrap script.
    if (!request.url.startsWith('/api/docs')) reply.headers(headers);
    done();
  });
}
