import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES, type HosProposal, type Page, type hosProposalQuery } from '@fleet/api-contract';
import type { DutyStatus } from '@fleet/hos';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEditRequests, hosEvents, hosLogs, users } from '../../db/schema/index.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { recordedTime } from '../../http/idempotency-key.ts';
import { toPage } from '../../http/paging.ts';
import type { Actor, ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { notify } from '../notifications/index.ts';
import { AppError } from '../../http/errors.ts';
import { reopenLogDays } from './hos-certification.service.ts';
import { emitDutyChanges } from './hos-webhooks.ts';
import { checkInsert } from './hos-event-create.service.ts';
import { checkEdit } from './hos-events.service.ts';
import { presentEvent } from './hos-log-day.service.ts';
import { checkAssign } from './hos-unidentified.repository.ts';
import { statusOfCode } from './hos.periods.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

// The office's edit requests as the driver sees them (Appendix A 4.4.4.2.5-6, decision 0112): each
// pairs the records it would replace with the proposed ones. Accepting makes the proposed records
// active and the originals inactive-changed; rejecting makes the proposed ones inactive-change-rejected;
// the originals are kept either way. Only the driver decides (4.3.3.1.3).

type EventRow = typeof hosEvents.$inferSelect;
type RequestRow = typeof hosEditRequests.$inferSelect;
type Query = z.output<typeof hosProposalQuery>;

const vehicleColumns = { id: assets.id, unitNumber: assets.unitNumber, type: assets.type };

async function eventsWithVehicles(db: DbOrTx, where: ReturnType<typeof and>) {
  return db
    .select({ e: hosEvents, vehicle: vehicleColumns })
    .from(hosEvents)
    .leftJoin(assets, and(eq(assets.id, hosEvents.vehicleId), eq(assets.organizationId, hosEvents.organizationId)))
    .where(where)
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId));
}

/** Proposals with their records, in one read of the requests' rows and one of the originals. */
async function presentAll(
  db: DbOrTx,
  orgId: string,
  requests: Array<{ r: RequestRow; by: string | null; byName: string | null; driver: { id: string; firstName: string; lastName: string } }>,
): Promise<HosProposal[]> {
  if (requests.length === 0) return [];
  const ids = requests.map((x) => x.r.id);
  const proposed = await eventsWithVehicles(db, and(eq(hosEvents.organizationId, orgId), inArray(hosEvents.editRequestId, ids)));
  const originalIds = [...new Set(proposed.map((p) => p.e.replacesEventId).filter((v): v is string => !!v))];
  const originals = originalIds.length ? await eventsWithVehicles(db, and(eq(hosEvents.organizationId, orgId), inArray(hosEvents.id, originalIds))) : [];
  const logRows = await db
    .select({ id: hosLogs.id, driverId: hosLogs.driverId, date: hosLogs.logDate })
    .from(hosLogs)
    .where(
      and(
        eq(hosLogs.organizationId, orgId),
        inArray(hosLogs.driverId, [...new Set(requests.map((x) => x.r.driverId))]),
        inArray(hosLogs.logDate, [...new Set(requests.map((x) => x.r.logDate))]),
      ),
    );
  return requests.map(({ r, by, byName, driver }) => {
    const mine = proposed.filter((p) => p.e.editRequestId === r.id);
    const replaced = new Set(mine.map((p) => p.e.replacesEventId));
    const orig = originals.filter((o) => replaced.has(o.e.id));
    const log = logRows.find((l) => l.driverId === r.driverId && l.date === r.logDate);
    return {
      id: r.id,
      kind: r.kind,
      state: r.state,
      driver,
      requestedBy: by ? { id: by, name: byName ?? 'Office user' } : null,
      requestedAt: r.requestedAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      annotation: r.annotation,
      log: { id: log?.id ?? '', date: r.logDate },
      original: orig.map((o) => presentEvent(o.e, o.vehicle)),
      proposed: mine.map((p) => presentEvent(p.e, p.vehicle)),
      applicable: r.state === 'PENDING' && orig.every((o) => o.e.recordStatus === HOS_RECORD_STATUSES.ACTIVE),
    };
  });
}

