import { and, eq, inArray } from 'drizzle-orm';
import { STOP_KIND_LABELS } from '@fleet/api-contract';
import { formatDuration, formatInstant, type TripPlan } from '@fleet/dispatch';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, organizations, places } from '../../db/schema/index.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import type { LoadRow, StopRow } from './dispatch-inputs.ts';

// What a load at risk says (issue 33, decision 0167): which appointment the live ETA passes, by how
// much, and why: a rest or restart the driver's hours require before it, else the drive itself.

/** Why the first missed appointment is missed: a required rest or restart on the way, else the drive time. */
export function riskCause(plan: TripPlan): string {
  const missed = plan.stops.find((s) => !s.windowMet);
  const before = plan.segments.filter((s) => missed && s.start < missed.eta);
  if (before.some((s) => s.kind === 'RESTART')) return 'the driver needs a 34-hour restart';
  if (before.some((s) => s.kind === 'REST')) return 'the driver needs a 10-hour rest';
  return 'the traffic-free drive time alone is longer';
}

/** "Delivery (Memphis, TN): arrives 3 h late because the driver needs a 10-hour rest." (stored with the load; zone-free). */
export function riskWords(plan: TripPlan, stops: readonly StopRow[]): string {
  const missed = plan.stops.find((s) => !s.windowMet);
  const stop = stops.find((s) => s.id === missed?.stopId);
  if (!missed || !stop) return 'An appointment will be missed';
  const late = `${formatDuration(missed.eta - stop.windowEnd.getTime())} late`;
  return `${STOP_KIND_LABELS[stop.kind]}${stop.address ? ` (${stop.address})` : ''}: arrives ${late} because ${riskCause(plan)}`;
}

/** Tells the dispatchers (LOAD_LIST holders, per their choices) of each load just found at risk. */
export async function riskNotices(db: DbOrTx, orgId: string, items: ReadonlyArray<{ load: LoadRow; stops: StopRow[]; plan: TripPlan }>): Promise<void> {
  if (items.length === 0) return;
  const [org] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  const tz = org?.tz ?? 'UTC';
  const driverIds = [...new Set(items.flatMap((i) => (i.load.driverId ? [i.load.driverId] : [])))];
  const people = new Map(
    driverIds.length
      ? (
          await db
            .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
            .from(drivers)
            .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, driverIds)))
        ).map((d) => [d.id, d])
      : [],
  );
  const assetIds = [...new Set(items.flatMap((i) => (i.load.assetId ? [i.load.assetId] : [])))];
  const units = new Map(
    assetIds.length
      ? (
          await db
            .select({ id: assets.id, unit: assets.unitNumber })
            .from(assets)
            .where(and(eq(assets.organizationId, orgId), inArray(assets.id, assetIds)))
        ).map((a) => [a.id, a.unit])
      : [],
  );
  const placeIds = [...new Set(items.flatMap((i) => i.stops.flatMap((s) => (s.placeId ? [s.placeId] : []))))];
  const placeNames = new Map(
    placeIds.length
      ? (
          await db
            .select({ id: places.id, name: places.name })
            .from(places)
            .where(and(eq(places.organizationId, orgId), inArray(places.id, placeIds)))
        ).map((p) => [p.id, p.name])
      : [],
  );
  const inputs: NotifyInput[] = [];
  for (const { load, stops, plan } of items) {
    const missed = plan.stops.find((s) => !s.windowMet)!;
    const stop = stops.find((s) => s.id === missed.stopId)!;
    const where = (stop.placeId && placeNames.get(stop.placeId)) || stop.address || `stop ${stop.seq + 1}`;
    const d = load.driverId ? people.get(load.driverId) : undefined;
    const vehicle = load.assetId ? units.get(load.assetId) : undefined;
    const cause = riskCause(plan);
    inputs.push({
      organizationId: orgId,
      kind: 'LOAD_AT_RISK',
      factKey: `load-at-risk:${load.id}`,
      title: `Load ${load.number} will miss its ${STOP_KIND_LABELS[stop.kind].toLowerCase()} appointment at ${where}`,
      body:
        `The legal ETA at ${where} is ${formatInstant(missed.eta, tz)}, ${formatDuration(missed.eta - stop.windowEnd.getTime())} late: the window closes ${formatInstant(stop.windowEnd.getTime(), tz)}, and ${cause}.` +
        `${d ? ` Driver: ${d.firstName} ${d.lastName}.` : ''}${vehicle ? ` Vehicle ${vehicle}.` : ''}`,
      link: `/dispatch/loads/${load.id}`,
      linkLabel: 'See the load',
      subject: d ? { firstName: d.firstName, lastName: d.lastName } : null,
      about: { driverId: load.driverId, assetId: load.assetId },
      webhook: {
        orgId,
        type: 'load.at_risk',
        at: Date.now(),
        data: { id: load.id, number: load.number, riskReason: cause, etaUpdatedAt: new Date().toISOString() },
      },
    });
  }
  await notifyMany(db, inputs);
}
