import { sql } from 'drizzle-orm';
import { speedLimitAt } from '@fleet/geo/speed-limits';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';
import type { SafetyEvents } from '../modules/safety/index.ts';
import type { SeedMarks } from './seed-marks.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';

// The demo's driver safety (issue 47): the week's history is made a careful fleet's (limits kept,
// engines off when standing), then gets what real trucks do now and then, as their devices would
// report it, and the follower derives the events from those positions like any other: a few runs over
// the posted limit on the highways (a handful of trucks), harsh braking and acceleration events from
// the devices (one severe braking), and idling at truck stops. About 50-80 events a week. Then a manager
// has worked part of the inbox: one driver needs coaching, one was coached, one event was dismissed.

const MPH = 1.609344;

interface Fix {
  t: string;
  lat: number;
  lon: number;
  speed: number | null;
  ignition: boolean | null;
}

/** Under the fleet maximum (75 mph): the history's trucks keep to 74 mph but in the runs below. */
const HELD_MAX_KPH = 74 * MPH;
/** Over a limit by less than the tolerance (6 mph): not speeding. */
const HELD_OVER_KPH = 3;
/** Engine on while stationary for this long would be idling (5 minutes), within a fix. */
const IDLE_STRETCH_MS = 4 * 60_000;

const arrayOf = (values: readonly string[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;

/** Deterministic picks (the same demo on every fresh start). */
const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length ? list[(i * 7919) % list.length] : undefined);

/** Once (the caller marks it done; each truck's edits are marked as made). Returns the events derived. */
export async function ensureDemoSafety(
  db: Db,
  orgId: string,
  trucks: readonly DemoTruck[],
  safety: SafetyEvents,
  from: number,
  adminUserId: string | null,
  marks: SeedMarks,
): Promise<number> {
  for (const truck of trucks) {
    // Each truck's history edited once (a start after a kill does not edit it twice).
    if (!truck.assetId || marks.has(`safety:${truck.index}`)) continue;
    // In one transaction, then marked: a start after a kill edits no truck twice.
    await db.transaction(async (tx) => {
      const fixes = rowsOf<Fix>(
        await tx.execute(sql`select fix_time::text as t, latitude as lat, longitude as lon, speed, ignition from positions
          where gateway_id = ${truck.gatewayId} and fix_time >= ${new Date(from).toISOString()}::timestamptz order by fix_time`),
      );
      const i = truck.index;
      // The simulator's trucks cruise at their road's pace whatever the state's truck limit (55 mph in
      // California, Oregon, Virginia) and keep the engine running at every stop. A demo fleet is a
      // better one: limits kept (within the tolerance) and under the fleet maximum, engines off when
      // standing, so the week shows a handful of events (issue 47), not hundreds.
      const held: Array<[string, number]> = [];
      for (const f of fixes) {
        if (f.speed === null || f.speed < 1) continue;
        const limit = speedLimitAt(f.lat, f.lon, true);
        const cap = Math.min(HELD_MAX_KPH, limit ? limit.kph + HELD_OVER_KPH : Infinity);
        if (f.speed > cap) {
          f.speed = Math.round(cap * 10) / 10;
          held.push([f.t, f.speed]);
        }
      }
      if (held.length) {
        await tx.execute(sql`update positions p set speed = x.s from unnest(${arrayOf(held.map((h) => h[0]))}::timestamptz[], ${`{${held.map((h) => h[1]).join(',')}}`}::real[]) as x(t, s)
          where p.gateway_id = ${truck.gatewayId} and p.fix_time = x.t`);
      }
      // Standing with the engine on: one stretch left running for one truck in three (a truck stop), the rest switched off.
      const stretches: Array<[number, number]> = [];
      for (let k = 0; k < fixes.length;) {
        if ((fixes[k]!.speed ?? 0) < 1 && fixes[k]!.ignition === true) {
          let j = k;
          while (j + 1 < fixes.length && (fixes[j + 1]!.speed ?? 0) < 1 && fixes[j + 1]!.ignition === true) j++;
          if (Date.parse(fixes[j]!.t) - Date.parse(fixes[k]!.t) >= IDLE_STRETCH_MS) stretches.push([k, j]);
          k = j + 1;
        } else k++;
      }
      const kept =
        i % 3 === 2
          ? pick(
              stretches.filter(([k, j]) => j - k >= 7 && j - k <= 20),
              i,
            )
          : undefined;
      const off = stretches.filter((x) => x !== kept).flatMap(([k, j]) => fixes.slice(k, j + 1).map((f) => f.t));
      if (off.length) {
        await tx.execute(
          sql`update positions p set ignition = false from unnest(${arrayOf(off)}::timestamptz[]) as x(t) where p.gateway_id = ${truck.gatewayId} and p.fix_time = x.t`,
        );
      }
      // Speeding: one truck in three runs over the limit for four to eight minutes on a highway.
      if (i % 3 === 0) {
        const runs: number[] = [];
        for (let k = 10; k < fixes.length - 10; k += 37) {
          const f = fixes[k]!;
          const limit = speedLimitAt(f.lat, f.lon, true);
          if (limit && limit.roadClass.startsWith('HIGHWAY') && (f.speed ?? 0) > 80) runs.push(k);
        }
        for (const [n, k] of [pick(runs, i), pick(runs, i + 5)].entries()) {
          if (k === undefined) continue;
          const over = [8, 13, 18, 23][(i + n) % 4]! * MPH;
          const len = 4 + ((i + n) % 5);
          for (let j = k; j < k + len && j < fixes.length; j++) {
            const f = fixes[j]!;
            const limit = speedLimitAt(f.lat, f.lon, true);
            if (!limit || !limit.roadClass.startsWith('HIGHWAY')) break;
            // Never past 82 mph: a loaded tractor's governor.
            const kph = Math.min(limit.kph + over, 82 * MPH);
            await tx.execute(
              sql`update positions set speed = ${Math.round(kph * 10) / 10} where gateway_id = ${truck.gatewayId} and fix_time = ${f.t}::timestamptz`,
            );
          }
        }
      }
      // Harsh events reported by the device (green driving), on moving fixes.
      const moving = fixes.filter((f) => (f.speed ?? 0) > 30);
      const harsh: Array<{ type: number; value: number }> = [];
      if (i % 2 === 0) harsh.push({ type: 2, value: 4.1 + (i % 4) * 0.2 });
      if (i % 5 === 1) harsh.push({ type: 1, value: 2.8 });
      if (i % 4 === 3) harsh.push({ type: 3, value: 3.3 });
      // The one severe braking of the week (about 0.7 g).
      if (i === 4) harsh.push({ type: 2, value: 6.9 });
      for (const [n, h] of harsh.entries()) {
        const f = pick(moving, i * 3 + n + 1);
        if (!f) continue;
        await tx.execute(sql`update positions set attributes = attributes || ${JSON.stringify({ greenDrivingType: h.type, greenDrivingValue: h.value })}::jsonb
          where gateway_id = ${truck.gatewayId} and fix_time = ${f.t}::timestamptz`);
      }
      // Idling at a rest stop: a third of the trucks leave the engine running through one parked stretch.
      if (i % 3 === 1) {
        const parked: number[] = [];
        for (let k = 1; k + 6 < fixes.length; k++)
          if (fixes.slice(k, k + 6).every((f) => (f.speed ?? 0) < 1) && (fixes[k - 1]!.speed ?? 0) > 30) parked.push(k);
        const k = pick(parked, i);
        if (k !== undefined) {
          for (let j = k; j < k + 6; j++)
            await tx.execute(
              sql`update positions set attributes = attributes || '{"idling": true}'::jsonb where gateway_id = ${truck.gatewayId} and fix_time = ${fixes[j]!.t}::timestamptz`,
            );
        }
      }
    });
    await marks.mark(`safety:${truck.index}`);
  }
  const derived = await safety.recomputeVehicles(
    orgId,
    trucks.flatMap((t) => (t.assetId ? [t.assetId] : [])),
    from,
  );
  // Part of the inbox worked: the lowest-scoring kind of driver needs coaching, one coached, one dismissal.
  const events = rowsOf<{ id: string; driver_id: string | null; type: string; started_at: string }>(
    await db.execute(
      sql`select id, driver_id, type, started_at::text from safety_events where organization_id = ${orgId} and driver_id is not null order by started_at`,
    ),
  );
  const history = (status: string, note: string) =>
    JSON.stringify([{ at: new Date().toISOString(), action: 'REVIEW', status, userId: adminUserId, userName: 'Dana Whitfield', note }]);
  const speeding = events.filter((e) => e.type === 'SPEEDING');
  const coach = speeding[0] ?? events[0];
  if (coach) {
    await db.execute(sql`update safety_events set status = 'NEEDS_COACHING', coach_id = ${adminUserId}, due_at = now() + interval '14 days', note = 'Speeding on the interstate: talk through the trip plan',
      history = ${history('NEEDS_COACHING', 'Speeding on the interstate: talk through the trip plan')}::jsonb where organization_id = ${orgId} and id = ${coach.id}`);
  }
  const coached = events.find((e) => e.type === 'HARSH_BRAKING' && e.id !== coach?.id);
  if (coached) {
    await db.execute(sql`update safety_events set status = 'COACHED', coach_id = ${adminUserId}, note = 'Reviewed following distance with the driver', acknowledged_at = now(),
      history = ${history('COACHED', 'Reviewed following distance with the driver')}::jsonb where organization_id = ${orgId} and id = ${coached.id}`);
  }
  const dismissed = events.find((e) => e.type === 'IDLING');
  if (dismissed) {
    await db.execute(sql`update safety_events set status = 'DISMISSED', note = 'Cold morning: engine warm-up', history = ${history('DISMISSED', 'Cold morning: engine warm-up')}::jsonb
      where organization_id = ${orgId} and id = ${dismissed.id}`);
  }
  return derived;
}
