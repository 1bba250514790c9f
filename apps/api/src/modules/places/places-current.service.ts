import { and, asc, eq, isNull } from 'drizzle-orm';
import type { VehiclePlace } from '@fleet/api-contract';
import { assets, placeVisits, places } from '../../db/schema/index.ts';
import type { Scope } from '../auth/index.ts';
import { assetInGroup } from '../groups/index.ts';
import { placeVisibleTo } from './places.service.ts';

/** Where each vehicle is now: its open visits (the live map's "at <place>"), a group's vehicles only with `groupId`. */
export async function currentPlaces(s: Scope, q: { groupId?: string }): Promise<{ content: VehiclePlace[] }> {
  const rows = await s.db
    .select({ assetId: placeVisits.assetId, placeId: places.id, placeName: places.name, category: places.category, arrivedAt: placeVisits.arrivedAt })
    .from(placeVisits)
    .innerJoin(places, and(eq(places.id, placeVisits.placeId), eq(places.organizationId, placeVisits.organizationId)))
    .innerJoin(assets, and(eq(assets.id, placeVisits.assetId), eq(assets.organizationId, s.orgId)))
    .where(
      and(
        eq(placeVisits.organizationId, s.orgId),
        isNull(placeVisits.departedAt),
        placeVisibleTo(s.actor.userId, s.orgId),
        q.groupId ? assetInGroup(s.orgId, q.groupId, placeVisits.assetId) : undefined,
      ),
    )
    .orderBy(asc(placeVisits.assetId), asc(placeVisits.arrivedAt));
  return { content: rows.map((r) => ({ ...r, arrivedAt: r.arrivedAt.toISOString() })) };
}
