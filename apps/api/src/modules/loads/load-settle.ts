import { and, eq, sql } from 'drizzle-orm';
import type { LoadStatus } from '@fleet/api-contract';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { loadStatusEvents, loads } from '../../db/schema/index.ts';
import type { Actor } from '../auth/index.ts';
import { emitWebhookEvent, emitWebhookEvents, type WebhookFact } from '../webhooks/index.ts';
import { stopsOf, type LoadRow, type StopRow } from './load-present.ts';
import { statusFromStops } from './load-status.ts';

// A load's status history (decision 0166): every move of the status is a row, dated when it happened.

/**
 * A status-history row (user null: the system, from a place visit), and the `load.status_changed`
 * webhook in the same transaction (issue 48), with the status the history held before.
 */
export async function recordStatus(
  tx: DbOrTx,
  orgId: string,
  loadId: string,
  status: LoadStatus,
  at: Date,
  userId: string | null,
  note: string | null = null,
): Promise<void> {
  const [prior] = await tx
    .select({
      number: loads.number,
      previous: sql<LoadStatus | null>`(select e.status from load_status_events e where e.organization_id = ${orgId} and e.load_id = ${loadId} order by e.at desc, e.id desc limit 1)`,
    })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  await tx.insert(loadStatusEvents).values({ organizationId: orgId, loadId, status, at, userId, note });
  if (prior)
    await emitWebhookEvent(tx, {
      orgId,
      type: 'load.status_changed',
      at,
      data: { id: loadId, number: prior.number, status, previousStatus: prior.previous, changedAt: at.toISOString(), note },
    });
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

type StopState = Pick<StopRow, 'id' | 'seq' | 'kind' | 'placeId' | 'arrivedAt' | 'departedAt' | 'arrivalSource' | 'departureSource'> & {
  placeName: string | null;
};

/**
 * `load.stop_arrived` and `load.stop_departed` for the stops whose arrival or departure became set
 * (issue 48), in the transaction that set them: `before` the stops as they were, `after` as saved.
 */
export async function emitStopEvents(
  tx: DbOrTx,
  load: Pick<LoadRow, 'organizationId' | 'id' | 'number'>,
  before: readonly StopState[],
  after: ReadonlyArray<Omit<StopState, 'placeName'>>,
): Promise<void> {
  const facts: WebhookFact[] = [];
  for (const a of after) {
    const b = before.find((s) => s.id === a.id);
    const data = (source: string | null) => ({
      loadId: load.id,
      loadNumber: load.number,
      stopId: a.id,
      seq: a.seq,
      kind: a.kind,
      placeId: a.placeId,
      placeName: b?.placeName ?? null,
      arrivedAt: a.arrivedAt?.toISOString() ?? null,
      departedAt: a.departedAt?.toISOString() ?? null,
      source,
    });
    if (a.arrivedAt && a.arrivedAt.getTime() !== b?.arrivedAt?.getTime())
      facts.push({ orgId: load.organizationId, type: 'load.stop_arrived', at: a.arrivedAt, data: data(a.arrivalSource) });
    if (a.departedAt && a.departedAt.getTime() !== b?.departedAt?.getTime())
      facts.push({ orgId: load.organizationId, type: 'load.stop_departed', at: a.departedAt, data: data(a.departureSource) });
  }
  await emitWebhookEvents(tx, facts);
}
