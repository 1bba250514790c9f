import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets } from '../../db/schema/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import type { WrittenEvent } from './safety.repository.ts';

// `safety.event_created` (issue 48): written by the safety follower in the transaction that records
// the event, once, when its row is first inserted (a later update of an episode under way, or a
// replay that finds the same event again, sends nothing).

/** The webhooks of the safety events just inserted. */
export async function emitSafetyCreated(tx: DbOrTx, orgId: string, written: readonly WrittenEvent[]): Promise<void> {
  const fresh = written.filter((w) => w.inserted);
  if (fresh.length === 0) return;
  const units = await tx
    .select({ id: assets.id, unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), inArray(assets.id, [...new Set(fresh.map((w) => w.assetId))])));
  const unitOf = new Map(units.map((u) => [u.id, u.unitNumber]));
  await emitWebhookEvents(
    tx,
    fresh.map(({ id, assetId, draft: d }) => ({
      orgId,
      type: 'safety.event_created' as const,
      at: d.startedAt,
      data: {
        id,
        type: d.type,
        severity: d.severity,
        source: d.source,
        startedAt: new Date(d.startedAt).toISOString(),
        endedAt: new Date(d.endedAt).toISOString(),
        driverId: d.driverId,
        assetId,
        assetName: unitOf.get(assetId) ?? '',
        lat: d.lat,
        lon: d.lon,
        speedBeforeKph: d.speedBeforeKph,
        maxSpeedKph: d.maxSpeedKph,
        limitKph: d.limitKph,
        band: d.band,
        strengthMps2: d.strengthMps2,
      },
    })),
  );
}
