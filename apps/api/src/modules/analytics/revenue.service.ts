import { eq, sql } from 'drizzle-orm';
import { distanceM } from '@fleet/geo/distance';
import { DEFAULT_ORGANIZATION_SETTINGS, type RevenueGroup, type RevenueReport, type UnitSystem, type revenueQuerySchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { organizations, users } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { invalidField } from '../../http/errors.ts';
import type { ReadScope } from '../auth/index.ts';

// Revenue (issue 33, decision 0166): the delivered loads whose delivery (the departure from the
// last stop, or the time marked delivered) falls in [from, to), summed per truck, driver, customer
// or lane and per week or month in the reader's zone. Per load:
// - revenue: the rate's total (line haul + fuel surcharge + accessorials), in cents while summed;
// - loaded: the load's road distance (`loaded_m`, the routing port), else the truck's positions
//   between leaving the first pick-up and reaching the last delivery;
// - deadhead: the truck's positions between the previous delivery of that truck (at most 48 h
//   back) and reaching this load's first pick-up;
// - total: loaded + deadhead.
// Distances are whole metres per load, so totals, rows and periods add up exactly.

type Query = z.output<typeof revenueQuerySchema>;
export const REVENUE_MAX_DAYS = 400;
const DEADHEAD_LOOKBACK_MS = 48 * 3_600_000;
/** Fix-to-fix moves shorter than this are GPS jitter while parked, not driving. */
const JITTER_M = 10;

export interface RevenueContext {
  timeZone: string;
  units: UnitSystem;
}

/** The reader's zone (their profile's, else the organization's) and the organization's units. */
export async function revenueContext(s: ReadScope, userId: string | null): Promise<RevenueContext> {
  const [o] = await s.db.select({ tz: organizations.timeZone, settings: organizations.settings }).from(organizations).where(eq(organizations.id, s.orgId));
  const [me] = userId ? await s.db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId)) : [];
  const units = (o?.settings as { units?: UnitSystem } | null)?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
  return { timeZone: me?.tz || o?.tz || 'UTC', units };
}

interface LoadFacts {
  id: string;
  number: string;
  customer: string;
  driverId: string | null;
  driverName: string | null;
  assetId: string | null;
  unitNumber: string | null;
  currency: string;
  revenueCents: number;
  loadedM: number;
  deadheadM: number;
  period: string;
  origin: string;
  destination: string;
}

interface Sums {
  loads: number;
  cents: number;
  loadedM: number;
  deadheadM: number;
}

const endpoint = (name: string | null, address: string | null, lat: number, lon: number) => name ?? address ?? `${lat.toFixed(2)}, ${lon.toFixed(2)}`;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Metres the trucks drove in each window, from their stored positions: the fixes of every window in
 * one statement as JSON text (on the embedded database about twice as quick as a window function
 * over the rows), summed here step by step, leaving out jitter. The sub-select names the
 * organization as a parameter, so Citus routes the statement to one shard.
 */
async function distances(s: ReadScope, windows: ReadonlyArray<{ assetId: string; from: number; to: number }>): Promise<number[]> {
  if (windows.length === 0) return [];
  const rows = rowsOf<{ i: number; j: string | null }>(
    await s.db.execute(sql`select k.i, (select json_agg(json_build_array(p.latitude, p.longitude) order by p.fix_time)::text
        from positions p where p.organization_id = ${s.orgId} and p.asset_id = k.asset_id and p.fix_time >= k.f and p.fix_time <= k.t) as j
      from unnest(${`{${windows.map((_, i) => i).join(',')}}`}::int[], ${`{${windows.map((w) => w.assetId).join(',')}}`}::uuid[],
        ${`{${windows.map((w) => iso(w.from)).join(',')}}`}::timestamptz[], ${`{${windows.map((w) => iso(w.to)).join(',')}}`}::timestamptz[]) as k(i, asset_id, f, t)`),
  );
  const out = windows.map(() => 0);
  for (const r of rows) {
    const fixes = r.j ? (JSON.parse(r.j) as Array<[number, number]>) : [];
    let m = 0;
    for (let k = 1; k < fixes.length; k++) {
      const step = distanceM({ lat: fixes[k - 1]![0], lon: fixes[k - 1]![1] }, { lat: fixes[k]![0], lon: fixes[k]![1] });
      if (step >= JITTER_M) m += step;
    }
    out[Number(r.i)] = Math.round(m);
  }
  return out;
}

