import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { DVIR_ITEMS, HOS_EVENT_TYPES } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import {
  assets,
  drivers,
  dvirs,
  groups,
  hosEvents,
  maintenanceSchedules,
  maintenanceServices,
  trailerAttachments,
  vehicleDefects,
  workOrders,
  type DvirItemRow,
} from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivityBatch, type ActivityEntry } from '../modules/activity-log/activity-log.service.ts';
import { DEMO_DRIVER_UNITS } from './seed.ts';

// The demo's inspections and maintenance (issue 31, decision 0160), written after the week's HoS
// logs so each report sits where the log says the shift began (pre-trip) or ended (post-trip), with
// the log's odometer and place. Most reports pass; a few defects tell the repair loop's story:
//   - an open safety defect on a truck parked after its shift (the office makes it a work order);
//   - an open defect on a work order in progress;
//   - a repaired, certified defect on the demo driver's truck (101), awaiting their review;
// and preventive maintenance: an oil change every 25,000 mi (East region), an annual inspection
// every 365 days (both regions), one truck overdue for its oil change. Rows are inserted in a few
// statements, as the services would store them: the first start's seeding time is measured.

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const M_PER_MILE = 1609.344;
const DUTY = { OFF: 1, SB: 2, D: 3, ON: 4 } as const;
/** A stop this long between work is a rest: the shift ended before it (post-trip) and began after it (pre-trip). */
const REST_MS = 8 * HOUR;

/** The demo's mechanic and shop (the certifications' signer). */
export const DEMO_MECHANIC = 'Dale Ortiz';
export const DEMO_SHOP = 'Demo Freight shop, Chicago';
/** Units of the story, among the non-driver-account trucks (101-103 sign in). */
export const DEMO_OVERDUE_UNIT = '107';
export const DEMO_WIPER_UNIT = '110';

type Kind = 'PRE_TRIP' | 'POST_TRIP';
interface Stop {
  at: number;
  vehicleId: string;
  odometerM: number | null;
  latitude: number | null;
  longitude: number | null;
  location: string | null;
}
interface Inspection extends Stop {
  driverId: string;
  kind: Kind;
}

/**
 * Where each driver's shifts began and ended in the week (from their active duty-status records):
 * a pre-trip before the first work after a rest, a post-trip as the rest began.
 */
function inspectionsOf(events: ReadonlyArray<typeof hosEvents.$inferSelect>, now: number): Inspection[] {
  const out: Inspection[] = [];
  const byDriver = new Map<string, Array<typeof hosEvents.$inferSelect>>();
  for (const e of events) if (e.driverId) byDriver.set(e.driverId, [...(byDriver.get(e.driverId) ?? []), e]);
  for (const [driverId, list] of byDriver) {
    let vehicle: string | null = null;
    let restStart: (typeof list)[number] | null = null;
    let working = false;
    const stop = (e: (typeof list)[number], at: number, kind: Kind) => {
      const vehicleId = e.vehicleId ?? vehicle;
      if (vehicleId)
        out.push({ driverId, kind, at, vehicleId, odometerM: e.odometerM, latitude: e.latitude, longitude: e.longitude, location: e.locationDescription });
    };
    for (const e of list) {
      const work = e.eventCode === DUTY.D || e.eventCode === DUTY.ON;
      if (work) {
        if (!working && (!restStart || e.eventTime.getTime() - restStart.eventTime.getTime() >= REST_MS)) {
          if (restStart && vehicle) stop(restStart, restStart.eventTime.getTime() - 10 * MIN, 'POST_TRIP');
          // Before the wheels turn: ahead of an automatic driving record, just after an on-duty one.
          stop(e, e.eventTime.getTime() + (e.eventCode === DUTY.D ? -8 * MIN : 2 * MIN), 'PRE_TRIP');
        }
        working = true;
        restStart = null;
        vehicle = e.vehicleId ?? vehicle;
      } else if (working) {
        working = false;
        restStart = e;
      }
    }
    // A rest under way now: the shift's post-trip was signed as it began.
    if (restStart && now - restStart.eventTime.getTime() >= HOUR) stop(restStart, restStart.eventTime.getTime() - 10 * MIN, 'POST_TRIP');
  }
  return out;
}

