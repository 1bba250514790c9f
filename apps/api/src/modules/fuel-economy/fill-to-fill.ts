// Fuel used from purchases (issue 68, decision 0280), pure: the fill-to-fill method of a fuel log.
// Each fill fills the tank, so the fuel bought at a fill is what was burnt since the fill before:
// the fuel used between the first and the last fill of a span is what was bought after the first up
// to and including the last, and it is divided by the distance of the trips that started between
// those two fills. The first fill's own fuel was burnt before the span (its miles are not in it).

/**
 * A receipt's time is the station's clock, often to the minute, and not the tracker's: a trip that
 * started less than this before a purchase started after it (a truck does not fill while driving).
 */
export const RECEIPT_CLOCK_SLACK_MS = 2 * 60_000;

export interface Purchase {
  /** Epoch ms. */
  t: number;
  litres: number;
}

export interface TripStart {
  /** When the trip started (epoch ms). */
  t: number;
  driverId: string | null;
  distanceM: number;
}

export interface Fill {
  /** The fill's first purchase (epoch ms). */
  t: number;
  litres: number;
}

/**
 * Purchases as fills: purchases with no trip started between them are one fill (both saddle tanks,
 * a second receipt at the pump, a top-up before leaving): the truck did not drive in between.
 * `trips` in any order.
 */
export function fillsOf(purchases: readonly Purchase[], trips: readonly TripStart[]): Fill[] {
  const starts = trips.map((x) => x.t).sort((a, b) => a - b);
  const fills: Fill[] = [];
  let next = 0;
  for (const p of [...purchases].sort((a, b) => a.t - b.t)) {
    // Trips started since the purchase before (at or after it, before this one): the truck drove in
    // between. A trip starting at a fill's instant is after the fill, as fillSpan counts its distance.
    let drove = false;
    while (next < starts.length && starts[next]! < p.t - RECEIPT_CLOCK_SLACK_MS) {
      drove = true;
      next++;
    }
    const open = fills[fills.length - 1];
    if (open && !drove) open.litres += p.litres;
    else fills.push({ t: p.t, litres: p.litres });
  }
  return fills;
}

/** The fuel used between the first and the last fill, over the trips between them, and each driver's distance of those trips. */
export interface FillSpan {
  from: number;
  to: number;
  litres: number;
  fills: number;
  distanceM: number;
  /** Distance per driver (null: none attributed), adding up to `distanceM`. */
  byDriver: Map<string | null, number>;
}

/** Null with fewer than two fills, no fuel or no distance between them. */
export function fillSpan(purchases: readonly Purchase[], trips: readonly TripStart[]): FillSpan | null {
  const fills = fillsOf(purchases, trips);
  if (fills.length < 2) return null;
  const from = fills[0]!.t;
  const to = fills[fills.length - 1]!.t;
  const litres = fills.slice(1).reduce((a, f) => a + f.litres, 0);
  const byDriver = new Map<string | null, number>();
  let distanceM = 0;
  for (const x of trips) {
    if (x.t < from - RECEIPT_CLOCK_SLACK_MS || x.t >= to - RECEIPT_CLOCK_SLACK_MS || !(x.distanceM > 0)) continue;
    distanceM += x.distanceM;
    byDriver.set(x.driverId, (byDriver.get(x.driverId) ?? 0) + x.distanceM);
  }
  if (!(litres > 0) || !(distanceM > 0)) return null;
  return { from, to, litres, fills: fills.length, distanceM, byDriver };
}
