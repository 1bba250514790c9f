import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  ORGANIZATION_PERMISSIONS,
  type NotificationKind,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationPreferencesInput,
  type NotificationSelection,
  type notificationListQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { drivers, groupAssets, groupMembers, notificationFacts, notificationPreferences, notifications, roles, users } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { presentNotification, type NotificationRow } from './notifications.presenter.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { emitWebhookEvents, type WebhookFact } from '../webhooks/index.ts';

/** LISTEN/NOTIFY channel: `{o, f}` a new fact fanned out, `{o, u}` a user's read state changed. */
export const NOTIFICATIONS_CHANNEL = 'notifications';

/** What happened, in words, for the people who chose to hear of it (docs/decisions/0130). */
export interface NotifyInput {
  organizationId: string;
  kind: NotificationKind;
  /**
   * The fact, unique within the organization: `violation:<driver>:<rule>:<start>`. A second notify
   * of the same fact (another instance, the next detection) does nothing, so detectors may repeat.
   */
  factKey: string;
  title: string;
  /** The expandable text. */
  body?: string | null;
  /** Web path the notification opens, and the words of its button. */
  link?: string | null;
  linkLabel?: string | null;
  /** The person it is about (a driver), for the avatar. */
  subject?: { firstName: string; lastName: string } | null;
  /** When the fact happened (default: now, as it is recorded). A fact found late (after a start-up) keeps its own time. */
  occurredAt?: Date | number | string | null;
  /** Only these users (the importer, the proposer of an edit); default: everyone who may receive the kind. */
  userIds?: readonly string[];
  /**
   * The fact is the `userIds`' own (a driver's own papers, issue 71): they receive it by their choice
   * of the kind whatever their role's codes, which are for hearing of others' facts.
   */
  own?: boolean;
  /**
   * The driver or vehicle it is about. A user who is a member of groups hears only of the drivers
   * and vehicles of those groups; a user in no group hears of the whole organization.
   */
  about?: { driverId?: string | null; assetId?: string | null };
  /**
   * The webhook of the same fact (issue 48): written to the outbox in the transaction that records the
   * fact, and only when the fact is new, so a detector repeating itself sends nothing twice.
   */
  webhook?: WebhookFact;
}

export interface NotifyResult {
  /** False when the fact was already notified. */
  created: boolean;
  /** Users who got it in the app or by e-mail. */
  recipients: number;
}

const isTx = (db: DbOrTx): db is Tx => 'rollback' in db;

/**
 * Records a fact once and fans it out to every user of the organization who may and chose to
 * receive its kind (in the app, by e-mail or both), in one transaction (the caller's, when given
 * one). Listeners on every instance are told at commit: open bells update, e-mails are sent.
 */
export async function notify(db: DbOrTx, input: NotifyInput): Promise<NotifyResult> {
  return (await notifyMany(db, [input]))[0]!;
}

/**
 * Many facts at once (the fleet watch's checks): the same as `notify` for each, in a fixed number
 * of statements whatever their number (facts, recipients, group memberships, rows, signals), so a
 * burst of facts never holds the database statement by statement.
 */
export async function notifyMany(db: DbOrTx, inputs: readonly NotifyInput[]): Promise<NotifyResult[]> {
  if (inputs.length === 0) return [];
  const run = async (tx: DbOrTx) => {
    const results = await fanOut(tx, inputs);
    await emitWebhookEvents(
      tx,
      inputs.flatMap((input, i) => (input.webhook && results[i]!.created ? [input.webhook] : [])),
    );
    return results;
  };
  return isTx(db) ? run(db) : (db as Db).transaction(run);
}

