import { and, count, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { EldTransfer } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, eldTransferChecks, eldTransfers, users } from '../../db/schema/index.ts';

// The stored sends and self-checks (decision 0185).

export type EldTransferRow = typeof eldTransfers.$inferSelect;
export type NewEldTransfer = typeof eldTransfers.$inferInsert;

const personName = (first: SQL | unknown, last: SQL | unknown) => sql<string | null>`nullif(trim(coalesce(${first}, '') || ' ' || coalesce(${last}, '')), '')`;

const columns = {
  t: eldTransfers,
  driverName: personName(drivers.firstName, drivers.lastName),
  sentBy: sql<string | null>`coalesce(${personName(users.firstName, users.lastName)}, ${users.email})`,
};

/** A stored send as the API shows it. */
export function presentTransfer(r: { t: EldTransferRow; driverName: string | null; sentBy: string | null }): EldTransfer {
  const t = r.t;
  return {
    id: t.id,
    driverId: t.driverId,
    driverName: r.driverName ?? '',
    method: t.method,
    test: t.test,
    fileName: t.fileName,
    outputFileComment: t.outputFileComment,
    from: t.fromDate,
    to: t.toDate,
    status: t.status,
    submissionId: t.submissionId,
    errors: t.errors,
    reason: t.reason,
    failure: t.failure ?? null,
    createdAt: t.createdAt.toISOString(),
    sentBy: r.sentBy,
  };
}

function select(db: DbOrTx) {
  return db
    .select(columns)
    .from(eldTransfers)
    .leftJoin(drivers, and(eq(drivers.organizationId, eldTransfers.organizationId), eq(drivers.id, eldTransfers.driverId)))
    .leftJoin(users, eq(users.id, eldTransfers.createdByUserId));
}

export async function insertTransfer(db: DbOrTx, row: NewEldTransfer): Promise<EldTransfer> {
  const [stored] = await db.insert(eldTransfers).values(row).returning({ id: eldTransfers.id });
  const [read] = await select(db).where(and(eq(eldTransfers.organizationId, row.organizationId), eq(eldTransfers.id, stored!.id)));
  return presentTransfer(read!);
}

/** A page of the organization's sends, newest first, of one driver when `driverId` is given. */
export async function listTransfers(
  db: DbOrTx,
  orgId: string,
  q: { driverId: string | null; page: number; size: number },
): Promise<{ rows: EldTransfer[]; total: number }> {
  const where = and(eq(eldTransfers.organizationId, orgId), q.driverId ? eq(eldTransfers.driverId, q.driverId) : undefined);
  const [rows, [total]] = await Promise.all([
    select(db)
      .where(where)
      .orderBy(desc(eldTransfers.createdAt), desc(eldTransfers.id))
      .limit(q.size)
      .offset(q.page * q.size),
    db.select({ n: count() }).from(eldTransfers).where(where),
  ]);
  return { rows: rows.map(presentTransfer), total: Number(total?.n ?? 0) };
}

// ---------------------------------------------------------------- self-checks

export type EldTransferCheckRow = typeof eldTransferChecks.$inferSelect;

export async function latestCheck(db: DbOrTx): Promise<EldTransferCheckRow | null> {
  const [row] = await db.select().from(eldTransferChecks).orderBy(desc(eldTransferChecks.checkedAt)).limit(1);
  return row ?? null;
}

/** The oldest failed check since the last successful one (the start of the current run of failures), or null. */
export async function failingSince(db: DbOrTx): Promise<number | null> {
  const [lastOk] = await db
    .select({ at: eldTransferChecks.checkedAt })
    .from(eldTransferChecks)
    .where(eq(eldTransferChecks.ok, true))
    .orderBy(desc(eldTransferChecks.checkedAt))
    .limit(1);
  const [first] = await db
    .select({ at: sql<Date | string | null>`min(${eldTransferChecks.checkedAt})` })
    .from(eldTransferChecks)
    .where(and(eq(eldTransferChecks.ok, false), lastOk ? gt(eldTransferChecks.checkedAt, lastOk.at) : undefined));
  return first?.at ? new Date(first.at).getTime() : null;
}

export async function insertCheck(db: DbOrTx, row: typeof eldTransferChecks.$inferInsert): Promise<void> {
  await db.insert(eldTransferChecks).values(row);
}
