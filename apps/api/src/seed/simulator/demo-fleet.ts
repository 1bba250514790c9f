import { and, eq, gt, like, lt, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { assets, drivers, gateways, positions } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { MOVING_SPEED_KMH } from '../../modules/positions/vehicle-status.ts';
import { postFix } from './poster.ts';
import { TruckPlan, warmUp } from './truck-plan.ts';

/** A demo device the simulator drives: `demo-truck-07` is truck plan 7. */
export interface DemoTruck {
  index: number;
  uniqueId: string;
  gatewayId: string;
  orgId: string;
  assetId: string | null;
  driverId: string | null;
}

export const DEMO_TRUCKS = 25;
export const demoUniqueId = (i: number) => `demo-truck-${String(i).padStart(2, '0')}`;

/** The active `demo-truck-NN` devices, with the vehicle and driver they are paired with now. */
export async function findDemoTrucks(db: Db): Promise<DemoTruck[]> {
  const rows = await db
    .select({ uniqueId: gateways.uniqueId, gatewayId: gateways.id, orgId: gateways.organizationId, assetId: gateways.assetId, driverId: assets.currentDriverId })
    .from(gateways)
    .leftJoin(assets, eq(assets.id, gateways.assetId))
    .where(and(like(gateways.uniqueId, 'demo-truck-%'), eq(gateways.status, 'ACTIVE')));
  return rows
    .map((r) => ({ ...r, index: Number(r.uniqueId.slice('demo-truck-'.length)) }))
    .filter((r) => Number.isInteger(r.index) && r.index > 0)
    .sort((a, b) => a.index - b.index);
}

const FIRST = ['Maria', 'James', 'Luis', 'Aisha', 'Tom', 'Grace', 'Dmitri', 'Keisha', 'Raj', 'Ellen', 'Carlos', 'Nina', 'Omar', 'Beth', 'Wei', 'Hank', 'Sofia', 'Andre', 'Paula', 'Jake', 'Lena', 'Marcus', 'Ruth', 'Tyler', 'Ana'];
const LAST = ['Garcia', 'Walker', 'Hernandez', 'Bello', 'Nguyen', 'Olsen', 'Petrov', 'Jones', 'Patel', 'Murphy', 'Ruiz', 'Kowalski', 'Haddad', 'Carter', 'Chen', 'Miller', 'Rossi', 'Baptiste', 'Silva', 'Turner', 'Fischer', 'Reed', 'Cohen', 'Brooks', 'Lopez'];

/**
 * The fleet-registry seed creates the demo devices (paired with vehicles 101…125). Where it has not
 * (an older database), the simulator creates the missing ones so the map is never empty.
 */
export async function ensureDemoTrucks(db: Db, orgId: string): Promise<void> {
  for (let i = 1; i <= DEMO_TRUCKS; i++) {
    const uniqueId = demoUniqueId(i);
    const existing = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.uniqueId, uniqueId));
    if (existing[0]) continue;
    await db.transaction(async (tx) => {
      const unit = String(100 + i);
      let [asset] = await tx.select({ id: assets.id }).from(assets).where(and(eq(assets.organizationId, orgId), sql`lower(${assets.unitNumber}) = ${unit}`));
      if (!asset) {
        const [d] = await tx.insert(drivers).values({ organizationId: orgId, firstName: FIRST[i - 1]!, lastName: LAST[i - 1]! }).returning({ id: drivers.id });
        [asset] = await tx
          .insert(assets)
          .values({ organizationId: orgId, type: 'VEHICLE', unitNumber: unit, make: i % 2 ? 'Freightliner' : 'Kenworth', model: i % 2 ? 'Cascadia' : 'T680', year: 2019 + (i % 6), currentDriverId: d!.id })
          .returning({ id: assets.id });
      }
      await tx.insert(gateways).values({ organizationId: orgId, uniqueId, name: `Demo truck ${String(i).padStart(2, '0')}`, assetId: asset!.id });
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
export async function backfillDemoHistory(db: Db, trucks: readonly DemoTruck[], until: number, days = 7, onProgress: (fraction: number) => void = () => undefined): Promise<number> {
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
    const cols: FixColumns = { t: [], lat: [], lon: [], speed: [], course: [], odo: [], ign: [] };
    for (let t = from; t < until; t += MOVING_EVERY_MS) {
      const s = plan.stateAt(t);
      if (s.kind === 'PARK' && t % PARKED_EVERY_MS !== 0) continue;
      cols.t.push(t / 1000);
      cols.lat.push(s.lat);
      cols.lon.push(s.lon);
      cols.speed.push(s.speed.toFixed(2));
      cols.course.push(s.speed >= MOVING_SPEED_KMH ? s.course.toFixed(1) : 'NULL');
      cols.odo.push(Math.round(s.odometer));
      cols.ign.push(s.ignition ? 't' : 'f');
    }
    // A statement per day of fixes with the columns as arrays (unnest): a few parameters instead of
    // sixteen per row, which makes the first start quick; a day at a time, so the embedded
    // database's one connection (and the event loop it runs on) serves requests in between.
    for (let from = 0; from < cols.t.length; from += BACKFILL_ROWS) {
      const slice = Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, v.slice(from, from + BACKFILL_ROWS)])) as FixColumns;
      written += await insertFixes(db, truck, slice);
    }
  }
  return written;
}

/** Rows per backfill statement: about a day of a truck's fixes. */
const BACKFILL_ROWS = 1_500;

type FixColumns = { t: number[]; lat: number[]; lon: number[]; speed: string[]; course: string[]; odo: number[]; ign: string[] };

async function insertFixes(db: Db, truck: DemoTruck, cols: FixColumns): Promise<number> {
  const arr = (a: ReadonlyArray<number | string>) => `{${a.join(',')}}`;
  const r = rowsOf<{ n: number }>(
    await db.execute(sql`
      with ins as (
        insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, ignition, protocol, attributes)
        select ${truck.orgId}::uuid, ${truck.gatewayId}::uuid, ${truck.assetId}::uuid, ${truck.driverId}::uuid, to_timestamp(u.t), to_timestamp(u.t + 1.5),
               u.lat, u.lon, u.speed, u.course, 250, 5, u.odo, u.ign, 'simulator', '{}'::jsonb
        from unnest(${arr(cols.t)}::float8[], ${arr(cols.lat)}::float8[], ${arr(cols.lon)}::float8[], ${arr(cols.speed)}::real[],
                    ${arr(cols.course)}::real[], ${arr(cols.odo)}::float8[], ${arr(cols.ign)}::boolean[]) as u(t, lat, lon, speed, course, odo, ign)
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
export function runLiveSimulator(trucks: ReadonlyArray<{ index: number; uniqueId: string }>, target: string, intervalS: number, onError: (err: unknown) => void): SimulatorHandle {
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
  void warmUp(plans.map((p) => p.plan), Date.now(), () => stopped).then(() => {
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