const items = (vehicleId: string, trailerIds: readonly string[]): DvirItemRow[] => [
  ...DVIR_ITEMS.map((i) => ({ item: i.code, label: i.label, assetId: vehicleId, ok: true, note: null, imageIds: [], safety: false })),
  ...trailerIds.flatMap((t) =>
    DVIR_ITEMS.filter((i) => i.trailer).map((i) => ({ item: i.code, label: i.label, assetId: t, ok: true, note: null, imageIds: [], safety: false })),
  ),
];
const failing = (rows: DvirItemRow[], assetId: string, code: string, note: string, safety: boolean): DvirItemRow[] =>
  rows.map((r) => (r.assetId === assetId && r.item === code ? { ...r, ok: false, note, safety } : r));

export interface DemoMaintenanceResult {
  reports: number;
  defects: number;
  workOrders: number;
  schedules: number;
}

/**
 * The demo organization's week of inspections, its defects, work orders and maintenance schedules,
 * once (nothing when the organization already has a report or a schedule). `now`: the end of the
 * week of history the HoS logs were derived for.
 */
export async function ensureDemoMaintenance(db: Db, orgId: string, now: number): Promise<DemoMaintenanceResult | null> {
  const [report] = await db.select({ id: dvirs.id }).from(dvirs).where(eq(dvirs.organizationId, orgId)).limit(1);
  const [schedule] = await db.select({ id: maintenanceSchedules.id }).from(maintenanceSchedules).where(eq(maintenanceSchedules.organizationId, orgId)).limit(1);
  if (report || schedule) return null;

  const [tractors, people, hitched, events, regions] = await Promise.all([
    db
      .select({ id: assets.id, unitNumber: assets.unitNumber, odometerM: assets.odometerM })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'))),
    db.select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(eq(drivers.organizationId, orgId)),
    db
      .select({
        vehicleId: trailerAttachments.vehicleId,
        trailerId: trailerAttachments.trailerId,
        attachedAt: trailerAttachments.attachedAt,
        unitNumber: assets.unitNumber,
      })
      .from(trailerAttachments)
      .innerJoin(assets, and(eq(assets.id, trailerAttachments.trailerId), eq(assets.organizationId, trailerAttachments.organizationId)))
      .where(and(eq(trailerAttachments.organizationId, orgId), isNull(trailerAttachments.detachedAt))),
    db
      .select()
      .from(hosEvents)
      .where(
        and(
          eq(hosEvents.organizationId, orgId),
          eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS),
          eq(hosEvents.recordStatus, 1),
          gte(hosEvents.eventTime, new Date(now - 7 * DAY)),
        ),
      )
      .orderBy(asc(hosEvents.driverId), asc(hosEvents.eventTime), asc(hosEvents.sequenceId)),
    db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(and(eq(groups.organizationId, orgId), inArray(groups.name, ['East region', 'West region']))),
  ]);
  const unit = new Map(tractors.map((t) => [t.id, t]));
  const byUnit = new Map(tractors.map((t) => [t.unitNumber, t]));
  const nameOf = new Map(people.map((d) => [d.id, `${d.firstName} ${d.lastName}`]));
  const inspections = inspectionsOf(events, now)
    .filter((i) => i.at < now && unit.has(i.vehicleId))
    .sort((x, y) => x.at - y.at);
  if (inspections.length === 0) return null;

  // The story's reports: the last post-trip of the demo driver's truck (repaired, awaiting review:
  // nothing after it, so it is the report the driver reviews before the next trip), the last
  // post-trip of a parked truck (an open safety defect), the last report of the wiper truck.
  const lastOf = (pred: (i: Inspection) => boolean) => [...inspections].reverse().find(pred);
  const demoTruck = byUnit.get(DEMO_DRIVER_UNITS[0]);
  const repairedAt = demoTruck ? lastOf((i) => i.vehicleId === demoTruck.id && i.kind === 'POST_TRIP' && i.at < now - 6 * HOUR) : undefined;
  const signIns = new Set(DEMO_DRIVER_UNITS.map((u) => byUnit.get(u)?.id));
  // Parked: the truck whose post-trip began the longest rest under way now.
  const lastByVehicle = new Map<string, Inspection>();
  for (const i of inspections) lastByVehicle.set(i.vehicleId, i);
  const parked = [...lastByVehicle.values()]
    .filter(
      (i) => i.kind === 'POST_TRIP' && !signIns.has(i.vehicleId) && ![DEMO_OVERDUE_UNIT, DEMO_WIPER_UNIT].includes(unit.get(i.vehicleId)?.unitNumber ?? ''),
    )
    .sort((x, y) => x.at - y.at)[0];
  const wiperTruck = byUnit.get(DEMO_WIPER_UNIT);
  const wiperAt = wiperTruck ? lastOf((i) => i.vehicleId === wiperTruck.id && i.at < now - 2 * HOUR && i !== parked) : undefined;
  const kept = inspections.filter((i) => !(repairedAt && i.vehicleId === repairedAt.vehicleId && i.at > repairedAt.at));

  const trailersOf = (i: Inspection) => hitched.filter((h) => h.vehicleId === i.vehicleId && h.attachedAt.getTime() <= i.at);
  const rows = kept.map((i) => {
    const trailers = trailersOf(i);
    let list = items(
      i.vehicleId,
      trailers.map((t) => t.trailerId),
    );
    if (i === repairedAt) list = failing(list, i.vehicleId, 'LIGHTING', 'Right rear clearance lamp out', true);
    if (i === parked) list = failing(list, i.vehicleId, 'SERVICE_BRAKES', 'Air leak at the rear axle brake chamber, audible with the brakes applied', true);
    if (i === wiperAt) list = failing(list, i.vehicleId, 'WIPERS', 'Passenger-side wiper blade streaks', false);
    const driverName = nameOf.get(i.driverId) ?? 'Driver';
    const failed = list.filter((r) => !r.ok);
    return {
      inspection: i,
      values: {
        organizationId: orgId,
        assetId: i.vehicleId,
        unitNumber: unit.get(i.vehicleId)?.unitNumber ?? '',
        trailers: trailers.map((t) => ({ id: t.trailerId, unitNumber: t.unitNumber })),
        driverId: i.driverId,
        driverName,
        kind: i.kind,
        inspectedAt: new Date(i.at),
        odometerM: i.odometerM,
        latitude: i.latitude,
        longitude: i.longitude,
        location: i.location,
        items: list,
        hasDefects: failed.length > 0,
        signatureName: driverName,
        createdAt: new Date(i.at),
      },
      failed,
    };
  });

  return db.transaction(async (tx) => {
    const log: ActivityEntry[] = [];
    const stored: Array<{ id: string }> = [];
    // 100 reports a statement: at 500 (760 kB of values) it grew the embedded database's memory by 2.4 MB for good.
    for (let k = 0; k < rows.length; k += 100)
      stored.push(
        ...(await tx
          .insert(dvirs)
          .values(rows.slice(k, k + 100).map((r) => r.values))
          .returning({ id: dvirs.id })),
      );
    const reportOf = new Map(rows.map((r, k) => [r.inspection, stored[k]?.id ?? '']));
    for (const [k, r] of rows.entries()) {
      log.push({
        orgId,
        actor: SYSTEM,
        action: 'INSPECT',
        entityType: 'ASSET',
        entityId: r.values.assetId,
        after: {
          dvirId: stored[k]?.id,
          unitNumber: r.values.unitNumber,
          kind: r.values.kind,
          driverId: r.values.driverId,
          driverName: r.values.driverName,
          trailers: r.values.trailers.map((t) => t.unitNumber),
          defects: r.failed.length,
          safetyDefects: r.failed.filter((f) => f.safety).length,
        },
      });
    }

    // The work orders: the lamp (done), the wiper blades (in progress), the overdue oil change (open),
    // and an oil change done ten days ago on another truck.
    const overdue = byUnit.get(DEMO_OVERDUE_UNIT);
    const servicedTruck = byUnit.get('104');
    const orders = [
      repairedAt && {
        key: 'lamp',
        assetId: repairedAt.vehicleId,
        title: 'Replace right rear clearance lamp',
        description: 'Reported on the post-trip inspection',
        status: 'DONE' as const,
        assignee: DEMO_SHOP,
        parts: 'LED clearance lamp, amber (1)',
        laborHours: 0.5,
        costCents: 3840,
        createdAt: new Date(repairedAt.at + 40 * MIN),
        completedAt: new Date(repairedAt.at + 2 * HOUR),
      },
      wiperAt && {
        key: 'wipers',
        assetId: wiperAt.vehicleId,
        title: 'Replace wiper blades',
        description: 'Both blades, before the next long run',
        status: 'IN_PROGRESS' as const,
        assignee: DEMO_SHOP,
        parts: 'Wiper blades 22 in (2)',
        laborHours: 0.3,
        costCents: null,
        createdAt: new Date(wiperAt.at + HOUR),
        completedAt: null,
      },
      overdue && {
        key: 'oil',
        assetId: overdue.id,
        title: 'Oil change and filters (PM-A)',
        description: 'Overdue: book the truck into the shop',
        status: 'OPEN' as const,
        assignee: 'Interstate Truck Service',
        parts: null,
        laborHours: null,
        costCents: null,
        createdAt: new Date(now - DAY),
        completedAt: null,
      },
      servicedTruck && {
        key: 'serviced',
        assetId: servicedTruck.id,
        title: 'Oil change and filters (PM-A)',
        description: null,
        status: 'DONE' as const,
        assignee: DEMO_SHOP,
        parts: 'Oil 44 qt, oil and fuel filters',
        laborHours: 1.5,
        costCents: 48_500,
        createdAt: new Date(now - 11 * DAY),
        completedAt: new Date(now - 10 * DAY),
      },
    ].filter((o) => !!o);

    // Schedules: an oil change every 25,000 mi for the East region, an annual inspection for each region.
    const east = regions.find((g) => g.name === 'East region');
    const scheduleRows = await tx
      .insert(maintenanceSchedules)
      .values([
        ...(east
          ? [
              {
                organizationId: orgId,
                groupId: east.id,
                name: 'Oil change and filters (PM-A)',
                everyM: 25_000 * M_PER_MILE,
                createdAt: new Date(now - 400 * DAY),
              },
            ]
          : []),
        ...regions.map((g) => ({
          organizationId: orgId,
          groupId: g.id,
          name: 'Annual inspection (49 CFR 396.17)',
          everyDays: 365,
          createdAt: new Date(now - 400 * DAY),
        })),
      ])
      .returning();
    const oil = scheduleRows.find((s) => s.everyM !== null);
    const orderRows = orders.length
      ? await tx
          .insert(workOrders)
          .values(
            orders.map(({ key, ...o }) => ({
              ...o,
              organizationId: orgId,
              unitNumber: unit.get(o.assetId)?.unitNumber ?? '',
              scheduleId: key === 'oil' || key === 'serviced' ? (oil?.id ?? null) : null,
              updatedAt: o.completedAt ?? o.createdAt,
            })),
          )
          .returning()
      : [];
    const orderId = (key: string) => orderRows[orders.findIndex((o) => o.key === key)]?.id ?? null;

    // The defects of the failed items, as createDvir stores them; the lamp certified repaired.
    const defects = rows.flatMap((r) =>
      r.failed.map((f) => {
        const lamp = r.inspection === repairedAt;
        return {
          organizationId: orgId,
          dvirId: reportOf.get(r.inspection) ?? '',
          assetId: f.assetId,
          unitNumber: r.values.unitNumber,
          item: f.item,
          label: f.label,
          note: f.note,
          safety: f.safety,
          status: lamp ? ('REPAIRED' as const) : ('OPEN' as const),
          workOrderId: lamp ? orderId('lamp') : r.inspection === wiperAt ? orderId('wipers') : null,
          ...(lamp && repairedAt
            ? {
                certifiedAt: new Date(repairedAt.at + 2 * HOUR),
                certifiedByName: DEMO_MECHANIC,
                certification: 'Replaced the lamp and checked the circuit; all marker lamps work',
              }
            : {}),
          createdAt: new Date(r.inspection.at),
        };
      }),
    );
    const defectRows = defects.length ? await tx.insert(vehicleDefects).values(defects).returning() : [];

    // Every covered vehicle's last service: spread over the intervals so most are fine, one is
    // overdue for its oil change (26,500 mi ago) and one comes due (23,400 mi ago).
    const region = new Map<string, string>();
    for (const row of await tx
      .execute(sql`select asset_id::text as "assetId", group_id::text as "groupId" from group_assets where organization_id = ${orgId}`)
      .then((r) => (r as unknown as { rows: Array<{ assetId: string; groupId: string }> }).rows))
      region.set(row.assetId, row.groupId);
    const odometerNow = new Map<string, number>();
    for (const e of events) if (e.vehicleId && e.odometerM !== null) odometerNow.set(e.vehicleId, e.odometerM);
    const services = scheduleRows.flatMap((s) =>
      tractors
        .filter((t) => region.get(t.id) === s.groupId)
        .map((t) => {
          const n = Number(t.unitNumber) - 100;
          const odo = odometerNow.get(t.id) ?? t.odometerM;
          if (s.everyM !== null) {
            const miles =
              t.unitNumber === DEMO_OVERDUE_UNIT
                ? 26_500
                : t.unitNumber === '105'
                  ? 23_400
                  : t.id === servicedTruck?.id
                    ? 6_100
                    : 2_000 + ((n * 3_917) % 18_000);
            const done = t.id === servicedTruck?.id ? now - 10 * DAY : now - (10 + ((n * 17) % 60)) * DAY;
            return {
              scheduleId: s.id,
              assetId: t.id,
              organizationId: orgId,
              doneAt: new Date(done),
              odometerM: odo === null ? null : odo - miles * M_PER_MILE,
              engineHours: null,
              workOrderId: t.id === servicedTruck?.id ? orderId('serviced') : null,
            };
          }
          // Annual inspections spread over the year; unit 112 comes due in three weeks.
          const daysAgo = t.unitNumber === '112' ? 344 : 20 + ((n * 37) % 300);
          return {
            scheduleId: s.id,
            assetId: t.id,
            organizationId: orgId,
            doneAt: new Date(now - daysAgo * DAY),
            odometerM: odo,
            engineHours: null,
            workOrderId: null,
          };
        }),
    );
    if (services.length) await tx.insert(maintenanceServices).values(services);

    for (const o of orderRows) log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'WORK_ORDER', entityId: o.id, after: o });
    for (const s of scheduleRows) log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'MAINTENANCE_SCHEDULE', entityId: s.id, after: s });
    for (const d of defectRows.filter((x) => x.status !== 'OPEN')) {
      log.push({
        orgId,
        actor: SYSTEM,
        action: 'CERTIFY_DEFECT',
        entityType: 'ASSET',
        entityId: d.assetId,
        after: { defectId: d.id, dvirId: d.dvirId, unitNumber: d.unitNumber, item: d.label, status: d.status, certifiedBy: d.certifiedByName },
      });
    }
    await recordActivityBatch(tx, log);
    return { reports: stored.length, defects: defectRows.length, workOrders: orderRows.length, schedules: scheduleRows.length };
  });
}
