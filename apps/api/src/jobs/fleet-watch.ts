import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { assets, drivers, gateways, hosDriverVersions, organizations } from '../db/schema/index.ts';
import { listLogDays } from '../modules/hos/hos-log-list.service.ts';
import { fleetHos } from '../modules/hos/hos-fleet-snapshot.ts';
import { ensureLogDays } from '../modules/hos/hos.repository.ts';
import { logDateOf } from '../modules/hos/hos.time.ts';
import {
  deviceOfflineNotice,
  driveLowNotices,
  isViolationNews,
  uncertifiedNotice,
  violationFactKey,
  violationNotices,
  VIOLATION_NEWS_MS,
} from './fleet-watch-detectors.ts';
import { notifyMany, type NotifyInput } from '../modules/notifications/notifications.service.ts';
import { drivenWithSafetyDefectNotices } from '../modules/maintenance/index.ts';
import { DEVICE_OFFLINE_HOURS } from '@fleet/api-contract';

/** Arbitrary constant key of the advisory lock: one instance runs the clock's checks at a time. */
export const FLEET_WATCH_LOCK_KEY = 724_311_018;

const HOUR = 3_600_000;
/** Most drivers judged by one check behind ingest. */
const CHECK_DRIVERS_MAX = 100;

export interface FleetWatchOptions {
  /** Resolves when automatic duty status has written what ingest handed it (violations come from those records). */
  recordsSettled?: () => Promise<void>;
  onError?: (err: unknown) => void;
  /** Clock checks (drive time running out, devices gone quiet, days left uncertified), every this often. */
  tickMs?: number;
  /** Least time between two checks of one organization behind ingest. */
  minGapMs?: number;
}

/**
 * The notification detectors that need the fleet's state and a clock (docs/decisions/0130):
 *
 * - **Behind ingest:** committed positions `poke` their organizations; once automatic duty status
 *   has written its records, the organization's violations of the last day and its drivers' clocks
 *   are checked (at most every `minGapMs` per organization). A violation produced by a drive is
 *   notified about a second after the position that made it.
 * - **On the clock:** every `tickMs`, under an advisory lock so one instance does it at a time,
 *   every organization is checked again (a violation can begin while a driver simply keeps
 *   driving, a device goes quiet without a position), plus devices silent for a day and, once an
 *   hour, yesterday's uncertified logs.
 *
 * Every notice carries a fact key; `notify` records each fact once, so repeating a check (here, on
 * another instance, after a restart) never notifies twice. Facts seen are remembered here to spare
 * the database the repeated inserts.
 */
