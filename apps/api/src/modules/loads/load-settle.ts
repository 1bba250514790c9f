import { eq } from 'drizzle-orm';
import type { LoadStatus } from '@fleet/api-contract';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { loadStatusEvents, loads } from '../../db/schema/index.ts';
import type { Actor } from '../auth/index.ts';
import { stopsOf, type LoadRow } from './load-present.ts';
import { statusFromStops } from './load-status.ts';

// A load's status history (decision 0166): every move of the status is a row, dated when it happened.

/** A status-history row (user null: the system, from a place visit). */
export async function recordStatus(tx: DbOrTx, orgId: string, loadId: string, status: LoadStatus, at: Date, userId: string | null, note: string | null = null): Promise<void> {
  await tx.insert(loadStatusEvents).values({ organizationId: orgId, loadId, status, at, userId, note });
}

/**
 * After the stops or the assignment changed: the status the stops say, saved with its history row
 * when it moved. Returns the row as saved.
 */
export async function settleStatus(tx: Tx, load: LoadRow, actor: Actor | null, at: Date, note: string | null = null): Promise<LoadRow> {
  const stops = (await stopsOf(tx, [load.id])).get(load.id) ?? [];
  const next = statusFromStops(load.status, !!load.driverId, stops, load.deliveredAt);
  if (next.status === load.status && (next.deliveredAt?.getTime() ?? null) === (load.deliveredAt?.getTime() ?? null)) return load;
  const [after] = await tx
    .update(loads)
    .set({ status: next.status, deliveredAt: next.deliveredAt, updatedAt: new Date() })
    .where(eq(loads.id, load.id))
    .returning();
  if (next.status !== load.status) await recordStatus(tx, load.organizationId, load.id, next.status, next.since ?? at, actor?.userId ?? null, note);
  return after!;
}
