import { and, count, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  MESSAGE_LATE_MAX_DAYS,
  type Conversation,
  type ConversationPage,
  type DriverMessage,
  type MessagePage,
  type MessageReadResult,
  type MessageSide,
  type messageCreateSchema,
  type messageListQuery,
  type messageReadSchema,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, loads, messages, users } from '../../db/schema/index.ts';
import { notifyConversation } from '../../db/sql/notify.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordedTime } from '../../http/idempotency-key.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { attachImages, imageLink, uploaderOf } from '../images/index.ts';
import { notify } from '../notifications/index.ts';

// Messages between a driver and dispatch (issue 44, decision 0181). The office (MESSAGE_LIST) reads
// every conversation of the organization and, with MESSAGE_SEND, writes in any; a caller without
// MESSAGE_LIST (the built-in Driver role holds MESSAGE_SEND alone) reaches only the conversation of
// their own driver record. Another organization's driver or load, or a conversation out of reach,
// answers 404. Every change is signalled at commit (notifyConversation) so open streams refetch.

/** The caller's side and reach: the office sees every driver; a driver only their own conversation. */
export type MessageReach = { side: 'OFFICE' } | { side: 'DRIVER'; driverId: string };

export async function reachOf(db: DbOrTx, orgId: string, ctx: Pick<AuthContext, 'userId' | 'permissions'>): Promise<MessageReach> {
  if (ctx.permissions.has('MESSAGE_LIST')) return { side: 'OFFICE' };
  const driverId = await ownConversation(db, orgId, ctx.userId);
  // A caller with neither the office's code nor a driver record has no conversation at all.
  if (!driverId) throw notFound('Conversation');
  return { side: 'DRIVER', driverId };
}

/** The driver record of a user in the organization (their own conversation), or null. */
export async function ownConversation(db: DbOrTx, orgId: string, userId: string): Promise<string | null> {
  const [d] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.userId, userId)));
  return d?.id ?? null;
}

/** Whether the caller may read the message (the office, or the driver whose conversation it is): who reads its photos by id. */
export async function messageInReach(db: DbOrTx, orgId: string, ctx: Pick<AuthContext, 'userId' | 'permissions'>, messageId: string): Promise<boolean> {
  if (ctx.permissions.has('MESSAGE_LIST')) return true;
  const driverId = await ownConversation(db, orgId, ctx.userId);
  if (!driverId) return false;
  const [m] = await db
    .select({ driverId: messages.driverId })
    .from(messages)
    .where(and(eq(messages.organizationId, orgId), eq(messages.id, messageId)));
  return m?.driverId === driverId;
}

const otherSide = (side: MessageSide): MessageSide => (side === 'DRIVER' ? 'OFFICE' : 'DRIVER');

/** The driver, when it is one of the organization's and within the caller's reach (else 404). */
async function driverInReach(db: DbOrTx, orgId: string, reach: MessageReach, driverId: string) {
  if (reach.side === 'DRIVER' && reach.driverId !== driverId) throw notFound('Driver');
  const [d] = await db
    .select({ id: drivers.id, userId: drivers.userId, firstName: drivers.firstName, lastName: drivers.lastName })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driverId)));
  if (!d) throw notFound('Driver');
  return d;
}

/** The load, when it is one of the organization's (and, for a driver, one they drive): else 404. */
async function loadInReach(db: DbOrTx, orgId: string, reach: MessageReach, loadId: string) {
  const [l] = await db
    .select({ id: loads.id, number: loads.number, driverId: loads.driverId, coDriverId: loads.coDriverId })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  if (!l || (reach.side === 'DRIVER' && l.driverId !== reach.driverId && l.coDriverId !== reach.driverId)) throw notFound('Load');
  return l;
}

type MessageRow = typeof messages.$inferSelect;

