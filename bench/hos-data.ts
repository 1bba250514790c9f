// The data set of bench/hos-api.ts: 2,000 drivers with 14 days of duty-status records each, written
// straight into the database in bulk (one JSON parameter per few thousand rows, unpacked by
// json_to_recordset, so the same statement runs on PGlite and PostgreSQL). The days are realistic
// and deterministic (seeded PRNG): a 10-hour rest, pre-trip, driving legs, a 30-minute break,
// loading, sometimes a sleeper-berth stretch or personal conveyance, a day off a week; a few days
// run long or skip the break, so the fleet has violations to list. Events are what the import
// endpoint would write for the same periods (one duty-status event per period, special categories
// set and cleared), so the bench can check a sample against the endpoint.
import { sql } from 'drizzle-orm';
import type { DutyPeriod, RulesetId } from '../packages/hos/src/index.ts';
import { describeLocation } from '../packages/geo/src/location-description.ts';
import type { Db } from '../apps/api/src/db/client.ts';
import { logDateOf, nextDate } from '../apps/api/src/modules/hos/hos.time.ts';
import { rowsOf } from '../apps/api/src/db/sql/rows.ts';

const H = 3_600_000;
const MIN = 60_000;
export const BENCH_DAYS = 14;

/** mulberry32: small deterministic PRNG so every run benches the same logs. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Ana',
  'David',
  'Susan',
  'Carlos',
  'Karen',
  'Daniel',
  'Nancy',
  'Jose',
  'Lisa',
  'Kevin',
  'Sandra',
  'Brian',
  'Emily',
  'Luis',
  'Donna',
];
const LAST = [
  'Smith',
  'Johnson',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Young',
  'Walker',
  'Hall',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Baker',
  'Adams',
  'Nelson',
  'Hill',
  'Campbell',
  'Mitchell',
  'Roberts',
  'Carter',
  'Phillips',
];
const ZONES = ['America/Chicago', 'America/New_York', 'America/Denver', 'America/Los_Angeles'];

export interface BenchDriver {
  firstName: string;
  lastName: string;
  homeTimeZone: string;
  ruleset: RulesetId;
  shortHaul150: boolean;
}

/** Driver `i` of the bench fleet: most under US property 70/8, some 60/7, a few Canadian. */
export function benchDriver(i: number): BenchDriver {
  const rnd = prng(1_000_003 * (i + 1));
  const roll = rnd();
  const ruleset: RulesetId = roll < 0.85 ? 'US_PROPERTY_70_8' : roll < 0.95 ? 'US_PROPERTY_60_7' : 'CA_SOUTH_CYCLE_1';
  return {
    firstName: FIRST[i % FIRST.length]!,
    lastName: `${LAST[Math.floor(i / FIRST.length) % LAST.length]!}-${String(i).padStart(4, '0')}`,
    homeTimeZone: ruleset === 'CA_SOUTH_CYCLE_1' ? 'America/Toronto' : ZONES[i % ZONES.length]!,
    ruleset,
    shortHaul150: rnd() < 0.05,
  };
}

/**
 * Driver `seed`'s duty periods for the `days` days before `endMs`, contiguous, the last one ending
 * at `endMs`. 8-12 periods a working day; about one day in twelve breaks a rule.
 */
