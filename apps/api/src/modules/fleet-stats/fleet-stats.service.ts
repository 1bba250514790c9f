import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { latestPositions, organizations, positions, vehicleDailyStats } from '../../db/schema/index.ts';
import { dayStartMs, logDateOf, nextDate } from '../hos/index.ts';
import { QueuedFollower, type Round, VehicleQueue, vehiclesWithFixesElsewhere, type WorkedSpan } from '../positions/index.ts';
import { runRendered } from '../../db/sql/prepared-sql.ts';
import { repeatedValues, type RenderedQuery } from '../../db/sql/repeated-values.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { addFixes, emptyTotals, type DayCarry, type DayTotals, type StatFix } from './day-stats.ts';

// Vehicle daily statistics kept right behind ingest (docs/decisions/0131), a follower of the
// position commit: committed fixes go to the vehicle queue (a push per fix, nothing else on
// ingest's path) and are folded into their vehicle's day every couple of seconds, continuing from
// the day row's carry; a fix older than what a day already holds (a late or replayed upload) makes
// that day be computed again from positions. A round writes a day only if its row still holds
// what this instance read, else rebuilds it, so instances sharing a vehicle never lose a fix.

/** Vehicle days a rebuild reads and writes in one statement each. */
const REBUILD_CHUNK = 50;
/** Vehicle days an upsert writes in one statement (14 parameters each). */
const UPSERT_CHUNK = 2000;
/** What writing a vehicle day replaces in its row, a rebuild or a round's upsert (columns of vehicle_daily_stats). */
const DAY_COLUMNS = [
  'distance_m',
  'driving_ms',
  'idle_ms',
  'max_speed_kmh',
  'speeding_events',
  'stops',
  'fixes',
  'last_fix_at',
  'carry',
  'updated_at',
] as const;

/**
 * The upsert's SET for DAY_COLUMNS. Drizzle's `set` is keyed by the table's property names
 * (`distanceM`), not its column names: keyed by `distance_m`, every column but stops, fixes and carry
 * was silently left out, so a day kept its first round's distance and last fix for ever and every
 * later round rebuilt it from its positions (issue 74).
 */
const DAY_SET: Record<string, SQL> = Object.fromEntries(
  Object.entries(getTableColumns(vehicleDailyStats))
    .filter(([, c]) => (DAY_COLUMNS as readonly string[]).includes(c.name))
    .map(([key, c]) => [key, sql.raw(`excluded.${c.name}`)]),
);

interface OrgFacts {
  timeZone: string;
  speedLimitKmh: number;
  readAt: number;
}

export interface FleetStatsOptions {
  onError?: (err: unknown) => void;
  /** Pause before each round, while fixes gather. */
  flushMs?: number;
}

type DayRow = { asset_id: string; day: string; last_fix_at: string | Date | null; carry: DayCarry | null } & Record<string, unknown>;

