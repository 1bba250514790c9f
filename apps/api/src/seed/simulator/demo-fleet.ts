import { and, eq, gt, inArray, like, lt, max, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { assets, drivers, gateways, positions } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { MOVING_SPEED_KMH } from '../../modules/positions/vehicle-status.ts';
import { postFix } from './poster.ts';
import { DEMO_ENGINE_TRUCKS } from '../demo-fleet.ts';
import { effectiveIoMap, ioAttributes } from '../../modules/positions/pipeline/teltonika/io-map.ts';
import { engineColumns } from '../../modules/positions/pipeline/engine-data.ts';
import { engineIo, engineProfile, IO, ioElements, priorityOf, satellitesAt, type EngineIo, type EngineProfile } from './engine-data.ts';
import { demoFuelIncident, type FuelIncident } from './fuel-sensor.ts';
import { TruckPlan, warmUp, type TruckState } from './truck-plan.ts';
import { putDeviceIds } from '../../modules/gateways/device-ids.ts';

/** A demo device the simulator drives: `demo-truck-07` is truck plan 7. */
export interface DemoTruck {
  index: number;
  uniqueId: string;
  gatewayId: string;
  orgId: string;
  assetId: string | null;
  driverId: string | null;
  /** A Teltonika truck's engine (its unique id is the IMEI); null for a phone (OsmAnd, GPS only). */
  engine: EngineProfile | null;
  /** Where the seeded history ends (set by seedDemoHistory): a Teltonika device records from there. */
  historyUntil?: number;
  /** The truck's plan as the backfill walked it (the demo loads read where it goes next without walking it again). */
  plan?: TruckPlan;
}

export const DEMO_TRUCKS = 25;
export const demoUniqueId = (i: number) => `demo-truck-${String(i).padStart(2, '0')}`;

const ENGINE_BY_IMEI = new Map(DEMO_ENGINE_TRUCKS.map((e) => [e.imei, e.index]));

/**
 * The active demo devices (`demo-truck-NN` and the Teltonika trucks' IMEIs), with the vehicle and
 * driver they are paired with now.
 */
export async function findDemoTrucks(db: Db): Promise<DemoTruck[]> {
  const rows = await db
    .select({
      uniqueId: gateways.uniqueId,
      gatewayId: gateways.id,
      orgId: gateways.organizationId,
      assetId: gateways.assetId,
      driverId: assets.currentDriverId,
      vin: assets.vin,
    })
    .from(gateways)
    .leftJoin(assets, and(eq(assets.id, gateways.assetId), eq(assets.organizationId, gateways.organizationId)))
    .where(and(or(like(gateways.uniqueId, 'demo-truck-%'), inArray(gateways.uniqueId, [...ENGINE_BY_IMEI.keys()])), eq(gateways.status, 'ACTIVE')));
  return rows
    .map(({ vin, ...r }) => {
      const imeiOf = ENGINE_BY_IMEI.get(r.uniqueId);
      const index = imeiOf ?? Number(r.uniqueId.slice('demo-truck-'.length));
      return { ...r, index, engine: imeiOf ? engineProfile(index, r.uniqueId, vin) : null };
    })
    .filter((r) => Number.isInteger(r.index) && r.index > 0)
    .sort((a, b) => a.index - b.index);
}

const FIRST = [
  'Maria',
  'James',
  'Luis',
  'Aisha',
  'Tom',
  'Grace',
  'Dmitri',
  'Keisha',
  'Raj',
  'Ellen',
  'Carlos',
  'Nina',
  'Omar',
  'Beth',
  'Wei',
  'Hank',
  'Sofia',
  'Andre',
  'Paula',
  'Jake',
  'Lena',
  'Marcus',
  'Ruth',
  'Tyler',
  'Ana',
];
const LAST = [
  'Garcia',
  'Walker',
  'Hernandez',
  'Bello',
  'Nguyen',
  'Olsen',
  'Petrov',
  'Jones',
  'Patel',
  'Murphy',
  'Ruiz',
  'Kowalski',
  'Haddad',
  'Carter',
  'Chen',
  'Miller',
  'Rossi',
  'Baptiste',
  'Silva',
  'Turner',
  'Fischer',
  'Reed',
  'Cohen',
  'Brooks',
  'Lopez',
];

/**
 * The fleet-registry seed creates the demo devices (paired with vehicles 101…125). Where it has not
 * (an older database), the simulator creates the missing ones so the map is never empty.
 */
export async function ensureDemoTrucks(db: Db, orgId: string): Promise<void> {
  for (let i = 1; i <= DEMO_TRUCKS; i++) {
    const uniqueId = demoUniqueId(i);
    const imei = DEMO_ENGINE_TRUCKS.find((e) => e.index === i)?.imei ?? uniqueId;
    const existing = await db
      .select({ id: gateways.id })
      .from(gateways)
      .where(inArray(gateways.uniqueId, [uniqueId, imei]));
    if (existing[0]) continue;
    await db.transaction(async (tx) => {
      const unit = String(100 + i);
      let [asset] = await tx
        .select({ id: assets.id })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), sql`lower(${assets.unitNumber}) = ${unit}`));
      if (!asset) {
        const [d] = await tx
          .insert(drivers)
          .values({ organizationId: orgId, firstName: FIRST[i - 1]!, lastName: LAST[i - 1]! })
          .returning({ id: drivers.id });
        [asset] = await tx
          .insert(assets)
          .values({
            organizationId: orgId,
            type: 'VEHICLE',
            unitNumber: unit,
            make: i % 2 ? 'Freightliner' : 'Kenworth',
            model: i % 2 ? 'Cascadia' : 'T680',
            year: 2019 + (i % 6),
            currentDriverId: d!.id,
          })
          .returning({ id: assets.id });
      }
      const g = await tx
        .insert(gateways)
        .values({ organizationId: orgId, uniqueId, name: `Demo truck ${String(i).padStart(2, '0')}`, assetId: asset!.id })
        .returning();
      await putDeviceIds(tx, g);
    });
  }
}

