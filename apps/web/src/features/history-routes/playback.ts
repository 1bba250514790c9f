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
