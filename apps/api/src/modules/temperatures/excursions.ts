// The excursion rule (issue 73, decision 0321) as a pure function of a sensor's readings: a run of
// readings outside set point ± tolerance that lasts the delay opens an excursion (started at its
// first reading out); a run back in the band that lasts the delay closes it (ended at its first
// reading back). A reading taken during a defrost cycle counts neither way: it ends a run out that
// has not yet lasted the delay, and an open excursion waits through it. The same readings always
// give the same excursions, so a recompute after a restart or a resend finds the rows it wrote.

/**
 * Whether a sensor's readings open excursions (decision 0324): where the trailer has sensor roles
 * set, only return air and the zones judge the load (supply air is the unit's output, an unnamed
 * probe may be ambient or a spare); a trailer with no role set at all has every sensor judged, so
 * an unconfigured reefer is never silently unwatched.
 */
export function sensorCounts(role: string | null, trailerHasRoles: boolean): boolean {
  if (!trailerHasRoles) return true;
  return role === 'RETURN_AIR' || role === 'ZONE_1' || role === 'ZONE_2' || role === 'ZONE_3';
}

export interface Reading {
  /** Epoch milliseconds. */
  at: number;
  celsius: number;
  defrost: boolean;
}

export interface Band {
  setPointC: number;
  toleranceC: number;
  delayMs: number;
}

export interface FoundExcursion {
  startedAt: number;
  /** The first reading back in the band; null while the excursion lasts. */
  endedAt: number | null;
  direction: 'HIGH' | 'LOW';
  /** The reading farthest from the set point. */
  peakC: number;
  /** When it had lasted the delay: the moment it is reported. */
  confirmedAt: number;
}

/** Which side of the band a reading is on (null: inside, the edges included). */
export function sideOf(celsius: number, band: Pick<Band, 'setPointC' | 'toleranceC'>): 'HIGH' | 'LOW' | null {
  // Rounded to a thousandth of a degree, so 2 + 2 and 4.000000001 from a conversion compare as equal.
  const off = Math.round((celsius - band.setPointC) * 1000) / 1000;
  if (off > band.toleranceC) return 'HIGH';
  if (off < -band.toleranceC) return 'LOW';
  return null;
}

const farther = (a: number, b: number, setPoint: number) => (Math.abs(b - setPoint) > Math.abs(a - setPoint) ? b : a);

/** The excursions in `readings` (sorted by time, one sensor). */
export function findExcursions(readings: readonly Reading[], band: Band): FoundExcursion[] {
  const out: FoundExcursion[] = [];
  let run: { startedAt: number; direction: 'HIGH' | 'LOW'; peakC: number } | null = null;
  let open: FoundExcursion | null = null;
  let backSince: number | null = null;
  for (const r of readings) {
    const side = r.defrost ? 'DEFROST' : sideOf(r.celsius, band);
    if (open) {
      if (side === 'DEFROST') continue;
      if (side === null) {
        backSince ??= r.at;
        if (r.at - backSince >= band.delayMs) {
          open.endedAt = backSince;
          open = null;
          backSince = null;
        }
      } else {
        backSince = null;
        open.peakC = farther(open.peakC, r.celsius, band.setPointC);
      }
      continue;
    }
    if (side === 'DEFROST' || side === null) {
      run = null;
      continue;
    }
    if (!run) run = { startedAt: r.at, direction: side, peakC: r.celsius };
    else run.peakC = farther(run.peakC, r.celsius, band.setPointC);
    if (r.at - run.startedAt >= band.delayMs) {
      open = { startedAt: run.startedAt, endedAt: null, direction: run.direction, peakC: run.peakC, confirmedAt: r.at };
      out.push(open);
      run = null;
      backSince = null;
    }
  }
  return out;
}
