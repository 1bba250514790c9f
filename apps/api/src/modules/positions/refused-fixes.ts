import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gateways, refusedFixes } from '../../db/schema/index.ts';
import { notifyMany } from '../notifications/index.ts';
import { holdableTime, timeText, type RefusalReason } from './pipeline/fix-check.ts';
import type { Protocol } from './pipeline/position-row.ts';
import { CLOCK_TOLERANCE_MS, TIME_REASONS } from './refused-fixes-hint.ts';
import { clockFactKey, deviceClockNotice, type ClockSuspect } from './refused-fixes-notice.ts';

// Fixes refused for their content are answered to the device as received, so it never resends
// them (issue 43); this remembers them for a day so the device's page can say why, and flags the
// device whose clock is far off. Ingest calls `note` and moves on: refusals gather in memory by
// device, reason and minute and are written in the background, one statement a flush, so a
// tracker refused every second for days costs one row a minute and nothing on ingest's path.

/** One refused fix, as ingest saw it. */
export interface RefusedFix {
  organizationId: string;
  gatewayId: string;
  protocol: Protocol;
  receivedAt: Date;
  /** The fix's own time; null when it had none that was a time. */
  fixTime: Date | null;
  /** The time as the device sent it, when it was not one (`fixTime` null): kept as text. */
  fixTimeText?: string | null;
  reason: RefusalReason | 'database';
  message: string;
  /** The field refused (timestamp, lat, speed…). */
  field?: string;
}

/** A fix that was stored: its clock is watched (`observe`). */
export interface ObservedFix {
  organizationId: string;
  gatewayId: string;
  receivedAt: Date;
  fixTime: Date;
}

export interface RefusedFixesOptions {
  /** How long refusals gather before they are written (default 1 s). */
  flushMs?: number;
  /** Device-reason-minutes held in memory at most; past it new ones are dropped and counted (default 10,000). */
  maxPending?: number;
  /** Rows kept (default 24 h) and how often older ones are deleted (default 10 min; 0: only by `purge`). */
  keepMs?: number;
  purgeEveryMs?: number;
  /** Fixes in a row, over at least `clockSpanMs`, with the same offset past 10 minutes before a stored fix's clock is flagged (default 5 over 5 min). */
  clockFixes?: number;
  clockSpanMs?: number;
  /** A write, purge or notification that failed: logged by the caller, never thrown at ingest. */
  onError?: (err: unknown, what: string) => void;
}

interface Pending extends Omit<RefusedFix, 'field' | 'fixTimeText'> {
  minute: Date;
  field: string | null;
  fixTimeText: string | null;
  count: number;
}

/** A run of stored fixes with the same clock offset (a clock, not a buffer being emptied). */
interface Streak {
  firstAt: number;
  offsetMs: number;
  fixes: number;
}

const MINUTE = 60_000;
/** Rows a statement writes at most (10 parameters each, under PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 2000;
/** Two offsets this close are one clock's; a buffer being emptied moves much faster. */
const SAME_OFFSET_MS = 2 * MINUTE;
/** A streak older than this starts again ("several fixes within an hour"). */
const STREAK_WINDOW_MS = 60 * MINUTE;
/** Devices whose stored fixes are watched at most (oldest forgotten first). */
const MAX_STREAKS = 10_000;

/** A NUL (PostgreSQL refuses it in text) or a lone surrogate (refused as UTF-8). */
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Text a device had a hand in, made safe for a text column, and bounded. */
const safeText = (s: string, max: number) => s.slice(0, max).replace(UNSTORABLE, '\ufffd');

/**
 * A refusal as it can be written: a fix time the database cannot hold (not a time, year 0000,
 * +010000) goes as text, never as a time, so it cannot fail the statement (issue 66).
 */
function storable(f: RefusedFix): RefusedFix & { fixTimeText: string | null } {
  const held = f.fixTime && holdableTime(f.fixTime) ? f.fixTime : null;
  const text = held ? null : (f.fixTimeText ?? (f.fixTime ? timeText(f.fixTime) : null));
  return { ...f, fixTime: held, fixTimeText: text === null ? null : safeText(text, 64) };
}

export class RefusedFixes {
  private pending = new Map<string, Pending>();
  private suspects = new Map<string, ClockSuspect>();
  private readonly streaks = new Map<string, Streak>();
  /** Clock facts raised (or found raised) here, so a device's day is notified once without asking the database each time. */
  private readonly raised = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly purgeTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly flushMs: number;
  private readonly maxPending: number;
  private readonly keepMs: number;
  private readonly clockFixes: number;
  private readonly clockSpanMs: number;
  private readonly onError: (err: unknown, what: string) => void;
  /** Refusals noted, rows written (after aggregation), dropped (memory full or a failed write) and notices raised, since start. */
  readonly stats = { noted: 0, written: 0, dropped: 0, failed: 0, notices: 0 };

