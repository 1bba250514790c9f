import type { FastifyReply } from 'fastify';

const KEEPALIVE_MS = 15_000;

/** An open Server-Sent Events answer: events go out as `event:` + one `data:` line of JSON. */
export interface EventStream {
  send(event: string, data: unknown): void;
  /** Ends the answer (the client reconnects after the `retry` delay). */
  end(): void;
  /** Runs `fn` once the client has gone (or `end` closed the answer). */
  onClose(fn: () => void): void;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Takes the answer out of Fastify's hands and opens an event stream on it: the first event with
 * a 3 s reconnect delay, then a comment line every 15 s so proxies and browsers keep it open.
 * Every stream of the API (notifications, live positions) opens this way.
 */
export function openEventStream(reply: FastifyReply, first: { event: string; data: unknown }): EventStream {
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
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const closed = reply.request.raw;
  closed.on('close', () => clearInterval(keepalive));
  return {
    send: (event, data) => res.write(frame(event, data)),
    end: () => res.end(),
    onClose: (fn) => closed.on('close', fn),
  };
}
