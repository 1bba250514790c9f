import type { SplitRule } from './rulesets.ts';
import type { RestBlock, Timeline } from './timeline.ts';

/**
 * One way of counting the current shift (rules document 1.2.1): limits are counted from `start`,
 * and `excl` ms of paired rest inside it do not count toward the elapsed window.
 */
export interface Candidate {
  start: number;
  /** Driving / on-duty time before `start` (prefix sums). */
  d0: number;
  o0: number;
  excl: number;
}

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

function from(tl: Timeline, b: RestBlock, excl: number): Candidate {
  return { start: b.end, d0: tl.driveBefore[b.endSeg]!, o0: tl.onBefore[b.endSeg]!, excl };
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
): Candidate[] {
  const out: Candidate[] = [from(tl, reset, 0)];
  if (!split || past.length === 0) return out;
  for (let j = 0; j < past.length; j++) {
    const b = past[j]!;
    for (let i = 0; i < j; i++) {
      if (validPair(split, past[i]!, b)) out.push(from(tl, past[i]!, b.len));
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
    out.push({ start: reset.end, d0: tl.driveBefore[reset.endSeg]!, o0: tl.onBefore[reset.endSeg]!, excl: a.len });
    for (let i = 0; i < j; i++) {
      if (validPair(split, past[i]!, a)) out.push(from(tl, past[i]!, a.len));
    }
  }
  return out;
}