export function benchPeriods(seed: number, endMs: number, days = BENCH_DAYS): DutyPeriod[] {
  const rnd = prng(seed * 7919 + 17);
  const r = (lo: number, hi: number) => Math.round((lo + rnd() * (hi - lo)) * 4) / 4; // quarter hours
  const out: DutyPeriod[] = [];
  // Each driver starts their days at their own hour, on a whole minute.
  let t = Math.floor((endMs - days * 24 * H - rnd() * 12 * H) / MIN) * MIN;
  const push = (status: DutyPeriod['status'], hours: number, special?: DutyPeriod['special']) => {
    if (t >= endMs) return;
    const end = Math.min(endMs, t + Math.max(15 * MIN, Math.round(hours * H)));
    const last = out[out.length - 1];
    if (last && last.status === status && last.special === special)
      last.end = new Date(end).toISOString(); // one status, one event
    else out.push({ status, start: new Date(t).toISOString(), end: new Date(end).toISOString(), ...(special ? { special } : {}) });
    t = end;
  };
  const restDay = Math.floor(rnd() * 7);
  for (let d = 0; t < endMs; d++) {
    const dayEnd = t + 24 * H;
    if (d % 7 === restDay) {
      push('OFF', 10);
      if (rnd() < 0.5) push('OFF', r(1, 3), 'PC'); // personal conveyance on a day off
      push('OFF', Math.max(0.25, (dayEnd - t) / H + 10)); // 34 h and more: a restart
      continue;
    }
    const long = rnd() < 0.06; // drives past 11 h
    const noBreak = rnd() < 0.04; // no 30-minute break before 8 h of driving
    push('ON', r(0.25, 0.75)); // pre-trip inspection
    push('D', noBreak ? r(4, 4.5) : r(2.5, 4));
    push('ON', noBreak ? 0.25 : r(0.25, 1)); // fuel, loading
    push('D', noBreak ? r(4, 4.5) : r(1.5, 3));
    if (!noBreak) push('OFF', r(0.5, 1)); // 30-minute break
    push('D', long ? r(4, 5) : r(1, 2.5));
    if (rnd() < 0.3) {
      push('SB', r(2, 3)); // a short sleeper-berth stretch
      push('D', r(0.5, 1.5));
    }
    push('ON', r(0.25, 0.5)); // post-trip inspection
    push('OFF', Math.max(10, (dayEnd - t) / H)); // at least the 10-hour rest
  }
  return out;
}

interface EventRow {
  organization_id: string;
  driver_id: string;
  sequence_id: number;
  event_type: number;
  event_code: number;
  record_origin: number;
  event_time: string;
  log_date: string;
  latitude: number;
  longitude: number;
  location_description: string;
  odometer_m: number;
}

/** `v` reflected back into [lo, lo + span] (a triangle wave), so a corridor bounces inside the box. */
const fold = (v: number, lo: number, span: number) => {
  const x = (((v - lo) % (2 * span)) + 2 * span) % (2 * span);
  return lo + span - Math.abs(x - span);
};

const STATUS_CODE = { OFF: 1, SB: 2, D: 3, ON: 4 } as const;

/** The events the import endpoint writes for these periods (apps/api/src/modules/hos/hos-import.service.ts eventsOf). */
function eventsOf(periods: DutyPeriod[], orgId: string, driverId: string, d: BenchDriver, seed: number): EventRow[] {
  const rnd = prng(seed * 31 + 5);
  const out: EventRow[] = [];
  let lat = 33 + rnd() * 12;
  let lon = -118 + rnd() * 36;
  let odometer = Math.round(100_000_000 + rnd() * 500_000_000);
  const heading = rnd() * 2 * Math.PI;
  let special: 'PC' | 'YM' | null = null;
  let placeText = '';
  const push = (eventType: number, eventCode: number, ms: number, origin: number) =>
    out.push({
      organization_id: orgId,
      driver_id: driverId,
      sequence_id: out.length + 1,
      event_type: eventType,
      event_code: eventCode,
      record_origin: origin,
      event_time: new Date(ms).toISOString(),
      log_date: logDateOf(ms, d.homeTimeZone, '00:00'),
      latitude: Math.round(lat * 1e4) / 1e4,
      longitude: Math.round(lon * 1e4) / 1e4,
      location_description: placeText,
      odometer_m: odometer,
    });
  for (const p of periods) {
    const ms = Date.parse(p.start);
    placeText = describeLocation(lat, lon).text;
    push(1, STATUS_CODE[p.status], ms, p.status === 'D' ? 1 : 2);
    const want = p.special === 'PC' || p.special === 'YM' ? p.special : null;
    if (want !== special) push(3, want === 'PC' ? 1 : want === 'YM' ? 2 : 0, ms, 2);
    special = want;
    if (p.status === 'D') {
      // ~90 km/h along the driver's corridor, folded back inside the US box.
      const km = ((Date.parse(p.end) - ms) / H) * 90;
      odometer += Math.round(km * 1000);
      lat = fold(lat + (km / 111) * Math.sin(heading), 33, 12);
      lon = fold(lon + (km / 90) * Math.cos(heading), -118, 36);
    }
  }
  return out;
}

async function insertJson(db: Db, statement: (json: string) => ReturnType<typeof sql>, rows: object[], chunk: number): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) await db.execute(statement(JSON.stringify(rows.slice(i, i + chunk))));
}

export interface SeededFleet {
  driverIds: string[];
  events: number;
  logDays: number;
  /** Inactive copies of some drivers, without records: the bench imports their periods through the API. */
  copies: Array<{ id: string; of: string; index: number }>;
}

