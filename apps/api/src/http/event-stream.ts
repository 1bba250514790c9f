import type { FastifyReply } from 'fastify';

const KEEPALIVE_MS = 15_000;

/** An open Server-Sent Events answer: events go out as `event:` + one `data:` line of JSON. */
export interface EventStream {
  /** Nothing is written once the answer has ended. */
  send(event: string, data: unknown): void;
  /** Ends the answer (the client reconnects after the `retry` delay). */
  end(): void;
  /** Runs `fn` once the client has gone (or `end` closed the answer). */
  onClose(fn: () => void): void;
}

/**
 * Keeps an open stream within its user's access for as long as it stays open (modules/auth's
 * OpenStreams.guard): called once the stream is open, it answers the function that stops watching.
 */
export type StreamGuard = (stream: EventStream) => () => void;

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Takes the answer out of Fastify's hands and opens an event stream on it: the first event with
 * a 3 s reconnect delay, then a comment line every 15 s so proxies and browsers keep it open.
 * Every stream of the API (notifications, live positions) opens this way, under a guard that ends
 * it when its user's access ends (deactivated, logged out everywhere, a permission removed).
 */
export function openEventStream(reply: FastifyReply, first: { event: string; data: unknown }, guard: StreamGuard): EventStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies (nginx) must not buffer the stream.
    'x-accel-buffering': 'no',
  });
  res.write(`retry: 3000\n${frame(first.event, first.data)}`);
  // Between `end` (or the client's leaving) and the request's close a hub may still deliver: a write
  // then would be an error.
  const write = (text: string) => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
  const closed = reply.request.raw;
  const stream: EventStream = {
    send: (event, data) => write(frame(event, data)),
    end: () => {
      if (!res.writableEnded) res.end();
    },
    // A client gone while the stream was being opened (its snapshot read) has already closed.
    onClose: (fn) => (closed.closed ? fn() : closed.on('close', fn)),
  };
  stream.onClose(() => clearInterval(keepalive));
  stream.onClose(guard(stream));
  return stream;
}
