import { sql } from 'drizzle-orm';
import type { RetentionKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';

/** Where one data kind lives: a table with organization_id and a timestamptz age column. */
export interface RetentionTarget {
  table: string;
  timeColumn: string;
  /** A kind whose rows are not simply removed by age deletes its batches itself (same contract as deleteBatch). */
  deleteBatch?: (db: DbOrTx, t: RetentionTarget, orgId: string, cutoff: Date, limit: number) => Promise<number>;
}

/**
 * The purge registry: each kind and the tables holding it. A table that does not exist yet (its
 * domain lands later) is skipped at run time, so a new domain only adds its row here.
 */
export const RETENTION_TARGETS: Record<RetentionKind, readonly RetentionTarget[]> = {
  POSITIONS: [{ table: 'positions', timeColumn: 'fix_time' }],
  HOS_RECORDS: [{ table: 'hos_events', timeColumn: 'event_time' }],
  // Reports with their defects (cascade) and images; never one whose defect is still open or on an
  // open work order (decision 0160).
  INSPECTIONS: [{ table: 'dvirs', timeColumn: 'inspected_at', deleteBatch: deleteDvirBatch }],
  ACTIVITY_LOG: [{ table: 'activity_log', timeColumn: 'created_at' }],
  // The IFTA records by day (a date column compares with the cutoff as midnight UTC). Month rollups
  // and filed returns stay: a filing is the figures as filed, and a month straddles the cutoff.
  FUEL_IFTA: [
    { table: 'ifta_fuel_purchases', timeColumn: 'purchased_at' },
    // Fuel-card transactions (issue 68) go with the purchases they became.
    { table: 'fuel_transactions', timeColumn: 'time' },
    // Refuels and drops found in the fuel level (decision 0276).
    { table: 'fuel_events', timeColumn: 'started_at' },
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

/**
 * Deletes up to `limit` inspection reports of one organization inspected before `cutoff`, with their
 * defects (the foreign key cascades) and the photos and drawn signatures no remaining report or
 * defect uses; returns how many reports. A report is kept while any of its defects is open or on a
 * work order that is not done: the repair it records is still under way.
 */
export async function deleteDvirBatch(db: DbOrTx, _t: RetentionTarget, orgId: string, cutoff: Date, limit: number): Promise<number> {
  const at = cutoff.toISOString();
  const res = await db.execute(sql`
    with doomed as (
      select r.id from dvirs r
      where r.organization_id = ${orgId} and r.inspected_at < ${at}::timestamptz
        and not exists (
          select 1 from vehicle_defects d left join work_orders w on w.organization_id = d.organization_id and w.id = d.work_order_id
          where d.organization_id = r.organization_id and d.dvir_id = r.id and (d.status = 'OPEN' or (w.id is not null and w.status <> 'DONE')))
      limit ${limit}
    ),
    pictures as (
      select r.signature_image_id as id from dvirs r join doomed using (id)
      union select r.review_signature_image_id from dvirs r join doomed using (id)
      union select (jsonb_array_elements_text(i.value->'imageIds'))::uuid from dvirs r join doomed using (id), jsonb_array_elements(r.items) i
      union select d.certified_by_image_id from vehicle_defects d join doomed on doomed.id = d.dvir_id
      union select unnest(d.image_ids) from vehicle_defects d join doomed on doomed.id = d.dvir_id
    ),
    unused as (
      select p.id from pictures p
      where p.id is not null
        and not exists (
          select 1 from dvirs r where r.organization_id = ${orgId} and r.id not in (select id from doomed)
            and (r.signature_image_id = p.id or r.review_signature_image_id = p.id or r.items @> jsonb_build_array(jsonb_build_object('imageIds', jsonb_build_array(p.id::text)))))
        and not exists (
          select 1 from vehicle_defects d where d.organization_id = ${orgId} and d.dvir_id not in (select id from doomed)
            and (d.certified_by_image_id = p.id or p.id = any(d.image_ids)))
    ),
    gone_images as (delete from images where organization_id = ${orgId} and id in (select id from unused) returning 1),
    gone as (delete from dvirs where organization_id = ${orgId} and id in (select id from doomed) returning 1)
    select (select count(*)::int from gone) as n, (select count(*)::int from gone_images) as images`);
  const rows = (res as unknown as { rows: Array<{ n: number }> }).rows;
  return Number(rows[0]?.n ?? 0);
}