/** Each delivered load of the range with its figures. */
export async function revenueLoads(s: ReadScope, ctx: RevenueContext, q: Query): Promise<LoadFacts[]> {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (to <= from) throw invalidField('to', 'To must be after From');
  if (to - from > REVENUE_MAX_DAYS * 86_400_000) throw invalidField('to', `The range may cover at most ${REVENUE_MAX_DAYS} days`);
  const unit = q.period === 'week' ? 'week' : 'month';
  const rows = rowsOf<{
    id: string;
    number: string;
    customer: string;
    driver_id: string | null;
    driver_name: string | null;
    asset_id: string | null;
    unit_number: string | null;
    currency: string;
    cents: number | string;
    loaded_m: number | null;
    period: string;
    first_arrived: number | string | null;
    first_departed: number | string | null;
    last_arrived: number | string | null;
    prev_delivered: number | string | null;
    o_name: string | null;
    o_address: string | null;
    o_lat: number;
    o_lon: number;
    d_name: string | null;
    d_address: string | null;
    d_lat: number;
    d_lon: number;
  }>(
    await s.db.execute(sql`select l.id, l.number, l.customer, l.driver_id, nullif(trim(concat_ws(' ', d.first_name, d.last_name)), '') as driver_name,
        l.asset_id, a.unit_number, l.currency,
        (l.line_haul_cents + l.fuel_surcharge_cents + coalesce((select sum((x->>'amountCents')::bigint) from jsonb_array_elements(l.accessorials) x), 0))::bigint as cents,
        l.loaded_m, to_char(date_trunc(${unit}, l.delivered_at at time zone ${ctx.timeZone}), 'YYYY-MM-DD') as period,
        extract(epoch from f.arrived_at) * 1000 as first_arrived, extract(epoch from f.departed_at) * 1000 as first_departed,
        extract(epoch from e.arrived_at) * 1000 as last_arrived,
        (select extract(epoch from max(p.delivered_at)) * 1000 from loads p where p.organization_id = ${s.orgId} and p.asset_id = l.asset_id
          and p.status = 'DELIVERED' and p.id <> l.id and p.delivered_at <= f.arrived_at) as prev_delivered,
        fp.name as o_name, f.address as o_address, f.latitude as o_lat, f.longitude as o_lon,
        ep.name as d_name, e.address as d_address, e.latitude as d_lat, e.longitude as d_lon
      from loads l
      join load_stops f on f.load_id = l.id and f.organization_id = l.organization_id
        and f.seq = (select min(seq) from load_stops z where z.load_id = l.id and z.organization_id = ${s.orgId})
      join load_stops e on e.load_id = l.id and e.organization_id = l.organization_id
        and e.seq = (select max(seq) from load_stops z where z.load_id = l.id and z.organization_id = ${s.orgId})
      left join places fp on fp.id = f.place_id and fp.organization_id = f.organization_id
      left join places ep on ep.id = e.place_id and ep.organization_id = e.organization_id
      left join drivers d on d.id = l.driver_id and d.organization_id = l.organization_id
      left join assets a on a.id = l.asset_id and a.organization_id = l.organization_id
      where l.organization_id = ${s.orgId} and l.status = 'DELIVERED'
        and l.delivered_at >= ${q.from}::timestamptz and l.delivered_at < ${q.to}::timestamptz
      order by l.delivered_at, l.id`),
  );
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  // Windows of positions: the deadhead of every load with a truck and a pick-up arrival, and the loaded distance where no road distance is kept.
  const deadheadWindows: Array<{ assetId: string; from: number; to: number; i: number }> = [];
  const loadedWindows: Array<{ assetId: string; from: number; to: number; i: number }> = [];
  rows.forEach((r, i) => {
    const arrived = num(r.first_arrived);
    if (r.asset_id && arrived !== null)
      deadheadWindows.push({ assetId: r.asset_id, from: Math.max(num(r.prev_delivered) ?? -Infinity, arrived - DEADHEAD_LOOKBACK_MS), to: arrived, i });
    const start = num(r.first_departed) ?? arrived;
    const end = num(r.last_arrived);
    if (r.loaded_m === null && r.asset_id && start !== null && end !== null && end > start)
      loadedWindows.push({ assetId: r.asset_id, from: start, to: end, i });
  });
  const [deadhead, loaded] = await Promise.all([distances(s, deadheadWindows), distances(s, loadedWindows)]);
  const deadheadOf = new Map(deadheadWindows.map((w, k) => [w.i, deadhead[k]!]));
  const loadedOf = new Map(loadedWindows.map((w, k) => [w.i, loaded[k]!]));
  return rows.map((r, i) => ({
    id: r.id,
    number: r.number,
    customer: r.customer,
    driverId: r.driver_id,
    driverName: r.driver_name,
    assetId: r.asset_id,
    unitNumber: r.unit_number,
    currency: r.currency,
    revenueCents: Number(r.cents),
    loadedM: r.loaded_m !== null ? Math.round(Number(r.loaded_m)) : (loadedOf.get(i) ?? 0),
    deadheadM: deadheadOf.get(i) ?? 0,
    period: r.period,
    origin: endpoint(r.o_name, r.o_address, Number(r.o_lat), Number(r.o_lon)),
    destination: endpoint(r.d_name, r.d_address, Number(r.d_lat), Number(r.d_lon)),
  }));
}