const messageColumns = {
  id: messages.id,
  driverId: messages.driverId,
  loadId: messages.loadId,
  side: messages.side,
  senderUserId: messages.senderUserId,
  body: messages.body,
  imageIds: messages.imageIds,
  clientId: messages.clientId,
  sentAt: messages.sentAt,
  receivedAt: messages.receivedAt,
  readAt: messages.readAt,
};
type ListedRow = Pick<MessageRow, keyof typeof messageColumns>;

/** Rows as the API shows them: senders' names and loads' numbers read in one statement each. */
async function present(db: DbOrTx, orgId: string, rows: readonly ListedRow[]): Promise<DriverMessage[]> {
  const senderIds = [...new Set(rows.map((r) => r.senderUserId).filter((x): x is string => !!x))];
  const loadIds = [...new Set(rows.map((r) => r.loadId).filter((x): x is string => !!x))];
  const senders = new Map(
    (senderIds.length
      ? await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, senderIds))
      : []
    ).map((u) => [u.id, u]),
  );
  const loadRefs = new Map(
    (loadIds.length
      ? await db
          .select({ id: loads.id, number: loads.number })
          .from(loads)
          .where(and(eq(loads.organizationId, orgId), inArray(loads.id, loadIds)))
      : []
    ).map((l) => [l.id, l.number]),
  );
  return rows.map((r) => {
    const s = r.senderUserId ? senders.get(r.senderUserId) : undefined;
    return {
      id: r.id,
      driverId: r.driverId,
      loadId: r.loadId,
      loadRef: r.loadId ? (loadRefs.get(r.loadId) ?? null) : null,
      side: r.side,
      sender: s ? { id: s.id, firstName: s.firstName ?? null, lastName: s.lastName ?? null } : null,
      body: r.body,
      imageIds: r.imageIds,
      imageUrls: r.imageIds.map((id) => imageLink(id)),
      clientId: r.clientId,
      sentAt: r.sentAt.toISOString(),
      receivedAt: r.receivedAt.toISOString(),
      readAt: r.readAt?.toISOString() ?? null,
    };
  });
}

/** Messages to `side` not read yet, in one conversation or (office) all of them. */
async function unreadFor(db: DbOrTx, orgId: string, reach: MessageReach, driverId?: string): Promise<number> {
  const to = reach.side;
  const [c] = await db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.organizationId, orgId),
        eq(messages.side, otherSide(to)),
        isNull(messages.readAt),
        reach.side === 'DRIVER' ? eq(messages.driverId, reach.driverId) : driverId ? eq(messages.driverId, driverId) : undefined,
      ),
    );
  return Number(c?.n ?? 0);
}

export async function unreadCount(s: ReadScope, ctx: AuthContext): Promise<number> {
  return unreadFor(s.db, s.orgId, await reachOf(s.db, s.orgId, ctx));
}

/** A conversation (or, for the office without a driver, every one), newest first, a page older than `before`. */
export async function listMessages(s: ReadScope, ctx: AuthContext, q: z.output<typeof messageListQuery>): Promise<MessagePage> {
  const reach = await reachOf(s.db, s.orgId, ctx);
  const driverId = q.driverId ?? (reach.side === 'DRIVER' ? reach.driverId : undefined);
  if (driverId) await driverInReach(s.db, s.orgId, reach, driverId);
  if (q.loadId) await loadInReach(s.db, s.orgId, reach, q.loadId);
  const rows = await s.db
    .select(messageColumns)
    .from(messages)
    .where(
      and(
        eq(messages.organizationId, s.orgId),
        driverId ? eq(messages.driverId, driverId) : undefined,
        q.loadId ? eq(messages.loadId, q.loadId) : undefined,
        q.before ? lt(messages.sentAt, new Date(q.before)) : undefined,
      ),
    )
    .orderBy(desc(messages.sentAt), desc(messages.id))
    .limit(q.size + 1);
  const page = rows.slice(0, q.size);
  return {
    driverId: driverId ?? null,
    content: await present(s.db, s.orgId, page),
    nextBefore: rows.length > q.size ? page.at(-1)!.sentAt.toISOString() : null,
    unread: await unreadFor(s.db, s.orgId, reach, driverId),
  };
}

