import { performance } from 'node:perf_hooks';

// An idle server's heap creeps: the little work it does (the demo's trucks, a few requests) promotes
// garbage to the old generation, and V8 collects that only when allocation grows the heap again, which
// on a quiet server does not happen for hours (10-15 MB in ten minutes, issue 67). While the event loop
// is quiet, a full collection once the heap has grown since the last one gives it back; a busy server's
// heap stays V8's (it collects under allocation anyway), so nothing runs then.

export interface IdleCollectionOptions {
  /** The full collection (`gc` of --expose-gc). */
  gc: () => void;
  /** Hands freed malloc pages back (glibc's malloc_trim), when available. */
  trim?: (() => void) | null;
  /** Collects another thread's heap too (the embedded database's), before the trim. */
  alsoCollect?: () => Promise<unknown>;
  /** How often the loop's load is looked at. */
  everyMs?: number;
  /** Busier than this share of the last period: no collection. */
  quietShare?: number;
  /** Collect once the heap grew this much since the last collection's result. */
  growthBytes?: number;
  /** The heap's size now (process.memoryUsage().heapUsed; a test gives its own). */
  heapUsed?: () => number;
  /** The event loop's busy share since the previous call (a test gives its own). */
  busyShare?: () => number;
  onCollected?: (freedBytes: number, ms: number) => void;
}

/** Whether to collect now: the loop was quiet and the heap grew enough since the last collection. */
export function shouldCollect(busy: number, heap: number, heapAfterLast: number, o: { quietShare: number; growthBytes: number }): boolean {
  return busy < o.quietShare && heap - heapAfterLast >= o.growthBytes;
}

/** The event loop's busy share (0-1) since the previous call. */
function loopBusyShare(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

/** Starts looking every `everyMs`; returns the function that stops it. */
export function startIdleCollection(o: IdleCollectionOptions): () => void {
  const quietShare = o.quietShare ?? 0.1;
  const growthBytes = o.growthBytes ?? 4 * 2 ** 20;
  const heapUsed = o.heapUsed ?? (() => process.memoryUsage().heapUsed);
  const busyShare = o.busyShare ?? loopBusyShare();
  let heapAfterLast = heapUsed();
  const timer = setInterval(() => {
    const before = heapUsed();
    if (!shouldCollect(busyShare(), before, heapAfterLast, { quietShare, growthBytes })) return;
    const started = performance.now();
    o.gc();
    heapAfterLast = heapUsed();
    const finish = () => {
      o.trim?.();
      o.onCollected?.(before - heapAfterLast, performance.now() - started);
    };
    if (o.alsoCollect) void o.alsoCollect().then(finish, finish);
    else finish();
  }, o.everyMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
