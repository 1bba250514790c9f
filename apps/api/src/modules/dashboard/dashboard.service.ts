import { and, count, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import {
  DEVICE_OFFLINE_HOURS,
  type Availability,
  type Dashboard,
  type DashboardCounter,
  type DashboardCounterKey,
  type dashboardQuery,
  type Permission,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, gateways, groupMembers, groups, organizations, users, vehicleDailyStats } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { assertGroup, assetInGroup } from '../groups/index.ts';
import { availabilityMatches, dayStartMs, ensureLogDays, fleetHos, type FleetViolation, listLogDays, logDateOf, nextDate } from '../hos/index.ts';
import { countInspectionsDue, countOpenDefects, maintenanceDueNow } from '../maintenance/index.ts';
import { liveVehicles } from '../positions/index.ts';
import { unidentifiedDrivingMs } from './unidentified.ts';
import type { AuthContext, ReadScope } from '../auth/index.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const previousDate = (date: string) => new Date(Date.parse(`${date}T12:00:00Z`) - DAY).toISOString().slice(0, 10);

/** The limit that leaves a driver the least driving time. */
function limitingClock(a: Availability): 'drive' | 'window' | 'break' | 'cycle' {
  const s = a.strict;
  const pairs: Array<['drive' | 'window' | 'break' | 'cycle', number]> = [
    ['drive', s.driveMs],
    ['window', s.windowMs],
    ['break', s.breakMs ?? Infinity],
    ['cycle', s.cycleMs],
  ];
  return pairs.reduce((m, p) => (p[1] < m[1] ? p : m))[0];
}

/**
 * The dashboard of the organization (or one group) at an instant: counters that equal the totals
 * of the lists they link to (the same reads, with the same filters), charts over the chosen
 * period and three short lists. Counters whose list the caller may not open are left out.
 */
export async function getDashboard(s: ReadScope, caller: AuthContext, q: z.output<typeof dashboardQuery>): Promise<Dashboard> {
  const { db, orgId } = s;
  const at = q.at ? Date.parse(q.at) : (s.now ?? Date.now());
  const [org] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw notFound('Organization');
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  // Decision 0140: "today" is the reader's day in their profile zone, else the organization's, never
  // the browser's; the lists the counters open read their days in the same zone.
  const [me] = await db.select({ tz: users.timeZone }).from(users).where(eq(users.id, caller.userId));
  const tz = q.tz ?? (me?.tz || org.tz);
  const today = logDateOf(at, tz, '00:00');
  const dates: string[] = [];
  for (let d = today, i = 0; i < q.days; i++, d = previousDate(d)) dates.unshift(d);
  const periodStart = dayStartMs(dates[0]!, tz, '00:00');
  const todayStart = dayStartMs(today, tz, '00:00');
  // The last 7 calendar days, today included (every period offered is at least that long).
  const weekFrom = dayStartMs(dates[dates.length - 7]!, tz, '00:00');
  const can = (p: Permission) => caller.permissions.has(p);
  const group = q.groupId ?? null;
  const g = group ? `&group=${group}` : '';
  const counters: DashboardCounter[] = [];
  const add = (key: DashboardCounterKey, label: string, value: number | null, link: string | null, tone: DashboardCounter['tone']) =>
    counters.push({ key, label, value, link, tone });

  const myGroups = await db
    .select({ id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, and(eq(groups.id, groupMembers.groupId), eq(groups.organizationId, groupMembers.organizationId)))
    .where(and(eq(groupMembers.organizationId, orgId), eq(groupMembers.memberType, 'USER'), eq(groupMembers.memberId, caller.userId)))
    .orderBy(groups.name);

  // Vehicles: the live map's statuses (the map filters by the same status and group).
  let offlineVehicles: Dashboard['lists']['offlineVehicles'] = [];
  if (can('ASSET_LIST')) {
    const all = await liveVehicles({ db, orgId, now: at });
    const mine = group ? all.filter((v) => v.groupIds.includes(group)) : all;
    const n = (st: string) => mine.filter((v) => v.status === st).length;
    add('vehiclesMoving', 'Vehicles moving', n('MOVING'), `/map?status=MOVING${g}`, 'info');
    add('vehiclesIdle', 'Vehicles idling', n('IDLING'), `/map?status=IDLING${g}`, n('IDLING') ? 'warn' : 'ok');
    add('vehiclesStopped', 'Vehicles stopped', n('STOPPED'), `/map?status=STOPPED${g}`, 'info');
    add('vehiclesOffline', 'Vehicles offline', n('OFFLINE'), `/map?status=OFFLINE${g}`, n('OFFLINE') ? 'warn' : 'ok');
    offlineVehicles = mine
      .filter((v) => v.status === 'OFFLINE')
      .sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime))
      .slice(0, 5)
      .map((v) => ({ assetId: v.assetId, unitNumber: v.unitNumber, lastReportAt: v.fixTime, driverName: v.driverName }));
  }

  const hosNeeded = can('AVAILABILITY_LIST') || can('VIO_LIST');
  const hos = hosNeeded ? await fleetHos(db, orgId, { fromMs: Math.min(periodStart, weekFrom), atMs: at, groupId: q.groupId }) : null;
  let closestToLimit: Dashboard['lists']['closestToLimit'] = [];
  if (hos && can('AVAILABILITY_LIST')) {
    const a = hos.availability;
    const count = (duty?: 'DRIVING' | 'ON_DUTY' | 'OFF_DUTY', under?: number) => a.filter((x) => availabilityMatches(x, duty, under)).length;
    add('driversDriving', 'Drivers driving', count('DRIVING'), `/hos/availability?duty=DRIVING${g}`, 'info');
    add('driversOnDuty', 'Drivers on duty', count('ON_DUTY'), `/hos/availability?duty=ON_DUTY${g}`, 'info');
    add('driversOffDuty', 'Drivers off duty', count('OFF_DUTY'), `/hos/availability?duty=OFF_DUTY${g}`, 'info');
    const low = count(undefined, 60);
    add('driversUnderOneHour', 'Under 1 h of driving left', low, `/hos/availability?underMinutes=60&sort=availableDriveMs,asc${g}`, low ? 'warn' : 'ok');
    closestToLimit = a
      .filter((x) => x.status === 'D' || x.status === 'ON')
      .sort((x, y) => x.availableDriveMs - y.availableDriveMs)
      .slice(0, 5)
      .map((x) => ({
        driver: x.driver,
        status: x.status,
        availableDriveMs: x.availableDriveMs,
        limit: limitingClock(x),
        vehicleUnit: x.vehicle?.unitNumber ?? null,
      }));
  }

  let latestViolations: Dashboard['lists']['latestViolations'] = [];
  const violationsPerDay: Dashboard['charts']['violationsPerDay'] = dates.map((date) => ({ date, total: 0, byRule: {} }));
  if (hos && can('VIO_LIST')) {
    const v = hos.violations;
    const todayCount = v.filter((x) => x.endMs > todayStart).length;
    const weekCount = v.filter((x) => x.endMs > weekFrom).length;
    add('violationsToday', 'Violations today', todayCount, `/hos/violations?from=${today}&to=${today}${g}`, todayCount ? 'bad' : 'ok');
    add(
      'violations7Days',
      'Violations, 7 days',
      weekCount,
      `/hos/violations?from=${logDateOf(weekFrom, tz, '00:00')}&to=${today}${g}`,
      weekCount ? 'warn' : 'ok',
    );
    const byDate = new Map(violationsPerDay.map((d) => [d.date, d]));
    for (const x of v) {
      const d = byDate.get(logDateOf(x.startMs, tz, '00:00'));
      if (!d) continue;
      d.total++;
      d.byRule[x.rule as keyof typeof d.byRule] = (d.byRule[x.rule as keyof typeof d.byRule] ?? 0) + 1;
    }
    latestViolations = await withLogIds(db, orgId, v.slice(0, 5));
  }

  if (can('HOS_LIST')) {
    const yesterday = previousDate(today);
    const page = await listLogDays({ db, orgId, now: at }, { date: yesterday, page: 0, size: 1, problem: 'UNCERTIFIED', groupId: q.groupId });
    add(
      'uncertifiedLogDays',
      'Uncertified logs, yesterday',
      page.totalElements,
      `/hos/logs?date=${yesterday}&problem=UNCERTIFIED${g}`,
      page.totalElements ? 'warn' : 'ok',
    );
    const ms = await unidentifiedDrivingMs(db, orgId, at - 7 * DAY, at, q.groupId);
    add('unidentifiedDrivingHours', 'Unidentified driving, 7 days (h)', ms === null ? null : Math.round((ms / HOUR) * 10) / 10, null, ms ? 'warn' : 'ok');
  }

  if (can('GAT_LIST')) {
    const [d] = await db
      .select({ n: count() })
      .from(gateways)
      .where(
        and(
          eq(gateways.organizationId, orgId),
          isNotNull(gateways.lastSeenAt),
          lt(gateways.lastSeenAt, new Date(at - DEVICE_OFFLINE_HOURS * HOUR)),
          group ? assetInGroup(orgId, group, gateways.assetId) : undefined,
        ),
      );
    const n = d?.n ?? 0;
    add('devicesOffline', `Devices offline over ${DEVICE_OFFLINE_HOURS} h`, n, `/settings/organization-settings/devices?offline=true${g}`, n ? 'warn' : 'ok');
  }

  // Inspections and maintenance (issue 31, decision 0159): each counter counts its list with the same filters.
  if (can('DVIR_LIST')) {
    const due = await countInspectionsDue(db, orgId, today, tz, q.groupId);
    add('inspectionsDue', 'Inspections due today', due, `/maintenance/inspections?view=due&date=${today}${g}`, due ? 'warn' : 'ok');
    const d = await countOpenDefects(db, orgId, q.groupId);
    add('openDefects', 'Open defects', d.open, `/maintenance/defects?status=OPEN${g}`, d.safety ? 'bad' : d.open ? 'warn' : 'ok');
  }
  if (can('MAINTENANCE_LIST')) {
    const overdue = (await maintenanceDueNow(db, orgId, at, q.groupId)).filter((x) => x.status === 'OVERDUE').length;
    add('serviceOverdue', 'Service overdue', overdue, `/maintenance/due?status=OVERDUE${g}`, overdue ? 'bad' : 'ok');
  }

  return {
    at: new Date(at).toISOString(),
    timeZone: tz,
    today,
    days: q.days,
    groupId: group,
    myGroups,
    counters,
    charts: {
      violationsPerDay,
      hoursPerDay: hos && can('AVAILABILITY_LIST') ? hos.hoursPerDay(dates) : [],
      distancePerDay: can('ASSET_LIST') ? await distancePerDay(db, orgId, dates, group) : [],
    },
    lists: { closestToLimit, latestViolations, offlineVehicles },
  };
}

