import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { drivers } from '../../db/schema/index.ts';

/** The sign-in account of each active driver who has one (the driver told of their own papers, decision 0302). */
export async function driverUsers(db: DbOrTx, orgId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: drivers.id, userId: drivers.userId })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.status, 'ACTIVE'), isNotNull(drivers.userId)));
  return new Map(rows.map((r) => [r.id, r.userId!]));
}
