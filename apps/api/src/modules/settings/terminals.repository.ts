import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { terminals } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

// "The terminal belongs to this organization", written once: another organization's terminal is
// answered exactly like one that does not exist (404 Terminal), so it is never seen.

export type TerminalRow = typeof terminals.$inferSelect;

export const terminalOfOrganization = (orgId: string, terminalId: string) => and(eq(terminals.organizationId, orgId), eq(terminals.id, terminalId));

/** Drivers of the terminal; the organization is the parameter (Citus keeps the sub-select on its shard, decision 0169). */
export const driverCountOf = (orgId: string) =>
  sql<number>`(select count(*)::int from drivers d where d.organization_id = ${orgId} and d.home_terminal_id = "terminals"."id")`;

/** The terminal's row, locked for the transaction when `lock`; 404 unless it belongs to the organization. */
export async function findTerminal(db: DbOrTx, orgId: string, terminalId: string, lock = false): Promise<TerminalRow> {
  const q = db.select().from(terminals).where(terminalOfOrganization(orgId, terminalId));
  const [t] = lock ? await q.for('update') : await q;
  if (!t) throw notFound('Terminal');
  return t;
}

/** The terminal a driver record names, or null when it is not one of the organization's (the caller says which field). */
export async function terminalOf(db: DbOrTx, orgId: string, terminalId: string): Promise<TerminalRow | null> {
  const [t] = await db.select().from(terminals).where(terminalOfOrganization(orgId, terminalId));
  return t ?? null;
}
