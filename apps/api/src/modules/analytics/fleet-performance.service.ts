import { eq, sql } from 'drizzle-orm';
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  FLEET_PERFORMANCE_MAX_DAYS,
  type FleetPerformance,
  type PerformanceTotals,
  type fleetPerformanceQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import { groups, organizations } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { assertGroup } from '../groups/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { fuelOverDrivenSpan, type FuelOverSpan } from './fuel-hook.ts';
import type { ReadScope } from '../auth/index.ts';

const DAY = 86_400_000;

interface Sums {
  distance_m: number;
  driving_ms: number;
  idle_ms: number;
  top_speed: number | null;
  speeding: number;
  stops: number;
  active_days: number;
}

/** Fuel and distance of the vehicles that have both, over their days with positions. */
type FuelSpan = NonNullable<PerformanceTotals['fuelSpan']>;

/** Totals of summed daily rows over `days` days (utilization is engine-on time over the range's hours). */
export function totalsOf(r: Sums, days: number, fuel: FuelSpan | null): PerformanceTotals {
  const distanceM = Number(r.distance_m);
  const drivingMs = Number(r.driving_ms);
  const idleMs = Number(r.idle_ms);
  return {
    distanceM,
    drivingMs,
    idleMs,
    utilizationPct: days > 0 ? Math.round(((drivingMs + idleMs) / (days * DAY)) * 1000) / 10 : 0,
    avgSpeedKmh: drivingMs > 0 ? Math.round((distanceM / 1000 / (drivingMs / 3_600_000)) * 10) / 10 : null,
    topSpeedKmh: r.top_speed === null ? null : Math.round(Number(r.top_speed) * 10) / 10,
    speedingEvents: Number(r.speeding),
    stops: Number(r.stops),
    activeDays: Number(r.active_days),
    fuelLPer100Km: fuel && fuel.distanceM > 0 ? Math.round((fuel.litres / (fuel.distanceM / 100_000)) * 10) / 10 : null,
    fuelSpan: fuel && fuel.distanceM > 0 ? fuel : null,
  };
}

const sums = sql`coalesce(sum(s.distance_m), 0)::float8 as distance_m, coalesce(sum(s.driving_ms), 0)::float8 as driving_ms,
  coalesce(sum(s.idle_ms), 0)::float8 as idle_ms, max(s.max_speed_kmh)::float8 as top_speed,
  coalesce(sum(s.speeding_events), 0)::int as speeding, coalesce(sum(s.stops), 0)::int as stops,
  count(*) filter (where s.driving_ms > 0)::int as active_days`;

/**
 * Fleet performance of [from, to] (calendar days, both included): per vehicle, per group (and the
 * vehicles in none), the fleet, and per day; sums of vehicle_daily_stats rows on the (organization,
 * day) index, so a quarter of 500 vehicles is about 46,000 rows summed in the database.
 */