async function fanOut(tx: DbOrTx, inputs: readonly NotifyInput[]): Promise<NotifyResult[]> {
  const key = (orgId: string, factKey: string) => `${orgId}|${factKey}`;
  const fresh = await tx
    .insert(notificationFacts)
    .values(inputs.map((i) => ({ organizationId: i.organizationId, factKey: i.factKey, kind: i.kind })))
    .onConflictDoNothing()
    .returning({ org: notificationFacts.organizationId, key: notificationFacts.factKey });
  const isNew = new Set(fresh.map((f) => key(f.org, f.key)));
  const todo = inputs.filter(
    (i, n) => isNew.has(key(i.organizationId, i.factKey)) && inputs.findIndex((j) => j.organizationId === i.organizationId && j.factKey === i.factKey) === n,
  );
  const results = new Map<string, NotifyResult>();
  if (todo.length) {
    const users = await usersOf(tx, [...new Set(todo.map((i) => i.organizationId))]);
    const groupsOf = await aboutGroups(tx, todo);
    const rows: Array<typeof notifications.$inferInsert> = [];
    const signals: string[] = [];
    for (const input of todo) {
      const about = groupsOf(input);
      const recipients = (users.get(input.organizationId) ?? [])
        .filter((u) => !input.userIds || input.userIds.includes(u.id))
        .filter((u) => (input.own === true && !!input.userIds) || mayReceive(u.role, u.permissions, input.kind))
        .filter((u) => !about || !u.groups?.length || u.groups.some((g) => about.has(g)))
        .map((u) => ({ userId: u.id, ...choiceOf(u.kinds, input.kind) }))
        .filter((c) => c.inApp || c.email);
      results.set(key(input.organizationId, input.factKey), { created: true, recipients: recipients.length });
      if (recipients.length === 0) continue;
      for (const r of recipients) {
        rows.push({
          organizationId: input.organizationId,
          userId: r.userId,
          kind: input.kind,
          factKey: input.factKey,
          title: input.title,
          body: input.body ?? null,
          link: input.link ?? null,
          linkLabel: input.linkLabel ?? null,
          subject: input.subject ?? null,
          occurredAt: input.occurredAt === undefined || input.occurredAt === null ? null : new Date(input.occurredAt),
          inApp: r.inApp,
          email: r.email,
        });
      }
      // `m`: some recipient wants it by e-mail (listeners start a mail round only then).
      signals.push(JSON.stringify({ o: input.organizationId, f: input.factKey, ...(recipients.some((r) => r.email) ? { m: 1 } : {}) }));
    }
    for (let i = 0; i < rows.length; i += 1000)
      await tx
        .insert(notifications)
        .values(rows.slice(i, i + 1000))
        .onConflictDoNothing();
    if (signals.length) {
      await tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, x) from json_array_elements_text(${JSON.stringify(signals)}::json) as x`);
    }
  }
  return inputs.map((i) => results.get(key(i.organizationId, i.factKey)) ?? { created: false, recipients: 0 });
}

const ADMIN_CODES = new Set<string>(ORGANIZATION_PERMISSIONS);

/** The kind's effective choice of a user: what they saved, else the kind's default. */
export function choiceOf(
  saved: Record<string, { inApp: boolean; email: boolean }> | null | undefined,
  kind: NotificationKind,
): { inApp: boolean; email: boolean } {
  const c = saved?.[kind];
  return c ? { inApp: !!c.inApp, email: !!c.email } : NOTIFICATION_KIND_INFO[kind].defaults;
}

/** Whether a user with this role may receive the kind (its permission; ADMIN holds every code). */
export function mayReceive(role: string, rolePermissions: readonly string[] | null, kind: NotificationKind): boolean {
  const needed = NOTIFICATION_KIND_INFO[kind].permission;
  if (!needed) return true;
  return role === 'ADMIN' ? ADMIN_CODES.has(needed) : (rolePermissions ?? []).includes(needed);
}

type OrgUser = {
  id: string;
  org: string;
  role: string;
  permissions: string[] | null;
  kinds: Record<string, { inApp: boolean; email: boolean }> | null;
  groups: string[] | null;
};

/**
 * Active users of these organizations with their role's codes, choices and groups. Three statements
 * joined here: users and roles are Citus reference tables and preferences and group memberships are
 * distributed ones, which Citus will not join through a correlated subquery (decision 0169).
 */
async function usersOf(tx: DbOrTx, orgIds: string[]): Promise<Map<string, OrgUser[]>> {
  const out = new Map<string, OrgUser[]>();
  if (orgIds.length === 0) return out;
  // In turn: a transaction is one connection.
  const people = await tx
    .select({ id: users.id, org: sql<string>`${users.organizationId}`, role: users.role, permissions: roles.permissions })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(inArray(users.organizationId, orgIds), eq(users.status, 'ACTIVE')));
  const prefs = await tx
    .select({ userId: notificationPreferences.userId, kinds: notificationPreferences.kinds })
    .from(notificationPreferences)
    .where(inArray(notificationPreferences.organizationId, orgIds));
  const memberships = await tx
    .select({ userId: groupMembers.memberId, group: groupMembers.groupId })
    .from(groupMembers)
    .where(and(inArray(groupMembers.organizationId, orgIds), eq(groupMembers.memberType, 'USER')));
  const kindsOf = new Map(prefs.map((p) => [p.userId, p.kinds]));
  const groupsOf = new Map<string, string[]>();
  for (const m of memberships) groupsOf.set(m.userId, [...(groupsOf.get(m.userId) ?? []), m.group]);
  for (const r of people) {
    const list = out.get(r.org) ?? [];
    list.push({ ...r, kinds: kindsOf.get(r.id) ?? null, groups: groupsOf.get(r.id) ?? null });
    out.set(r.org, list);
  }
  return out;
}

/** The groups of the drivers and vehicles facts are about (two statements at most); null for a fact about neither. */
async function aboutGroups(tx: DbOrTx, inputs: readonly NotifyInput[]): Promise<(i: NotifyInput) => Set<string> | null> {
  const driverIds = [...new Set(inputs.flatMap((i) => (i.about?.driverId ? [i.about.driverId] : [])))];
  const assetIds = [...new Set(inputs.flatMap((i) => (i.about?.assetId ? [i.about.assetId] : [])))];
  // The organizations named: on Citus the statements go to their shards only (issue 49).
  const orgIds = [...new Set(inputs.map((i) => i.organizationId))];
  const byMember = new Map<string, string[]>();
  if (driverIds.length) {
    const g = await tx
      .select({ member: groupMembers.memberId, group: groupMembers.groupId, org: groupMembers.organizationId })
      .from(groupMembers)
      .where(and(inArray(groupMembers.organizationId, orgIds), eq(groupMembers.memberType, 'DRIVER'), inArray(groupMembers.memberId, driverIds)));
    for (const r of g) byMember.set(`${r.org}|${r.member}`, [...(byMember.get(`${r.org}|${r.member}`) ?? []), r.group]);
  }
  if (assetIds.length) {
    const g = await tx
      .select({ member: groupAssets.assetId, group: groupAssets.groupId, org: groupAssets.organizationId })
      .from(groupAssets)
      .where(and(inArray(groupAssets.organizationId, orgIds), inArray(groupAssets.assetId, assetIds)));
    for (const r of g) byMember.set(`${r.org}|${r.member}`, [...(byMember.get(`${r.org}|${r.member}`) ?? []), r.group]);
  }
  return (i) => {
    const { driverId, assetId } = i.about ?? {};
    if (!driverId && !assetId) return null;
    return new Set([
      ...(driverId ? (byMember.get(`${i.organizationId}|${driverId}`) ?? []) : []),
      ...(assetId ? (byMember.get(`${i.organizationId}|${assetId}`) ?? []) : []),
    ]);
  };
}

// ---------------------------------------------------------------- reading and changing one's own

const visible = (s: ReadScope, userId: string): SQL =>
  and(eq(notifications.userId, userId), eq(notifications.organizationId, s.orgId), eq(notifications.inApp, true), isNull(notifications.clearedAt))!;

export async function unreadCount(s: ReadScope, userId: string): Promise<number> {
  const [r] = await s.db
    .select({ n: count() })
    .from(notifications)
    .where(and(visible(s, userId), isNull(notifications.readAt)));
  return r?.n ?? 0;
}

/** The caller's notifications, newest first, with the unread count. */
export async function listNotifications(s: ReadScope, userId: string, q: z.output<typeof notificationListQuery>): Promise<NotificationPage> {
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) throw invalidField('to', 'To must be after From');
  const where = and(
    visible(s, userId),
    q.status === 'unread' ? isNull(notifications.readAt) : q.status === 'read' ? isNotNull(notifications.readAt) : undefined,
    q.kind ? eq(notifications.kind, q.kind) : undefined,
    q.from ? gte(notifications.createdAt, new Date(q.from)) : undefined,
    q.to ? lt(notifications.createdAt, new Date(q.to)) : undefined,
    q.search
      ? sql`(${notifications.title} ilike ${`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} or ${notifications.body} ilike ${`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`
      : undefined,
  );
  const [total] = await s.db.select({ n: count() }).from(notifications).where(where);
  const rows = await s.db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.size)
    .offset(q.page * q.size);
  const totalElements = total?.n ?? 0;
  return {
    content: rows.map((r) => presentNotification(r as NotificationRow)),
    page: q.page,
    size: q.size,
    totalElements,
    totalPages: Math.ceil(totalElements / q.size),
    unread: await unreadCount(s, userId),
  };
}

/** Marks the caller's chosen (or all) notifications read; one activity-log row; other tabs are told. */
export async function markRead(s: Scope, userId: string, sel: NotificationSelection): Promise<{ changed: number; unread: number }> {
  return changeOwn(s, userId, sel, 'READ_NOTIFICATIONS', { readAt: sql`now()` }, isNull(notifications.readAt));
}

/** Clears the caller's chosen (or all) notifications from the panel and the list. */
export async function clearNotifications(s: Scope, userId: string, sel: NotificationSelection): Promise<{ changed: number; unread: number }> {
  return changeOwn(s, userId, sel, 'CLEAR_NOTIFICATIONS', { clearedAt: sql`now()` }, undefined);
}

async function changeOwn(
  s: Scope,
  userId: string,
  sel: NotificationSelection,
  action: string,
  set: { readAt?: SQL; clearedAt?: SQL },
  extra: SQL | undefined,
): Promise<{ changed: number; unread: number }> {
  const run = async (tx: DbOrTx) => {
    const changed = await tx
      .update(notifications)
      .set(set)
      .where(and(visible(s, userId), extra, sel.all ? undefined : inArray(notifications.id, sel.ids ?? [])))
      .returning({ id: notifications.id });
    if (changed.length > 0) {
      await recordActivity(tx, {
        orgId: s.orgId,
        actor: s.actor,
        action,
        entityType: 'USER',
        entityId: userId,
        after: { notifications: changed.length, all: sel.all === true },
      });
      await tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ o: s.orgId, u: userId })})`);
    }
    return changed.length;
  };
  const changed = isTx(s.db) ? await run(s.db) : await (s.db as Db).transaction(run);
  return { changed, unread: await unreadCount(s, userId) };
}

