import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { recordActivity } from '../activity-log/index.ts';
import { notify } from '../notifications/index.ts';
import { postWebhook, type AttemptResult } from './webhook-target.ts';

// The webhook sender (issue 48, decision 0198). Every instance runs one (WEBHOOK_SENDER=0 turns it
// off). A subscription's deliveries go one at a time in order: only the first PENDING delivery of an
// enabled subscription (its head) may be claimed, and a claim is a lease written in one statement
// (FOR UPDATE SKIP LOCKED, then leased_until), so exactly one instance sends each attempt. A sender
// killed mid-delivery leaves its lease to run out: the attempt is made again, with the same
// webhook-id, by whichever instance claims it then. Results are written in batches.

/** Seconds to wait after each failed attempt (Standard Webhooks' schedule, stretched to about 3 days). */
export const RETRY_SCHEDULE_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600, 14 * 3600, 14 * 3600, 16 * 3600] as const;
/** A subscription whose every attempt has failed this long is turned off, and its administrators told. */
export const FAILING_DISABLE_MS = 5 * 24 * 3600_000;
/** Delivered and given-up deliveries are kept this long for the deliveries list, then purged. */
const KEEP_DAYS = 30;
/** The longest a receiver's Retry-After is honoured. */
const MAX_RETRY_AFTER_S = 24 * 3600;

/** The wait before attempt `attempts + 1` (attempts made so far ≥ 1), with ±20 % jitter; null once the schedule is spent. */
export function retryDelayMs(attempts: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_S[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * scale * (0.8 + 0.4 * random()));
}

/** The webhook-id of an event: the same on every attempt and every resend. */
export const messageIdOf = (eventId: string) => `msg_${eventId.replace(/-/g, '')}`;

interface Claimed {
  o: string;
  id: number;
  sid: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  body: string;
}

interface Outcome {
  d: Claimed;
  r: AttemptResult;
}

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

export interface SenderStats {
  attempts: number;
  delivered: number;
  failed: number;
  /** Commit-to-first-attempt delays in ms (the bench reads and clears them). */
  firstAttemptLagMs: number[];
}

export class WebhookSender {
  private inFlight = 0;
  private claiming: Promise<void> | null = null;
  private claimAgain = false;
  private readonly results: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private purgeTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly signers = new Map<string, Webhook>();
  readonly stats: SenderStats = { attempts: 0, delivered: 0, failed: 0, firstAttemptLagMs: [] };
  /** Set by the bench: the lag of first attempts is kept only then. */
  measureLag = false;

  constructor(
    private readonly db: Db,
    private readonly config: WebhookConfig,
    private readonly onError: (err: unknown, what: string) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
    this.purgeTimer = setInterval(() => void this.purge().catch((err) => this.onError(err, 'webhook purge')), 3600_000);
    this.purgeTimer.unref();
  }

  /** Stops claiming; resolves once the attempts under way are sent and their results written. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    await this.claiming;
    while (this.inFlight > 0 || this.flushing || this.results.length > 0) {
      await (this.flushing ?? new Promise((r) => setTimeout(r, 20)));
      if (!this.flushing && this.results.length > 0) this.flush();
    }
  }

  /** Looks at the outbox now (a fact was committed, a result written, the timer rang). */
  kick(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = (async () => {
      try {
        do {
          this.claimAgain = false;
          await this.claimRound();
        } while (this.claimAgain && !this.stopped);
      } catch (err) {
        this.onError(err, 'webhook claim');
        this.wakeIn(this.config.pollMs);
      } finally {
        this.claiming = null;
      }
    })();
  }

