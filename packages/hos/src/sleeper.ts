import type { SplitRule } from './rulesets.ts';
import type { Timeline } from './timeline.ts';

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
  /**
   * Latest (start + excluded rest): the elapsed window used at t is t − windowFrom. With well-site
   * waiting time (§395.1(d)(2), Timeline.waitBefore) both are counted without it: the window used
   * at t is (t − waiting before t) − windowFrom, and the candidate start is taken less the waiting
   * before it and the excluded rest less the waiting inside it.
   */
  windowFrom: number;
}

/**
 * How many qualifying rest periods back (and forward) a pairing may reach. FMCSA's method moves the
 * calculation point to the newest pairing (P9 (5)); reaching further only matters for logs that
 * never take a full rest, where it would make the audit cubic in the log length.
 */
export const MAX_PAIR_REACH = 8;

/** Can rest block k be a member of a sleeper-berth pair? */
export function qualifies(split: SplitRule, tl: Timeline, k: number): boolean {
  return split.kind === 'property' ? tl.bLen[k]! >= split.minMs : tl.bSb[k]! >= split.minSbMs;
}

/** Do rest blocks a (earlier) and b (later) pair into the equivalent of a full rest? Order does not matter (P8). */
export function validPair(split: SplitRule, tl: Timeline, a: number, b: number): boolean {
  if (split.kind === 'property') {
    const la = tl.bLen[a]!;
    const lb = tl.bLen[b]!;
    return (
      la >= split.minMs &&
      lb >= split.minMs &&
      la + lb >= split.totalMs &&
      // O3: a long OFF block without 7 h of SB is never the sleeper member.
      (tl.bSb[a]! >= split.longSbMs || tl.bSb[b]! >= split.longSbMs)
    );
  }
  const sa = tl.bSb[a]!;
  const sb = tl.bSb[b]!;
  return sa >= split.minSbMs && sb >= split.minSbMs && sa + sb >= split.totalSbMs;
}

/**
 * Calculation periods for an instant after the rest blocks `past` (indexes of the qualifying blocks
 * since the last reset block `reset`, oldest first):
 * 1. from the end of the last reset, nothing excluded;
 * 2. backward pairs (A, B) both in `past`: from A's end, B excluded (P9 (1)-(3), (5));
 * 3. forward pairs (A in `past`, B later): from the reset or from P's end for a valid (P, A), A
 *    excluded. In hindsight B must be one of the blocks futureFrom..futureTo-1; provisionally the
 *    most recent block is assumed to be paired later.
 * The instant violates a limit only if every candidate does (the pairing with fewest violations, P10).
 * Writes the most favourable values into `out` (no allocation per run).
 */
export function candidates(
  tl: Timeline,
  split: SplitRule | null,
  reset: number,
  past: readonly number[],
  futureFrom: number,
  futureTo: number,
  provisional: boolean,
  out: Best,
): Best {
  // §395.1(d)(2): with well-site waiting time the window reads the waiting-free ends and lengths.
  const bEnd = tl.wEnd ?? tl.bEnd;
  const bLen = tl.wLen ?? tl.bLen;
  // Inlined "consider(start block, excluded)": the latest start, and the latest start + excluded rest.
  let latest = reset;
  const resetEnd = bEnd[reset]!;
  let windowFrom = resetEnd;
  if (split && past.length > 0) {
    for (let j = 0; j < past.length; j++) {
      const b = past[j]!;
      for (let i = 0; i < j; i++) {
        const a = past[i]!;
        if (!validPair(split, tl, a, b)) continue;
        if (bEnd[a]! > bEnd[latest]!) latest = a;
        if (bEnd[a]! + bLen[b]! > windowFrom) windowFrom = bEnd[a]! + bLen[b]!;
      }
    }
    for (let j = 0; j < past.length; j++) {
      const a = past[j]!;
      let paired = provisional && j === past.length - 1;
      for (let k = futureFrom; !paired && k < futureTo; k++) paired = validPair(split, tl, a, k);
      if (!paired) continue;
      if (resetEnd + bLen[a]! > windowFrom) windowFrom = resetEnd + bLen[a]!;
      for (let i = 0; i < j; i++) {
        const p = past[i]!;
        if (!validPair(split, tl, p, a)) continue;
        if (bEnd[p]! > bEnd[latest]!) latest = p;
        if (bEnd[p]! + bLen[a]! > windowFrom) windowFrom = bEnd[p]! + bLen[a]!;
      }
    }
  }
  const next = tl.bNext[latest]!;
  // `latest` compares real instants (bEnd above may be waiting-free, which keeps the order).
  out.d0 = tl.driveBefore[next]!;
  out.o0 = tl.onBefore[next]!;
  out.windowFrom = windowFrom;
  return out;
}
