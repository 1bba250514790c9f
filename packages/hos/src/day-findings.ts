import type { Settings } from './context.ts';
import { dayIndex, formatDay, type DayGrid } from './days.ts';
import { dayOff, type DayOff } from './deferral.ts';
import { driveAt, type Timeline } from './timeline.ts';
import type { DayFinding } from './types.ts';

const MIN = 60_000;
/**
 * SOR/2005-313 s. 14(2): off-duty time other than the mandatory 8 consecutive hours "may be
 * distributed throughout the day in blocks of no less than 30 minutes" (decision 0308).
 */
export const OFF_BLOCK_MIN_MS = 30 * MIN;
/** SOR/2005-313 s. 76(2)(a): adverse driving conditions extend driving, on-duty and elapsed time by at most 2 h. */
const ADVERSE_OFF_CUT_MS = 120 * MIN;
const ADVERSE_SHIFT_MS = 18 * 60 * MIN;

/**
 * Canada's day-level findings (s. 14, C1): a log day that holds less than its off-duty time (10 h,
 * or what a C6 deferral makes of it) is a finding of that day, whatever the work that took the
 * time was: driving or on-duty work after the last driving alike. Off-duty time is the day's part
 * of each rest block (OFF/SB, PC and passenger time as the timeline reads them) of ≥ 30 minutes:
 * the 8 consecutive hours are such a block, and the 2 hours beyond them count only in such blocks;
 * a 10-h block holds both.
 *
 * Days from the first period's day to the last period's day are judged. A day the log does not
 * cover to its end is judged on what is certain: the time after the log's end counts as off duty
 * and the rest block the log ends with as one that may still grow to 30 minutes. Time before the
 * log is rest (the engine's virtual block). One pass over the days and rest blocks.
 */
export function dayFindings(set: Settings, tl: Timeline, grid: DayGrid, out: DayFinding[]): void {
  const canada = set.cfg.canada;
  if (!canada || tl.n === 0) return;
  const starts = grid.starts;
  const logStart = tl.start[0]!;
  const logEnd = tl.end[tl.n - 1]!;
  const first = dayIndex(grid, logStart);
  const last = dayIndex(grid, logEnd - 1);
  const scratch: DayOff = { offMs: 0, consecutiveMs: 0, pairFrom: NaN };
  const { nb, bStart, bEnd, bLen } = tl;
  // The last rest block, when the log ends with rest: it may go on past the log's end.
  const openBlock = nb > 0 && bEnd[nb - 1] === logEnd ? nb - 1 : -1;
  let b = 0;
  for (let d = first < 0 ? 0 : first; d <= last && d + 1 < starts.length; d++) {
    const ds = starts[d]!;
    const de = starts[d + 1]!;
    while (b < nb && bEnd[b]! <= ds) b++;
    let off = de > logEnd ? de - (logEnd > ds ? logEnd : ds) : 0;
    for (let k = b; k < nb && bStart[k]! < de; k++) {
      if (bLen[k]! < OFF_BLOCK_MIN_MS && !(k === openBlock && de > logEnd)) continue;
      const s = bStart[k]! > ds ? bStart[k]! : ds;
      const e = bEnd[k]! < de ? bEnd[k]! : de;
      if (e > s) off += e - s;
    }
    let required = dayOff(set, tl, grid, d, scratch).offMs;
    // s. 76(2): with adverse driving conditions claimed, the day's 2 h of off-duty time beyond the 8
    // consecutive hours shrink by the driving that went past the day's 13 h (at most 2 h). A claim
    // holds for the rest of its shift, which lasts at most 18 h (16 h elapsed and the 2 h of the claim):
    // a claim made that long before the day's end may cover its driving. Driving past 13 h that no
    // claim covers is a DAILY_DRIVING_LIMIT violation of its own.
    if (set.adverse.some((a) => a.start < de && a.start >= ds - ADVERSE_SHIFT_MS)) {
      const over = driveAt(tl, de) - driveAt(tl, ds) - canada.dailyDriveMs;
      if (over > 0) required -= Math.min(over, ADVERSE_OFF_CUT_MS);
    }
    if (off < required) out.push({ rule: 'DAILY_OFF_DUTY', day: formatDay(grid.firstDay + d), shortMs: required - off });
  }
}