  constructor(
    private readonly db: Db,
    opts: RefusedFixesOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? 1000;
    this.maxPending = opts.maxPending ?? 10_000;
    this.keepMs = opts.keepMs ?? 24 * 60 * MINUTE;
    this.clockFixes = opts.clockFixes ?? 5;
    this.clockSpanMs = opts.clockSpanMs ?? 5 * MINUTE;
    this.onError = opts.onError ?? (() => undefined);
    const purgeEvery = opts.purgeEveryMs ?? 10 * MINUTE;
    if (purgeEvery > 0) {
      this.purgeTimer = setInterval(() => void this.purge().catch((err: unknown) => this.onError(err, 'refused fixes purge')), purgeEvery);
      this.purgeTimer.unref();
    }
  }

  /**
   * Records one refused fix: in memory at once, in the database within `flushMs`. Never throws
   * and never waits; a refusal for its time flags the device (once a day).
   */
  note(refused: RefusedFix): void {
    if (this.closed) return;
    try {
      this.stats.noted++;
      const f = storable(refused);
      const minuteMs = Math.floor(f.receivedAt.getTime() / MINUTE) * MINUTE;
      const key = `${f.organizationId}|${f.gatewayId}|${f.reason}|${minuteMs}`;
      const p = this.pending.get(key);
      if (p) {
        p.count++;
        if (f.receivedAt >= p.receivedAt)
          Object.assign(p, {
            receivedAt: f.receivedAt,
            fixTime: f.fixTime,
            fixTimeText: f.fixTimeText,
            message: f.message,
            field: f.field ?? null,
            protocol: f.protocol,
          });
      } else if (this.pending.size >= this.maxPending) {
        this.stats.dropped++;
        return;
      } else {
        this.pending.set(key, { ...f, field: f.field ?? null, minute: new Date(minuteMs), count: 1 });
      }
      const fixMs = f.fixTime?.getTime();
      // An imported history file is old by nature: its refusals say nothing of the device's clock.
      if (TIME_REASONS.has(f.reason) && f.protocol !== 'import' && fixMs !== undefined) {
        this.suspect({ organizationId: f.organizationId, gatewayId: f.gatewayId, offsetMs: fixMs - f.receivedAt.getTime(), refused: true, at: f.receivedAt });
      }
      this.schedule();
    } catch (err) {
      // Whatever went wrong here is this recorder's problem, never ingest's.
      this.onError(err, 'refused fix note');
    }
  }

  /**
   * Watches a stored fix's clock: `clockFixes` fixes in a row within an hour, over at least
   * `clockSpanMs`, all with the same offset past 10 minutes, flag the device (a buffered backlog's
   * offsets shrink as it empties, so it is not taken for a clock). Cheap for a clock that is right.
   */
  observe(f: ObservedFix): void {
    if (this.closed) return;
    // Not for imported history files (old by nature) nor devices on 'use the time received'.
    const received = f.receivedAt.getTime();
    const offsetMs = f.fixTime.getTime() - received;
    if (!(Math.abs(offsetMs) >= CLOCK_TOLERANCE_MS)) {
      if (this.streaks.size) this.streaks.delete(f.gatewayId);
      return;
    }
    let s = this.streaks.get(f.gatewayId);
    if (!s || received - s.firstAt > STREAK_WINDOW_MS || Math.abs(offsetMs - s.offsetMs) > SAME_OFFSET_MS) {
      this.streaks.delete(f.gatewayId);
      while (this.streaks.size >= MAX_STREAKS) this.streaks.delete(this.streaks.keys().next().value!);
      this.streaks.set(f.gatewayId, (s = { firstAt: received, offsetMs, fixes: 0 }));
    }
    s.fixes++;
    if (s.fixes >= this.clockFixes && received - s.firstAt >= this.clockSpanMs) {
      this.streaks.delete(f.gatewayId);
      this.suspect({ organizationId: f.organizationId, gatewayId: f.gatewayId, offsetMs, refused: false, at: f.receivedAt });
      this.schedule();
    }
  }

