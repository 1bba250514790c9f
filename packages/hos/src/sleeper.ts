import type { SplitRule } from './rulesets.ts';
import type { RestBlock, Timeline } from './timeline.ts';

/**
 * The calculation periods that matter (rules document 1.2.1). Each candidate counts limits from a
 * start instant and excludes some paired rest from the elapsed window; an instant violates a limit
 * only if every candidate does, so per limit only the most favourable candidate matters: for
 * driving and on-duty time the latest start, for the elapsed window the latest start + excluded rest.
 */
export interface Best {
  /** Driving / on-duty time before the latest candidate start (prefix sums). */
  d0: number;
  o0: number;
  /** Latest (start + excluded rest): the elapsed window used at t is t − windowFrom. */
  windowFrom: number;
}

/**
 * How many qualifying rest periods back (and forward) a pairing may reach. FMCSA's method moves the
 * calculation point to the newest pairing (P9 (5)); reaching further only matters for logs that
 * never take a full rest, where it would make the audit cubic in the log length.
 */
export const MAX_PAIR_REACH = 8;

/** Can this rest block be a member of a sleeper-berth pair? */
export function qualifies(split: SplitRule, b: RestBlock): boolean {
  return split.kind === 'property' ? b.len >= split.minMs : b.sbRun >= split.minSbMs;
}

/** Do A (earlier) and B (later) pair into the equivalent of a full rest? Order does not matter (P8). */
export function validPair(split: SplitRule, a: RestBlock, b: RestBlock): boolean {
  if (split.kind === 'property') {
    return (
      a.len >= split.minMs &&
      b.len >= split.minMs &&
      a.len + b.len >= split.totalMs &&
      // O3: a long OFF block without 7 h of SB is never the sleeper member.
      (a.sbRun >= split.longSbMs || b.sbRun >= split.longSbMs)
    );
  }
  return a.sbRun >= split.minSbMs && b.sbRun >= split.minSbMs && a.sbRun + b.sbRun >= split.totalSbMs;
}

/**
 * Calculation periods for an instant after the rest blocks `past` (qualifying blocks since the last
 * reset `reset`, oldest first):
 * 1. from the end of the last reset, nothing excluded;
 * 2. backward pairs (A, B) both in `past`: from A's end, B excluded (P9 (1)-(3), (5));
 * 3. forward pairs (A in `past`, B later): from the reset or from P's end for a valid (P, A), A
 *    excluded. In hindsight B must exist in `future`; provisionally the most recent block is assumed
 *    to be paired later.
 * The instant violates a limit only if every candidate does (the pairing with fewest violations, P10).
 */
export function candidates(
  tl: Timeline,
  split: SplitRule | null,
  reset: RestBlock,
  past: readonly RestBlock[],
  future: readonly RestBlock[] | null,
  provisional: boolean,
): Best {
  // Inlined "consider(start block, excluded)": the latest start, and the latest start + excluded rest.
  let latest = reset;
  let windowFrom = reset.end;
  if (split && past.length > 0) {
    for (let j = 0; j < past.length; j++) {
      const b = past[j]!;
      for (let i = 0; i < j; i++) {
        const a = past[i]!;
        if (!validPair(split, a, b)) continue;
        if (a.end > latest.end) latest = a;
        if (a.end + b.len > windowFrom) windowFrom = a.end + b.len;
      }
    }
    for (let j = 0; j < past.length; j++) {
      const a = past[j]!;
      let paired = provisional && j === past.length - 1;
      if (!paired && future) {
        for (const b of future) {
          if (validPair(split, a, b)) {
            paired = true;
            break;
          }
        }
      }
      if (!paired) continue;
      if (reset.end + a.len > windowFrom) windowFrom = reset.end + a.len;
      for (let i = 0; i < j; i++) {
        const p = past[i]!;
        if (!validPair(split, p, a)) continue;
        if (p.end > latest.end) latest = p;
        if (p.end + a.len > windowFrom) windowFrom = p.end + a.len;
      }
    }
  }
  return { d0: tl.driveBefore[latest.endSeg]!, o0: tl.onBefore[latest.endSeg]!, windowFrom };
}