/** Sampling of the simulated devices: every minute on the road, every five when parked. */
const MOVING_EVERY_MS = 60_000;
const PARKED_EVERY_MS = 300_000;

/**
 * Writes the demo trucks' history from `days` ago (or from each truck's newest fix, whichever is
 * later) up to `until`, in bulk. Fixes sit on a fixed time grid and the plan is deterministic, so
 * running it again inserts nothing twice. Returns the rows written.
 */
export async function backfillDemoHistory(
  db: Db,
  trucks: readonly DemoTruck[],
  until: number,
  days = 7,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<number> {
  let written = 0;
  for (const [i, truck] of trucks.entries()) {
    onProgress(i / trucks.length);
    const windowStart = until - days * 86_400_000;
    const [last] = await db
      .select({ t: max(positions.fixTime) })
      .from(positions)
      .where(and(eq(positions.gatewayId, truck.gatewayId), gt(positions.fixTime, new Date(windowStart)), lt(positions.fixTime, new Date(until))));
    const from = Math.ceil(Math.max(windowStart, last?.t ? new Date(last.t).getTime() + 1 : windowStart) / MOVING_EVERY_MS) * MOVING_EVERY_MS;
    const plan = new TruckPlan(truck.index);
    await warmUp([plan], from);
    truck.plan = plan;
    const cols: FixColumns = { t: [], lat: [], lon: [], speed: [], course: [], odo: [], ign: [] };
    const engine = truck.engine ? newEngineColumns() : null;
    // A whole first week (nothing stored yet) carries tractor 110's fuel incident (decision 0276).
    const incident = engine && from <= windowStart + MOVING_EVERY_MS ? await demoFuelIncident(truck.index, until) : null;
    const push = (t: number, s: TruckState, event = 0) => {
      cols.t.push(t / 1000);
      cols.lat.push(s.lat);
      cols.lon.push(s.lon);
      cols.speed.push(s.speed.toFixed(2));
      cols.course.push(s.speed >= MOVING_SPEED_KMH ? s.course.toFixed(1) : 'NULL');
      cols.odo.push(Math.round(s.odometer));
      cols.ign.push(s.ignition ? 't' : 'f');
      if (engine && truck.engine) pushEngine(engine, truck.engine, t, s, event, incident);
    };
    let ignition: boolean | null = null;
    for (let t = from; t < until; t += MOVING_EVERY_MS) {
      const s = plan.stateAt(t);
      // A Teltonika device also records the moment the ignition changes (an event record), standing
      // still as the engine starts or stops.
      if (engine && ignition !== null && s.ignition !== ignition) {
        const at = plan.ignitionSince(t);
        if (at > t - MOVING_EVERY_MS) push(at, { ...plan.stateAt(at), speed: 0 }, IO.ignition.id);
      }
      ignition = s.ignition;
      if (s.kind === 'PARK' && t % PARKED_EVERY_MS !== 0) continue;
      push(t, s);
    }
    // A statement per half day of fixes with the columns as arrays (unnest): a few parameters instead of
    // sixteen per row, which makes the first start quick; half a day at a time, so the embedded
    // database's one connection (and the event loop it runs on) serves requests in between.
    // A Teltonika truck's rows carry their attributes' JSON: fewer a statement (ENGINE_BACKFILL_ROWS).
    const rows = engine ? ENGINE_BACKFILL_ROWS : BACKFILL_ROWS;
    for (let from = 0; from < cols.t.length; from += rows) {
      const slice = <T extends object>(c: T) =>
        Object.fromEntries(Object.entries(c).map(([k, v]: [string, unknown[]]) => [k, v.slice(from, from + rows)])) as T;
      written +=
        engine && truck.engine ? await insertEngineFixes(db, truck, truck.engine, slice(cols), slice(engine)) : await insertFixes(db, truck, slice(cols));
    }
    if (cols.t.length) await moveLatest(db, truck, cols);
  }
  return written;
}

/**
 * The vehicle's latest position from the newest backfilled fix, as the group commit keeps it (never
 * back in time): the map shows the truck where its history ends, and the followers' catch-ups,
 * which go by the latest positions, see the history (the engine events from its ignition).
 */
async function moveLatest(db: Db, truck: DemoTruck, cols: FixColumns): Promise<void> {
  if (!truck.assetId) return;
  let movedAt: number | null = null;
  let stillSince: number | null = null;
  for (let i = 0; i < cols.t.length; i++) {
    if (Number(cols.speed[i]) >= MOVING_SPEED_KMH) {
      movedAt = cols.t[i]!;
      stillSince = null;
    } else stillSince ??= cols.t[i]!;
  }
  const ts = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());
  await db.execute(sql`insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, course,
      altitude, accuracy, odometer, ignition, last_moving_at, stationary_since, attributes)
    select asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, ignition,
      ${ts(movedAt)}::timestamptz, ${ts(stillSince)}::timestamptz, attributes
    from positions where gateway_id = ${truck.gatewayId}::uuid and fix_time = to_timestamp(${cols.t[cols.t.length - 1]!}) and asset_id = ${truck.assetId}::uuid
    on conflict (asset_id, organization_id) do update set gateway_id = excluded.gateway_id, driver_id = excluded.driver_id,
      fix_time = excluded.fix_time, server_time = excluded.server_time, latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed,
      course = excluded.course, altitude = excluded.altitude, accuracy = excluded.accuracy, odometer = excluded.odometer, ignition = excluded.ignition,
      last_moving_at = coalesce(excluded.last_moving_at, latest_positions.last_moving_at), stationary_since = excluded.stationary_since, attributes = excluded.attributes
    where latest_positions.fix_time < excluded.fix_time`);
}

