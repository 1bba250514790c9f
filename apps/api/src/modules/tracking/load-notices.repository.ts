import { and, eq, isNull, sql } from 'drizzle-orm';
import type { LoadNoticeKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { loadContacts, loadNotices, loadStopEtaMarks, organizations } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// The SQL of the notices and the ETA webhook (decision 0283): the pass's two sweeps over every
// organization (the loads with contacts to tell, the stops whose ETA moved), then per organization
// the claims of notices by their key and the marks of announced ETAs.

const iso = (ms: number) => new Date(ms).toISOString();

/** Loads with a contact still subscribed to something: running, or delivered since `deliveredSince`. */
export async function loadsToTell(db: DbOrTx, deliveredSince: number): Promise<Array<{ orgId: string; loadId: string }>> {
  const rows = rowsOf<{ organization_id: string; load_id: string }>(
    await db.execute(sql`select distinct c.organization_id, c.load_id from load_contacts c
      join loads l on l.organization_id = c.organization_id and l.id = c.load_id
      join organizations o on o.id = c.organization_id and o.status = 'ACTIVE'
      where c.unsubscribed_at is null and cardinality(c.notices) > 0
        and (l.status in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP') or (l.status = 'DELIVERED' and l.delivered_at > ${iso(deliveredSince)}::timestamptz))
      order by c.organization_id, c.load_id`),
  );
  return rows.map((r) => ({ orgId: r.organization_id, loadId: r.load_id }));
}

export async function subscribedContactsOf(db: DbOrTx, orgId: string, loadId: string) {
  return db
    .select()
    .from(loadContacts)
    .where(and(eq(loadContacts.organizationId, orgId), eq(loadContacts.loadId, loadId), isNull(loadContacts.unsubscribedAt)));
}

export async function setUnsubscribeHash(db: DbOrTx, orgId: string, contactId: string, hash: string): Promise<void> {
  await db
    .update(loadContacts)
    .set({ unsubscribeHash: hash })
    .where(and(eq(loadContacts.organizationId, orgId), eq(loadContacts.id, contactId)));
}

export async function organizationZone(db: DbOrTx, orgId: string): Promise<{ name: string; timeZone: string } | null> {
  const [row] = await db.select({ name: organizations.name, timeZone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return row ?? null;
}

/** Claims a notice by its key: true for the one claim that wins (a restart or another instance finds it taken). */
export async function claimNotice(
  db: DbOrTx,
  n: { orgId: string; loadId: string; contactId: string; kind: LoadNoticeKind; stopSeq: number; step: number; at: number },
): Promise<string | null> {
  const [row] = await db
    .insert(loadNotices)
    .values({ organizationId: n.orgId, loadId: n.loadId, contactId: n.contactId, kind: n.kind, stopSeq: n.stopSeq, step: n.step, claimedAt: new Date(n.at) })
    .onConflictDoNothing()
    .returning({ id: loadNotices.id });
  return row?.id ?? null;
}

export async function finishNotice(db: DbOrTx, orgId: string, id: string, outcome: { sentAt: number } | { error: string }): Promise<void> {
  await db
    .update(loadNotices)
    .set('sentAt' in outcome ? { status: 'SENT', sentAt: new Date(outcome.sentAt) } : { status: 'FAILED', error: outcome.error.slice(0, 500) })
    .where(and(eq(loadNotices.organizationId, orgId), eq(loadNotices.id, id)));
}

export interface MovedEta {
  orgId: string;
  loadId: string;
  loadNumber: string;
  stopId: string;
  seq: number;
  kind: 'PICKUP' | 'DELIVERY';
  placeName: string | null;
  eta: number;
  windowStart: number;
  windowEnd: number;
  /** The ETA last announced; null before the first. */
  announced: number | null;
}

/**
 * The stops ahead of running loads, of organizations with webhooks, whose live ETA has no mark yet or
 * moved more than `minutes` from it.
 */
export async function movedEtas(db: DbOrTx, minutes: number): Promise<MovedEta[]> {
  const rows = rowsOf<{
    organization_id: string;
    load_id: string;
    number: string;
    stop_id: string;
    seq: number;
    kind: 'PICKUP' | 'DELIVERY';
    place_name: string | null;
    eta: string | number;
    ws: string | number;
    we: string | number;
    announced: string | number | null;
  }>(
    await db.execute(sql`select s.organization_id, s.load_id, l.number, s.id as stop_id, s.seq, s.kind, p.name as place_name,
        extract(epoch from s.eta) * 1000 as eta, extract(epoch from s.window_start) * 1000 as ws, extract(epoch from s.window_end) * 1000 as we,
        extract(epoch from m.eta) * 1000 as announced
      from load_stops s
      join loads l on l.organization_id = s.organization_id and l.id = s.load_id
      left join places p on p.organization_id = s.organization_id and p.id = s.place_id
      left join load_stop_eta_marks m on m.organization_id = s.organization_id and m.stop_id = s.id
      where l.status in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP') and s.arrived_at is null and s.eta is not null
        and s.organization_id in (select organization_id from webhook_organizations)
        and (m.eta is null or abs(extract(epoch from s.eta - m.eta)) > ${minutes * 60})
      order by s.organization_id, s.load_id, s.seq`),
  );
  const ms = (v: string | number) => Math.round(Number(v));
  return rows.map((r) => ({
    orgId: r.organization_id,
    loadId: r.load_id,
    loadNumber: r.number,
    stopId: r.stop_id,
    seq: Number(r.seq),
    kind: r.kind,
    placeName: r.place_name,
    eta: ms(r.eta),
    windowStart: ms(r.ws),
    windowEnd: ms(r.we),
    announced: r.announced === null ? null : ms(r.announced),
  }));
}

/** The first ETA of a stop, its baseline (not announced as a change). */
export async function markFirstEta(db: DbOrTx, m: { orgId: string; stopId: string; loadId: string; eta: number }): Promise<void> {
  await db
    .insert(loadStopEtaMarks)
    .values({ organizationId: m.orgId, stopId: m.stopId, loadId: m.loadId, eta: new Date(m.eta) })
    .onConflictDoNothing();
}

/** Moves the mark from `from` to `to`: true for the one caller that did (it announces the change). */
export async function moveEtaMark(db: DbOrTx, orgId: string, stopId: string, from: number, to: number): Promise<boolean> {
  const rows = await db
    .update(loadStopEtaMarks)
    .set({ eta: new Date(to) })
    .where(and(eq(loadStopEtaMarks.organizationId, orgId), eq(loadStopEtaMarks.stopId, stopId), sql`${loadStopEtaMarks.eta} = ${iso(from)}::timestamptz`))
    .returning({ stopId: loadStopEtaMarks.stopId });
  return rows.length > 0;
}
