import { sql } from 'drizzle-orm';
import type { NotificationEvent } from '@fleet/api-contract';
import type { Database, Listener } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { presentNotification } from './notifications.presenter.ts';
import { NOTIFICATIONS_CHANNEL, notificationsOfFact, unreadCount } from './notifications.service.ts';
import { HOS_CHANGES_CHANNEL } from '../../db/sql/notify.ts';

export interface NotificationSubscriber {
  orgId: string;
  userId: string;
  /** Told when drivers' duty-status records change in the organization (the caller reads HoS lists). */
  hos?: boolean;
  /** Which drivers' conversations with dispatch the caller follows: every one (the office), one (a driver), none. */
  conversations?: { all: true } | { driverId: string } | null;
  send(
    event: 'notification' | 'unread' | 'hos' | 'conversation',
    data: NotificationEvent | { unread: number } | HosChangedEvent | ConversationChangedEvent,
  ): void;
  close(): void;
}

/** What an open stream is told when its organization's duty-status records changed: only when. */
export interface HosChangedEvent {
  at: string;
}

/** What an open stream is told when a conversation it follows changed (a message, a read mark). */
export interface ConversationChangedEvent {
  driverId: string;
}

/** Signalled at commit by the writers of HoS records (db/sql/notify.ts), the organization id as payload. */
export { HOS_CHANGES_CHANNEL };

/**
 * An organization's changes are gathered this long before its streams are told: a busy fleet's
 * automatic duty changes arrive many a second, and each one told is a refetch on every open screen.
 */
const HOS_COALESCE_MS = 250;

/** E-mails claimed per round. */
const MAIL_BATCH = 50;

/**
 * This instance's side of notifications: every instance LISTENs on the channel `notify` signals at
 * commit, so a notification created through any instance reaches the user's open bells here (one
 * query per fact for the users connected to this instance), and e-mails are sent by whichever
 * instance claims them first (one UPDATE … RETURNING, so never twice). A sweep every minute sends
 * e-mails a lost notification or a failed send left behind.
 */
