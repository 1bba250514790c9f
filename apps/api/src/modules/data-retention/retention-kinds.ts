import { sql } from 'drizzle-orm';
import type { RetentionKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';

/** Where one data kind lives: a table with organization_id and a timestamptz age column. */
export interface RetentionTarget {
  table: string;
  timeColumn: string;
}

/**
 * The purge registry: each kind and the tables holding it. A table that does not exist yet (its
 * domain lands later) is skipped at run time, so a new domain only adds its row here.
 */
export const RETENTION_TARGETS: Record<RetentionKind, readonly RetentionTarget[]> = {
  POSITIONS: [{ table: 'positions', timeColumn: 'fix_time' }],
  HOS_RECORDS: [{ table: 'hos_events', timeColumn: 'event_time' }],
  ACTIVITY_LOG: [{ table: 'activity_log', timeColumn: 'created_at' }],
  // The IFTA records by day (a date column compares with the cutoff as midnight UTC). Month rollups
  // and filed returns stay: a filing is the figures as filed, and a month straddles the cutoff.
  FUEL_IFTA: [
    { table: 'ifta_fuel_purchases', timeColumn: 'purchased_at' },
    { table: 'ifta_distance_days', timeColumn: 'day' },
    { table: 'ifta_vehicle_days', timeColumn: 'day' },
    { table: 'ifta_crossings', timeColumn: 'crossed_at' },
    { table: 'ifta_flagged_segments', timeColumn: 'day' },
    { table: 'ifta_adjustments', timeColumn: 'day' },
  ],
  NOTIFICATIONS: [{ table: 'notifications', timeColumn: 'created_at' }],
};

/** True when the table exists with both organization_id and the time column. */
export async function targetExists(db: DbOrTx, t: RetentionTarget): Promise<boolean> {
  const res = await db.execute(sql`
    select count(*)::int as n from information_schema.columns
    where table_schema = current_schema() and table_name = ${t.table} and column_name in ('organization_id', ${t.timeColumn})`);
  const rows = (res as unknown as { rows: Array<{ n: number }> }).rows;
  return Number(rows[0]?.n ?? 0) === 2;
}

/**
 * Deletes up to `limit` rows of one organization older than `cutoff`; returns how many.
 * ctid picks the batch; the outer conditions repeat the policy so that, on a partitioned table
 * (where ctid is only unique per partition), a row outside the policy can never be hit.
 */
export async function deleteBatch(db: DbOrTx, t: RetentionTarget, orgId: string, cutoff: Date, limit: number): Promise<number> {
  const table = sql.identifier(t.table);
  const col = sql.identifier(t.timeColumn);
  const at = cutoff.toISOString();
  const res = await db.execute(sql`
    with gone as (
      delete from ${table}
      where organization_id = ${orgId} and ${col} < ${at}::timestamptz
        and ctid in (select ctid from ${table} where organization_id = ${orgId} and ${col} < ${at}::timestamptz limit ${limit})
      returning 1
    )
    select count(*)::int as n from gone`);
  const rows = (res as unknown as { rows: Array<{ n: number }> }).rows;
  return Number(rows[0]?.n ?? 0);
}