/** The office's inbox: each driver's latest message and the driver's messages not read yet, latest first. */
export async function listConversations(s: ReadScope, ctx: AuthContext): Promise<ConversationPage> {
  const reach = await reachOf(s.db, s.orgId, ctx);
  if (reach.side !== 'OFFICE') throw notFound('Conversation');
  const latest = await s.db
    .selectDistinctOn([messages.driverId], messageColumns)
    .from(messages)
    .where(eq(messages.organizationId, s.orgId))
    .orderBy(messages.driverId, desc(messages.sentAt), desc(messages.id));
  latest.sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime());
  const unread = await s.db
    .select({ driverId: messages.driverId, n: count() })
    .from(messages)
    .where(and(eq(messages.organizationId, s.orgId), eq(messages.side, 'DRIVER'), isNull(messages.readAt)))
    .groupBy(messages.driverId);
  const unreadOf = new Map(unread.map((u) => [u.driverId, Number(u.n)]));
  const ids = latest.map((r) => r.driverId);
  const people = new Map(
    (ids.length
      ? await s.db
          .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
          .from(drivers)
          .where(and(eq(drivers.organizationId, s.orgId), inArray(drivers.id, ids)))
      : []
    ).map((d) => [d.id, d]),
  );
  const shown = latest.filter((r) => people.has(r.driverId));
  const last = await present(s.db, s.orgId, shown);
  const content: Conversation[] = shown.map((r, i) => ({ driver: people.get(r.driverId)!, last: last[i]!, unread: unreadOf.get(r.driverId) ?? 0 }));
  return { content, unread: [...unreadOf.values()].reduce((a, b) => a + b, 0) };
}

/** The message a side's device already sent in a conversation with this client id, or null. */
async function storedMessage(db: DbOrTx, orgId: string, driverId: string, side: MessageSide, clientId: string): Promise<DriverMessage | null> {
  const [first] = await db
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.organizationId, orgId), eq(messages.driverId, driverId), eq(messages.side, side), eq(messages.clientId, clientId)));
  return first ? (await present(db, orgId, [first]))[0]! : null;
}

/** A message that reaches the server within this of being written is stored at the server's time. */
const AT_ONCE_MS = 60_000;
const LATE_MAX_MS = MESSAGE_LATE_MAX_DAYS * 86_400_000;

/**
 * When a message was written (issue 66, decision 0246): the server's time (the column's default,
 * null here), or for a driver's message a phone kept without signal, the time it was written
 * (`recordedAt`). One that arrives within a minute of it is stored at the server's time: a phone's
 * clock a few seconds off must not put an answer before the question it answers. A time ahead of
 * the server's beyond a minute, or more than MESSAGE_LATE_MAX_DAYS back, is a 400 (a wrong clock).
 */
function writtenAt(side: MessageSide, recordedAt: string | null | undefined, now: number): Date | null {
  if (!recordedAt) return null;
  if (side !== 'DRIVER') throw invalidField('recordedAt', "Recorded at is for a driver's phone sending a message late: leave it out");
  const ms = recordedTime(recordedAt, now);
  if (ms < now - LATE_MAX_MS)
    throw invalidField(
      'recordedAt',
      `Recorded at cannot be more than ${MESSAGE_LATE_MAX_DAYS} days ago: check the phone's date and time`,
      'sync.recorded_too_old',
    ).withParams({
      days: MESSAGE_LATE_MAX_DAYS,
    });
  return ms > now - AT_ONCE_MS ? null : new Date(ms);
}

/**
 * Sends a message in a driver's conversation. With a `clientId` already stored for the same
 * conversation and side, nothing new is stored and the first message is answered (`created: false`).
 */
