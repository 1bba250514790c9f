import type { HistoryRoute } from '@fleet/api-contract';

/**
 * Advances a fractional index along the track by `trackSeconds` of track time: the marker moves
 * at the vehicle's real pace (scaled), crossing a long stop quickly only if it has few points.
 * Returns at most the last index.
 */
export function playbackPosition(track: HistoryRoute['track'], pos: number, trackSeconds: number): number {
  const last = track.length - 1;
  if (last <= 0) return 0;
  let p = Math.max(0, Math.min(pos, last));
  let left = trackSeconds;
  while (left > 0 && p < last) {
    const i = Math.floor(p);
    const a = Date.parse(track[i]!.time);
    const b = Date.parse(track[i + 1]!.time);
    // Gaps longer than a minute (parked, thinned) play as one minute, so playback never stalls.
    const span = Math.min(Math.max((b - a) / 1000, 1), 60);
    const remaining = (i + 1 - p) * span;
    if (left >= remaining) {
      left -= remaining;
      p = i + 1;
    } else {
      p += left / span;
      left = 0;
    }
  }
  return Math.min(p, last);
}

/**
 * The part of the track a trip covers: the first and last indexes whose fix times lie within
 * [startedAt, endedAt]; null when no fix does (a thinned track, or a trip outside the range).
 */
export function tripSpan(track: HistoryRoute['track'], startedAt: string, endedAt: string): { from: number; to: number } | null {
  const a = Date.parse(startedAt);
  const b = Date.parse(endedAt);
  let from = -1;
  let to = -1;
  for (let i = 0; i < track.length; i++) {
    const t = Date.parse(track[i]!.time);
    if (t < a || t > b) continue;
    if (from < 0) from = i;
    to = i;
  }
  return from < 0 ? null : { from, to };
}

/** Fixes further apart than this are a gap in the speed chart: the line breaks there (the device was off or out of coverage). */
export const CHART_GAP_MS = 10 * 60_000;

/** One point of the speed chart: `t` epoch ms (the x axis is linear in time); speed null where the line breaks. */
export interface SpeedPoint {
  t: number;
  speed: number | null;
  /** Index of the fix in the track; -1 for a break. */
  i: number;
}

/**
 * The speed chart's points on a linear time axis (issue 46): x is the fix time, so a point's place
 * is proportional to its time and a two-hour silence takes two hours of width; a break (speed null,
 * midway) between fixes more than CHART_GAP_MS apart keeps the line from bridging the gap.
 */
export function speedSeries(track: HistoryRoute['track'], speedOf: (kmh: number) => number): SpeedPoint[] {
  const out: SpeedPoint[] = [];
  let prev = NaN;
  track.forEach((p, i) => {
    const t = Date.parse(p.time);
    if (t - prev > CHART_GAP_MS) out.push({ t: (t + prev) / 2, speed: null, i: -1 });
    out.push({ t, speed: p.speed === null ? null : Math.round(speedOf(p.speed)), i });
    prev = t;
  });
  return out;
}

const TICK_STEPS_MIN = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

/** Round times for the speed chart's axis: every 1, 2, 5, 10, 15, 30 minutes, 1, 2, 3, 6, 12 or 24 hours, at most `most` of them. */
export function timeTicks(fromMs: number, toMs: number, most = 8): number[] {
  if (!(toMs > fromMs)) return [];
  const span = toMs - fromMs;
  const step = (TICK_STEPS_MIN.find((m) => span / (m * 60_000) <= most) ?? 1440) * 60_000;
  const out: number[] = [];
  for (let t = Math.ceil(fromMs / step) * step; t <= toMs; t += step) out.push(t);
  return out;
}
