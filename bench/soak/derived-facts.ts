// The facts the server derives from an organization's positions, read straight from their tables and
// named by what does not change between two databases (unit numbers, driver and place names, times),
// so the soaked database and its clean replay can be compared: the automatic HoS records derived from
// positions (hos_events of origin 1: duty status, intermediate logs, engine power; not the
// diagnostics job's malfunction records, which follow the clock), place visits, trips and stops, IFTA miles per vehicle, day and
// jurisdiction and the state-line crossings, the fuel level's refuels and drops (decision 0276), and
// each vehicle's daily statistics (distance, driving and idle time, stops, speeding, fixes, last fix).
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/api/src/db/client.ts';
import { rowsOf } from '../../apps/api/src/db/sql/rows.ts';

export interface DerivedFacts {
  /** One line per fact of each kind (a multiset: the same line twice is two facts). */
  lines: Record<'duty' | 'visits' | 'trips' | 'stops' | 'crossings' | 'fuel' | 'days', string[]>;
  /** IFTA metres by `unit day jurisdiction`. */
  iftaMetres: Map<string, number>;
}

const iso = (v: unknown): string => (v === null || v === undefined ? '-' : new Date(v as string).toISOString());
const num = (v: unknown, digits: number): string => (v === null || v === undefined ? '-' : Number(v).toFixed(digits));
type Row = Record<string, unknown>;

async function lines(db: Db, query: ReturnType<typeof sql>, line: (r: Row) => string): Promise<string[]> {
  return rowsOf<Row>(await db.execute(query))
    .map(line)
    .sort();
}

/** Everything derived for `orgId`'s vehicles. */
export async function readDerivedFacts(db: Db, orgId: string): Promise<DerivedFacts> {
  const duty = await lines(
    db,
    sql`select a.unit_number as unit, d.last_name as driver, e.event_type, e.event_code, e.record_status, e.event_time, e.latitude, e.longitude, e.location_description
      from hos_events e left join assets a on a.id = e.vehicle_id left join drivers d on d.id = e.driver_id
      where e.organization_id = ${orgId} and e.record_origin = 1 and e.event_type in (1, 2, 6)`,
    (r) =>
      [
        r.unit,
        r.driver ?? 'unidentified',
        `type ${String(r.event_type)} code ${String(r.event_code)} status ${String(r.record_status)}`,
        iso(r.event_time),
        num(r.latitude, 4),
        num(r.longitude, 4),
        r.location_description ?? '-',
      ].join('  '),
  );
  const visits = await lines(
    db,
    sql`select p.name as place, a.unit_number as unit, d.last_name as driver, v.arrived_at, v.departed_at
      from place_visits v join places p on p.id = v.place_id left join assets a on a.id = v.asset_id left join drivers d on d.id = v.driver_id
      where v.organization_id = ${orgId}`,
    (r) => [r.unit, r.driver ?? '-', r.place, iso(r.arrived_at), iso(r.departed_at)].join('  '),
  );
  const trips = await lines(
    db,
    sql`select a.unit_number as unit, d.last_name as driver, t.started_at, t.ended_at, t.distance_m, t.max_speed_kmh, sp.name as start_place, ep.name as end_place
      from trips t left join assets a on a.id = t.asset_id left join drivers d on d.id = t.driver_id
      left join places sp on sp.id = t.start_place_id left join places ep on ep.id = t.end_place_id
      where t.organization_id = ${orgId}`,
    (r) =>
      [
        r.unit,
        r.driver ?? '-',
        iso(r.started_at),
        iso(r.ended_at),
        `${num(r.distance_m, 0)} m`,
        `max ${num(r.max_speed_kmh, 1)} km/h`,
        r.start_place ?? '-',
        r.end_place ?? '-',
      ].join('  '),
  );
  const stops = await lines(
    db,
    sql`select a.unit_number as unit, d.last_name as driver, s.started_at, s.ended_at, s.idle_s, s.engine_on, p.name as place
      from vehicle_stops s left join assets a on a.id = s.asset_id left join drivers d on d.id = s.driver_id left join places p on p.id = s.place_id
      where s.organization_id = ${orgId}`,
    (r) =>
      [r.unit, r.driver ?? '-', iso(r.started_at), iso(r.ended_at), `idle ${String(r.idle_s)} s`, `engine ${String(r.engine_on)}`, r.place ?? '-'].join('  '),
  );
  const crossings = await lines(
    db,
    sql`select a.unit_number as unit, c.crossed_at, c.from_jurisdiction, c.to_jurisdiction from ifta_crossings c left join assets a on a.id = c.vehicle_id where c.organization_id = ${orgId}`,
    (r) => [r.unit, iso(r.crossed_at), `${String(r.from_jurisdiction)} -> ${String(r.to_jurisdiction)}`].join('  '),
  );
  const fuel = await lines(
    db,
    sql`select a.unit_number as unit, d.last_name as driver, f.type, f.started_at, f.ended_at, f.level_before_pct, f.level_after_pct, f.quantity_l, f.ignition_off
      from fuel_events f left join assets a on a.id = f.asset_id left join drivers d on d.id = f.driver_id where f.organization_id = ${orgId}`,
    (r) =>
      [
        r.unit,
        r.driver ?? '-',
        r.type,
        iso(r.started_at),
        iso(r.ended_at),
        `${num(r.level_before_pct, 2)} -> ${num(r.level_after_pct, 2)} %`,
        `${num(r.quantity_l, 2)} l`,
        `ignition off ${String(r.ignition_off)}`,
      ].join('  '),
  );
  const days = await lines(
    db,
    sql`select a.unit_number as unit, s.day::text as day, s.distance_m, s.driving_ms, s.idle_ms, s.max_speed_kmh, s.speeding_events, s.stops, s.fixes, s.last_fix_at
      from vehicle_daily_stats s left join assets a on a.id = s.asset_id where s.organization_id = ${orgId}`,
    (r) =>
      [
        r.unit,
        r.day,
        `${num(r.distance_m, 0)} m`,
        `driving ${num(r.driving_ms, 0)} ms`,
        `idle ${num(r.idle_ms, 0)} ms`,
        `max ${num(r.max_speed_kmh, 1)} km/h`,
        `speeding ${num(r.speeding_events, 0)}`,
        `stops ${num(r.stops, 0)}`,
        `fixes ${num(r.fixes, 0)}`,
        `last ${iso(r.last_fix_at)}`,
      ].join('  '),
  );
  const iftaMetres = new Map<string, number>();
  for (const r of rowsOf<Row>(
    await db.execute(
      sql`select a.unit_number as unit, i.day::text as day, i.jurisdiction, i.metres from ifta_distance_days i left join assets a on a.id = i.vehicle_id where i.organization_id = ${orgId}`,
    ),
  )) {
    iftaMetres.set([r.unit, r.day, r.jurisdiction].join('  '), Number(r.metres));
  }
  return { lines: { duty, visits, trips, stops, crossings, fuel, days }, iftaMetres };
}