export async function sendMessage(
  s: Scope,
  ctx: AuthContext,
  input: z.output<typeof messageCreateSchema>,
): Promise<{ message: DriverMessage; created: boolean }> {
  const reach = await reachOf(s.db, s.orgId, ctx);
  const clientId = input.clientId ?? null;
  let sentAt: Date | null;
  try {
    sentAt = writtenAt(reach.side, input.recordedAt, s.now ?? Date.now());
  } catch (err) {
    // A resend of a message stored before it grew too old answers that message: it was taken.
    const first = clientId && reach.side === 'DRIVER' ? await storedMessage(s.db, s.orgId, reach.driverId, reach.side, clientId) : null;
    if (first) return { message: first, created: false };
    throw err;
  }
  const driver = await driverInReach(s.db, s.orgId, reach, input.driverId);
  const load = input.loadId ? await loadInReach(s.db, s.orgId, reach, input.loadId) : null;
  const imageIds = [...new Set(input.imageIds)];
  return s.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        organizationId: s.orgId,
        driverId: driver.id,
        loadId: load?.id ?? null,
        side: reach.side,
        senderUserId: ctx.userId,
        body: input.body,
        imageIds,
        clientId,
        ...(sentAt ? { sentAt } : {}),
      })
      .onConflictDoNothing()
      .returning(messageColumns);
    if (!row) {
      const first = await storedMessage(tx, s.orgId, driver.id, reach.side, clientId ?? '');
      if (!first) throw new Error('message: conflicting client id not found');
      return { message: first, created: false };
    }
    // The photos become the message's: the sender's own uploads, attached to nothing else (issue 66).
    await attachImages(tx, s.orgId, uploaderOf(s.actor), imageIds, { type: 'MESSAGE', id: row.id }, (i) => `imageIds.${i}`, 'Photos');
    const [message] = await present(tx, s.orgId, [row]);
    await notifyConversation(tx, s.orgId, driver.id);
    const sender = message!.sender;
    const from =
      reach.side === 'DRIVER' ? `${driver.firstName} ${driver.lastName}` : [sender?.firstName, sender?.lastName].filter(Boolean).join(' ') || 'Dispatch';
    const preview = input.body.length > 140 ? `${input.body.slice(0, 139)}…` : input.body;
    if (reach.side === 'DRIVER') {
      await notify(tx, {
        organizationId: s.orgId,
        kind: 'MESSAGE_FROM_DRIVER',
        factKey: `message:${row.id}`,
        title: `Message from ${from}${load ? ` about ${load.number}` : ''}`,
        body: preview,
        link: `/messages?driverId=${driver.id}`,
        linkLabel: 'Answer',
        subject: { firstName: driver.firstName, lastName: driver.lastName },
        about: { driverId: driver.id },
      });
    } else if (driver.userId) {
      await notify(tx, {
        organizationId: s.orgId,
        kind: 'MESSAGE_FROM_DISPATCH',
        factKey: `message:${row.id}`,
        title: `Message from ${from}${load ? ` about ${load.number}` : ''}`,
        body: preview,
        link: '/driver/messages',
        linkLabel: 'Answer',
        userIds: [driver.userId],
      });
    }
    return { message: message!, created: true };
  });
}

/** Marks the other side's messages in a conversation read, up to an instant; the caller's unread left. */
export async function markRead(s: Scope, ctx: AuthContext, input: z.output<typeof messageReadSchema>): Promise<MessageReadResult> {
  const reach = await reachOf(s.db, s.orgId, ctx);
  await driverInReach(s.db, s.orgId, reach, input.driverId);
  return s.db.transaction(async (tx) => {
    const updated = await tx
      .update(messages)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(messages.organizationId, s.orgId),
          eq(messages.driverId, input.driverId),
          eq(messages.side, otherSide(reach.side)),
          isNull(messages.readAt),
          lte(messages.sentAt, new Date(input.upTo)),
        ),
      )
      .returning({ id: messages.id });
    if (updated.length) await notifyConversation(tx, s.orgId, input.driverId);
    return { updated: updated.length, unread: await unreadFor(tx, s.orgId, reach, reach.side === 'OFFICE' ? input.driverId : undefined) };
  });
}
