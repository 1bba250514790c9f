import { randomUUID } from 'node:crypto';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import type { Actor } from '../auth/index.ts';

// Bulk insert of imported records and their activity-log rows in one statement per chunk: the
// rows travel as one jsonb parameter read by jsonb_to_recordset, so neither side builds or parses
// thousands of bind parameters, and the log rows are written by the same statement (same
// transaction, nothing to join back: ids are chosen here). See docs/decisions/0045.

export interface ImportedRow {
  /** Column values by the table's property names (as Drizzle inserts take them). */
  values: Record<string, unknown>;
  /** What the activity log shows as `after` for this record. */
  after: Record<string, unknown>;
}

const CHUNK = 2500;

/** Inserts `rows` into `table` for the organization and logs each one as `action`; returns the new ids. */
export async function insertWithActivity(
  tx: DbOrTx,
  table: PgTable,
  rows: ImportedRow[],
  log: { orgId: string; actor: Actor; action: string; entityType: string },
): Promise<string[]> {
  if (rows.length === 0) return [];
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]?.values ?? {}).filter((k) => k !== 'id' && k !== 'organizationId' && columns[k]);
  const recordType = sql.join(
    [sql`id uuid`, ...keys.map((k) => sql`${sql.identifier(columns[k]?.name ?? k)} ${sql.raw(columns[k]?.getSQLType() ?? 'text')}`), sql`after jsonb`],
    sql`, `,
  );
  const target = sql.join([sql`id`, sql`organization_id`, ...keys.map((k) => sql.identifier(columns[k]?.name ?? k))], sql`, `);
  const source = sql.join([sql`r.id`, sql`${log.orgId}::uuid`, ...keys.map((k) => sql`r.${sql.identifier(columns[k]?.name ?? k)}`)], sql`, `);
  // The same rule as recordActivity: only a well-formed address goes into the inet column.
  const ip = log.actor.ip && /^[0-9a-fA-F:.]+$/.test(log.actor.ip) ? log.actor.ip : null;
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const payload = rows.slice(i, i + CHUNK).map((r) => {
      const id = randomUUID();
      ids.push(id);
      const rec: Record<string, unknown> = { id, after: r.after };
      for (const k of keys) rec[columns[k]?.name ?? k] = r.values[k];
      return rec;
    });
    const statement: SQL = sql`with r as (select * from jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as r(${recordType})),
  ins as (insert into ${table} (${target}) select ${source} from r returning 1)
insert into activity_log (organization_id, actor_user_id, actor_email, actor_role, action, entity_type, entity_id, changes, ip)
select ${log.orgId}::uuid, ${log.actor.userId}::uuid, ${log.actor.email}, ${log.actor.role}, ${log.action}, ${log.entityType}, r.id::text,
  jsonb_build_object('after', r.after), ${ip}::inet
from r`;
    await tx.execute(statement);
  }
  return ids;
}