export interface FactDifference {
  kind: string;
  soak: number;
  replay: number;
  /** Lines in one and not the other (the first few of each). */
  onlySoak: string[];
  onlyReplay: string[];
  differing: number;
}

/** Two multisets of lines: what is in each and not in the other. */
function diffLines(a: readonly string[], b: readonly string[]): { onlyA: string[]; onlyB: string[] } {
  const counts = new Map<string, number>();
  for (const l of a) counts.set(l, (counts.get(l) ?? 0) + 1);
  const onlyB: string[] = [];
  for (const l of b) {
    const n = counts.get(l) ?? 0;
    if (n > 0) counts.set(l, n - 1);
    else onlyB.push(l);
  }
  const onlyA: string[] = [];
  for (const [l, n] of counts) for (let i = 0; i < n; i++) onlyA.push(l);
  return { onlyA: onlyA.sort(), onlyB };
}

/** IFTA metres are equal within a metre (sums of the same pieces in another order differ in the last bits). */
const IFTA_TOLERANCE_M = 1;

const KIND_NAMES: Record<keyof DerivedFacts['lines'], string> = {
  duty: 'automatic HoS records (duty status, intermediate logs, engine on and off)',
  visits: 'place visits',
  trips: 'trips',
  stops: 'stops',
  crossings: 'IFTA state-line crossings',
  fuel: 'fuel-level refuels and drops',
  days: 'daily statistics per vehicle',
};

/** Each kind of fact, soak against replay. */
export function compareFacts(soak: DerivedFacts, replay: DerivedFacts): FactDifference[] {
  const out: FactDifference[] = [];
  for (const kind of Object.keys(soak.lines) as Array<keyof DerivedFacts['lines']>) {
    const { onlyA, onlyB } = diffLines(soak.lines[kind], replay.lines[kind]);
    out.push({
      kind: KIND_NAMES[kind],
      soak: soak.lines[kind].length,
      replay: replay.lines[kind].length,
      onlySoak: onlyA,
      onlyReplay: onlyB,
      differing: onlyA.length + onlyB.length,
    });
  }
  const onlySoak: string[] = [];
  const onlyReplay: string[] = [];
  for (const [k, m] of soak.iftaMetres) {
    const r = replay.iftaMetres.get(k);
    if (r === undefined) onlySoak.push(`${k}  ${m.toFixed(1)} m`);
    else if (Math.abs(r - m) > IFTA_TOLERANCE_M) onlySoak.push(`${k}  ${m.toFixed(1)} m (replay ${r.toFixed(1)} m)`);
  }
  for (const [k, r] of replay.iftaMetres) if (!soak.iftaMetres.has(k)) onlyReplay.push(`${k}  ${r.toFixed(1)} m`);
  out.push({
    kind: 'IFTA miles (metres per vehicle, day, jurisdiction)',
    soak: soak.iftaMetres.size,
    replay: replay.iftaMetres.size,
    onlySoak,
    onlyReplay,
    differing: onlySoak.length + onlyReplay.length,
  });
  return out;
}
