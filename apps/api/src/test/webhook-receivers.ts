import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Webhook receivers for tests of the sender (decision 0230): one that never answers, one that
// answers at once and notes when each delivery arrived. Both listen on loopback (the test app
// allows private http receivers).

/** A receiver that accepts each request and holds it until the sender gives up on it. */
export interface SilentReceiver {
  /** Its address, `http://127.0.0.1:port/hooks`. */
  url: string;
  /** Requests received so far. */
  held(): number;
  /** Requests held open now, and the most held at once. */
  open(): number;
  mostOpen(): number;
  /** The most requests held at once under one path below the receiver's url (`/hooks/<under>/…`). */
  mostOpenUnder(under: string): number;
  /** Ends the held requests first, so an app's sender does not wait out their timeouts when it stops. */
  close(): Promise<void>;
}

/** A receiver that answers 204 at once. */
export interface AnsweringReceiver {
  url: string;
  /** When each webhook-id first arrived (performance.now()). */
  arrived: Map<string, number>;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

export async function silentReceiver(): Promise<SilentReceiver> {
  let held = 0;
  let open = 0;
  let mostOpen = 0;
  const openUnder = new Map<string, { now: number; most: number }>();
  const server = http.createServer((req, res) => {
    held++;
    mostOpen = Math.max(mostOpen, ++open);
    const under = (req.url ?? '').split('/')[2] ?? '';
    const o = openUnder.get(under) ?? { now: 0, most: 0 };
    openUnder.set(under, o);
    o.most = Math.max(o.most, ++o.now);
    res.on('close', () => {
      open--;
      o.now--;
    });
    req.resume();
  });
  return {
    url: await listen(server),
    held: () => held,
    open: () => open,
    mostOpen: () => mostOpen,
    mostOpenUnder: (under) => openUnder.get(under)?.most ?? 0,
    close: () => closeServer(server),
  };
}

export async function answeringReceiver(): Promise<AnsweringReceiver> {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (!arrived.has(id)) arrived.set(id, performance.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  return { url: await listen(server), arrived, close: () => closeServer(server) };
}

/** The p-th percentile of ascending `sorted` (nearest rank). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
