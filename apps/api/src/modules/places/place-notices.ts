import { and, eq, inArray, sql } from 'drizzle-orm';
import { PLACE_CATEGORY_LABELS, UNIT_LABELS, distanceFromKm, type UnitSystem } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, groupMembers, users } from '../../db/schema/index.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import type { PlaceIndex } from './place-index.ts';

// What the geofence follower tells the office (decision 0162): an arrival, a departure, a
// restricted place entered, a vehicle waiting at a customer beyond the free time. Each is a fact
// (its key names the place, vehicle and the visit's first fix), so a replay or another instance
// finding it again sends nothing. A place with a group is told to that group's users (and users
// in no group) only; the vehicle's and driver's groups narrow it as for every notification.

export interface NoticeFact {
  kind: 'ARRIVAL' | 'DEPARTURE' | 'DETENTION';
  placeId: string;
  assetId: string;
  driverId: string | null;
  /** ARRIVAL, DETENTION: the visit's first fix inside; DEPARTURE: its first fix outside (ms). */
  at: number;
  /** The fix that made it a fact (ms). */
  confirmedAt: number;
  /** DEPARTURE: when the visit began. */
  arrivedAt?: number;
  /** DETENTION: the organization's free time. */
  freeMinutes?: number;
  /** The visit it is about (its webhook's visitId). */
  visitId?: string;
}

const timeWords = (ms: number, tz: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
    new Date(ms),
  );

