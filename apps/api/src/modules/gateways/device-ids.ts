import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { deviceIds } from '../../db/schema/index.ts';

// The device-id directory (migration 0036, decision 0169, docs/deploy.md 7.2), kept by every writer
// of a device's unique id or token, in the writer's transaction, on every database. Its primary key
// refuses a unique id another organization's device holds: on PostgreSQL gateways_unique_id_uq
// answers first, on Citus (where that index is per organization) this one does; both give the same
// message (db/sql/constraint-words.ts).

export interface DeviceIdRow {
  id: string;
  organizationId: string;
  uniqueId: string;
  ingestTokenHash: string | null;
}

/** Writes the directory's rows of these devices as they are now (after an insert or an update of the gateway). */
export async function putDeviceIds(tx: DbOrTx, rows: readonly DeviceIdRow[]): Promise<void> {
  if (rows.length === 0) return;
  await dropDeviceIds(
    tx,
    rows.map((r) => r.id),
  );
  for (let i = 0; i < rows.length; i += 1000) {
    await tx
      .insert(deviceIds)
      .values(
        rows.slice(i, i + 1000).map((r) => ({ uniqueId: r.uniqueId, organizationId: r.organizationId, gatewayId: r.id, ingestTokenHash: r.ingestTokenHash })),
      );
  }
}

/** Removes these devices from the directory (the gateways were deleted). */
export async function dropDeviceIds(tx: DbOrTx, gatewayIds: readonly string[]): Promise<void> {
  if (gatewayIds.length) await tx.delete(deviceIds).where(inArray(deviceIds.gatewayId, [...gatewayIds]));
}