export async function fleetPerformance({ db, orgId }: ReadScope, q: z.output<typeof fleetPerformanceQuery>): Promise<FleetPerformance> {
  if (q.to < q.from) throw invalidField('to', 'To must be on or after From');
  const days = Math.round((Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / DAY) + 1;
  if (days > FLEET_PERFORMANCE_MAX_DAYS) throw invalidField('to', `The range may cover at most ${FLEET_PERFORMANCE_MAX_DAYS} days`);
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  const limit = (org?.settings?.telematics as { speedLimitKmh?: unknown } | undefined)?.speedLimitKmh;
  const inGroup = q.groupId
    ? sql`and exists (select 1 from group_assets ga where ga.asset_id = s.asset_id and ga.group_id = ${q.groupId} and ga.organization_id = ${orgId})`
    : sql``;
  const where = sql`s.organization_id = ${orgId} and s.day >= ${q.from}::date and s.day <= ${q.to}::date ${inGroup}`;
  const [perVehicle, perDay] = await Promise.all([
    db.execute(sql`select s.asset_id, a.unit_number,
        coalesce((select array_agg(gr.name order by gr.name) from group_assets ga join groups gr on gr.id = ga.group_id and gr.organization_id = ga.organization_id
          where ga.asset_id = s.asset_id and ga.organization_id = ${orgId}), '{}') as groups,
        ${sums}
      from vehicle_daily_stats s join assets a on a.id = s.asset_id and a.organization_id = s.organization_id
      where ${where}
      group by s.asset_id, a.unit_number order by a.unit_number`),
    db.execute(sql`select s.day::text as day, coalesce(sum(s.distance_m), 0)::float8 as distance_m, coalesce(sum(s.driving_ms), 0)::float8 as driving_ms,
        coalesce(sum(s.idle_ms), 0)::float8 as idle_ms, coalesce(sum(s.speeding_events), 0)::int as speeding, count(*) filter (where s.driving_ms > 0)::int as driven
      from vehicle_daily_stats s where ${where} group by s.day order by s.day`),
  ]);
  const fuel = await fuelOverDrivenSpan(db, orgId, q.from, q.to);
  const vehicleFuel = (assetId: string, distanceM: number): FuelSpan | null => {
    const f: FuelOverSpan | undefined = fuel.get(assetId);
    return f ? { from: f.from, to: f.to, vehicles: 1, distanceM, litres: f.litres } : null;
  };
  const vehicles = rowsOf<Sums & { asset_id: string; unit_number: string; groups: string[] | string }>(perVehicle).map((r) => ({
    assetId: r.asset_id,
    unitNumber: r.unit_number,
    groups: Array.isArray(r.groups) ? r.groups : parseArray(r.groups),
    ...totalsOf(r, days, vehicleFuel(r.asset_id, Number(r.distance_m))),
  }));
  // Per group: the vehicles' rows summed again (a vehicle in two groups counts in both).
  const byGroup = new Map<string, { name: string; members: typeof vehicles }>();
  for (const v of vehicles)
    for (const name of v.groups.length ? v.groups : ['']) {
      const g = byGroup.get(name) ?? { name, members: [] };
      g.members.push(v);
      byGroup.set(name, g);
    }
  const groupIds = new Map(
    (await db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.organizationId, orgId))).map((g) => [g.name, g.id]),
  );
  const sumOf = (list: typeof vehicles): Sums => ({
    distance_m: list.reduce((a, v) => a + v.distanceM, 0),
    driving_ms: list.reduce((a, v) => a + v.drivingMs, 0),
    idle_ms: list.reduce((a, v) => a + v.idleMs, 0),
    top_speed: list.reduce<number | null>((a, v) => (v.topSpeedKmh === null ? a : a === null ? v.topSpeedKmh : Math.max(a, v.topSpeedKmh)), null),
    speeding: list.reduce((a, v) => a + v.speedingEvents, 0),
    stops: list.reduce((a, v) => a + v.stops, 0),
    active_days: list.reduce((a, v) => a + v.activeDays, 0),
  });
  // A group's or the fleet's economy: only the vehicles with both fuel and distance, over their spans
  // (a vehicle without fuel data would make the others' fuel go further).
  const fuelOf = (list: typeof vehicles): FuelSpan | null => {
    const spans = list.flatMap((v) => (v.fuelSpan ? [v.fuelSpan] : []));
    if (spans.length === 0) return null;
    return {
      from: spans.reduce((a, s) => (s.from < a ? s.from : a), spans[0]!.from),
      to: spans.reduce((a, s) => (s.to > a ? s.to : a), spans[0]!.to),
      vehicles: spans.length,
      distanceM: spans.reduce((a, s) => a + s.distanceM, 0),
      litres: spans.reduce((a, s) => a + s.litres, 0),
    };
  };
  const groupsOut = [...byGroup.values()]
    .sort((a, b) => (a.name === '' ? 1 : b.name === '' ? -1 : a.name.localeCompare(b.name)))
    .map((g) => ({
      groupId: g.name ? (groupIds.get(g.name) ?? null) : null,
      name: g.name || 'In no group',
      vehicles: g.members.length,
      // Utilization per vehicle: the group's engine-on time over its vehicles' hours.
      ...totalsOf(sumOf(g.members), days * Math.max(1, g.members.length), fuelOf(g.members)),
    }));
  return {
    from: q.from,
    to: q.to,
    days,
    speedLimitKmh: typeof limit === 'number' ? limit : DEFAULT_ORGANIZATION_SETTINGS.telematics.speedLimitKmh,
    fleet: { vehicles: vehicles.length, ...totalsOf(sumOf(vehicles), days * Math.max(1, vehicles.length), fuelOf(vehicles)) },
    vehicles,
    groups: groupsOut,
    perDay: rowsOf<{ day: string; distance_m: number; driving_ms: number; idle_ms: number; speeding: number; driven: number }>(perDay).map((r) => ({
      date: r.day,
      distanceM: Number(r.distance_m),
      drivingMs: Number(r.driving_ms),
      idleMs: Number(r.idle_ms),
      speedingEvents: Number(r.speeding),
      vehiclesDriven: Number(r.driven),
    })),
  };
}

/** A PostgreSQL text array as PGlite may hand it back (`{a,"b c"}`). */
function parseArray(v: string): string[] {
  if (!v || v === '{}') return [];
  return v
    .slice(1, -1)
    .match(/"((?:[^"\\]|\\.)*)"|[^,]+/g)!
    .map((x) => (x.startsWith('"') ? x.slice(1, -1).replace(/\\(.)/g, '$1') : x));
}
