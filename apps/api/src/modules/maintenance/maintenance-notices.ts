import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  DUTY_STATUSES,
  HOS_EVENT_TYPES,
  HOS_RECORD_STATUSES,
  UNIT_LABELS,
  distanceFromKm,
  type MaintenanceDue,
  type UnitSystem,
} from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents, organizations, vehicleDefects } from '../../db/schema/index.ts';
import { logDateOf } from '../hos/index.ts';
import type { NotifyInput } from '../notifications/index.ts';

// What inspections and maintenance tell the office (issue 31, decision 0159), as notices for
// `notify`: a new safety defect, a vehicle driven with a safety defect open, service coming due.
// Each carries a fact key naming the fact once, so detecting it again sends nothing.

const DRIVING = DUTY_STATUSES.indexOf('D') + 1;

/** The organization's unit system and zone (words use its units; days are its calendar days). */
export async function orgWording(db: DbOrTx, orgId: string): Promise<{ units: UnitSystem; tz: string }> {
  const [o] = await db.select({ settings: organizations.settings, tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return { units: o?.settings.units ?? DEFAULT_ORGANIZATION_SETTINGS.units, tz: o?.tz ?? 'America/Chicago' };
}

/** "123,456.7 mi" for kilometres, in the organization's unit. */
export const distanceWords = (km: number, units: UnitSystem) =>
  `${distanceFromKm(km, units).toLocaleString('en-US', { maximumFractionDigits: 1 })} ${UNIT_LABELS[units].distance}`;
const dayWords = (ms: number, tz: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(ms));
const timeWords = (ms: number, tz: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
    new Date(ms),
  );
const list = (labels: string[]) => labels.join(', ');
const defectsLink = (assetId: string) => `/maintenance/defects?status=OPEN&assetId=${assetId}`;

export interface ReportedSafetyDefects {
  dvirId: string;
  driver: { id: string; name: string };
  /** The unit the defects are on (the vehicle or one of its trailers). */
  unit: { id: string; unitNumber: string; trailer: boolean };
  labels: string[];
  odometerM: number | null;
  location: string | null;
}

/** One notice per unit of a report with safety defects: they keep the unit off the road until repaired. */
export function safetyDefectNotice(orgId: string, r: ReportedSafetyDefects, units: UnitSystem): NotifyInput {
  const what = `${r.unit.trailer ? 'Trailer' : 'Vehicle'} ${r.unit.unitNumber}`;
  const at = [r.odometerM === null ? null : `at ${distanceWords(r.odometerM / 1000, units)}`, r.location ? `near ${r.location}` : null]
    .filter(Boolean)
    .join(' ');
  return {
    organizationId: orgId,
    kind: 'NEW_SAFETY_DEFECT',
    factKey: `safety-defect:${r.dvirId}:${r.unit.id}`,
    title: `${what}: ${r.labels.length === 1 ? 'a safety defect' : `${r.labels.length} safety defects`} reported`,
    body: `${r.driver.name} reported ${list(r.labels)}${at ? ` ${at}` : ''}. The ${r.unit.trailer ? 'trailer' : 'vehicle'} may not run until it is repaired and certified.`,
    link: defectsLink(r.unit.id),
    linkLabel: 'See the open defects',
    about: { assetId: r.unit.id, driverId: r.driver.id },
  };
}

/**
 * Vehicles driven with a safety defect open: a Driving duty status (recorded automatically from
 * the vehicle's motion, or by anyone) on the vehicle after the defect was reported, in
 * (`sinceMs`, `nowMs`]. One notice per vehicle and day (the organization's calendar day).
 */
export async function drivenWithSafetyDefectNotices(db: DbOrTx, orgId: string, sinceMs: number, nowMs: number): Promise<NotifyInput[]> {
  const open = await db
    .select({ assetId: vehicleDefects.assetId, unitNumber: vehicleDefects.unitNumber, label: vehicleDefects.label, reportedAt: vehicleDefects.createdAt })
    .from(vehicleDefects)
    .where(and(eq(vehicleDefects.organizationId, orgId), eq(vehicleDefects.status, 'OPEN'), eq(vehicleDefects.safety, true)));
  if (open.length === 0) return [];
  const firstReported = new Map<string, number>();
  for (const d of open) firstReported.set(d.assetId, Math.min(firstReported.get(d.assetId) ?? Infinity, d.reportedAt.getTime()));
  const drives = await db
    .select({ vehicleId: hosEvents.vehicleId, at: hosEvents.eventTime, firstName: drivers.firstName, lastName: drivers.lastName, driverId: hosEvents.driverId })
    .from(hosEvents)
    .leftJoin(drivers, and(eq(drivers.id, hosEvents.driverId), eq(drivers.organizationId, hosEvents.organizationId)))
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
        eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS),
        eq(hosEvents.eventCode, DRIVING),
        inArray(hosEvents.vehicleId, [...firstReported.keys()]),
        gt(hosEvents.eventTime, new Date(sinceMs)),
        lte(hosEvents.eventTime, new Date(nowMs)),
      ),
    )
    .orderBy(hosEvents.eventTime);
  if (drives.length === 0) return [];
  const { tz } = await orgWording(db, orgId);
  const notices = new Map<string, NotifyInput>();
  for (const e of drives) {
    const assetId = e.vehicleId!;
    const atMs = e.at.getTime();
    // Driving before the defect was reported is not driving with it.
    const defects = open.filter((d) => d.assetId === assetId && d.reportedAt.getTime() < atMs);
    if (defects.length === 0) continue;
    const day = logDateOf(atMs, tz, '00:00');
    const factKey = `driven-with-safety-defect:${assetId}:${day}`;
    if (notices.has(factKey)) continue;
    const who = e.driverId ? `${e.firstName ?? ''} ${e.lastName ?? ''}`.trim() : 'An unidentified driver';
    const unit = defects[0]!.unitNumber;
    notices.set(factKey, {
      organizationId: orgId,
      kind: 'DRIVEN_WITH_SAFETY_DEFECT',
      factKey,
      title: `Vehicle ${unit} is being driven with an open safety defect`,
      body: `${who} started driving vehicle ${unit} at ${timeWords(atMs, tz)} while ${list(defects.map((d) => d.label))} ${defects.length === 1 ? 'was' : 'were'} reported and not repaired.`,
      link: defectsLink(assetId),
      linkLabel: 'See the open defects',
      about: { assetId, driverId: e.driverId },
    });
  }
  return [...notices.values()];
}

