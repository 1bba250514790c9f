import type { LiveVehicle } from '@fleet/api-contract';

// A live-stream (SSE) client for tests against a real server process: node's fetch streams the
// body, so the stream is opened with an Authorization header as any non-browser client would.

export interface LiveEvent {
  event: string;
  data: { vehicles: LiveVehicle[] };
  /** Date.now() when the event's last byte arrived. */
  at: number;
}

export interface LiveStream {
  status: number;
  events: LiveEvent[];
  /** The first event (already received or still to come) that matches, or a rejection after `ms`. */
  next(match: (e: LiveEvent) => boolean, ms?: number): Promise<LiveEvent>;
  /** How the body ended: 'end' when the server finished it, or the error that cut it. Never settles while it stays open. */
  ended: Promise<{ how: 'end' | 'error'; at: number; error?: unknown }>;
  close(): void;
}

/** Opens `url` (an assets/stream address) with a bearer token and parses its events as they arrive. */
export async function openLiveStream(url: string, token: string): Promise<LiveStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: abort.signal });
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  let ended: LiveStream['ended'];
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    ended = Promise.resolve({ how: 'end', at: Date.now() });
  } else {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    ended = (async () => {
      let buf = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { how: 'end' as const, at: Date.now() };
          buf += decoder.decode(value, { stream: true });
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data), at: Date.now() });
          }
          for (const w of waiters) w();
        }
      } catch (error) {
        return { how: 'error' as const, at: Date.now(), error };
      }
    })();
  }
  return {
    status: res.status,
    events,
    ended,
    close: () => abort.abort(),
    next: (match, ms = 5000) =>
      new Promise((resolve, reject) => {
        const found = events.find(match);
        if (found) return resolve(found);
        const check = () => {
          const e = events.find(match);
          if (!e) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(e);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching live event within ${ms} ms (got ${events.map((e) => e.event).join(', ') || 'none'})`));
        }, ms);
        waiters.add(check);
      }),
  };
}

/** 'open' unless the server has ended the stream (looked at for 20 ms). */
export const stateOf = (stream: LiveStream): Promise<'open' | 'ended'> =>
  Promise.race([stream.ended.then(() => 'ended' as const), new Promise<'open'>((r) => setTimeout(() => r('open'), 20))]);
