import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import {
  FUEL_TYPES,
  IMPORTED_PROTOCOL,
  JURISDICTIONS,
  quarterDays,
  quarterLabel,
  quarterOf,
  type IftaDistanceDay,
  type IftaFilters,
  type Page,
} from '@fleet/api-contract';
import { IFTA_JURISDICTIONS } from '@fleet/geo/jurisdictions';
import type { DbOrTx } from '../../db/client.ts';
import { assets, iftaCrossings, iftaFilings, iftaRateQuarters } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { iftaClockOf } from './ifta-zone.ts';

// The distance record an auditor asks for (per vehicle and day: first and last fix, odometer at
// each end, miles per jurisdiction, the lines crossed) and the report's filter lists.

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());
const dayText = (v: string | Date): string => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));

export async function listDistanceDays(
  { db, orgId }: ReadScope,
  q: { quarter: string; assetId?: string; page: number; size: number },
): Promise<Page<IftaDistanceDay>> {
  const { from, to } = quarterDays(q.quarter);
  // The days are the base jurisdiction's (decision 0189).
  const { zone } = await iftaClockOf(db, orgId);
  const vehicle = q.assetId ? sql`and d.vehicle_id = ${q.assetId}` : sql``;
  const [count] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from ifta_vehicle_days d where d.organization_id = ${orgId} and d.day >= ${from} and d.day < ${to} ${vehicle}`,
    ),
  );
  const days = rowsOf<{
    vehicle_id: string;
    unit: string | null;
    day: string | Date;
    first_fix_at: Date | string | null;
    last_fix_at: Date | string | null;
    odometer_start_m: number | null;
    odometer_end_m: number | null;
    j: string | null;
    imported: boolean;
  }>(
    await db.execute(sql`select d.vehicle_id, a.unit_number as unit, d.day, d.first_fix_at, d.last_fix_at, d.odometer_start_m, d.odometer_end_m,
        (select json_agg(json_build_array(x.jurisdiction, x.metres, x.interpolated_metres) order by x.metres desc)::text from ifta_distance_days x
          where x.organization_id = d.organization_id and x.vehicle_id = d.vehicle_id and x.day = d.day) as j,
        exists (select 1 from positions p where p.organization_id = d.organization_id and p.asset_id = d.vehicle_id and p.protocol = ${IMPORTED_PROTOCOL}
          and p.fix_time >= d.day::timestamp at time zone ${zone} and p.fix_time < (d.day + 1)::timestamp at time zone ${zone}) as imported
      from ifta_vehicle_days d left join assets a on a.id = d.vehicle_id and a.organization_id = d.organization_id
      where d.organization_id = ${orgId} and d.day >= ${from} and d.day < ${to} ${vehicle}
      order by a.unit_number, d.day limit ${q.size} offset ${q.page * q.size}`),
  );
  const keys = days.map((d) => `${d.vehicle_id}|${dayText(d.day)}`);
  const crossings = days.length
    ? await db
        .select()
        .from(iftaCrossings)
        .where(
          and(
            eq(iftaCrossings.organizationId, orgId),
            gte(iftaCrossings.day, from),
            lt(iftaCrossings.day, to),
            sql`${iftaCrossings.vehicleId}::text || '|' || ${iftaCrossings.day}::text = any(${`{${keys.join(',')}}`}::text[])`,
          ),
        )
        .orderBy(asc(iftaCrossings.crossedAt))
    : [];
  const byKey = new Map<string, IftaDistanceDay['crossings']>();
  for (const c of crossings) {
    const k = `${c.vehicleId}|${c.day}`;
    const list = byKey.get(k) ?? [];
    list.push({
      time: c.crossedAt.toISOString(),
      latitude: c.latitude,
      longitude: c.longitude,
      odometerM: c.odometerM,
      from: c.fromJurisdiction,
      to: c.toJurisdiction,
    });
    byKey.set(k, list);
  }
  const content = days.map((d) => {
    const j = (d.j ? (JSON.parse(d.j) as Array<[string, number, number]>) : []).map(([jurisdiction, metres, interpolatedMetres]) => ({
      jurisdiction,
      metres,
      interpolatedMetres,
    }));
    return {
      assetId: d.vehicle_id,
      unitNumber: d.unit ?? '(removed vehicle)',
      day: dayText(d.day),
      firstFixAt: iso(d.first_fix_at),
      lastFixAt: iso(d.last_fix_at),
      odometerStartM: d.odometer_start_m,
      odometerEndM: d.odometer_end_m,
      metres: j.reduce((s, x) => s + x.metres, 0),
      jurisdictions: j,
      crossings: byKey.get(`${d.vehicle_id}|${dayText(d.day)}`) ?? [],
      imported: d.imported === true,
    };
  });
  return toPage(content, count?.n ?? 0, q);
}

const NAMES = new Map<string, string>(JURISDICTIONS.map(([c, n]) => [c, n]));

/** Quarters with miles or purchases (and the current and previous ones), fuel types, jurisdictions. */
export async function iftaFilters(db: DbOrTx, orgId: string | null): Promise<IftaFilters> {
  const now = Date.now();
  const current = quarterOf(now);
  const quarters = new Set<string>([current]);
  const { from: curFrom } = quarterDays(current);
  quarters.add(quarterOf(Date.parse(`${curFrom}T00:00:00Z`) - 1));
  const miles = new Set<string>();
  const purchases = new Set<string>();
  const filed = new Map<string, number>();
  let inUse = new Set<string>(['DIESEL']);
  if (orgId) {
    const { zone } = await iftaClockOf(db, orgId);
    const [m, p, f, fuels] = await Promise.all([
      db.execute(sql`select distinct to_char(date_trunc('quarter', day), 'YYYY') || 'Q' || extract(quarter from day)::int as q
        from (select day from ifta_vehicle_days where organization_id = ${orgId} group by day) d`),
      db.execute(sql`select distinct to_char(purchased_at at time zone ${zone}, 'YYYY') || 'Q' || extract(quarter from purchased_at at time zone ${zone})::int as q
        from ifta_fuel_purchases where organization_id = ${orgId}`),
      db
        .select({ q: iftaFilings.quarter, v: sql<number>`max(${iftaFilings.version})::int` })
        .from(iftaFilings)
        .where(eq(iftaFilings.organizationId, orgId))
        .groupBy(iftaFilings.quarter),
      db
        .selectDistinct({ f: sql<string>`coalesce(${assets.fuelType}, 'DIESEL')` })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'))),
    ]);
    for (const r of rowsOf<{ q: string }>(m)) miles.add(r.q);
    for (const r of rowsOf<{ q: string }>(p)) purchases.add(r.q);
    for (const r of f) filed.set(r.q, r.v);
    inUse = new Set(['DIESEL', ...fuels.map((x) => x.f)]);
  }
  const rated = new Set((await db.select({ q: iftaRateQuarters.quarter }).from(iftaRateQuarters)).map((r) => r.q));
  for (const q of [...miles, ...purchases, ...filed.keys()]) quarters.add(q);
  if (!orgId) for (const q of rated) quarters.add(q);
  return {
    currentQuarter: current,
    quarters: [...quarters]
      .filter((q) => q <= current)
      .sort()
      .reverse()
      .map((q) => ({
        quarter: q,
        label: quarterLabel(q),
        hasMiles: miles.has(q),
        hasPurchases: purchases.has(q),
        hasRates: rated.has(q),
        filedVersion: filed.get(q) ?? null,
      })),
    fuelTypes: FUEL_TYPES.map(([code, label]) => ({ code, label, inUse: inUse.has(code) })),
    jurisdictions: [
      ...JURISDICTIONS.map(([code]) => ({
        code,
        name: NAMES.get(code) ?? code,
        country: ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'].includes(code) ? 'CA' : 'US',
        member: IFTA_JURISDICTIONS.has(code),
      })),
      { code: 'MX', name: 'Mexico', country: 'MX', member: false },
    ],
  };
}
