// The dwell state machine of a vehicle's visits (decision 0162), pure: fixes in fix-time order in,
// arrivals and departures out. A vehicle arrives at a place once it has stayed inside for the
// place's arrival dwell (the visit begins at the first fix inside), and departs once it has stayed
// outside for the departure dwell (the visit ends at the first fix outside), so a track that
// wanders across a fence line, or passes through for less than the dwell, gives no event.

/** A fix as the machine takes it (ms, degrees). */
export interface VisitFix {
  t: number;
  lat: number;
  lon: number;
  driverId: string | null;
}

/** The dwell times of a place the vehicle is inside, or was. */
export interface DwellPlace {
  id: string;
  arrivalDwellS: number;
  departureDwellS: number;
}

/** Where a vehicle stands with one place. */
export interface PlaceTrack {
  /** The open visit's first fix inside (null: not arrived, an arrival may be pending). */
  arrivedAt: number | null;
  /** The visit's row id once written (the follower sets it). */
  visitId: string | null;
  /** The driver at the visit's first fix (or at the pending arrival's). */
  driverId: string | null;
  /** Pending: the first fix of the run that may become an arrival (not arrived) or a departure (arrived). */
  since: number | null;
  sinceDriverId: string | null;
}

/** A vehicle's state: its last fix worked, and every place it is inside or pending at. */
export interface VehicleTrack {
  t: number;
  places: Map<string, PlaceTrack>;
}

export type VisitEvent =
  | { kind: 'ARRIVAL'; placeId: string; arrivedAt: number; driverId: string | null; confirmedAt: number; track: PlaceTrack }
  | { kind: 'DEPARTURE'; placeId: string; arrivedAt: number; departedAt: number; confirmedAt: number; visitId: string | null; driverId: string | null };

export const blankTrack = (): VehicleTrack => ({ t: -Infinity, places: new Map() });

/** True when nothing is open or pending: the state after this fix is the same whatever came before. */
export const isBlank = (v: VehicleTrack): boolean => v.places.size === 0;

/**
 * Works one fix: `inside` are the places whose shape holds it, `dwellOf` the dwell times of any
 * place the vehicle has a track at (undefined: the place is gone, its track is dropped silently).
 */
export function stepVisits(v: VehicleTrack, fix: VisitFix, inside: readonly DwellPlace[], dwellOf: (placeId: string) => DwellPlace | undefined): VisitEvent[] {
  const events: VisitEvent[] = [];
  const seen = new Set<string>();
  for (const p of inside) {
    seen.add(p.id);
    let tr = v.places.get(p.id);
    if (!tr) v.places.set(p.id, (tr = { arrivedAt: null, visitId: null, driverId: null, since: fix.t, sinceDriverId: fix.driverId }));
    if (tr.arrivedAt === null) {
      if (tr.since !== null && fix.t - tr.since >= p.arrivalDwellS * 1000) {
        tr.arrivedAt = tr.since;
        tr.driverId = tr.sinceDriverId;
        tr.since = null;
        tr.sinceDriverId = null;
        events.push({ kind: 'ARRIVAL', placeId: p.id, arrivedAt: tr.arrivedAt, driverId: tr.driverId, confirmedAt: fix.t, track: tr });
      }
    } else {
      // Back inside before the departure dwell ran out: still there.
      tr.since = null;
    }
  }
  for (const [placeId, tr] of v.places) {
    if (seen.has(placeId)) continue;
    const p = dwellOf(placeId);
    if (!p || tr.arrivedAt === null) {
      // Out again before the arrival dwell ran out (or the place is gone): nothing happened.
      v.places.delete(placeId);
      continue;
    }
    tr.since ??= fix.t;
    if (fix.t - tr.since >= p.departureDwellS * 1000) {
      events.push({
        kind: 'DEPARTURE',
        placeId,
        arrivedAt: tr.arrivedAt,
        departedAt: tr.since,
        confirmedAt: fix.t,
        visitId: tr.visitId,
        driverId: tr.driverId,
      });
      v.places.delete(placeId);
    }
  }
  v.t = fix.t;
  return events;
}

/** A visit as replaying a run of fixes makes it. */
export interface ReplayedVisit {
  placeId: string;
  arrivedAt: number;
  departedAt: number | null;
  driverId: string | null;
  /** When the fix that confirmed the arrival (and the departure) came. */
  arrivalConfirmedAt: number;
  departureConfirmedAt: number | null;
  track: PlaceTrack | null;
}

/** Replays fixes (in fix-time order) from a blank state: the visits they make and the state after. */
export function replayVisits(
  fixes: readonly VisitFix[],
  insideOf: (fix: VisitFix) => readonly DwellPlace[],
  dwellOf: (placeId: string) => DwellPlace | undefined,
): { visits: ReplayedVisit[]; track: VehicleTrack } {
  const track = blankTrack();
  const visits: ReplayedVisit[] = [];
  const open = new Map<string, ReplayedVisit>();
  for (const f of fixes) {
    for (const e of stepVisits(track, f, insideOf(f), dwellOf)) {
      if (e.kind === 'ARRIVAL') {
        const visit: ReplayedVisit = {
          placeId: e.placeId,
          arrivedAt: e.arrivedAt,
          departedAt: null,
          driverId: e.driverId,
          arrivalConfirmedAt: e.confirmedAt,
          departureConfirmedAt: null,
          track: e.track,
        };
        visits.push(visit);
        open.set(e.placeId, visit);
      } else {
        const visit = open.get(e.placeId);
        if (visit) {
          visit.departedAt = e.departedAt;
          visit.departureConfirmedAt = e.confirmedAt;
          visit.track = null;
          open.delete(e.placeId);
        }
      }
    }
  }
  return { visits, track };
}