const requestColumns = {
  r: hosEditRequests,
  by: hosEditRequests.requestedByUserId,
  byFirst: users.firstName,
  byLast: users.lastName,
  byEmail: users.email,
  driver: { id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName },
};

function named(
  rows: Array<{
    r: RequestRow;
    by: string | null;
    byFirst: string | null;
    byLast: string | null;
    byEmail: string | null;
    driver: { id: string; firstName: string; lastName: string };
  }>,
) {
  return rows.map((x) => ({ r: x.r, by: x.by, byName: [x.byFirst, x.byLast].filter(Boolean).join(' ') || x.byEmail, driver: x.driver }));
}

/** A driver's proposals, newest first (pending ones first when no state is asked). */
export async function listProposals({ db, orgId }: ReadScope, driverId: string, q: Query): Promise<Page<HosProposal>> {
  // A driver of another organization (or none) is not found, never an empty list that says it exists.
  const [driver] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  if (!driver) throw notFound('Driver');
  const where = and(
    eq(hosEditRequests.organizationId, orgId),
    eq(hosEditRequests.driverId, driverId),
    q.state ? eq(hosEditRequests.state, q.state) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(requestColumns)
      .from(hosEditRequests)
      .innerJoin(drivers, and(eq(drivers.id, hosEditRequests.driverId), eq(drivers.organizationId, hosEditRequests.organizationId)))
      .leftJoin(users, eq(users.id, hosEditRequests.requestedByUserId))
      .where(where)
      .orderBy(desc(eq(hosEditRequests.state, 'PENDING')), desc(hosEditRequests.requestedAt), desc(hosEditRequests.id))
      .limit(q.size)
      .offset(q.page * q.size),
    db.select({ n: count() }).from(hosEditRequests).where(where),
  ]);
  return toPage(await presentAll(db, orgId, named(rows)), total?.n ?? 0, q);
}

/** How many proposals wait for the driver. */
export async function countPending(db: DbOrTx, orgId: string, driverId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(hosEditRequests)
    .where(and(eq(hosEditRequests.organizationId, orgId), eq(hosEditRequests.driverId, driverId), eq(hosEditRequests.state, 'PENDING')));
  return row?.n ?? 0;
}

async function getProposal(db: DbOrTx, orgId: string, driverId: string, id: string): Promise<HosProposal> {
  const rows = await db
    .select(requestColumns)
    .from(hosEditRequests)
    .innerJoin(drivers, and(eq(drivers.id, hosEditRequests.driverId), eq(drivers.organizationId, hosEditRequests.organizationId)))
    .leftJoin(users, eq(users.id, hosEditRequests.requestedByUserId))
    .where(and(eq(hosEditRequests.id, id), eq(hosEditRequests.organizationId, orgId), eq(hosEditRequests.driverId, driverId)));
  const [p] = await presentAll(db, orgId, named(rows));
  if (!p) throw notFound('Proposal');
  return p;
}