export class FleetStats extends QueuedFollower<StatFix> {
  protected readonly queue: VehicleQueue<StatFix>;
  private readonly orgs = new Map<string, OrgFacts>();
  /** Each vehicle's current day as last read or written here (most recently used last). */
  private readonly days = new Map<string, KnownDay>();
  /** holes: vehicles whose day missed stored fixes this follower never worked (rebuilt). */
  readonly stats = { daysUpdated: 0, daysRebuilt: 0, failures: 0, holes: 0 };
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly db: Db,
    opts: FleetStatsOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.queue = new VehicleQueue<StatFix>({
      fixOf: (r) => ({ t: r.fixTime.getTime(), lat: r.latitude, lon: r.longitude, speed: r.speed, ignition: r.ignition }),
      pauseMs: () => opts.flushMs ?? 2000,
      byOrganization: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The fixes are stored; the vehicles' days are read again at their next round, which finds
        // these fixes among the stored ones it never worked and rebuilds the day.
        for (const [assetId] of items) this.days.delete(assetId);
        this.stats.failures++;
        this.onError(err);
      },
    });
  }

  private async orgFacts(db: DbOrTx, orgId: string): Promise<OrgFacts> {
    const known = this.orgs.get(orgId);
    if (known && Date.now() - known.readAt < 60_000) return known;
    const [o] = await db.select({ tz: organizations.timeZone, settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
    const limit = (o?.settings?.telematics as { speedLimitKmh?: unknown } | undefined)?.speedLimitKmh;
    const facts = {
      timeZone: o?.tz ?? 'UTC',
      speedLimitKmh: typeof limit === 'number' && limit > 0 ? limit : DEFAULT_ORGANIZATION_SETTINGS.telematics.speedLimitKmh,
      readAt: Date.now(),
    };
    this.orgs.set(orgId, facts);
    return facts;
  }

  private async round(orgId: string, items: Round<StatFix>): Promise<void> {
    const org = await this.orgFacts(this.db, orgId);
    // Fixes per vehicle and day (the organization's calendar day).
    const work = new Map<string, { assetId: string; day: string; fixes: StatFix[] }>();
    const dayOf = dayFinder(org.timeZone);
    for (const [assetId, { fixes }] of items) {
      for (const f of fixes) {
        const day = dayOf(f.t);
        const k = `${assetId}|${day}`;
        let w = work.get(k);
        if (!w) work.set(k, (w = { assetId, day, fixes: [] }));
        w.fixes.push(f);
      }
    }
    const keys = [...work.values()];
    // Each vehicle's current day as this instance last wrote it; the others are read (one statement, naming the organization: one shard on Citus).
    const misses = keys.filter((k) => this.days.get(k.assetId)?.day !== k.day);
    if (misses.length) {
      const rows = rowsOf<DayRow>(
        await this.db.execute(sql`select s.* from vehicle_daily_stats s
          join unnest(${`{${misses.map((k) => k.assetId).join(',')}}`}::uuid[], ${`{${misses.map((k) => k.day).join(',')}}`}::date[]) as k(asset_id, day)
            on s.asset_id = k.asset_id and s.day = k.day
          where s.organization_id = ${orgId}`),
      );
      const found = new Map(
        rows.map((r) => [
          `${r.asset_id}|${typeof r.day === 'string' ? r.day.slice(0, 10) : new Date(r.day as unknown as string).toISOString().slice(0, 10)}`,
          r,
        ]),
      );
      for (const k of misses) {
        const r = found.get(`${k.assetId}|${k.day}`);
        this.remember(k.assetId, {
          day: k.day,
          totals: r ? totalsOf(r) : emptyTotals(),
          carry: r?.carry ?? null,
          lastFixAt: r?.last_fix_at ? new Date(r.last_fix_at).toISOString() : null,
        });
      }
    }
    let updates: DayUpsert[] = [];
    const rebuild: typeof keys = [];
    const spans: WorkedSpan[] = [];
    const read = new Set(misses);
    for (const w of keys) {
      w.fixes.sort((a, b) => a.t - b.t);
      const known = this.days.get(w.assetId)!;
      if (known.lastFixAt !== null && w.fixes[0]!.t <= Date.parse(known.lastFixAt)) {
        // Older than what the day holds: the day again from its positions (they include these fixes).
        rebuild.push(w);
        continue;
      }
      const next = addFixes(known.totals, known.carry, w.fixes, org.speedLimitKmh);
      updates.push({ assetId: w.assetId, day: w.day, totals: next.totals, carry: next.carry, previousLastFixAt: known.lastFixAt });
      // A day read from its row, not written by this process: fixes stored after the row's last one
      // may never have reached this follower (stored just before a kill, the process ended before
      // its round, then its newer fixes folded after the restart's catch-up had looked), so the
      // stored fixes between the row's last and this round's are counted against the round's.
      if (read.has(w))
        spans.push({
          assetId: w.assetId,
          fromMs: known.lastFixAt !== null ? Date.parse(known.lastFixAt) : dayStartMs(w.day, org.timeZone, '00:00') - 1,
          toMs: w.fixes[w.fixes.length - 1]!.t,
          n: w.fixes.length,
        });
    }
    if (spans.length) {
      const holes = await vehiclesWithFixesElsewhere(this.db, orgId, spans);
      if (holes.size) {
        // Every day of such a vehicle in this round is rebuilt instead of folded.
        const queued = new Set(rebuild);
        for (const w of keys) if (holes.has(w.assetId) && !queued.has(w)) rebuild.push(w);
        updates = updates.filter((u) => !holes.has(u.assetId));
        this.stats.holes += holes.size;
      }
    }
    // Every changed day of the round in one statement, each only if its row still holds what this
    // instance read (another instance sharing the vehicle may have written it): no locks, and on the
    // embedded database no statement per vehicle holding ingest's commits back.
    const written = await upsertDays(this.db, orgId, updates);
    for (const u of updates) {
      if (written.has(`${u.assetId}|${u.day}`)) {
        this.remember(u.assetId, { day: u.day, totals: u.totals, carry: u.carry, lastFixAt: u.carry ? new Date(u.carry.last.t).toISOString() : null });
        this.stats.daysUpdated++;
      } else rebuild.push({ assetId: u.assetId, day: u.day, fixes: [] });
    }
    for (const w of rebuild) this.days.delete(w.assetId);
    // A vehicle fed by two instances is rebuilt on nearly every round: the round's days together, a
    // read and a write for each REBUILD_CHUNK (on Citus each statement costs about a millisecond).
    for (let i = 0; i < rebuild.length; i += REBUILD_CHUNK) await this.rebuildDays(this.db, orgId, rebuild.slice(i, i + REBUILD_CHUNK), org);
    this.stats.daysRebuilt += rebuild.length;
  }

  private remember(assetId: string, d: KnownDay): void {
    this.days.delete(assetId);
    this.days.set(assetId, d);
    if (this.days.size > 100_000) this.days.delete(this.days.keys().next().value!);
  }

  /** One vehicle's day computed from its stored positions (replacing what the row held). */
  async rebuildDay(db: DbOrTx, orgId: string, assetId: string, day: string, org?: OrgFacts): Promise<void> {
    await this.rebuildDays(db, orgId, [{ assetId, day }], org);
  }

  /**
   * Vehicle days computed from their stored positions (replacing what their rows held): one read
   * and one write. Epoch numbers straight from the database, each day's fixes as one JSON text: a
   * busy day is hundreds of thousands of fixes. The organization named in both: on Citus its shard
   * alone, not every shard's partitions (issue 49). A day without positions keeps its row.
   */
  async rebuildDays(db: DbOrTx, orgId: string, days: ReadonlyArray<{ assetId: string; day: string }>, org?: OrgFacts): Promise<void> {
    if (days.length === 0) return;
    const facts = org ?? (await this.orgFacts(db, orgId));
    const keys = days.map((d) => ({
      a: d.assetId,
      d: d.day,
      f: new Date(dayStartMs(d.day, facts.timeZone, '00:00')).toISOString(),
      t: new Date(dayStartMs(nextDate(d.day), facts.timeZone, '00:00')).toISOString(),
    }));
    const rows = rowsOf<{ a: string; d: string; j: string | null }>(
      await db.execute(sql`select k.a, k.d, (select json_agg(json_build_array(extract(epoch from p.fix_time)::float8 * 1000, p.latitude, p.longitude, p.speed, p.ignition) order by p.fix_time)
          from ${positions} p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time >= k.f and p.fix_time < k.t)::text as j
        from json_to_recordset(${JSON.stringify(keys)}::json) as k(a uuid, d text, f timestamptz, t timestamptz)`),
    );
    const values: Array<typeof vehicleDailyStats.$inferInsert> = [];
    const updatedAt = new Date();
    for (const r of rows) {
      if (!r.j) continue;
      const fixes: StatFix[] = (JSON.parse(r.j) as Array<[number, number, number, number | null, boolean | null]>).map(([t, lat, lon, speed, ignition]) => ({
        t: Math.round(t),
        lat,
        lon,
        speed,
        ignition,
      }));
      const { totals: t, carry } = addFixes(emptyTotals(), null, fixes, facts.speedLimitKmh);
      values.push({
        organizationId: orgId,
        assetId: r.a,
        day: r.d,
        distanceM: t.distanceM,
        drivingMs: t.drivingMs,
        idleMs: t.idleMs,
        maxSpeedKmh: t.maxSpeedKmh,
        speedingEvents: t.speedingEvents,
        stops: t.stops,
        fixes: t.fixes,
        lastFixAt: carry ? new Date(carry.last.t) : null,
        carry: carry as unknown as Record<string, unknown> | null,
        updatedAt,
      });
    }
    if (values.length === 0) return;
    await db
      .insert(vehicleDailyStats)
      .values(values.sort(byVehicleDay))
      .onConflictDoUpdate({
        target: [vehicleDailyStats.assetId, vehicleDailyStats.day, vehicleDailyStats.organizationId],
        set: DAY_SET,
      });
  }

  /**
   * Every day of these vehicles from `fromMs` to `toMs` computed from their positions (positions
   * written in bulk, such as the demo fleet's history). Returns the vehicle days written.
   */
  async rebuildRange(orgId: string, assetIds: readonly string[], fromMs: number, toMs: number): Promise<number> {
    const org = await this.orgFacts(this.db, orgId);
    let n = 0;
    const last = logDateOf(toMs, org.timeZone, '00:00');
    for (const assetId of assetIds) {
      for (let day = logDateOf(fromMs, org.timeZone, '00:00'), guard = 0; day <= last && guard < 400; guard++, day = nextDate(day)) {
        await this.rebuildDay(this.db, orgId, assetId, day, org);
        n++;
      }
    }
    this.stats.daysRebuilt += n;
    return n;
  }

  /**
   * Days whose positions are newer than their statistics (positions written before a restart, or
   * in bulk such as the demo history): every vehicle whose newest fix is past its newest day row's
   * last fix is computed again from that day (at most `maxDays` back) to the newest fix's day.
   */
  async catchUp(now = Date.now(), maxDays = 8): Promise<number> {
    const rows = rowsOf<{ asset_id: string; organization_id: string; fix_time: string | Date; last_fix_at: string | Date | null }>(
      await this.db.execute(sql`select lp.asset_id, lp.organization_id, lp.fix_time,
          (select max(s.last_fix_at) from ${vehicleDailyStats} s where s.organization_id = lp.organization_id and s.asset_id = lp.asset_id) as last_fix_at
        from ${latestPositions} lp`),
    );
    let days = 0;
    for (const r of rows) {
      const newest = new Date(r.fix_time).getTime();
      const covered = r.last_fix_at ? new Date(r.last_fix_at).getTime() : null;
      if (covered !== null && covered >= newest) continue;
      const org = await this.orgFacts(this.db, r.organization_id);
      const from = Math.max(covered ?? 0, now - maxDays * 86_400_000);
      let day = logDateOf(from, org.timeZone, '00:00');
      const last = logDateOf(newest, org.timeZone, '00:00');
      for (let guard = 0; day <= last && guard < maxDays + 2; guard++, day = nextDate(day)) {
        await this.rebuildDay(this.db, r.organization_id, r.asset_id, day, org);
        days++;
      }
    }
    this.stats.daysRebuilt += days;
    return days;
  }
}

/** The organization's calendar day of an instant, remembering the last day's bounds (fixes come in runs). */
function dayFinder(timeZone: string): (ms: number) => string {
  let start = Infinity;
  let end = -Infinity;
  let day = '';
  return (ms) => {
    if (ms < start || ms >= end) {
      day = logDateOf(ms, timeZone, '00:00');
      start = dayStartMs(day, timeZone, '00:00');
      end = dayStartMs(nextDate(day), timeZone, '00:00');
    }
    return day;
  };
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

function totalsOf(r: DayRow): DayTotals {
  return {
    distanceM: num(r.distance_m),
    drivingMs: num(r.driving_ms),
    idleMs: num(r.idle_ms),
    maxSpeedKmh: r.max_speed_kmh === null || r.max_speed_kmh === undefined ? null : Number(r.max_speed_kmh),
    speedingEvents: num(r.speeding_events),
    stops: num(r.stops),
    fixes: num(r.fixes),
  };
}

interface KnownDay {
  day: string;
  totals: DayTotals;
  carry: DayCarry | null;
  /** The row's last_fix_at as ISO text (null: no row yet). */
  lastFixAt: string | null;
}

interface DayUpsert {
  assetId: string;
  day: string;
  totals: DayTotals;
  carry: DayCarry | null;
  /** What the row held when read (null: no row); the write happens only if it still does. */
  previousLastFixAt: string | null;
}

/**
 * Rows in vehicle and day order: one statement locks its rows in the order of its VALUES, and two
 * instances writing the same vehicle days in two orders deadlocked (fleet-stats-lock-order.test.ts).
 */
const byVehicleDay = (a: { assetId: string; day: string }, b: { assetId: string; day: string }) =>
  a.assetId < b.assetId ? -1 : a.assetId > b.assetId ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0;

/**
 * Many vehicle days in one multi-row insert, each written only if the row's last fix is still the
 * one it was computed from. Returns the `asset|day` keys written. Rows as VALUES, not a JSON
 * document: Citus routes a VALUES insert naming one organization to its shard, while an INSERT …
 * SELECT from a function went through the coordinator (22 ms a round).
 */
async function upsertDays(db: DbOrTx, orgId: string, unordered: DayUpsert[]): Promise<Set<string>> {
  const out = new Set<string>();
  const list = [...unordered].sort(byVehicleDay);
  const updatedAt = new Date();
  for (let i = 0; i < list.length; i += UPSERT_CHUNK) {
    const values = list.slice(i, i + UPSERT_CHUNK).map((u) => dayRow(orgId, u, updatedAt));
    const rows = await runRendered<{ asset_id: string; day: string | Date }>(db, renderDaysUpsert(db, values));
    for (const r of rows) out.add(`${r.asset_id}|${String(r.day).slice(0, 10)}`);
  }
  return out;
}

/** A vehicle day as the upsert's row (vehicle_daily_stats' properties, every column given). */
function dayRow(orgId: string, u: DayUpsert, updatedAt: Date): typeof vehicleDailyStats.$inferInsert & Record<string, unknown> {
  return {
    organizationId: orgId,
    assetId: u.assetId,
    day: u.day,
    distanceM: u.totals.distanceM,
    drivingMs: u.totals.drivingMs,
    idleMs: u.totals.idleMs,
    maxSpeedKmh: u.totals.maxSpeedKmh,
    speedingEvents: u.totals.speedingEvents,
    stops: u.totals.stops,
    fixes: u.totals.fixes,
    lastFixAt: u.carry ? new Date(u.carry.last.t) : null,
    // The row's last fix this was computed from rides in the carry, where the conflict check reads it,
    // as epoch seconds: Citus takes only immutable functions there, and to_timestamp(float8) is one
    // (a text-to-timestamptz cast is not).
    carry: (u.carry ? { ...u.carry, prevS: u.previousLastFixAt === null ? null : Date.parse(u.previousLastFixAt) / 1000 } : null) as Record<
      string,
      unknown
    > | null,
    updatedAt,
  };
}

/**
 * The upsert of vehicle days as Drizzle writes it (the plain reference `daysUpsertQuery`), rendered
 * once for one row and repeated for a round's rows (db/sql/repeated-values.ts).
 */
let daysTemplate: ReturnType<typeof repeatedValues> | null = null;
export function renderDaysUpsert(db: DbOrTx, values: Array<typeof vehicleDailyStats.$inferInsert & Record<string, unknown>>): RenderedQuery {
  daysTemplate ??= repeatedValues(vehicleDailyStats, daysUpsertQuery(db, values.slice(0, 1)).toSQL());
  return daysTemplate(values);
}

/** The upsert of vehicle days through Drizzle: each day written only if its row's last fix is still the one it was computed from. */
export function daysUpsertQuery(db: DbOrTx, values: Array<typeof vehicleDailyStats.$inferInsert>) {
  return db
    .insert(vehicleDailyStats)
    .values(values)
    .onConflictDoUpdate({
      target: [vehicleDailyStats.assetId, vehicleDailyStats.day, vehicleDailyStats.organizationId],
      set: DAY_SET,
      setWhere: sql`${vehicleDailyStats.lastFixAt} is not distinct from to_timestamp((excluded.carry->>'prevS')::float8)`,
    })
    .returning({ assetId: vehicleDailyStats.assetId, day: vehicleDailyStats.day });
}
