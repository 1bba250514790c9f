import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { latestPositions, organizations, positions, vehicleDailyStats } from '../../db/schema/index.ts';
import { dayStartMs, logDateOf, nextDate } from '../hos/hos.time.ts';
import type { PositionRow, PositionWriter, WriteResult } from '../positions/ingest.service.ts';
import { rowsOf } from '../positions/sql-rows.ts';
import { addFixes, emptyTotals, type DayCarry, type DayTotals, type StatFix } from './day-stats.ts';

// Vehicle daily statistics kept right behind ingest (docs/decisions/0131): committed fixes are
// queued in memory (a push per fix, nothing else on ingest's path) and folded into their vehicle's
// day every couple of seconds, continuing from the day row's carry; a fix older than what a day
// already holds (a late or replayed upload) makes that day be computed again from positions. Each
// round locks the day rows it changes, so instances sharing a vehicle never lose a fix.

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

export class FleetStats {
  private pending = new Map<string, { orgId: string; fixes: StatFix[] }>();
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly orgs = new Map<string, OrgFacts>();
  readonly stats = { daysUpdated: 0, daysRebuilt: 0, failures: 0 };
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly db: Db,
    private readonly opts: FleetStatsOptions = {},
  ) {
    this.onError = opts.onError ?? (() => undefined);
  }

  /** Committed rows of vehicles (duplicates were not stored and are skipped). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.closed) return;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!stored[i] || r.assetId === null) continue;
      let p = this.pending.get(r.assetId);
      if (!p) this.pending.set(r.assetId, (p = { orgId: r.organizationId, fixes: [] }));
      p.fixes.push({ t: r.fixTime.getTime(), lat: r.latitude, lon: r.longitude, speed: r.speed, ignition: r.ignition });
    }
    if (this.pending.size && !this.draining) this.draining = this.drain();
  }

  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    await this.idle();
    this.closed = true;
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

  private async drain(): Promise<void> {
    while (this.pending.size) {
      await new Promise((r) => setTimeout(r, this.opts.flushMs ?? 2000));
      const batch = this.pending;
      this.pending = new Map();
      const byOrg = new Map<string, Array<[string, StatFix[]]>>();
      for (const [assetId, p] of batch) {
        const list = byOrg.get(p.orgId);
        if (list) list.push([assetId, p.fixes]);
        else byOrg.set(p.orgId, [[assetId, p.fixes]]);
      }
      for (const [orgId, items] of byOrg) {
        try {
          await this.round(orgId, items);
        } catch (err) {
          // The fixes are stored; the next catch-up (start) rebuilds their days.
          this.stats.failures++;
          this.onError(err);
        }
      }
    }
    this.draining = null;
  }

  private async round(orgId: string, items: Array<[string, StatFix[]]>): Promise<void> {
    const org = await this.orgFacts(this.db, orgId);
    // Fixes per vehicle and day (the organization's calendar day).
    const work = new Map<string, { assetId: string; day: string; fixes: StatFix[] }>();
    for (const [assetId, fixes] of items) {
      for (const f of fixes) {
        const day = logDateOf(f.t, org.timeZone, '00:00');
        const k = `${assetId}|${day}`;
        let w = work.get(k);
        if (!w) work.set(k, (w = { assetId, day, fixes: [] }));
        w.fixes.push(f);
      }
    }
    await this.db.transaction(async (tx) => {
      const keys = [...work.values()];
      const rows = rowsOf<DayRow>(
        await tx.execute(sql`select s.* from vehicle_daily_stats s
          join unnest(${`{${keys.map((k) => k.assetId).join(',')}}`}::uuid[], ${`{${keys.map((k) => k.day).join(',')}}`}::date[]) as k(asset_id, day)
            on s.asset_id = k.asset_id and s.day = k.day
          order by s.asset_id, s.day for update of s`),
      );
      const existing = new Map(rows.map((r) => [`${r.asset_id}|${typeof r.day === 'string' ? r.day.slice(0, 10) : new Date(r.day as unknown as string).toISOString().slice(0, 10)}`, r]));
      for (const w of keys) {
        w.fixes.sort((a, b) => a.t - b.t);
        const row = existing.get(`${w.assetId}|${w.day}`);
        const lastAt = row?.last_fix_at ? new Date(row.last_fix_at).getTime() : null;
        if (row && lastAt !== null && w.fixes[0]!.t <= lastAt) {
          // Older than what the day holds: the day again from its positions (they include these fixes).
          await this.rebuildDay(tx, orgId, w.assetId, w.day, org);
          this.stats.daysRebuilt++;
          continue;
        }
        const totals: DayTotals = row ? totalsOf(row) : emptyTotals();
        const next = addFixes(totals, row?.carry ?? null, w.fixes, org.speedLimitKmh);
        await upsertDay(tx, orgId, w.assetId, w.day, next.totals, next.carry);
        this.stats.daysUpdated++;
      }
    });
  }

  /** One vehicle's day computed from its stored positions (replacing what the row held). */
  async rebuildDay(db: DbOrTx, orgId: string, assetId: string, day: string, org?: OrgFacts): Promise<void> {
    const facts = org ?? (await this.orgFacts(db, orgId));
    const from = new Date(dayStartMs(day, facts.timeZone, '00:00'));
    const to = new Date(dayStartMs(nextDate(day), facts.timeZone, '00:00'));
    const fixes = await db
      .select({ t: positions.fixTime, lat: positions.latitude, lon: positions.longitude, speed: positions.speed, ignition: positions.ignition })
      .from(positions)
      .where(and(eq(positions.assetId, assetId), gte(positions.fixTime, from), lt(positions.fixTime, to)))
      .orderBy(positions.fixTime);
    if (fixes.length === 0) return;
    const next = addFixes(
      emptyTotals(),
      null,
      fixes.map((f) => ({ ...f, t: f.t.getTime() })),
      facts.speedLimitKmh,
    );
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
          (select max(s.last_fix_at) from ${vehicleDailyStats} s where s.asset_id = lp.asset_id) as last_fix_at
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
    .onConflictDoUpdate({ target: [vehicleDailyStats.assetId, vehicleDailyStats.day], set: values });
}

/** Wraps the ingest writer: rows reach the statistics only once committed (and answered). */
export function withFleetStats(writer: PositionWriter, stats: FleetStats, also?: (rows: PositionRow[], r: WriteResult) => void): PositionWriter {
  return {
    async write(rows: PositionRow[]): Promise<WriteResult> {
      const r = await writer.write(rows);
      stats.enqueue(rows, r.stored);
      also?.(rows, r);
      return r;
    },
    close: () => writer.close(),
    get transactions() {
      return writer.transactions;
    },
  };
}