  /** Resolves once nothing is due, in flight or waiting to be written (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.claiming;
      await this.flushing;
      if (!this.claiming && !this.flushing && this.inFlight === 0 && this.results.length === 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private wakeIn(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.max(5, Math.min(ms, this.config.pollMs)));
    this.timer.unref();
  }

  private async claimRound(): Promise<void> {
    const room = this.config.concurrency - this.inFlight;
    if (room <= 0) return;
    const leaseS = Math.ceil(this.config.timeoutMs / 1000) + 20;
    // The heads of the enabled subscriptions: only they may go, so each subscription's events go in order.
    const res = await this.db.execute(sql`
      with heads as (
        select s.organization_id as o, (
          select d.id from webhook_deliveries d
          where d.organization_id = s.organization_id and d.subscription_id = s.id and d.status = 'PENDING'
          order by d.id limit 1
        ) as did
        from webhook_subscriptions s where s.enabled
      ),
      due as (
        select d.organization_id, d.id from webhook_deliveries d
        join heads h on d.organization_id = h.o and d.id = h.did
        where d.next_attempt_at <= now() and (d.leased_until is null or d.leased_until < now())
        order by d.next_attempt_at, d.id
        limit ${room}
        for update of d skip locked
      )
      update webhook_deliveries w
      set leased_until = now() + make_interval(secs => ${leaseS}), attempts = w.attempts + 1, last_attempt_at = now()
      from due, webhook_events e, webhook_subscriptions s
      where w.organization_id = due.organization_id and w.id = due.id
        and e.organization_id = w.organization_id and e.id = w.event_id
        and s.organization_id = w.organization_id and s.id = w.subscription_id
      returning w.organization_id as o, w.id, w.subscription_id as sid, w.event_id, w.attempts, s.url, s.secret, s.previous_secret,
        s.previous_secret_expires_at, e.body, (extract(epoch from e.created_at) * 1000)::float8 as created_ms`);
    const claimed = rowsOf<Claimed & { created_ms: number }>(res);
    for (const d of claimed) {
      if (this.measureLag && d.attempts === 1) this.stats.firstAttemptLagMs.push(this.clock() - d.created_ms);
      this.inFlight++;
      void this.send(d).then((r) => {
        this.inFlight--;
        this.results.push({ d, r });
        this.flush();
      });
    }
    if (claimed.length === room) this.claimAgain = true;
    else if (claimed.length === 0 && this.inFlight === 0) this.wakeIn(await this.nextDueMs());
  }

  /** Milliseconds until the next head comes due or a lease runs out (at most the poll interval). */
  private async nextDueMs(): Promise<number> {
    const res = await this.db.execute(sql`
      select extract(epoch from min(greatest(d.next_attempt_at, coalesce(d.leased_until, d.next_attempt_at))) - now()) * 1000 as ms
      from webhook_subscriptions s
      cross join lateral (
        select d.next_attempt_at, d.leased_until from webhook_deliveries d
        where d.organization_id = s.organization_id and d.subscription_id = s.id and d.status = 'PENDING'
        order by d.id limit 1
      ) d
      where s.enabled`);
    const ms = rowsOf<{ ms: number | string | null }>(res)[0]?.ms;
    return ms === null || ms === undefined ? this.config.pollMs : Math.max(5, Number(ms) + 5);
  }

  private signer(secret: string): Webhook {
    let w = this.signers.get(secret);
    if (!w) {
      if (this.signers.size > 10_000) this.signers.clear();
      w = new Webhook(secret);
      this.signers.set(secret, w);
    }
    return w;
  }

  private async send(d: Claimed): Promise<AttemptResult> {
    try {
      const id = messageIdOf(d.event_id);
      const now = new Date(this.clock());
      // During a rotation both secrets sign (space-separated signatures), so a receiver may switch at its pace.
      const previousValid = d.previous_secret && d.previous_secret_expires_at && new Date(d.previous_secret_expires_at).getTime() > now.getTime();
      const signatures = [this.signer(d.secret).sign(id, now, d.body), ...(previousValid ? [this.signer(d.previous_secret!).sign(id, now, d.body)] : [])];
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
      return await postWebhook(d.url, headers, d.body, { allowHttp: this.config.allowHttp, allowPrivate: this.config.allowPrivate, timeoutMs: this.config.timeoutMs });
    } catch (err) {
      return { status: null, error: (err as Error).message, retryAfterS: null, durationMs: 0 };
    }
  }

