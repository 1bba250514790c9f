// Lengths on the WGS84 ellipsoid for IFTA miles. distanceM() (a sphere) is 0.1-0.5 % off across the US,
// which over a quarter is tens of miles against the odometer an auditor reads; this is exact to about
// 1e-5 of the length and costs one sine more.

const RAD = Math.PI / 180;
/** WGS84 semi-major axis (m) and first eccentricity squared. */
const A = 6_378_137;
const E2 = 0.006_694_379_990_14;
/** Longer pieces are measured in parts of at most this, so the flat approximation stays within 1e-5. */
const MAX_PIECE_M = 20_000;

/**
 * Length in metres of the short line from (lat1, lon1) to (lat2, lon2), straight in longitude and
 * latitude, on the WGS84 ellipsoid: the meridional and prime-vertical radii at the mean latitude turn
 * the degree differences into metres. Relative error grows with (length / earth radius)², about 1e-5
 * at 20 km; use {@link lineLengthM} for longer lines.
 */
export function shortLengthM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const phi = ((lat1 + lat2) / 2) * RAD;
  const s = Math.sin(phi);
  const w2 = 1 - E2 * s * s;
  const w = Math.sqrt(w2);
  const n = A / w; // prime vertical radius
  const m = (A * (1 - E2)) / (w2 * w); // meridional radius
  let dLon = lon2 - lon1;
  if (dLon > 180) dLon -= 360;
  else if (dLon < -180) dLon += 360;
  const dx = n * Math.cos(phi) * dLon * RAD;
  const dy = m * (lat2 - lat1) * RAD;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Length in metres of the line straight in longitude and latitude between two points, any length. */
export function lineLengthM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rough = shortLengthM(lat1, lon1, lat2, lon2);
  if (rough <= MAX_PIECE_M) return rough;
  const parts = Math.ceil(rough / MAX_PIECE_M);
  let dLon = lon2 - lon1;
  if (dLon > 180) dLon -= 360;
  else if (dLon < -180) dLon += 360;
  let total = 0;
  let pLat = lat1;
  let pLon = lon1;
  for (let i = 1; i <= parts; i++) {
    const f = i / parts;
    const qLat = lat1 + (lat2 - lat1) * f;
    const qLon = lon1 + dLon * f;
    total += shortLengthM(pLat, pLon, qLat, qLon);
    pLat = qLat;
    pLon = qLon;
  }
  return total;
}
