import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';
import { recordTemperatures, type TemperatureInput } from '../modules/temperatures/index.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';

// The demo's reefers (issue 73): the first two reefer trailers pulled by two running loads (the
// chilled dairy's, with an excursion last night; the frozen foods', with defrost cycles that do not
// count), each with a return-air and a supply-air probe read by its truck's device every 5 minutes
// from the load's pick-up to now. Made once, at the first start (a part marked done); every step is
// idempotent all the same (the same loads, the same readings by their keys, the same excursions).

const MIN = 60_000;
const HOUR = 60 * MIN;
const STEP = 5 * MIN;
/**
 * Readings recorded a call, one INSERT of 7 values a row: the embedded database's memory grows to a
 * statement's needs and never shrinks (WebAssembly memory). At 2,000 a statement had 14,000 parameters
 * (57 kB of SQL); at 200 none of them grows it (decision 0326).
 */
const READINGS_PER_CALL = 200;
/** Readings go back at most this far (a long-running load's record starts here). */
const MAX_BACK = 2 * 24 * HOUR;

export interface DemoReefers {
  loads: string[];
  readings: number;
  excursions: number;
}

/** A repeatable wobble in [-1, 1] from a time (the same reading on every seeding). */
const wobble = (t: number, k: number) => Math.sin(t / (37 * MIN) + k) * 0.6 + Math.sin(t / (11 * MIN) + 2 * k) * 0.4;
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The most recent 01:30 in `zone` at least two hours before `now`: "last night". */
export function lastNight(now: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(now);
  const h = Number(parts.find((p) => p.type === 'hour')!.value);
  const m = Number(parts.find((p) => p.type === 'minute')!.value);
  const sinceMidnight = (h * 60 + m) * MIN;
  let at = Math.floor((now - sinceMidnight) / MIN) * MIN + 90 * MIN;
  while (at > now - 2 * HOUR) at -= 24 * HOUR;
  return at;
}

export async function ensureDemoReefers(db: Db, orgId: string, trucks: readonly DemoTruck[], now: number): Promise<DemoReefers> {
  const trailers = rowsOf<{ id: string; unit: string }>(
    await db.execute(sql`select id, unit_number as unit from assets where organization_id = ${orgId} and type = 'TRAILER' and trailer_type = 'REEFER'
      and status = 'ACTIVE' order by unit_number limit 2`),
  );
  // The running loads on the demo trucks, the longest on the road first (its record covers last night).
  const running = rowsOf<{ id: string; number: string; asset_id: string; from_ms: number | string }>(
    await db.execute(sql`select l.id, l.number, l.asset_id, extract(epoch from coalesce(s.arrived_at, s.window_start))::float8 * 1000 as from_ms
      from loads l join load_stops s on s.organization_id = l.organization_id and s.load_id = l.id and s.seq = 0
      where l.organization_id = ${orgId} and l.status in ('EN_ROUTE', 'AT_STOP') and l.asset_id is not null
      order by coalesce(s.arrived_at, s.window_start), l.number limit 2`),
  );
  const gatewayOf = new Map(trucks.flatMap((t) => (t.assetId ? [[t.assetId, t.gatewayId] as const] : [])));
  const zone = rowsOf<{ zone: string }>(await db.execute(sql`select time_zone as zone from organizations where id = ${orgId}`))[0]?.zone ?? 'America/Chicago';
  const out: DemoReefers = { loads: [], readings: 0, excursions: 0 };
  const kinds = [
    { commodity: 'Chilled dairy', setPointC: 2, excursion: true },
    { commodity: 'Frozen foods', setPointC: -18, excursion: false },
  ];
  for (const [i, load] of running.entries()) {
    const trailer = trailers[i];
    const gatewayId = gatewayOf.get(load.asset_id);
    const kind = kinds[i]!;
    if (!trailer || !gatewayId) continue;
    await db.execute(sql`update loads set trailer_id = ${trailer.id}, commodity = ${kind.commodity}
      where organization_id = ${orgId} and id = ${load.id} and (trailer_id is distinct from ${trailer.id} or commodity is distinct from ${kind.commodity})`);
    await db.execute(sql`insert into trailer_sensors (organization_id, asset_id, sensor, role) values
      (${orgId}, ${trailer.id}, 'return', 'RETURN_AIR'), (${orgId}, ${trailer.id}, 'supply', 'SUPPLY_AIR') on conflict do nothing`);
    const from = Math.ceil(Math.max(Number(load.from_ms), now - MAX_BACK) / STEP) * STEP;
    // Last night's excursion: the door left open at a dock, 50 minutes 5 °C above the band's top.
    const night = Math.max(lastNight(now, zone), from + 30 * MIN);
    const readings: TemperatureInput[] = [];
    for (let t = from; t <= now; t += STEP) {
      const sp = kind.setPointC;
      // A defrost every 8 hours of the load, 25 minutes, the return air warming well out of the band.
      const sinceStart = t - from;
      const defrost = !kind.excursion && sinceStart % (8 * HOUR) >= 4 * HOUR && sinceStart % (8 * HOUR) < 4 * HOUR + 25 * MIN;
      const open = kind.excursion && t >= night && t < night + 50 * MIN;
      let ret = sp + wobble(t, i) * 0.8;
      if (defrost) ret = sp + 7 + wobble(t, i);
      if (open) ret = sp + 4.5 + ((t - night) / (50 * MIN)) * 2;
      const base = { organizationId: orgId, gatewayId, assetId: trailer.id, at: new Date(t), defrost };
      readings.push({ ...base, sensor: 'return', celsius: round1(ret) }, { ...base, sensor: 'supply', celsius: round1(sp - 2.5 + wobble(t, i + 3) * 0.5) });
    }
    for (let k = 0; k < readings.length; k += READINGS_PER_CALL) {
      const r = await recordTemperatures(db, readings.slice(k, k + READINGS_PER_CALL), now);
      out.readings += r.stored;
      out.excursions += r.opened;
    }
    out.loads.push(`${load.number} (${kind.commodity}, trailer ${trailer.unit})`);
  }
  return out;
}