/** "2 h 15 min". */
export function durationWords(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** "250 ft" / "0.3 mi" / "400 m": a radius in the organization's units. */
export function radiusWords(metres: number, units: UnitSystem): string {
  if (units === 'IMPERIAL') {
    const feet = metres / 0.3048;
    return feet < 1000
      ? `${Math.round(feet)} ft`
      : `${distanceFromKm(metres / 1000, units).toLocaleString('en-US', { maximumFractionDigits: 1 })} ${UNIT_LABELS[units].distance}`;
  }
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} ${UNIT_LABELS[units].distance}`;
}

/** The notices of the facts, notified (once each). */
export async function visitNotices(
  db: DbOrTx,
  orgId: string,
  index: PlaceIndex,
  wording: { units: UnitSystem; timeZone: string },
  facts: readonly NoticeFact[],
): Promise<void> {
  const assetIds = [...new Set(facts.map((f) => f.assetId))];
  const driverIds = [...new Set(facts.flatMap((f) => (f.driverId ? [f.driverId] : [])))];
  const units = new Map(
    (
      await db
        .select({ id: assets.id, unit: assets.unitNumber })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), inArray(assets.id, assetIds)))
    ).map((r) => [r.id, r.unit]),
  );
  const people = new Map(
    driverIds.length
      ? (await db.select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(inArray(drivers.id, driverIds))).map(
          (r) => [r.id, r],
        )
      : [],
  );
  const groupUsers = new Map<string, string[]>();
  for (const groupId of new Set(facts.flatMap((f) => index.byId.get(f.placeId)?.groupId ?? [])))
    groupUsers.set(groupId, await usersSeeingGroup(db, orgId, groupId));
  const inputs: NotifyInput[] = [];
  for (const f of facts) {
    const place = index.byId.get(f.placeId);
    if (!place) continue;
    const vehicle = `Vehicle ${units.get(f.assetId) ?? 'unknown'}`;
    const d = f.driverId ? people.get(f.driverId) : undefined;
    const driver = d ? ` Driver: ${d.firstName} ${d.lastName}.` : '';
    const what = `${place.name} (${PLACE_CATEGORY_LABELS[place.category].toLowerCase()})`;
    // The webhooks of an arrival and a departure (issue 48), sent with the notice's fact: once each.
    const visit = {
      visitId: f.visitId ?? '',
      placeId: place.id,
      placeName: place.name,
      category: place.category,
      assetId: f.assetId,
      unitNumber: units.get(f.assetId) ?? '',
    };
    const webhook =
      f.kind === 'ARRIVAL'
        ? { orgId, type: 'vehicle.place_entered' as const, at: f.at, data: { ...visit, arrivedAt: new Date(f.at).toISOString() } }
        : f.kind === 'DEPARTURE'
          ? {
              orgId,
              type: 'vehicle.place_exited' as const,
              at: f.at,
              data: {
                ...visit,
                arrivedAt: new Date(f.arrivedAt ?? f.at).toISOString(),
                departedAt: new Date(f.at).toISOString(),
                dwellSeconds: Math.round((f.at - (f.arrivedAt ?? f.at)) / 1000),
              },
            }
          : undefined;
    const base = {
      organizationId: orgId,
      link: `/places/${place.id}`,
      linkLabel: 'See the place',
      subject: d ? { firstName: d.firstName, lastName: d.lastName } : null,
      about: { assetId: f.assetId, driverId: f.driverId },
      // The arrival or departure itself (detention: the moment the free time ran out).
      occurredAt: f.kind === 'DETENTION' ? f.at + (f.freeMinutes ?? 0) * 60_000 : f.at,
      ...(place.groupId ? { userIds: groupUsers.get(place.groupId) ?? [] } : {}),
      ...(webhook ? { webhook } : {}),
    };
    if (f.kind === 'ARRIVAL' && place.category === 'RESTRICTED') {
      const size = place.geometry.type === 'Point' && place.radiusM !== null ? ` (within ${radiusWords(place.radiusM, wording.units)} of its centre)` : '';
      inputs.push({
        ...base,
        kind: 'RESTRICTED_PLACE_ENTERED',
        factKey: `restricted:${f.placeId}:${f.assetId}:${f.at}`,
        title: `${vehicle} entered restricted area ${place.name}`,
        body: `${vehicle} entered ${place.name}${size} at ${timeWords(f.at, wording.timeZone)}.${driver}`,
      });
    } else if (f.kind === 'ARRIVAL') {
      inputs.push({
        ...base,
        kind: 'PLACE_ARRIVAL',
        factKey: `place-arrival:${f.placeId}:${f.assetId}:${f.at}`,
        title: `${vehicle} arrived at ${place.name}`,
        body: `${vehicle} arrived at ${what} at ${timeWords(f.at, wording.timeZone)}.${driver}`,
      });
    } else if (f.kind === 'DEPARTURE') {
      const stay = f.arrivedAt !== undefined ? ` after ${durationWords(f.at - f.arrivedAt)} there` : '';
      inputs.push({
        ...base,
        kind: 'PLACE_DEPARTURE',
        factKey: `place-departure:${f.placeId}:${f.assetId}:${f.at}`,
        title: `${vehicle} left ${place.name}`,
        body: `${vehicle} left ${what} at ${timeWords(f.at, wording.timeZone)}${stay}.${driver}`,
      });
    } else {
      const free = f.freeMinutes ?? 0;
      inputs.push({
        ...base,
        kind: 'DETENTION_EXCEEDED',
        factKey: `detention:${f.placeId}:${f.assetId}:${f.at}`,
        title: `${vehicle} has waited at ${place.name} beyond the free time`,
        body: `${vehicle} arrived at ${what} at ${timeWords(f.at, wording.timeZone)} and is still there after ${durationWords(f.confirmedAt - f.at)}, ${durationWords(f.confirmedAt - f.at - free * 60_000)} beyond the ${durationWords(free * 60_000)} of free time.${driver}`,
      });
    }
  }
  if (inputs.length) await notifyMany(db, inputs);
}

/** Users who see a group: its members, and users in no group (they see the whole organization). */
async function usersSeeingGroup(db: DbOrTx, orgId: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.organizationId, orgId),
        sql`(exists (select 1 from ${groupMembers} m where m.member_type = 'USER' and m.member_id = ${users.id} and m.group_id = ${groupId})
          or not exists (select 1 from ${groupMembers} m where m.member_type = 'USER' and m.member_id = ${users.id}))`,
      ),
    );
  return rows.map((r) => r.id);
}