function groupOf(l: LoadFacts, by: RevenueGroup): { key: string; label: string } {
  if (by === 'truck') return { key: l.assetId ?? 'none', label: l.unitNumber ?? 'No truck' };
  if (by === 'driver') return { key: l.driverId ?? 'none', label: l.driverName ?? 'No driver' };
  if (by === 'customer') return { key: l.customer.trim().toLowerCase(), label: l.customer.trim() };
  const lane = `${l.origin} → ${l.destination}`;
  return { key: lane.toLowerCase(), label: lane };
}

function periodLabel(period: string, kind: 'week' | 'month'): string {
  const d = new Date(`${period}T12:00:00Z`);
  if (kind === 'month') return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);
  return `Week of ${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(d)}`;
}

const per = (cents: number, m: number) => (m > 0 ? Math.round((cents / 100 / (m / 1000)) * 10_000) / 10_000 : null);
function figures(x: Sums) {
  return {
    loads: x.loads,
    revenue: x.cents / 100,
    loadedKm: x.loadedM / 1000,
    deadheadKm: x.deadheadM / 1000,
    totalKm: (x.loadedM + x.deadheadM) / 1000,
    revenuePerLoadedKm: per(x.cents, x.loadedM),
    revenuePerTotalKm: per(x.cents, x.loadedM + x.deadheadM),
  };
}
const add = (into: Sums, l: LoadFacts) => {
  into.loads++;
  into.cents += l.revenueCents;
  into.loadedM += l.loadedM;
  into.deadheadM += l.deadheadM;
};
const zero = (): Sums => ({ loads: 0, cents: 0, loadedM: 0, deadheadM: 0 });

/** The report: totals, one row per group (most revenue first), one per week or month. */
export function summarize(list: readonly LoadFacts[], ctx: RevenueContext, q: Pick<Query, 'groupBy' | 'period'>): RevenueReport {
  const totals = zero();
  const groups = new Map<string, { label: string; sums: Sums }>();
  const periods = new Map<string, Sums>();
  for (const l of list) {
    add(totals, l);
    const g = groupOf(l, q.groupBy);
    const row = groups.get(g.key) ?? { label: g.label, sums: zero() };
    // The latest delivery's spelling names the group (loads come in delivery order).
    row.label = g.label;
    add(row.sums, l);
    groups.set(g.key, row);
    const p = periods.get(l.period) ?? zero();
    add(p, l);
    periods.set(l.period, p);
  }
  const currencies = [...new Set(list.map((l) => l.currency))];
  return {
    currency: currencies.length === 1 ? currencies[0]! : currencies.length ? currencies.join('/') : 'USD',
    timeZone: ctx.timeZone,
    totals: figures(totals),
    rows: [...groups.entries()]
      .sort((a, b) => b[1].sums.cents - a[1].sums.cents || a[1].label.localeCompare(b[1].label))
      .map(([key, g]) => ({ key, label: g.label, ...figures(g.sums) })),
    series: [...periods.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, sums]) => ({ period, label: periodLabel(period, q.period), ...figures(sums) })),
  };
}

export async function revenueReport(s: ReadScope, userId: string | null, q: Query): Promise<RevenueReport> {
  const ctx = await revenueContext(s, userId);
  return summarize(await revenueLoads(s, ctx, q), ctx, q);
}