/** The driver (locked: one writer of a driver's records at a time) and a pending request of theirs that only they may decide. */
async function lockPending(tx: DbOrTx, actor: Actor, orgId: string, driverId: string, id: string, want: 'ACCEPTED' | 'REJECTED') {
  const [d] = await tx
    .select({ id: drivers.id, userId: drivers.userId, firstName: drivers.firstName, lastName: drivers.lastName })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)))
    .for('no key update');
  if (!d) throw notFound('Driver');
  const [r] = await tx
    .select()
    .from(hosEditRequests)
    .where(and(eq(hosEditRequests.id, id), eq(hosEditRequests.organizationId, orgId), eq(hosEditRequests.driverId, d.id)));
  if (!r) throw notFound('Proposal');
  // 4.3.3.1.3: edits requested by anyone but the driver need the driver's own confirmation or rejection.
  if (!actor.userId || actor.userId !== d.userId)
    throw forbidden('Only the driver can accept or reject a proposed edit of their records', 'Decision by another user than the driver');
  // The same decision sent again (a phone resending after a lost answer, decision 0184) is the decision made.
  if (r.state === want) return { d, r, proposed: [], originals: [], decided: true };
  if (r.state !== 'PENDING')
    throw conflict(
      `This proposal was already ${r.state === 'ACCEPTED' ? 'accepted' : 'rejected'}`,
      'proposalId: decided',
      r.state === 'ACCEPTED' ? 'hos.proposal_accepted' : 'hos.proposal_rejected',
    );
  const proposed = await tx
    .select()
    .from(hosEvents)
    .where(and(eq(hosEvents.organizationId, orgId), eq(hosEvents.editRequestId, r.id)))
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId));
  const originalIds = proposed.map((p) => p.replacesEventId).filter((v): v is string => !!v);
  const originals = originalIds.length
    ? await tx
        .select()
        .from(hosEvents)
        .where(and(eq(hosEvents.organizationId, orgId), inArray(hosEvents.id, originalIds)))
    : [];
  return { d, r, proposed, originals, decided: false };
}

const stale = () =>
  conflict('The records changed since this edit was proposed: it can only be rejected now', 'proposalId: originals no longer active', 'hos.proposal_stale');

/** Re-checks a proposal against the driver's records as they stand now. */
async function checkStillFits(tx: DbOrTx, r: RequestRow, proposed: EventRow[], originals: EventRow[]): Promise<void> {
  if (originals.some((o) => o.recordStatus !== HOS_RECORD_STATUSES.ACTIVE)) throw stale();
  try {
    if (r.kind === 'EDIT') {
      const p = proposed[0]!;
      const o = originals.find((x) => x.id === p.replacesEventId)!;
      await checkEdit(tx, r.driverId, o, statusOfCode(p.eventCode) as DutyStatus, p.eventTime.getTime());
    } else if (r.kind === 'INSERT') {
      const p = proposed.find((x) => x.eventType === HOS_EVENT_TYPES.DUTY_STATUS)!;
      await checkInsert(tx, r.driverId, p.eventTime.getTime());
    } else {
      const times = proposed.map((p) => p.eventTime.getTime());
      await checkAssign(tx, r.driverId, { start: Math.min(...times), end: Math.max(...times) }, 'proposalId');
    }
  } catch (err) {
    if (err instanceof AppError && (err.status === 400 || err.status === 409)) {
      throw conflict(`This proposal no longer fits the records: ${err.message}`, `proposalId: ${err.technicalMessage}`, 'hos.proposal_stale');
    }
    throw err;
  }
}

/** The office user who proposed it hears of the driver's decision (decision 0130), committed with it. */
async function notifyDecision(
  tx: DbOrTx,
  orgId: string,
  d: { firstName: string; lastName: string },
  r: { id: string; logDate: string; requestedByUserId: string | null },
  accepted: boolean,
  note: string | null,
): Promise<void> {
  if (!r.requestedByUserId) return;
  const name = `${d.firstName} ${d.lastName}`;
  await notify(tx, {
    organizationId: orgId,
    kind: 'EDIT_PROPOSAL_DECIDED',
    factKey: `proposal:${r.id}`,
    title: `${name} ${accepted ? 'accepted' : 'rejected'} your edit of the log of ${r.logDate}`,
    body: accepted ? 'The change is in the log; the day waits for certification again.' : note ? `The driver's note: ${note}` : 'The log stays as it was.',
    link: `/hos/logs?date=${r.logDate}`,
    linkLabel: 'Open the logs of that day',
    userIds: [r.requestedByUserId],
  });
}

