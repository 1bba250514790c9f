import { and, eq, inArray } from 'drizzle-orm';
import { DUTY_STATUSES, HOS_RECORD_ORIGINS } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers } from '../../db/schema/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';

// `hos.duty_status_changed` (issue 48): written with the duty-status records, in their transaction.

const ORIGIN_NAMES = new Map<number, string>(Object.entries(HOS_RECORD_ORIGINS).map(([name, code]) => [code, name]));

export interface DutyChange {
  eventId: string;
  driverId: string;
  /** The record's event code: 1 OFF, 2 SB, 3 D, 4 ON. */
  code: number;
  at: Date | number;
  origin: number;
  assetId: string | null;
}

/** The webhooks of active duty-status records just written for drivers (the drivers read in their organization: one shard on Citus). */
export async function emitDutyChanges(tx: DbOrTx, orgId: string, changes: readonly DutyChange[]): Promise<void> {
  const known = changes.filter((c) => c.code >= 1 && c.code <= 4);
  if (known.length === 0) return;
  const names = new Map(
    (
      await tx
        .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
        .from(drivers)
        .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, [...new Set(known.map((c) => c.driverId))])))
    ).map((d) => [d.id, `${d.firstName} ${d.lastName}`]),
  );
  await emitWebhookEvents(
    tx,
    known.map((c) => ({
      orgId,
      type: 'hos.duty_status_changed' as const,
      at: c.at,
      data: {
        eventId: c.eventId,
        driverId: c.driverId,
        driverName: names.get(c.driverId) ?? '',
        status: DUTY_STATUSES[c.code - 1]!,
        startedAt: new Date(c.at).toISOString(),
        origin: ORIGIN_NAMES.get(c.origin) ?? 'OTHER',
        assetId: c.assetId,
      },
    })),
  );
}