export class NotificationHub {
  private subs = new Map<string, Set<NotificationSubscriber>>();
  private listener: Listener | null = null;
  private hosListener: Listener | null = null;
  private hosPending = new Map<string, NodeJS.Timeout>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private mailing: Promise<void> | null = null;
  private mailAgain = false;
  /** Called when webhook deliveries were committed on any instance (app.ts points it at the webhook sender). */
  onWebhookOutbox: () => void = () => {};

  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly log: (err: unknown) => void,
    private readonly sweepMs = 60_000,
  ) {}

  async start(): Promise<void> {
    this.listener = await this.database.listen(
      NOTIFICATIONS_CHANNEL,
      (payload) => void this.onNotify(payload).catch(this.log),
      () => {
        // Notifications were missed while the LISTEN connection was replaced: webhook deliveries
        // committed meanwhile among them.
        this.onWebhookOutbox();
        void this.resendCounts().catch(this.log);
      },
    );
    this.hosListener = await this.database.listen(HOS_CHANGES_CHANNEL, (orgId) => this.onHosChange(orgId));
    this.sweepTimer = setInterval(() => this.mail(), this.sweepMs);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const set of this.subs.values()) for (const s of set) s.close();
    this.subs.clear();
    for (const t of this.hosPending.values()) clearTimeout(t);
    this.hosPending.clear();
    await this.listener?.stop();
    await this.hosListener?.stop();
    await this.mailing;
  }

  private key = (orgId: string, userId: string) => `${orgId}|${userId}`;

  subscribe(sub: NotificationSubscriber): () => void {
    const k = this.key(sub.orgId, sub.userId);
    const set = this.subs.get(k) ?? new Set();
    set.add(sub);
    this.subs.set(k, set);
    return () => {
      set.delete(sub);
      if (set.size === 0) this.subs.delete(k);
    };
  }

  get connections(): number {
    let n = 0;
    for (const s of this.subs.values()) n += s.size;
    return n;
  }

  private async onNotify(payload: string): Promise<void> {
    const msg = JSON.parse(payload) as { o: string; f?: string; u?: string; m?: number; c?: string; w?: number };
    // Webhook deliveries were committed (issue 48): the sender looks at its outbox.
    if (msg.w) {
      this.onWebhookOutbox();
      return;
    }
    if (msg.c) {
      this.onConversation(msg.o, msg.c);
      return;
    }
    if (msg.f) {
      if (msg.m) this.mail();
      const here = [...this.subs.keys()].filter((k) => k.startsWith(`${msg.o}|`)).map((k) => k.slice(msg.o.length + 1));
      if (here.length === 0) return;
      const rows = await notificationsOfFact(this.database.db, msg.o, msg.f, here);
      for (const r of rows) {
        const unread = await unreadCount({ db: this.database.db, orgId: msg.o }, r.userId);
        const event: NotificationEvent = { notification: presentNotification(r), unread };
        for (const s of this.subs.get(this.key(msg.o, r.userId)) ?? []) s.send('notification', event);
      }
    } else if (msg.u) {
      const set = this.subs.get(this.key(msg.o, msg.u));
      if (!set) return;
      const unread = await unreadCount({ db: this.database.db, orgId: msg.o }, msg.u);
      for (const s of set) s.send('unread', { unread });
    }
  }

  /** Tells the organization's HoS readers here, once per HOS_COALESCE_MS however many changes. */
  private onHosChange(orgId: string): void {
    if (this.hosPending.has(orgId)) return;
    const timer = setTimeout(() => {
      this.hosPending.delete(orgId);
      const event: HosChangedEvent = { at: new Date().toISOString() };
      for (const [k, set] of this.subs) {
        if (!k.startsWith(`${orgId}|`)) continue;
        for (const s of set) if (s.hos) s.send('hos', event);
      }
    }, HOS_COALESCE_MS);
    timer.unref();
    this.hosPending.set(orgId, timer);
  }

  /** Tells the streams here that follow a driver's conversation that it changed (a message, a read mark). */
  private onConversation(orgId: string, driverId: string): void {
    const event: ConversationChangedEvent = { driverId };
    for (const [k, set] of this.subs) {
      if (!k.startsWith(`${orgId}|`)) continue;
      for (const s of set) {
        const c = s.conversations;
        if (c && ('all' in c || c.driverId === driverId)) s.send('conversation', event);
      }
    }
  }

  /** After a lost connection: every open bell gets its count again (notifications in between were missed). */
  private async resendCounts(): Promise<void> {
    for (const [k, set] of this.subs) {
      const [orgId, userId] = k.split('|') as [string, string];
      const unread = await unreadCount({ db: this.database.db, orgId }, userId);
      for (const s of set) s.send('unread', { unread });
    }
  }

  /** Sends pending e-mails (one round at a time per instance; a call during a round asks for another). */
  mail(): void {
    if (this.mailing) {
      this.mailAgain = true;
      return;
    }
    this.mailing = (async () => {
      do {
        this.mailAgain = false;
        while ((await this.mailRound()) === MAIL_BATCH);
      } while (this.mailAgain);
    })()
      .catch(this.log)
      .finally(() => {
        this.mailing = null;
      });
  }

  /** Resolves once the e-mails pending now are sent (tests). */
  async mailIdle(): Promise<void> {
    while (this.mailing) await this.mailing;
  }

  private async mailRound(): Promise<number> {
    const db = this.database.db;
    // Claimed per organization, each by one statement: of several instances, exactly one sends each
    // message. On Citus a FOR UPDATE must stay on one shard and users is a reference table read
    // apart (decision 0169).
    const orgs = rowsOf<{ organization_id: string }>(
      await db.execute(sql`select distinct organization_id from notifications where email and emailed_at is null`),
    );
    const now = new Date().toISOString();
    const claimed: Array<{ id: string; email: string; title: string; body: string | null; link: string | null; first_name: string | null }> = [];
    for (const { organization_id: org } of orgs) {
      if (claimed.length >= MAIL_BATCH) break;
      const rows = rowsOf<{ id: string; user_id: string; title: string; body: string | null; link: string | null }>(
        await db.execute(sql`update notifications n set emailed_at = ${now}::timestamptz
          where n.organization_id = ${org} and n.id in (select id from notifications where organization_id = ${org} and email and emailed_at is null
            order by created_at limit ${MAIL_BATCH - claimed.length} for update skip locked)
          returning n.id, n.user_id, n.title, n.body, n.link`),
      );
      if (rows.length === 0) continue;
      const people = rowsOf<{ id: string; email: string; first_name: string | null }>(
        await db.execute(sql`select id, email, first_name from users where id = any(${`{${[...new Set(rows.map((r) => r.user_id))].join(',')}}`}::uuid[])`),
      );
      const byId = new Map(people.map((u) => [u.id, u]));
      for (const r of rows) {
        const u = byId.get(r.user_id);
        if (u) claimed.push({ id: r.id, email: u.email, title: r.title, body: r.body, link: r.link, first_name: u.first_name });
      }
    }
    for (const m of claimed) {
      const link = m.link ? new URL(m.link, this.publicUrl).toString() : null;
      const text = [
        `Hello ${m.first_name ?? ''},`.replace(' ,', ','),
        '',
        m.title,
        ...(m.body ? ['', m.body] : []),
        ...(link ? ['', `Open it: ${link}`] : []),
        '',
        'You receive this because you chose it in Fleetline (Notifications, preferences).',
      ].join('\n');
      try {
        await this.mailer.send({ to: m.email, subject: `Fleetline: ${m.title}`, text });
      } catch (err) {
        // Left for the next sweep.
        await db.execute(sql`update notifications set emailed_at = null where id = ${m.id}`);
        this.log(err);
      }
    }
    return claimed.length;
  }
}
