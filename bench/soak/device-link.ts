// A soak device's link to the server: one protocol's way of sending fixes and hearing that they were
// taken. Each protocol has its file (osmand-link.ts, teltonika-link.ts, batch-link.ts, traccar-link.ts).
import net from 'node:net';
import type { Protocol } from './accounting.ts';
import type { Fix } from './truck-motion.ts';

/** Where the server listens; the same ports across a restart. */
export interface Target {
  apiUrl: string;
  osmandPort: number;
  teltonikaPort: number;
}

/** Acknowledged: the first `acked` fixes sent (a batch names those it refused); or nothing, and why. */
export type SendOutcome = { ok: true; acked: number; refused?: ReadonlyArray<{ index: number; message: string }> } | { ok: false; cause: string };

export interface DeviceLink {
  readonly protocol: Protocol;
  /** Most fixes one send carries (1 for OsmAnd and Traccar; a Teltonika packet or a batch carries more). */
  readonly maxPerSend: number;
  send(fixes: readonly Fix[]): Promise<SendOutcome>;
  /** The next send is cut mid-packet (the connection fault): half written, then the socket destroyed. */
  cutNextSend(): void;
  close(): void;
}

/** How long a device waits for an answer before it gives up on a send and sends again. */
export const ANSWER_TIMEOUT_MS = 20_000;

/** Why a fetch failed, in a device's words: the socket error's code, or "timeout". */
export function fetchFailure(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Writes `bytes` up to `cutAt` on `socket`, then destroys it: a tracker or phone losing its signal in
 * the middle of a packet. Resolves once the socket is gone.
 */
export function writePartAndDestroy(socket: net.Socket, bytes: Buffer, cutAt: number): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
    socket.write(bytes.subarray(0, cutAt), () => {
      // A moment for the part to arrive before the connection is reset.
      setTimeout(() => socket.destroy(), 50);
    });
  });
}

/** Opens a connection to `port` on loopback, sends `bytes` up to `cutAt` and drops it. */
export function connectWritePartAndDestroy(port: number, bytes: Buffer, cutAt: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('error', () => resolve());
    socket.on('connect', () => void writePartAndDestroy(socket, bytes, cutAt).then(resolve));
  });
}