async function withLogIds(db: DbOrTx, orgId: string, list: FleetViolation[]): Promise<Dashboard['lists']['latestViolations']> {
  const ids = await ensureLogDays(
    db,
    orgId,
    list.map((v) => ({ driverId: v.driver.id, logDate: v.logDate })),
  );
  return list.map((v) => ({
    driver: v.driver,
    rule: v.rule,
    start: new Date(v.startMs).toISOString(),
    durationMs: v.endMs - v.startMs,
    logId: ids.get(`${v.driver.id}|${v.logDate}`) ?? null,
    severity: v.severity,
  }));
}

/** Per day: metres driven, vehicles that drove, active vehicles and the share that drove. */
async function distancePerDay(db: DbOrTx, orgId: string, dates: string[], group: string | null): Promise<Dashboard['charts']['distancePerDay']> {
  const inGroup = group ? assetInGroup(orgId, group, vehicleDailyStats.assetId) : undefined;
  const rows = await db
    .select({
      day: sql<string>`${vehicleDailyStats.day}::text`,
      distanceM: sql<number>`coalesce(sum(${vehicleDailyStats.distanceM}), 0)::float8`,
      driven: sql<number>`count(*) filter (where ${vehicleDailyStats.drivingMs} > 0)::int`,
    })
    .from(vehicleDailyStats)
    .where(
      and(
        eq(vehicleDailyStats.organizationId, orgId),
        gte(vehicleDailyStats.day, dates[0]!),
        lt(vehicleDailyStats.day, nextDate(dates[dates.length - 1]!)),
        inGroup,
      ),
    )
    .groupBy(vehicleDailyStats.day);
  const [active] = await db
    .select({ n: count() })
    .from(assets)
    .where(
      and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'), eq(assets.status, 'ACTIVE'), group ? assetInGroup(orgId, group, assets.id) : undefined),
    );
  const activeVehicles = active?.n ?? 0;
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return dates.map((date) => {
    const r = byDay.get(date);
    const driven = Number(r?.driven ?? 0);
    return {
      date,
      distanceM: Number(r?.distanceM ?? 0),
      vehiclesDriven: driven,
      activeVehicles,
      utilizationPct: activeVehicles ? Math.round((driven / activeVehicles) * 1000) / 10 : 0,
    };
  });
}
