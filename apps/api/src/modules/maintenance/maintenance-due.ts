// When a vehicle's preventive maintenance comes due under one schedule (issue 31, decision 0158):
// pure, so the due list, the dashboard counter and notifications can share it and tests pin it.

const DAY_MS = 86_400_000;

/**
 * A service is "coming due" in the last tenth of any interval: 9 days of 90, 2,500 mi of 25,000,
 * 50 h of 500. A fixed window (7 days, 500 mi) would list a weekly schedule all the time and warn
 * about a 50,000-mile one too late to book the shop.
 */
export const COMING_DUE_FRACTION = 0.1;

export interface DueIntervals {
  everyM: number | null;
  everyEngineHours: number | null;
  everyDays: number | null;
}

/** The last service (or when the vehicle entered the schedule), and what its meters read then. */
export interface LastService {
  doneAt: number;
  odometerM: number | null;
  engineHours: number | null;
}

export interface Readings {
  odometerM: number | null;
  engineHours: number | null;
}

export interface DueState {
  /** Null: not due yet (or no interval can be measured). */
  status: 'DUE' | 'OVERDUE' | null;
  dueAt: number | null;
  dueOdometerM: number | null;
  dueEngineHours: number | null;
  /**
   * The least share of an interval left (negative when past): the due list sorts by it, so the
   * most overdue come first and then the soonest, whatever unit each schedule counts in.
   */
  remaining: number;
}

/** One interval's share left; null when the interval is not set or a meter was never read. */
function share(every: number | null, last: number | null, current: number | null): { due: number | null; left: number | null } {
  if (every === null || every <= 0 || last === null) return { due: null, left: null };
  const due = last + every;
  return { due, left: current === null ? null : (due - current) / every };
}

/**
 * Due state of one vehicle under one schedule at `now`: OVERDUE when any interval is past (strictly:
 * on the day, at the odometer reading itself, it is due), DUE when any is within its last tenth.
 * A distance or hours interval whose baseline or current reading is unknown says nothing.
 */
export function maintenanceDue(schedule: DueIntervals, last: LastService, current: Readings, now: number): DueState {
  const days = share(schedule.everyDays === null ? null : schedule.everyDays * DAY_MS, last.doneAt, now);
  const distance = share(schedule.everyM, last.odometerM, current.odometerM);
  const hours = share(schedule.everyEngineHours, last.engineHours, current.engineHours);
  const lefts = [days.left, distance.left, hours.left].filter((x): x is number => x !== null);
  const remaining = lefts.length ? Math.min(...lefts) : Number.POSITIVE_INFINITY;
  const status = remaining < 0 ? 'OVERDUE' : remaining <= COMING_DUE_FRACTION ? 'DUE' : null;
  return { status, dueAt: days.due, dueOdometerM: distance.due, dueEngineHours: hours.due, remaining };
}

/** Due list order: overdue first, then by how soon (the least share left), then by unit number. */
export function compareDue(
  a: { status: 'DUE' | 'OVERDUE'; remaining: number; unitNumber: string },
  b: { status: 'DUE' | 'OVERDUE'; remaining: number; unitNumber: string },
): number {
  if (a.status !== b.status) return a.status === 'OVERDUE' ? -1 : 1;
  return a.remaining - b.remaining || a.unitNumber.localeCompare(b.unitNumber, 'en', { numeric: true });
}

/** The vehicle detail's "next service" (decision 0159): a schedule not yet due reads OK. */
export const nextStatus = (state: Pick<DueState, 'status'>): 'OK' | 'DUE' | 'OVERDUE' => state.status ?? 'OK';