  private flush(): void {
    if (this.flushing || this.results.length === 0) return;
    this.flushing = (async () => {
      while (this.results.length > 0) {
        const batch = this.results.splice(0, this.results.length);
        try {
          await this.record(batch);
        } catch (err) {
          // The leases run out and the attempts are made again: at least once, never lost.
          this.onError(err, 'webhook results');
        }
      }
    })().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async record(batch: Outcome[]): Promise<void> {
    const now = this.clock();
    const rows = batch.map(({ d, r }) => {
      const ok = r.status !== null && r.status >= 200 && r.status < 300;
      const gone = r.status === 410;
      const delay = ok || gone ? null : retryDelayMs(d.attempts, this.config.retryScale);
      const waitMs = delay === null ? null : Math.max(delay, Math.min(r.retryAfterS ?? 0, MAX_RETRY_AFTER_S) * 1000);
      const status = ok ? 'DELIVERED' : waitMs === null ? 'FAILED' : 'PENDING';
      if (ok) this.stats.delivered++;
      else if (status === 'FAILED') this.stats.failed++;
      this.stats.attempts++;
      return { o: d.o, id: d.id, sid: d.sid, status, ok, gone, next: new Date(now + (waitMs ?? 0)).toISOString(), code: r.status, err: r.error?.slice(0, 1000) ?? null, ms: r.durationMs };
    });
    const failingAfterS = (FAILING_DISABLE_MS * this.config.retryScale) / 1000;
    const res = await this.db.execute(sql`
      with r as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(o uuid, id bigint, sid uuid, status text, ok boolean, gone boolean, next timestamptz, code int, err text, ms int)),
      d as (
        update webhook_deliveries w
        set status = r.status, next_attempt_at = r.next, leased_until = null, response_code = r.code, last_error = r.err, duration_ms = r.ms,
          delivered_at = case when r.ok then now() end
        from r where w.organization_id = r.o and w.id = r.id
        returning 1
      ),
      s as (select o, sid, bool_or(ok) as ok, bool_or(gone) as gone from r group by o, sid),
      t as (
        select s.*, ws.enabled and (s.gone or (not s.ok and coalesce(ws.failing_since, now()) < now() - make_interval(secs => ${failingAfterS}))) as off
        from s join webhook_subscriptions ws on ws.organization_id = s.o and ws.id = s.sid
      )
      update webhook_subscriptions ws
      set failing_since = case when t.ok then null else coalesce(ws.failing_since, now()) end,
        enabled = ws.enabled and not t.off,
        disabled_reason = case when t.off then (case when t.gone then 'GONE' else 'FAILING' end) else ws.disabled_reason end,
        updated_at = case when t.off then now() else ws.updated_at end
      from t where ws.organization_id = t.o and ws.id = t.sid and (t.off or not t.ok or ws.failing_since is not null)
      returning ws.organization_id as o, ws.id, ws.url, ws.disabled_reason, t.off`);
    const turnedOff = rowsOf<{ o: string; id: string; url: string; disabled_reason: string | null; off: boolean }>(res).filter((x) => x.off);
    for (const s of turnedOff) await this.tell(s).catch((err) => this.onError(err, 'webhook disabled notice'));
  }

  /** The administrators hear that a subscription was turned off (in the app and by e-mail), and the log says why. */
  private async tell(s: { o: string; id: string; url: string; disabled_reason: string | null }): Promise<void> {
    const gone = s.disabled_reason === 'GONE';
    await this.db.transaction(async (tx) => {
      await recordActivity(tx, { orgId: s.o, actor: { userId: null, email: null, role: 'SYSTEM', ip: null }, action: 'DISABLE', entityType: 'WEBHOOK', entityId: s.id, after: { url: s.url, enabled: false, disabledReason: s.disabled_reason } });
      await notify(tx, {
        organizationId: s.o,
        kind: 'WEBHOOK_DISABLED',
        factKey: `webhook-disabled:${s.id}:${new Date(this.clock()).toISOString().slice(0, 16)}`,
        title: `Webhook to ${new URL(s.url).host} turned off`,
        body: gone
          ? `The receiver at ${s.url} answered 410 Gone, which asks senders to stop. Events are no longer sent to it; turn the subscription on again under Organization account → Webhooks if that was a mistake.`
          : `Every delivery to ${s.url} has failed for 5 days, so the subscription was turned off. Events wait in its queue; check the receiver and turn the subscription on again under Organization account → Webhooks.`,
        link: '/settings/organization-settings/webhooks',
        linkLabel: 'Webhooks',
      });
    });
  }

  /** Deliveries done for KEEP_DAYS, and the events no delivery needs any more, go. */
  async purge(): Promise<void> {
    await this.db.execute(sql`delete from webhook_deliveries where status <> 'PENDING' and created_at < now() - make_interval(days => ${KEEP_DAYS})`);
    await this.db.execute(sql`
      delete from webhook_events e where e.created_at < now() - make_interval(days => ${KEEP_DAYS})
        and not exists (select 1 from webhook_deliveries d where d.organization_id = e.organization_id and d.event_id = e.id)`);
  }
}