/**
 * Rows per backfill statement: about half a day of a truck's fixes. A request waits behind each on the
 * embedded database: at 1,500 (and the engine trucks' attributes) the dashboard took up to 1.2 s.
 */
const BACKFILL_ROWS = 750;
/**
 * Rows per backfill statement of a Teltonika truck: its fixes' attributes are about 640 bytes of JSON
 * each, so 750 rows were a 480 kB statement, and the embedded database's memory for it (the text, the
 * jsonb[] it is cast to, the rows) stays resident after it: WebAssembly memory never shrinks. 250 rows
 * (160 kB) grow it by 2.6 MB instead of 9.1 (decision 0326).
 */
const ENGINE_BACKFILL_ROWS = 250;

type FixColumns = { t: number[]; lat: number[]; lon: number[]; speed: string[]; course: string[]; odo: number[]; ign: string[] };

async function insertFixes(db: Db, truck: DemoTruck, cols: FixColumns): Promise<number> {
  const arr = (a: ReadonlyArray<number | string>) => `{${a.join(',')}}`;
  const r = rowsOf<{ n: number }>(
    await db.execute(sql`
      with ins as (
        insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, odometer_source, ignition, protocol, attributes)
        select ${truck.orgId}::uuid, ${truck.gatewayId}::uuid, ${truck.assetId}::uuid, ${truck.driverId}::uuid, to_timestamp(u.t), to_timestamp(u.t + 1.5),
               u.lat, u.lon, u.speed, u.course, 250, 5, u.odo, 'GPS', u.ign, 'simulator', '{}'::jsonb
        from unnest(${arr(cols.t)}::float8[], ${arr(cols.lat)}::float8[], ${arr(cols.lon)}::float8[], ${arr(cols.speed)}::real[],
                    ${arr(cols.course)}::real[], ${arr(cols.odo)}::float8[], ${arr(cols.ign)}::boolean[]) as u(t, lat, lon, speed, course, odo, ign)
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`),
  );
  return Number(r[0]?.n ?? 0);
}

