// V8 collects its old generation when allocation pushes the heap past a limit that it raises with the
// live size, not when a server goes quiet. The demo fleet and the work behind ingest allocate a little
// all the time, so the idle server's heap drifts from ~70 MB live to 120-140 MB, most of it garbage that
// stays resident for hours. A full collection when the heap has grown well past what the last one left
// gives it back; it costs 40-80 ms of one core at most every 30 s, and nothing while the heap is steady.
// `npm run serve` passes --expose-gc; without it (tests, tsx) nothing is scheduled. Decision 0150.
//
// A plain full collection frees objects but leaves the old generation's pages a third empty, and the
// malloc arenas of V8's helper threads keep what they freed: so each of these collections also compacts
// (V8's flag, set for that one collection: always on, it doubles the cost of the collections V8 makes
// under ingest) and then trims malloc. 200-250 ms of one core. Decision 0151.
//
// Between those collections the helper threads keep allocating (the simulator's ingest: scavenges,
// optimising compiles), and their arenas were back to 10-15 MB resident a minute after the last trim.
// So a quiet look that does not collect still trims malloc: a few milliseconds. And a quiet server's
// heap drifts too (the demo simulator's fixes, the work behind them): 52 -> 78 MB within a minute of
// one first start, under the 24 MB rule; once quiet, 8 MB of growth was enough to collect (decision
// 0161). With the worker thread's second heap the idle server had no room for a 8 MB sawtooth: a quiet
// server now looks every 15 s and collects at 4 MB (~60 ms of one core each, 0.4 %; decision 0172).
import v8 from 'node:v8';
import { loadMallocTrim } from './malloc-trim.ts';

export interface HeapTrimPolicy {
  /** How often to look. */
  everyMs: number;
  /** Growth since the last collection that is worth one: the larger of these two. */
  minGrowthBytes: number;
  growthRatio: number;
  /** The event loop's busy share over the last look below which the process counts as quiet. */
  quietUtilization: number;
  /** Growth of the live heap since the last collection that is worth one when the process is quiet. */
  quietGrowthBytes: number;
}

export const HEAP_TRIM_POLICY: HeapTrimPolicy = {
  everyMs: 15_000,
  minGrowthBytes: 24 * 2 ** 20,
  growthRatio: 0.3,
  quietUtilization: 0.1,
  quietGrowthBytes: 4 * 2 ** 20,
};

/** True when the heap has grown enough since `usedAfterLast` (what the last collection left) to collect. */
export function shouldCollect(usedNow: number, usedAfterLast: number, policy: HeapTrimPolicy = HEAP_TRIM_POLICY): boolean {
  return usedNow - usedAfterLast > Math.max(policy.minGrowthBytes, policy.growthRatio * usedAfterLast);
}

export interface HeapTrimHooks {
  gc: () => void;
  heapUsed: () => number;
  /** The heap's committed size (heapTotal): the young generation's pages are in it, not in heapUsed. */
  heapTotal: () => number;
  /** The event loop's busy share since the last call (0-1). */
  utilization: () => number;
  /** Gives malloc's free pages back to the system (glibc's malloc_trim), where it can. */
  trimMalloc?: () => void;
}

/**
 * The hooks of this thread's heap, or null when the process was started without --expose-gc.
 * `mallocTrim: false` on a thread that leaves malloc to the API thread (the database's worker).
 */
export function processHeapHooks({ mallocTrim = true }: { mallocTrim?: boolean } = {}): HeapTrimHooks | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  const trimMalloc = mallocTrim ? loadMallocTrim() : null;
  return {
    gc: () => {
      compacting(gc);
      trimMalloc?.();
    },
    // This isolate's heap (a worker thread has its own; process.memoryUsage() is the process's RSS).
    heapUsed: () => v8.getHeapStatistics().used_heap_size,
    heapTotal: () => v8.getHeapStatistics().total_heap_size,
    utilization: loopUtilization(),
    ...(trimMalloc ? { trimMalloc } : {}),
  };
}

/**
 * One full collection that also moves live objects together, so that the emptied pages go back. Plain
 * gc(): with an options object V8 scans the stack conservatively and frees much less. Run on a quiet
 * process, it also shrinks the young generation, which grows to 2 × 16 MB under ingest (decision 0157).
 */
function compacting(gc: () => void): void {
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** The event loop's busy share between calls. */
function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

/**
 * Looks every `policy.everyMs` and collects when `shouldCollect` says so of the live heap, or, once
 * the process has gone quiet, of the committed heap: the young generation grows to 2 × 16 MB under
 * ingest and stays that size until a collection shrinks it, which V8 does not run on a quiet server.
 * Quiet, a smaller growth of the live heap is enough (`quietGrowthBytes`), and a look that does not
 * collect trims malloc alone. Returns the function that stops it.
 */
export function scheduleHeapTrim(
  hooks: HeapTrimHooks | null,
  policy: HeapTrimPolicy = HEAP_TRIM_POLICY,
  log: (message: string) => void = () => undefined,
): () => void {
  if (!hooks) return () => undefined;
  let usedAfterLast = hooks.heapUsed();
  let totalAfterLast = hooks.heapTotal();
  const timer = setInterval(() => {
    const used = hooks.heapUsed();
    const total = hooks.heapTotal();
    const quiet = hooks.utilization() < policy.quietUtilization;
    // V8 collected on its own since: start from what it left.
    if (used < usedAfterLast) usedAfterLast = used;
    if (total < totalAfterLast) totalAfterLast = total;
    const quietGrowth = quiet && (used - usedAfterLast > policy.quietGrowthBytes || shouldCollect(total, totalAfterLast, policy));
    if (!shouldCollect(used, usedAfterLast, policy) && !quietGrowth) {
      if (quiet) hooks.trimMalloc?.();
      return;
    }
    const t0 = performance.now();
    hooks.gc();
    usedAfterLast = hooks.heapUsed();
    totalAfterLast = hooks.heapTotal();
    const mb = (n: number) => Math.round(n / 2 ** 20);
    log(`heap trimmed in ${Math.round(performance.now() - t0)} ms: live ${mb(used)} -> ${mb(usedAfterLast)} MB, committed ${mb(total)} -> ${mb(totalAfterLast)} MB`);
  }, policy.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
