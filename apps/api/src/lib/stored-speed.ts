// A position's speed is stored as a real (float4), and the followers derive trips, stops, safety
// events and duty status from it twice: live, from the row the ingest hands them, and after a
// restart, from the stored row. The two must be the same number, or a restart rewrites what was
// derived (a harsh braking's strength, a band's seconds: decision 0306). A double such as 112.596044
// (knots times 1.852) reads back from a real as 112.59604; kept to 0.01 km/h, far below what a GPS
// measures, a speed under 100,000 km/h reads back from its real as exactly the number written.

/** A speed (km/h) as a position keeps it: to 0.01 km/h. */
export const storedSpeed = (kmh: number | null): number | null => (kmh === null ? null : Math.round(kmh * 100) / 100);