/**
 * A service coming due or overdue, once per schedule, vehicle, status and service interval (the due
 * point names the interval: after the next service the same schedule notifies again).
 */
export function serviceDueNotice(orgId: string, d: MaintenanceDue, units: UnitSystem, tz: string): NotifyInput {
  const points = [
    d.dueAt ? `on ${dayWords(Date.parse(d.dueAt), tz)}` : null,
    d.dueOdometer !== null ? `at ${distanceWords(d.dueOdometer, units)}` : null,
    d.dueEngineHours !== null ? `at ${d.dueEngineHours.toLocaleString('en-US')} engine hours` : null,
  ].filter((p): p is string => p !== null);
  const overdue = d.status === 'OVERDUE';
  return {
    organizationId: orgId,
    kind: 'SERVICE_DUE',
    factKey: `service-due:${d.scheduleId}:${d.assetId}:${d.status}:${d.dueAt ?? ''}|${d.dueOdometer ?? ''}|${d.dueEngineHours ?? ''}`,
    title: `${d.name} ${overdue ? 'is overdue' : 'is coming due'} for vehicle ${d.unitNumber}`,
    body: `${d.name} for vehicle ${d.unitNumber} ${overdue ? 'was' : 'is'} due ${points.join(' or ') || 'soon'}.`,
    link: `/maintenance/due?status=${d.status}`,
    linkLabel: 'See the service due',
    about: { assetId: d.assetId },
  };
}
