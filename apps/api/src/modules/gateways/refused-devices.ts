import { inArray } from 'drizzle-orm';
import type { RefusedDevice, RefusedDeviceAdmin } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/index.ts';
import type { UnknownDevice, UnknownDevices } from '../positions/index.ts';

// What the devices screen and the super administrator see of ids refused as unknown (decision 0154).

const present = (d: UnknownDevice): RefusedDevice => ({
  uniqueId: d.uniqueId,
  protocol: d.protocol,
  firstAt: d.firstAt.toISOString(),
  lastAt: d.lastAt.toISOString(),
  attempts: d.attempts,
});

/** Only the ids refused through the organization's own token. */
export const refusedForOrganization = (known: UnknownDevices, orgId: string): RefusedDevice[] => known.recent({ organizationId: orgId }).map(present);

/**
 * One exact id the administrator typed: refused with no organization (TCP, OsmAnd) or through this
 * organization's token, never through another's. Nothing is listed, so nothing leaks by browsing.
 */
export function lookupRefused(known: UnknownDevices, orgId: string, uniqueId: string): { lastAt: string | null; protocol: string | null; attempts: number } {
  const hit = known
    .recent({}, Number.MAX_SAFE_INTEGER)
    .find((d) => d.uniqueId === uniqueId.trim() && (d.organizationId === null || d.organizationId === orgId));
  return hit ? { lastAt: hit.lastAt.toISOString(), protocol: hit.protocol, attempts: hit.attempts } : { lastAt: null, protocol: null, attempts: 0 };
}

/** Everything, with the name of the organization whose token each came with. */
export async function refusedForAdmin(db: DbOrTx, known: UnknownDevices): Promise<RefusedDeviceAdmin[]> {
  const list = known.recent({}, 200);
  const ids = [...new Set(list.flatMap((d) => (d.organizationId ? [d.organizationId] : [])))];
  const names = new Map(
    ids.length
      ? (await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inArray(organizations.id, ids))).map((o) => [
          o.id,
          o.name,
        ])
      : [],
  );
  return list.map((d) => ({
    ...present(d),
    organizationId: d.organizationId,
    organizationName: d.organizationId ? (names.get(d.organizationId) ?? null) : null,
    remoteAddress: d.remoteAddress,
  }));
}
