import { eq, sql } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { latestPositions, organizations, positions, vehicleDailyStats } from '../../db/schema/index.ts';
import { dayStartMs, logDateOf, nextDate } from '../hos/index.ts';
import { QueuedFollower, type Round, VehicleQueue } from '../positions/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { addFixes, emptyTotals, type DayCarry, type DayTotals, type StatFix } from './day-stats.ts';

// Vehicle daily statistics kept right behind ingest (docs/decisions/0131), a follower of the
// position commit: committed fixes go to the vehicle queue (a push per fix, nothing else on
// ingest's path) and are folded into their vehicle's day every couple of seconds, continuing from
// the day row's carry; a fix older than what a day already holds (a late or replayed upload) makes
// that day be computed again from positions. Each round locks the day rows it changes, so
// instances sharing a vehicle never lose a fix.

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
  readonly stats = { daysUpdated: 0, daysRebuilt: 0, failures: 0 };
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
      failed: (_items, err) => {
        // The fixes are stored; the next catch-up (start) rebuilds their days.
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
      const found = new Map(rows.map((r) => [`${r.asset_id}|${typeof r.day === 'string' ? r.day.slice(0, 10) : new Date(r.day as unknown as string).toISOString().slice(0, 10)}`, r]));
      for (const k of misses) {
        const r = found.get(`${k.assetId}|${k.day}`);
        this.remember(k.assetId, { day: k.day, totals: r ? totalsOf(r) : emptyTotals(), carry: r?.carry ?? null, lastFixAt: r?.last_fix_at ? new Date(r.last_fix_at).toISOString() : null });
      }
    }
    const updates: DayUpsert[] = [];
    const rebuild: typeof keys = [];
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
    for (const w of rebuild) {
      this.days.delete(w.assetId);
      await this.rebuildDay(this.db, orgId, w.assetId, w.day, org);
      this.stats.daysRebuilt++;
    }
  }

  private remember(assetId: string, d: KnownDay): void {
    this.days.delete(assetId);
    this.days.set(assetId, d);
    if (this.days.size > 100_000) this.days.delete(this.days.keys().next().value!);
  }

  /** One vehicle's day computed from its stored positions (replacing what the row held). */
  async rebuildDay(db: DbOrTx, orgId: string, assetId: string, day: string, org?: OrgFacts): Promise<void> {
    const facts = org ?? (await this.orgFacts(db, orgId));
    const from = new Date(dayStartMs(day, facts.timeZone, '00:00'));
    const to = new Date(dayStartMs(nextDate(day), facts.timeZone, '00:00'));
    // Epoch numbers straight from the database: a busy day is hundreds of thousands of fixes. The
    // organization named: on Citus its shard alone, not every shard's partitions (issue 49).
    const rows = rowsOf<{ t: number | string; lat: number; lon: number; speed: number | null; ignition: boolean | null }>(
      await db.execute(sql`select extract(epoch from fix_time) * 1000 as t, latitude as lat, longitude as lon, speed, ignition from ${positions}
        where organization_id = ${orgId} and asset_id = ${assetId} and fix_time >= ${from.toISOString()}::timestamptz and fix_time < ${to.toISOString()}::timestamptz order by fix_time`),
    );
    if (rows.length === 0) return;
    const fixes: StatFix[] = rows.map((r) => ({ t: Math.round(Number(r.t)), lat: r.lat, lon: r.lon, speed: r.speed, ignition: r.ignition }));
    const next = addFixes(emptyTotals(), null, fixes, facts.speedLimitKmh);
    await upsertDay(db, orgId, assetId, day, next.totals, next.carry);
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
 * Many vehicle days in one statement (the rows travel as one JSON parameter), each written only if
 * the row's last fix is still the one it was computed from. Returns the `asset|day` keys written.
 */
async function upsertDays(db: DbOrTx, orgId: string, list: DayUpsert[]): Promise<Set<string>> {
  if (list.length === 0) return new Set();
  const json = JSON.stringify(
    list.map((u) => ({
      asset_id: u.assetId,
      day: u.day,
      distance_m: u.totals.distanceM,
      driving_ms: u.totals.drivingMs,
      idle_ms: u.totals.idleMs,
      max_speed_kmh: u.totals.maxSpeedKmh,
      speeding_events: u.totals.speedingEvents,
      stops: u.totals.stops,
      fixes: u.totals.fixes,
      last_fix_at: u.carry ? new Date(u.carry.last.t).toISOString() : null,
      // The row's last fix this was computed from rides in the carry, where the conflict check reads it,
      // as epoch seconds: Citus takes only immutable functions there, and to_timestamp(float8) is one
      // (a text-to-timestamptz cast is not).
      carry: u.carry ? { ...u.carry, prevS: u.previousLastFixAt === null ? null : Date.parse(u.previousLastFixAt) / 1000 } : null,
    })),
  );
  const rows = rowsOf<{ asset_id: string; day: string }>(
    await db.execute(sql`insert into vehicle_daily_stats (organization_id, asset_id, day, distance_m, driving_ms, idle_ms, max_speed_kmh, speeding_events, stops, fixes, last_fix_at, carry, updated_at)
    select ${orgId}::uuid, x.asset_id, x.day, x.distance_m, x.driving_ms, x.idle_ms, x.max_speed_kmh, x.speeding_events, x.stops, x.fixes, x.last_fix_at, x.carry, now()
    from json_to_recordset(${json}::json) as x(asset_id uuid, day date, distance_m float8, driving_ms float8, idle_ms float8, max_speed_kmh real,
      speeding_events int, stops int, fixes int, last_fix_at timestamptz, carry jsonb)
    on conflict (asset_id, day, organization_id) do update set distance_m = excluded.distance_m, driving_ms = excluded.driving_ms, idle_ms = excluded.idle_ms,
      max_speed_kmh = excluded.max_speed_kmh, speeding_events = excluded.speeding_events, stops = excluded.stops, fixes = excluded.fixes,
      last_fix_at = excluded.last_fix_at, carry = excluded.carry, updated_at = excluded.updated_at
      where vehicle_daily_stats.last_fix_at is not distinct from to_timestamp((excluded.carry->>'prevS')::float8)
    returning asset_id, day::text as day`),
  );
  return new Set(rows.map((r) => `${r.asset_id}|${r.day.slice(0, 10)}`));
}

async function upsertDay(db: DbOrTx, orgId: string, assetId: string, day: string, t: DayTotals, carry: DayCarry | null): Promise<void> {
  const values = {
    distanceM: t.distanceM,
    drivingMs: t.drivingMs,
    idleMs: t.idleMs,
    maxSpeedKmh: t.maxSpeedKmh,
    speedingEvents: t.speedingEvents,
    stops: t.stops,
    fixes: t.fixes,
    lastFixAt: carry ? new Date(carry.last.t) : null,
    carry: carry as unknown as Record<string, unknown> | null,
    updatedAt: new Date(),
  };
  await db
    .insert(vehicleDailyStats)
    .values({ organizationId: orgId, assetId, day, ...values })
    .onConflictDoUpdate({ target: [vehicleDailyStats.assetId, vehicleDailyStats.day, vehicleDailyStats.organizationId], set: values });
}
