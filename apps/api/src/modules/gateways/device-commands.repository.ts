import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { deviceCommands, gateways } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';

// The statements of device commands (issue 73, decision 0318). Every one names the organization
// (decision 0255, docs/style.md §4); the status changes are conditional, so two instances (or the
// clock and a device) never move one command twice.

export type DeviceCommandRow = typeof deviceCommands.$inferSelect;

/** Whether the organization has this device (another organization's answers as missing). */
export async function gatewayInOrganization(db: DbOrTx, orgId: string, gatewayId: string): Promise<{ id: string; uniqueId: string; name: string } | null> {
  const [g] = await db
    .select({ id: gateways.id, uniqueId: gateways.uniqueId, name: gateways.name })
    .from(gateways)
    .where(and(eq(gateways.organizationId, orgId), eq(gateways.id, gatewayId)));
  return g ?? null;
}

export async function insertCommand(db: DbOrTx, values: typeof deviceCommands.$inferInsert): Promise<DeviceCommandRow> {
  const [row] = await db.insert(deviceCommands).values(values).returning();
  return row!;
}

/** The device's commands, newest first, one page, and how many there are. */
export async function selectCommands(
  db: DbOrTx,
  orgId: string,
  gatewayId: string,
  limit: number,
  offset: number,
): Promise<{ rows: DeviceCommandRow[]; total: number }> {
  const where = and(eq(deviceCommands.organizationId, orgId), eq(deviceCommands.gatewayId, gatewayId));
  const rows = await db.select().from(deviceCommands).where(where).orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id)).limit(limit).offset(offset);
  const [count] = await db.select({ n: countAll }).from(deviceCommands).where(where);
  return { rows, total: count?.n ?? 0 };
}

/** Queued and sent commands of the device whose time ran out become EXPIRED. */
export async function expireCommands(db: DbOrTx, orgId: string, gatewayId: string, now: Date): Promise<void> {
  await db
    .update(deviceCommands)
    .set({ status: 'EXPIRED' })
    .where(
      and(
        eq(deviceCommands.organizationId, orgId),
        eq(deviceCommands.gatewayId, gatewayId),
        inArray(deviceCommands.status, ['QUEUED', 'SENT']),
        lte(deviceCommands.expiresAt, now),
      ),
    );
}

/** Of these devices of the organization, those with a command waiting to be sent (one statement for a round of their packets). */
export async function gatewaysWithQueued(db: DbOrTx, orgId: string, gatewayIds: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ gatewayId: deviceCommands.gatewayId })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.organizationId, orgId),
        sql`${deviceCommands.gatewayId} = any(${`{${gatewayIds.join(',')}}`}::uuid[])`,
        eq(deviceCommands.status, 'QUEUED'),
      ),
    );
  return new Set(rows.map((r) => r.gatewayId));
}

/** The device's oldest command still waiting to be sent (not expired). */
export async function oldestQueued(db: DbOrTx, orgId: string, gatewayId: string, now: Date): Promise<DeviceCommandRow | null> {
  const [row] = await db
    .select()
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.organizationId, orgId),
        eq(deviceCommands.gatewayId, gatewayId),
        eq(deviceCommands.status, 'QUEUED'),
        sql`${deviceCommands.expiresAt} > ${now}`,
      ),
    )
    .orderBy(asc(deviceCommands.createdAt), asc(deviceCommands.id))
    .limit(1);
  return row ?? null;
}

/** QUEUED -> SENT; false when another instance (or expiry) moved it first. */
export async function markSent(db: DbOrTx, orgId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'SENT', sentAt: now })
    .where(and(eq(deviceCommands.organizationId, orgId), eq(deviceCommands.id, id), eq(deviceCommands.status, 'QUEUED')))
    .returning({ id: deviceCommands.id });
  return rows.length > 0;
}

/** SENT -> QUEUED again: the connection was gone when it was written. */
export async function markUnsent(db: DbOrTx, orgId: string, id: string): Promise<void> {
  await db
    .update(deviceCommands)
    .set({ status: 'QUEUED', sentAt: null })
    .where(and(eq(deviceCommands.organizationId, orgId), eq(deviceCommands.id, id), eq(deviceCommands.status, 'SENT')));
}

/** SENT -> ANSWERED with the device's text; false when it is no longer SENT (expired meanwhile). */
export async function markAnswered(db: DbOrTx, orgId: string, id: string, answer: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'ANSWERED', answer, answeredAt: now })
    .where(and(eq(deviceCommands.organizationId, orgId), eq(deviceCommands.id, id), eq(deviceCommands.status, 'SENT')))
    .returning({ id: deviceCommands.id });
  return rows.length > 0;
}

/** The device's oldest command sent and not answered yet (an answer that came after its wait ran out). */
export async function oldestSent(db: DbOrTx, orgId: string, gatewayId: string): Promise<DeviceCommandRow | null> {
  const [row] = await db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.organizationId, orgId), eq(deviceCommands.gatewayId, gatewayId), eq(deviceCommands.status, 'SENT')))
    .orderBy(asc(deviceCommands.sentAt), asc(deviceCommands.id))
    .limit(1);
  return row ?? null;
}