/**
 * Writes `count` active drivers with BENCH_DAYS days of records ending at `endMs` into `orgId`,
 * their log rows (past days mostly certified, driving days with a shipping document), and
 * an inactive driver without records like each driver of `copyOf` (indexes).
 */
export async function seedHosFleet(db: Db, orgId: string, count: number, endMs: number, copyOf: number[]): Promise<SeededFleet> {
  const rows = Array.from({ length: count + copyOf.length }, (_, i) => {
    const d = benchDriver(i < count ? i : copyOf[i - count]!);
    return {
      first_name: d.firstName,
      last_name: i < count ? d.lastName : `${d.lastName}-import`,
      home_time_zone: d.homeTimeZone,
      ruleset: d.ruleset,
      short_haul_150: d.shortHaul150,
      status: i < count ? 'ACTIVE' : 'INACTIVE',
      n: i,
    };
  });
  const ids: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i += 1000) {
    const res = await db.execute(sql`
      insert into drivers (organization_id, first_name, last_name, home_time_zone, ruleset, short_haul_150, status, notes)
      select ${orgId}::uuid, first_name, last_name, home_time_zone, ruleset, short_haul_150, status, 'hos bench ' || n
      from json_to_recordset(${JSON.stringify(rows.slice(i, i + 1000))}::json) as x(first_name text, last_name text, home_time_zone text, ruleset text, short_haul_150 boolean, status text, n int)
      returning id, notes`);
    for (const r of rowsOf<{ id: string; notes: string }>(res)) ids[Number(r.notes.slice('hos bench '.length))] = r.id;
  }
  await db.execute(sql`update drivers set notes = null where organization_id = ${orgId}::uuid and notes like 'hos bench %'`);
  const driverIds = ids.slice(0, count);
  let events = 0;

  const batch: EventRow[] = [];
  const logs: Array<{ driver_id: string; log_date: string; certified: boolean; bol: string | null }> = [];
  const flush = async () => {
    await insertJson(
      db,
      (json) => sql`
        insert into hos_events (organization_id, driver_id, sequence_id, event_type, event_code, record_status, record_origin, event_time, log_date, latitude, longitude, location_description, odometer_m)
        select organization_id, driver_id, sequence_id, event_type, event_code, 1, record_origin, event_time, log_date, latitude, longitude, location_description, odometer_m
        from json_to_recordset(${json}::json) as x(organization_id uuid, driver_id uuid, sequence_id int, event_type smallint, event_code smallint, record_origin smallint, event_time timestamptz, log_date date, latitude float8, longitude float8, location_description text, odometer_m float8)`,
      batch,
      5000,
    );
    events += batch.length;
    batch.length = 0;
  };
  for (let i = 0; i < count; i++) {
    const d = benchDriver(i);
    const periods = benchPeriods(i, endMs);
    const ev = eventsOf(periods, orgId, driverIds[i]!, d, i);
    batch.push(...ev);
    if (batch.length >= 20_000) await flush();
    // A log row for every day from the first record to today (what imports and readers create).
    const today = logDateOf(endMs, d.homeTimeZone, '00:00');
    const drove = new Set(ev.filter((e) => e.event_type === 1 && e.event_code === 3).map((e) => e.log_date));
    const rnd = prng(i * 13 + 1);
    for (let day = ev[0]!.log_date; day <= today; day = nextDate(day))
      logs.push({ driver_id: driverIds[i]!, log_date: day, certified: day < today && rnd() < 0.9, bol: drove.has(day) ? `BOL-${i}-${day}` : null });
  }
  await flush();
  await insertJson(
    db,
    (json) => sql`
      insert into hos_logs (organization_id, driver_id, log_date, certified_at, certification_count, shipping_documents)
      select ${orgId}::uuid, driver_id, log_date, case when certified then log_date + time '20:00' end, case when certified then 1 else 0 end, case when bol is null then '{}'::text[] else array[bol] end
      from json_to_recordset(${json}::json) as x(driver_id uuid, log_date date, certified boolean, bol text)`,
    logs,
    10_000,
  );
  const logDays = logs.length;
  await db.execute(sql`analyze drivers`);
  await db.execute(sql`analyze hos_events`);
  await db.execute(sql`analyze hos_logs`);
  return { driverIds, events, logDays, copies: ids.slice(count).map((id, k) => ({ id, of: driverIds[copyOf[k]!]!, index: copyOf[k]! })) };
}