/**
 * The driver accepts a proposal: the proposed records become active, the records they replace
 * inactive-changed (Appendix A 4.4.4.2.6), and the days it touches ask for certification again.
 * Refused (409) when the records changed so that it no longer fits; it can then be rejected.
 */
export async function acceptProposal(
  { db, orgId, actor, now = Date.now() }: Scope,
  driverId: string,
  id: string,
  input: { recordedAt?: string | null } = {},
): Promise<HosProposal> {
  // When a phone without signal decided (decision 0184), else now.
  const at = new Date(recordedTime(input.recordedAt, now));
  await db.transaction(async (tx) => {
    const { d, r, proposed, originals, decided } = await lockPending(tx, actor, orgId, driverId, id, 'ACCEPTED');
    if (decided) return;
    await checkStillFits(tx, r, proposed, originals);
    if (originals.length)
      await tx
        .update(hosEvents)
        .set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED })
        .where(
          inArray(
            hosEvents.id,
            originals.map((o) => o.id),
          ),
        );
    await tx
      .update(hosEvents)
      .set({ recordStatus: HOS_RECORD_STATUSES.ACTIVE })
      .where(
        inArray(
          hosEvents.id,
          proposed.map((p) => p.id),
        ),
      );
    // The accepted duty statuses are now the driver's record: receivers hear of each.
    await emitDutyChanges(
      tx,
      orgId,
      proposed
        .filter((p) => p.eventType === HOS_EVENT_TYPES.DUTY_STATUS && p.driverId === d.id)
        .map((p) => ({ eventId: p.id, driverId: d.id, code: p.eventCode, at: p.eventTime, origin: p.recordOrigin, assetId: p.vehicleId })),
    );
    await tx.update(hosEditRequests).set({ state: 'ACCEPTED', decidedAt: at, decidedByUserId: actor.userId }).where(eq(hosEditRequests.id, r.id));
    const days = [...new Set([...proposed, ...originals].filter((e) => e.driverId === d.id).map((e) => e.logDate))];
    await reopenLogDays(tx, orgId, d.id, days);
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'ACCEPT_HOS_PROPOSAL',
      entityType: 'DRIVER',
      entityId: d.id,
      after: { proposalId: r.id, kind: r.kind, records: proposed.length, logDate: r.logDate, driverName: `${d.firstName} ${d.lastName}` },
    });
    await notifyDecision(tx, orgId, d, r, true, null);
  });
  return getProposal(db, orgId, driverId, id);
}

/** The driver rejects a proposal: the proposed records become inactive-change-rejected; the records stay as they were. */
export async function rejectProposal(
  { db, orgId, actor, now = Date.now() }: Scope,
  driverId: string,
  id: string,
  input: { note: string | null; recordedAt?: string | null },
): Promise<HosProposal> {
  // When a phone without signal decided (decision 0184), else now.
  const at = new Date(recordedTime(input.recordedAt, now));
  await db.transaction(async (tx) => {
    const { d, r, proposed, decided } = await lockPending(tx, actor, orgId, driverId, id, 'REJECTED');
    if (decided) return;
    await tx
      .update(hosEvents)
      .set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGE_REJECTED })
      .where(
        inArray(
          hosEvents.id,
          proposed.map((p) => p.id),
        ),
      );
    await notifyHosChange(tx, orgId);
    await tx.update(hosEditRequests).set({ state: 'REJECTED', decidedAt: at, decidedByUserId: actor.userId }).where(eq(hosEditRequests.id, r.id));
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'REJECT_HOS_PROPOSAL',
      entityType: 'DRIVER',
      entityId: d.id,
      after: { proposalId: r.id, kind: r.kind, records: proposed.length, logDate: r.logDate, note: input.note, driverName: `${d.firstName} ${d.lastName}` },
    });
    await notifyDecision(tx, orgId, d, r, false, input.note);
  });
  return getProposal(db, orgId, driverId, id);
}
