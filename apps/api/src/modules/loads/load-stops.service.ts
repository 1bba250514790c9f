import { and, eq } from 'drizzle-orm';
import type { Load, LoadStatus, StopEventSource, StopStatusInput, loadDocumentInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { loadDocuments, loadStops } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { attachImages, uploaderOf } from '../images/index.ts';
import type { AuthContext, Scope } from '../auth/index.ts';
import { inReach, reachOf, type Reach } from './load-access.ts';
import { findLoadRow, stopsOf, type LoadRow } from './load-present.ts';
import { stopEventProblem } from './load-status.ts';
import { emitStopEvents, settleStatus } from './load-settle.ts';
import { fullLoad } from './loads.service.ts';
import type { Tx } from '../../db/client.ts';

// What the driver (LOAD_SELF_WRITE, their own loads) or the office (LOAD_UPDATE) does at a stop
// (decision 0166): arrive, depart, and photographed papers. Events out of order are refused with
// the stop they wait for; a time a person gives replaces one taken from a place visit.

type DocumentInput = z.output<typeof loadDocumentInputSchema>;
const MOVING: readonly LoadStatus[] = ['ASSIGNED', 'EN_ROUTE', 'AT_STOP'];

/** The load locked, when the caller reaches it for writing (404 otherwise). */
async function lockedInReach(tx: Tx, s: Scope, reach: Reach, loadId: string): Promise<LoadRow> {
  const load = await findLoadRow(tx, s.orgId, loadId, true);
  if (!load || !inReach(reach, load)) throw notFound('Load');
  return load;
}

export async function stopEvent(s: Scope, ctx: AuthContext, loadId: string, stopId: string, input: StopStatusInput): Promise<Load> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  await s.db.transaction(async (tx) => {
    const load = await lockedInReach(tx, s, reach, loadId);
    const stops = (await stopsOf(tx, [loadId])).get(loadId) ?? [];
    const stop = stops.find((st) => st.id === stopId);
    if (!stop) throw notFound('Stop');
    // The same arrival or departure at the same time sent again (a phone resending, decision 0184) is
    // the one recorded, even once the load it delivered no longer moves.
    const recorded = input.event === 'ARRIVE' ? stop.arrivedAt : stop.departedAt;
    if (input.at && recorded && new Date(recorded).getTime() === Date.parse(input.at)) return;
    if (!MOVING.includes(load.status)) {
      throw conflict(
        load.status === 'PLANNED'
          ? `Load ${load.number} has no driver yet: assign it before marking its stops`
          : `Load ${load.number} is ${load.status.toLowerCase()}: its stops can no longer change`,
      );
    }
    const now = new Date(s.now ?? Date.now());
    const at = input.at ? new Date(input.at) : now;
    const problem = stopEventProblem(stops, stopId, input.event, at, now);
    if (problem) throw invalidField(problem.field, problem.message);
    const source: StopEventSource = reach.all ? 'DISPATCHER' : 'DRIVER';
    const set = input.event === 'ARRIVE' ? { arrivedAt: at, arrivalSource: source, placeVisitId: null } : { departedAt: at, departureSource: source };
    const [after] = await tx.update(loadStops).set(set).where(eq(loadStops.id, stopId)).returning();
    await emitStopEvents(tx, load, [stop], [after!]);
    await settleStatus(tx, load, s.actor, at);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: input.event === 'ARRIVE' ? 'STOP_ARRIVE' : 'STOP_DEPART',
      entityType: 'LOAD',
      entityId: loadId,
      before: stop,
      after,
    });
  });
  return fullLoad(s.db, s.orgId, loadId);
}

export async function addDocument(s: Scope, ctx: AuthContext, loadId: string, input: DocumentInput): Promise<Load['documents'][number]> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  const id = await s.db.transaction(async (tx) => {
    await lockedInReach(tx, s, reach, loadId);
    // The photo becomes the load's: the caller's own upload, attached to nothing else (issue 66).
    await attachImages(tx, s.orgId, uploaderOf(s.actor), [input.imageId], { type: 'LOAD', id: loadId }, 'imageId', 'Photo', true);
    if (input.stopId) {
      const [st] = await tx
        .select({ id: loadStops.id })
        .from(loadStops)
        .where(and(eq(loadStops.id, input.stopId), eq(loadStops.loadId, loadId)));
      if (!st) throw invalidField('stopId', 'Stop must be a stop of this load');
    }
    const [doc] = await tx
      .insert(loadDocuments)
      .values({ organizationId: s.orgId, loadId, stopId: input.stopId ?? null, kind: input.documentKind, imageId: input.imageId, uploadedBy: s.actor.userId })
      .returning();
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'ADD_LOAD_DOCUMENT', entityType: 'LOAD', entityId: loadId, after: doc });
    return doc!.id;
  });
  return (await fullLoad(s.db, s.orgId, loadId)).documents.find((d) => d.id === id)!;
}

export async function listDocuments(s: Scope, ctx: AuthContext, loadId: string): Promise<Load['documents']> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_LIST');
  const load = await findLoadRow(s.db, s.orgId, loadId);
  if (!load || !inReach(reach, load)) throw notFound('Load');
  return (await fullLoad(s.db, s.orgId, loadId)).documents;
}

/** The office removes any document; a driver only those they added to their own load. */
export async function deleteDocument(s: Scope, ctx: AuthContext, loadId: string, documentId: string): Promise<void> {
  const reach = await reachOf(s.db, s.orgId, ctx, 'LOAD_UPDATE');
  await s.db.transaction(async (tx) => {
    await lockedInReach(tx, s, reach, loadId);
    const [doc] = await tx
      .select()
      .from(loadDocuments)
      .where(and(eq(loadDocuments.id, documentId), eq(loadDocuments.loadId, loadId)));
    if (!doc || (!reach.all && doc.uploadedBy !== s.actor.userId)) throw notFound('Document');
    await tx.delete(loadDocuments).where(eq(loadDocuments.id, documentId));
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE_LOAD_DOCUMENT', entityType: 'LOAD', entityId: loadId, before: doc });
  });
}
