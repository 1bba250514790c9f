import type { LoadStatus, StopEventSource } from '@fleet/api-contract';

// A load's status from its stops (decision 0166), pure. Assignment makes PLANNED ↔ ASSIGNED; from
// then on the stops decide: the newest event at a stop is an arrival → AT_STOP, a departure →
// EN_ROUTE, and the departure from the last delivery → DELIVERED (delivered_at is that departure).
// CANCELLED and a DELIVERED marked by hand are kept whatever the stops say.

export interface StopState {
  id: string;
  seq: number;
  arrivedAt: Date | null;
  departedAt: Date | null;
  arrivalSource: StopEventSource | null;
  departureSource: StopEventSource | null;
}

export interface DerivedStatus {
  status: LoadStatus;
  deliveredAt: Date | null;
  /** When the stops say it began (the arrival or departure that set it); null: not from a stop. */
  since: Date | null;
}

/** What the stops say the status of a load is (stops in driving order). */
export function statusFromStops(current: LoadStatus, hasDrivers: boolean, stops: readonly StopState[], deliveredAt: Date | null): DerivedStatus {
  if (current === 'CANCELLED') return { status: current, deliveredAt, since: null };
  const last = stops[stops.length - 1];
  if (last?.departedAt) return { status: 'DELIVERED', deliveredAt: last.departedAt, since: last.departedAt };
  // Marked delivered by hand before the last departure was known.
  if (current === 'DELIVERED') return { status: current, deliveredAt, since: null };
  const reached = [...stops].reverse().find((s) => s.arrivedAt || s.departedAt);
  if (reached)
    return reached.departedAt
      ? { status: 'EN_ROUTE', deliveredAt: null, since: reached.departedAt }
      : { status: 'AT_STOP', deliveredAt: null, since: reached.arrivedAt };
  return { status: hasDrivers ? 'ASSIGNED' : 'PLANNED', deliveredAt: null, since: null };
}

/** Why a stop event by a person is refused (null: it fits the stops' order and times). */
export function stopEventProblem(
  stops: readonly StopState[],
  stopId: string,
  event: 'ARRIVE' | 'DEPART',
  at: Date,
  now: Date,
): { field: 'at' | 'event'; message: string } | null {
  const order = (message: string) => ({ field: 'event' as const, message });
  const time = (message: string) => ({ field: 'at' as const, message });
  const i = stops.findIndex((s) => s.id === stopId);
  const stop = stops[i]!;
  const n = i + 1;
  if (at.getTime() > now.getTime() + 5 * 60_000) return time('The time must not be in the future');
  if (event === 'ARRIVE') {
    const open = stops.slice(0, i).findIndex((s) => !s.departedAt);
    if (open >= 0) return order(`Stop ${open + 1} must be departed before arriving at stop ${n}`);
    const prev = stops[i - 1];
    if (prev?.departedAt && at < prev.departedAt) return time(`The arrival at stop ${n} must be after the departure from stop ${i}`);
    if (stop.departedAt && at > stop.departedAt) return time(`The arrival at stop ${n} must be before its departure`);
    return null;
  }
  if (!stop.arrivedAt) return order(`Stop ${n} must be arrived at before it is departed`);
  if (at < stop.arrivedAt) return time(`The departure from stop ${n} must be after its arrival`);
  const next = stops[i + 1];
  if (next?.arrivedAt && at > next.arrivedAt) return time(`The departure from stop ${n} must be before the arrival at stop ${n + 1}`);
  return null;
}