/** A Teltonika truck's raw IO values per fix, and the IO element that caused the record, beside FixColumns. */
type EngineColumnArrays = { [K in keyof EngineIo | 'event']: number[] };

const newEngineColumns = (): EngineColumnArrays => ({
  ignition: [],
  motion: [],
  powerMv: [],
  gpsOdometerM: [],
  vehicleSpeedKmh: [],
  rpm: [],
  vehicleOdometerM: [],
  engineMinutes: [],
  fuelUsedDl: [],
  fuelRaw: [],
  event: [],
});

function pushEngine(cols: EngineColumnArrays, p: EngineProfile, t: number, s: TruckState, event: number, incident: FuelIncident | null): void {
  const e = engineIo(p, t, s, incident);
  for (const k of Object.keys(e) as Array<keyof EngineIo>) cols[k].push(e[k]);
  cols.event.push(event);
}

/** A Postgres array literal of text values. */
const textArray = (a: readonly string[]) => `{${a.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/**
 * A Teltonika truck's fixes as its device reports them and ingest stores them: the attributes the
 * default IO map decodes (the raw elements under `io`), by the decoder's own ioAttributes, with the
 * record's priority, event and satellites as records.ts adds them; the ECM odometer, engine hours
 * and ignition in the columns by engineColumns(); speed and course in whole units and coordinates
 * at 1e-7 degrees, as the wire carries them. The JSON is built a statement (a day) at a time.
 * Devices buffer and send every 30-60 s: the server time is 30 s after the fix.
 */
async function insertEngineFixes(db: Db, truck: DemoTruck, p: EngineProfile, cols: FixColumns, e: EngineColumnArrays): Promise<number> {
  const vin = Buffer.from(p.vin, 'ascii');
  const map = effectiveIoMap({});
  const attributes: string[] = [];
  const odo: number[] = [];
  const hours: number[] = [];
  for (let i = 0; i < cols.t.length; i++) {
    const raw: EngineIo = {
      ignition: e.ignition[i] ? 1 : 0,
      motion: e.motion[i] ? 1 : 0,
      powerMv: e.powerMv[i]!,
      gpsOdometerM: e.gpsOdometerM[i]!,
      vehicleSpeedKmh: e.vehicleSpeedKmh[i]!,
      rpm: e.rpm[i]!,
      vehicleOdometerM: e.vehicleOdometerM[i]!,
      engineMinutes: e.engineMinutes[i]!,
      fuelUsedDl: e.fuelUsedDl[i]!,
      fuelRaw: e.fuelRaw[i]!,
    };
    const a = ioAttributes(ioElements(raw, vin, p.index), map);
    a.priority = priorityOf(e.event[i]!);
    a.event = e.event[i]!;
    a.satellites = satellitesAt(cols.t[i]! * 1000);
    const c = engineColumns(a);
    odo.push(c.odometer ?? 0);
    hours.push(c.engineHours ?? 0);
    attributes.push(JSON.stringify(a));
  }
  const arr = (a: ReadonlyArray<number | string>) => `{${a.join(',')}}`;
  const r = rowsOf<{ n: number }>(
    await db.execute(sql`
      with ins as (
        insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, odometer_source, engine_hours, ignition, protocol, attributes)
        select ${truck.orgId}::uuid, ${truck.gatewayId}::uuid, ${truck.assetId}::uuid, ${truck.driverId}::uuid, to_timestamp(u.t), to_timestamp(u.t + 30),
               round(u.lat::numeric, 7), round(u.lon::numeric, 7), round(u.speed), coalesce(round(u.course)::int % 360, 0), 250, null, u.odo, 'ECM', u.hours, u.ign, 'teltonika', u.a
        from unnest(${arr(cols.t)}::float8[], ${arr(cols.lat)}::float8[], ${arr(cols.lon)}::float8[], ${arr(cols.speed)}::real[], ${arr(cols.course)}::real[],
                    ${arr(odo)}::float8[], ${arr(hours)}::float8[], ${arr(cols.ign)}::boolean[], ${textArray(attributes)}::jsonb[])
             as u(t, lat, lon, speed, course, odo, hours, ign, a)
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`),
  );
  return Number(r[0]?.n ?? 0);
}

export interface SimulatorHandle {
  stop(): void;
  /** Fixes posted and acknowledged (2xx) so far. */
  readonly posted: number;
  readonly failed: number;
}

/**
 * Drives the trucks live: each posts its current state to the OsmAnd endpoint at `target` every
 * `intervalS` seconds on the road and every five minutes when parked, like a tracker would.
 */
export function runLiveSimulator(
  trucks: ReadonlyArray<{ index: number; uniqueId: string }>,
  target: string,
  intervalS: number,
  onError: (err: unknown) => void,
): SimulatorHandle {
  const plans = trucks.map((t) => ({ ...t, plan: new TruckPlan(t.index), next: 0, busy: false }));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let posted = 0;
  let failed = 0;
  let lastError = 0;
  const tick = () => {
    const now = Date.now();
    for (const p of plans) {
      if (p.busy || now < p.next) continue;
      const s = p.plan.stateAt(now);
      p.busy = true;
      p.next = now + (s.kind === 'PARK' ? PARKED_EVERY_MS : intervalS * 1000);
      postFix(target, p.uniqueId, now, s)
        .then((status) => {
          if (status >= 200 && status < 300) posted++;
          else failed++;
        })
        .catch((err) => {
          failed++;
          if (Date.now() - lastError > 60_000) {
            lastError = Date.now();
            onError(err);
          }
        })
        .finally(() => (p.busy = false));
    }
  };
  void warmUp(
    plans.map((p) => p.plan),
    Date.now(),
    () => stopped,
  ).then(() => {
    if (stopped) return;
    // Spread the first posts over the interval, as real devices are not in step.
    plans.forEach((p, i) => (p.next = Date.now() + (i * intervalS * 1000) / Math.max(1, plans.length)));
    timer = setInterval(tick, Math.min(1000, intervalS * 250));
    timer.unref();
  }, onError);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
    get posted() {
      return posted;
    },
    get failed() {
      return failed;
    },
  };
}