export class FleetWatch {
  private readonly known = new Map<string, Set<string>>();
  private readonly lastRun = new Map<string, number>();
  private readonly lastUncertified = new Map<string, number>();
  private readonly scheduled = new Map<string, NodeJS.Timeout>();
  /** Drivers whose positions arrived since their organization's last check behind ingest. */
  private readonly poked = new Map<string, Set<string>>();
  /** Each driver's HoS version when this instance last judged them behind ingest. */
  private readonly versions = new Map<string, number>();
  private readonly running = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  /** Checks run, their wall time (ms), drivers judged and notices sent (benchmarks read it). */
  readonly stats = { checks: 0, ms: 0, judged: 0, notices: 0 };
  private stopped = false;
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly database: Database,
    private readonly opts: FleetWatchOptions = {},
  ) {
    this.onError = opts.onError ?? (() => undefined);
  }

  private get db(): Db {
    return this.database.db;
  }

  /** Drivers of these organizations drove (their positions were committed): check them soon. */
  poke(drivers: ReadonlyMap<string, ReadonlySet<string>>): void {
    if (this.stopped) return;
    const gap = this.opts.minGapMs ?? 2000;
    for (const [orgId, ids] of drivers) {
      let waiting = this.poked.get(orgId);
      if (!waiting) this.poked.set(orgId, (waiting = new Set()));
      for (const id of ids) waiting.add(id);
      if (this.scheduled.has(orgId)) continue;
      const wait = Math.max(300, (this.lastRun.get(orgId) ?? 0) + gap - Date.now());
      this.scheduled.set(
        orgId,
        setTimeout(() => {
          this.scheduled.delete(orgId);
          const only = this.poked.get(orgId);
          this.poked.delete(orgId);
          this.track(
            (async () => {
              // Automatic duty status writes the records a moment after the positions; under
              // constant ingest it is never idle, so the wait is bounded.
              if (this.opts.recordsSettled) await Promise.race([this.opts.recordsSettled(), new Promise((r) => setTimeout(r, 1500))]);
              await this.check(orgId, { clock: false, drivers: only });
            })(),
          );
        }, wait),
      );
    }
  }

  /** Starts the clock checks (the server's main; tests call `tick` themselves). */
  start(): void {
    this.timer = setInterval(() => this.track(this.tick()), this.opts.tickMs ?? 60_000);
    this.timer.unref();
    // Once soon after start: what happened while no instance was watching.
    setTimeout(() => this.track(this.tick()), 5_000).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const t of this.scheduled.values()) clearTimeout(t);
    this.scheduled.clear();
    await this.idle();
  }

  /** Resolves when every check under way has finished (tests). */
  async idle(): Promise<void> {
    while (this.running.size || this.scheduled.size) {
      if (this.running.size) await Promise.allSettled([...this.running]);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch(this.onError).finally(() => this.running.delete(q));
    this.running.add(q);
  }

  /** The clock's round over every organization; false when another instance holds the lock. */
  async tick(now = Date.now()): Promise<boolean> {
    return this.database.session(async (db) => {
      const res = await db.execute(sql`select pg_try_advisory_lock(${FLEET_WATCH_LOCK_KEY}) as locked`);
      if ((res as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked !== true) return false;
      try {
        const orgs = await this.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE'));
        for (const { id } of orgs) {
          if (this.stopped) break;
          await this.check(id, { clock: true, now });
        }
        return true;
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${FLEET_WATCH_LOCK_KEY})`);
      }
    });
  }

  /**
   * Checks one organization now (only `drivers` when given: those who just drove); with `clock`,
   * also devices and uncertified days. Returns the notices sent.
   */
  async check(
    orgId: string,
    { clock, now = Date.now(), newsMs = VIOLATION_NEWS_MS, drivers }: { clock: boolean; now?: number; newsMs?: number; drivers?: ReadonlySet<string> },
  ): Promise<number> {
    this.lastRun.set(orgId, now);
    let sent = 0;
    let only = drivers;
    if (drivers) {
      // Behind ingest only drivers whose HoS records changed can have a new violation (a position
      // that changes no duty status changes nothing): their versions (decision 0099) tell which.
      const changed = await this.changedDrivers(orgId, drivers);
      if (changed.length === 0) return 0;
      // A bounded share per check, so a fleet whose records all change at once (a backlog after a
      // restart) never holds the database long; the rest are judged on the next check.
      const now2 = changed.slice(0, CHECK_DRIVERS_MAX);
      for (const [id, v] of now2) this.versions.set(id, v);
      only = new Set(now2.map(([id]) => id));
      const rest = changed.slice(CHECK_DRIVERS_MAX);
      if (rest.length) this.poke(new Map([[orgId, new Set(rest.map(([id]) => id))]]));
    }
    const started = performance.now();
    this.stats.checks++;
    const hos = await fleetHos(this.db, orgId, { fromMs: now - newsMs, atMs: now, driverIds: only });
    this.stats.judged += hos.drivers.length;
    const zoneOf = new Map(hos.drivers.map((d) => [d.id, d.homeTimeZone]));
    // The day's violations not yet notified by this instance, picked by fact key before any notice
    // is written out (most checks find none new).
    const seen = this.known.get(orgId);
    const wanted = hos.violations.filter((v) => isViolationNews(v, now, newsMs) && !seen?.has(violationFactKey(v)));
    if (wanted.length) {
      // The notice links the log day of the violation: made now if the list never opened it.
      const ids = await ensureLogDays(
        this.db,
        orgId,
        wanted.map((v) => ({ driverId: v.driver.id, logDate: v.logDate })),
      );
      sent += await this.send(
        orgId,
        violationNotices(orgId, wanted, now, (v) => ids.get(`${v.driver.id}|${v.logDate}`) ?? null, newsMs),
      );
    }
    sent += await this.send(
      orgId,
      driveLowNotices(orgId, hos.availability, (id) => logDateOf(now, zoneOf.get(id) ?? 'UTC', hos.state.periodStart)),
    );
    // A Driving status recorded on a vehicle with an open safety defect (issue 31, decision 0159):
    // behind ingest once automatic duty status wrote it, and on the clock for any other origin.
    sent += await this.send(orgId, await drivenWithSafetyDefectNotices(this.db, orgId, now - newsMs, now));
    this.stats.ms += performance.now() - started;
    this.stats.notices += sent;
    if (!clock) return sent;
    sent += await this.send(orgId, await this.offlineDevices(orgId, now));
    if (now - (this.lastUncertified.get(orgId) ?? 0) >= HOUR) {
      this.lastUncertified.set(orgId, now);
      const notice = await this.uncertified(orgId, now);
      if (notice) sent += await this.send(orgId, [notice]);
    }
    return sent;
  }

  /** Of these drivers, those whose HoS version moved since this instance last judged them, with the version now. */
  private async changedDrivers(orgId: string, ids: ReadonlySet<string>): Promise<Array<[string, number]>> {
    const rows = await this.db
      .select({ id: hosDriverVersions.driverId, v: hosDriverVersions.version })
      .from(hosDriverVersions)
      .where(and(eq(hosDriverVersions.organizationId, orgId), inArray(hosDriverVersions.driverId, [...ids])));
    if (this.versions.size > 200_000) this.versions.clear();
    return rows.filter((r) => this.versions.get(r.id) !== r.v).map((r) => [r.id, r.v]);
  }

  private async send(orgId: string, notices: NotifyInput[]): Promise<number> {
    let seen = this.known.get(orgId);
    if (!seen) this.known.set(orgId, (seen = new Set()));
    if (seen.size > 20_000) seen.clear();
    const todo = notices.filter((n) => !seen!.has(n.factKey));
    let sent = 0;
    // In bounded batches: one transaction of a few statements each, however many facts a check finds.
    for (let i = 0; i < todo.length; i += 500) {
      const batch = todo.slice(i, i + 500);
      const results = await notifyMany(this.db, batch);
      batch.forEach((n) => seen!.add(n.factKey));
      sent += results.filter((r) => r.created).length;
    }
    return sent;
  }

  private async offlineDevices(orgId: string, now: number): Promise<NotifyInput[]> {
    const rows = await this.db
      .select({
        id: gateways.id,
        name: gateways.name,
        uniqueId: gateways.uniqueId,
        lastSeenAt: gateways.lastSeenAt,
        assetId: gateways.assetId,
        unitNumber: assets.unitNumber,
      })
      .from(gateways)
      .leftJoin(assets, and(eq(assets.id, gateways.assetId), eq(assets.organizationId, gateways.organizationId)))
      .where(
        and(
          eq(gateways.organizationId, orgId),
          eq(gateways.status, 'ACTIVE'),
          isNotNull(gateways.lastSeenAt),
          lt(gateways.lastSeenAt, new Date(now - DEVICE_OFFLINE_HOURS * HOUR)),
          // A device quiet for a month was notified when it went quiet (or before this watch existed).
          gt(gateways.lastSeenAt, new Date(now - 30 * 24 * HOUR)),
        ),
      );
    return rows.map((r) => deviceOfflineNotice(orgId, { ...r, lastSeenAt: r.lastSeenAt! }));
  }

  /** Yesterday (in the organization's zone) as the log list shows it: the drivers whose day is not certified. */
  private async uncertified(orgId: string, now: number): Promise<NotifyInput | null> {
    const [org] = await this.db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
    const [any] = await this.db
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.status, 'ACTIVE')))
      .limit(1);
    if (!org || !any) return null;
    const yesterday = logDateOf(now - 24 * HOUR, org.tz, '00:00');
    const page = await listLogDays({ db: this.db, orgId, now }, { date: yesterday, page: 0, size: 500, problem: 'UNCERTIFIED' });
    return uncertifiedNotice(
      orgId,
      yesterday,
      page.content.map((r) => r.driver),
    );
  }
}