/** The caller's choice per kind, with the kinds their permissions do not let them receive marked. */
export async function getPreferences(s: ReadScope, userId: string): Promise<NotificationPreferences> {
  // The preferences are read apart: users is a reference table on Citus, and a reference table on
  // the outer side of a join to a distributed one is refused (decision 0169).
  const [[account], [prefs]] = await Promise.all([
    s.db.select({ role: users.role, permissions: roles.permissions }).from(users).leftJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, userId)),
    s.db
      .select({ kinds: notificationPreferences.kinds })
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.organizationId, s.orgId), eq(notificationPreferences.userId, userId))),
  ]);
  const u = account ? { ...account, kinds: prefs?.kinds ?? null } : undefined;
  // A driver chooses how they hear of their own facts (their papers) too.
  const [driver] = await s.db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.organizationId, s.orgId), eq(drivers.userId, userId)));
  return {
    kinds: NOTIFICATION_KINDS.map((kind) => {
      const info = NOTIFICATION_KIND_INFO[kind];
      return {
        kind,
        label: info.label,
        description: info.description,
        allowed: u ? mayReceive(u.role, u.permissions, kind) || (!!info.toDriverToo && !!driver) : false,
        ...choiceOf(u?.kinds, kind),
      };
    }),
  };
}

/** Saves the caller's choice for the kinds given (others keep theirs); logged with before and after. */
export async function setPreferences(s: Scope, userId: string, input: NotificationPreferencesInput): Promise<NotificationPreferences> {
  await (s.db as Db).transaction(async (tx) => {
    // Locked by the organization too: Citus takes FOR UPDATE on one shard only.
    const [row] = await tx
      .select({ kinds: notificationPreferences.kinds })
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.organizationId, s.orgId), eq(notificationPreferences.userId, userId)))
      .for('update');
    const before = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, choiceOf(row?.kinds, k)]));
    const after = { ...before };
    for (const [k, v] of Object.entries(input.kinds)) if (v) after[k as NotificationKind] = { inApp: v.inApp, email: v.email };
    await tx
      .insert(notificationPreferences)
      .values({ userId: userId, organizationId: s.orgId, kinds: after })
      .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.organizationId], set: { kinds: after, updatedAt: new Date() } });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE_NOTIFICATION_PREFERENCES',
      entityType: 'USER',
      entityId: userId,
      before,
      after,
    });
  });
  return getPreferences(s, userId);
}

/** The caller's in-app notifications of one fact (the stream sends them as they are created). */
export async function notificationsOfFact(db: DbOrTx, orgId: string, factKey: string, userIds: readonly string[]): Promise<NotificationRow[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.organizationId, orgId),
        eq(notifications.factKey, factKey),
        inArray(notifications.userId, [...userIds]),
        eq(notifications.inApp, true),
      ),
    );
  return rows as NotificationRow[];
}