  private suspect(s: ClockSuspect): void {
    const fact = clockFactKey(s.gatewayId, s.at);
    if (this.raised.has(fact)) return;
    const known = this.suspects.get(fact);
    // A refusal's notice wins over a stored fix's: it says the fixes are lost.
    if (!known || (s.refused && !known.refused)) this.suspects.set(fact, s);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  /** Writes what is gathered now, then raises the clock notices; resolves when done (errors go to onError). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = [...this.pending.values()];
    const suspects = [...this.suspects.values()];
    this.pending = new Map();
    this.suspects = new Map();
    // One flush after another: a slow database never has two of them racing on the same rows.
    this.writing = this.writing.then(async () => {
      if (rows.length) await this.write(rows);
      if (suspects.length) await this.raise(suspects);
    });
    return this.writing;
  }

  /**
   * Writes the rows, a statement per chunk. A statement that fails is tried again organization by
   * organization: one organization's row the database refuses must not lose the others' (issue 66).
   */
  private async write(rows: Pending[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
      try {
        await this.insert(chunk);
      } catch (err) {
        const byOrg = new Map<string, Pending[]>();
        for (const r of chunk) {
          const part = byOrg.get(r.organizationId);
          if (part) part.push(r);
          else byOrg.set(r.organizationId, [r]);
        }
        if (byOrg.size === 1) this.failed(chunk, err);
        else for (const part of byOrg.values()) await this.insert(part).catch((e: unknown) => this.failed(part, e));
      }
    }
  }

  private failed(rows: Pending[], err: unknown): void {
    this.stats.failed += rows.length;
    this.onError(err, 'refused fixes write');
  }

  private async insert(rows: Pending[]): Promise<void> {
    await this.db
      .insert(refusedFixes)
      .values(
        rows.map((r) => ({
          organizationId: r.organizationId,
          gatewayId: r.gatewayId,
          minute: r.minute,
          reason: r.reason,
          receivedAt: r.receivedAt,
          fixTime: r.fixTime,
          fixTimeText: r.fixTimeText,
          message: safeText(r.message, 500),
          field: r.field === null ? null : safeText(r.field, 60),
          protocol: r.protocol,
          count: r.count,
        })),
      )
      .onConflictDoUpdate({
        target: [refusedFixes.organizationId, refusedFixes.gatewayId, refusedFixes.minute, refusedFixes.reason],
        // Another flush (or instance) wrote this minute already: add up, keep the newest one's details.
        set: {
          count: sql`${refusedFixes.count} + excluded.count`,
          fixTime: sql`case when excluded.received_at >= ${refusedFixes.receivedAt} then excluded.fix_time else ${refusedFixes.fixTime} end`,
          fixTimeText: sql`case when excluded.received_at >= ${refusedFixes.receivedAt} then excluded.fix_time_text else ${refusedFixes.fixTimeText} end`,
          message: sql`case when excluded.received_at >= ${refusedFixes.receivedAt} then excluded.message else ${refusedFixes.message} end`,
          field: sql`case when excluded.received_at >= ${refusedFixes.receivedAt} then excluded.field else ${refusedFixes.field} end`,
          protocol: sql`case when excluded.received_at >= ${refusedFixes.receivedAt} then excluded.protocol else ${refusedFixes.protocol} end`,
          receivedAt: sql`greatest(${refusedFixes.receivedAt}, excluded.received_at)`,
        },
      });
    this.stats.written += rows.length;
  }

  /** Notifies each suspect device's clock, once a device and day (the fact key). */
  private async raise(suspects: ClockSuspect[]): Promise<void> {
    try {
      const byOrg = new Map<string, ClockSuspect[]>();
      for (const s of suspects) byOrg.set(s.organizationId, [...(byOrg.get(s.organizationId) ?? []), s]);
      const notices = [];
      for (const [orgId, list] of byOrg) {
        // Named by organization, so on Citus each read goes to that organization's worker.
        const devices = await this.db
          .select({ id: gateways.id, name: gateways.name, uniqueId: gateways.uniqueId, assetId: gateways.assetId })
          .from(gateways)
          .where(and(eq(gateways.organizationId, orgId), inArray(gateways.id, [...new Set(list.map((s) => s.gatewayId))])));
        const byId = new Map(devices.map((d) => [d.id, d]));
        for (const s of list) {
          const d = byId.get(s.gatewayId);
          if (d) notices.push(deviceClockNotice(s, d));
        }
      }
      const results = await notifyMany(this.db, notices);
      this.stats.notices += results.filter((r) => r.created).length;
      // Created now or already (another instance, before a restart): either way not to be sent again today.
      this.remember(notices.map((n) => n.factKey));
    } catch (err) {
      this.onError(err, 'device clock notification');
    }
  }

  private remember(facts: string[]): void {
    // Yesterday's facts cannot come back (the key names the day): keep the set to about a day's devices.
    if (this.raised.size > 50_000) this.raised.clear();
    for (const f of facts) this.raised.add(f);
  }

  /** Deletes rows older than `keepMs` (every `purgeEveryMs` on its own; tests call it). */
  async purge(now = Date.now()): Promise<void> {
    await this.db.delete(refusedFixes).where(lt(refusedFixes.receivedAt, new Date(now - this.keepMs)));
  }

  /** Stops the timers and writes what is gathered. */
  async close(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.closed = true;
    await this.flush();
  }
}
