import { lineLengthM } from './geodesic.ts';
import type { JurisdictionDistance, TrackFix } from './ifta-split.ts';
import { UNKNOWN } from './ifta-split.ts';
import { locateJurisdiction, SNAP_M } from './jurisdictions.ts';

/**
 * Plain reference for {@link splitByJurisdiction}, for tests: every pair's line is cut into pieces of
 * at most `stepM` metres and each piece, by its length, goes to the jurisdiction at its middle (snapped
 * within 2 km).
 * Slow (a lookup every `stepM`) and off by up to `stepM` / 2 at each border, but obviously right.
 * Distance per pair as the fast split decides it: the odometer difference when both fixes carry a
 * plausible one (not backwards, at most `maxSpeedKmh`), else the line's length.
 */
export function splitByDenseSampling(track: readonly TrackFix[], stepM = 10, maxSpeedKmh = 144.84): Record<string, JurisdictionDistance> {
  const totals: Record<string, JurisdictionDistance> = {};
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1]!;
    const b = track[i]!;
    const bLon = b.lon - a.lon > 180 ? b.lon - 360 : a.lon - b.lon > 180 ? b.lon + 360 : b.lon;
    const lineM = lineLengthM(a.lat, a.lon, b.lat, bLon);
    const dt = b.time - a.time;
    const odo = a.odometerM != null && b.odometerM != null ? b.odometerM - a.odometerM : null;
    const metres = odo !== null && odo >= 0 && dt > 0 && (odo / dt) * 3600 <= maxSpeedKmh ? odo : lineM;
    if (metres === 0) continue;
    const n = Math.max(1, Math.ceil(lineM / stepM));
    const at = (t: number): [number, number] => [a.lat + (b.lat - a.lat) * t, a.lon + (bLon - a.lon) * t];
    for (let k = 0; k < n; k++) {
      const [lat0, lon0] = at(k / n);
      const [lat1, lon1] = at((k + 1) / n);
      const [lat, lonMid] = at((k + 0.5) / n);
      const lon = lonMid > 180 ? lonMid - 360 : lonMid < -180 ? lonMid + 360 : lonMid;
      const code = locateJurisdiction(lat, lon, SNAP_M)?.jurisdiction.code ?? UNKNOWN;
      const row = (totals[code] ??= { metres: 0, interpolatedMetres: 0 });
      row.metres += lineM > 0 ? (metres * lineLengthM(lat0, lon0, lat1, lon1)) / lineM : metres / n;
    }
  }
  return totals;
}
