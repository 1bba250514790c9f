import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, drivers, loadCounters, loads, loadStatusEvents, loadStops, organizations, places, settlements } from '../db/schema/index.ts';
import { zonedToUtc } from '../lib/zone-offset.ts';
import type { Actor } from '../modules/auth/index.ts';
import { loadedMetres } from '../modules/loads/index.ts';
import { addAdjustment, approveSettlement, createSettlement, markPaid, putPayProfile } from '../modules/settlements/index.ts';

// The demo's driver pay (issue 70): pay profiles for the drivers of tractors 101-104 (per mile, a
// share of line haul, and a team of two), a truck lease and a fuel advance, and last week's
// settlements made the real way: 101's paid, 102's approved, 103's (the team's lead) a draft. Last
// week is Monday to Sunday before this one in the organization's zone. A driver with no delivery that
// week gets one, and the team its load, so every statement has something to pay. Made once (a part
// marked done); a driver who already has a profile or a settlement of those days is left as they are.

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface DemoPay {
  unit: string;
  profile: Parameters<typeof putPayProfile>[2];
  step: 'PAID' | 'APPROVED' | 'DRAFT' | null;
}

const PAY: DemoPay[] = [
  {
    unit: '101',
    profile: {
      loadedMileRate: 0.58,
      emptyMileRate: 0.35,
      lineHaulPercent: 0,
      flatPerLoad: 0,
      extraStopRate: 25,
      hourlyRate: 20,
      hourlyBasis: 'ON_DUTY_NOT_DRIVING',
      detentionRate: 20,
      detentionFreeMinutes: 120,
      teamSharePercent: 50,
      notes: 'Company driver, paid by the mile; on-duty time at docks by the hour.',
    },
    step: 'PAID',
  },
  {
    unit: '102',
    profile: {
      loadedMileRate: 0,
      emptyMileRate: 0,
      lineHaulPercent: 72,
      flatPerLoad: 0,
      extraStopRate: 35,
      hourlyRate: 0,
      hourlyBasis: 'ON_DUTY_NOT_DRIVING',
      detentionRate: 25,
      detentionFreeMinutes: 120,
      teamSharePercent: 50,
      notes: 'Lease-purchase owner-operator: 72% of line haul, less the weekly truck lease.',
    },
    step: 'APPROVED',
  },
  {
    unit: '103',
    profile: {
      loadedMileRate: 0.7,
      emptyMileRate: 0.4,
      lineHaulPercent: 0,
      flatPerLoad: 0,
      extraStopRate: 0,
      hourlyRate: 0,
      hourlyBasis: 'ON_DUTY_NOT_DRIVING',
      detentionRate: 20,
      detentionFreeMinutes: 120,
      teamSharePercent: 50,
      notes: 'Team with the driver of 104: the team rate of $0.70 a mile, split 50/50.',
    },
    step: 'DRAFT',
  },
  {
    unit: '104',
    profile: {
      loadedMileRate: 0.7,
      emptyMileRate: 0.4,
      lineHaulPercent: 0,
      flatPerLoad: 0,
      extraStopRate: 0,
      hourlyRate: 0,
      hourlyBasis: 'ON_DUTY_NOT_DRIVING',
      detentionRate: 20,
      detentionFreeMinutes: 120,
      teamSharePercent: 50,
      notes: 'Team with the driver of 103.',
    },
    step: null,
  },
];

const dateOf = (ms: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(ms));
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const localAt = (date: string, hour: number, zone: string) => zonedToUtc(Date.parse(`${date}T00:00:00Z`) + hour * HOUR, zone);

/** Monday and Sunday of the week before `now`'s, in `zone`. */
export function lastWeek(now: number, zone: string): { from: string; to: string } {
  const today = dateOf(now, zone);
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const from = plusDays(today, -weekday - 7);
  return { from, to: plusDays(from, 6) };
}

export interface DemoSettlementsResult {
  profiles: number;
  loads: number;
  settlements: string[];
}

export async function ensureDemoSettlements(db: Db, orgId: string, adminUserId: string | null, now = Date.now()): Promise<DemoSettlementsResult> {
  const out: DemoSettlementsResult = { profiles: 0, loads: 0, settlements: [] };
  const [org] = await db.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  if (!org) return out;
  const zone = org.zone;
  const week = lastWeek(now, zone);
  const actor: Actor = { userId: adminUserId, email: 'system', role: adminUserId ? 'ADMIN' : 'SYSTEM', ip: null };
  const scope = { db, orgId, actor, now };
  const team = await driversOf(
    db,
    orgId,
    PAY.map((p) => p.unit),
  );
  for (const p of PAY) {
    const d = team.get(p.unit);
    if (!d) continue;
    if (!d.profiled) {
      await putPayProfile(scope, d.id, p.profile);
      out.profiles++;
    }
  }
  const lease = team.get('102');
  if (lease && !lease.profiled) {
    await addAdjustment(scope, lease.id, {
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'LEASE',
      description: 'Truck lease, tractor 102',
      amount: 425,
      recurrence: 'EACH_SETTLEMENT',
      startsOn: plusDays(week.from, -56),
      endsOn: null,
    });
  }
  const advance = team.get('101');
  if (advance && !advance.profiled) {
    await addAdjustment(scope, advance.id, {
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'ADVANCE',
      description: 'Fuel advance (Comchek)',
      amount: 150,
      recurrence: 'ONCE',
      startsOn: plusDays(week.from, 2),
      endsOn: null,
    });
    await addAdjustment(scope, advance.id, {
      adjustmentType: 'REIMBURSEMENT',
      adjustmentCategory: 'LUMPER',
      description: 'Lumper paid at the dock',
      amount: 85,
      recurrence: 'ONCE',
      startsOn: plusDays(week.from, 1),
      endsOn: null,
    });
  }
  out.loads = await ensureWeekLoads(db, orgId, zone, week, team);
  for (const p of PAY) {
    const d = team.get(p.unit);
    if (!d || !p.step) continue;
    const [has] = await db
      .select({ id: settlements.id })
      .from(settlements)
      .where(and(eq(settlements.organizationId, orgId), eq(settlements.driverId, d.id), eq(settlements.periodFrom, week.from)));
    if (has) continue;
    const s = await createSettlement(scope, { driverId: d.id, from: week.from, to: week.to });
    if (p.step !== 'DRAFT') await approveSettlement(scope, s.id);
    if (p.step === 'PAID') await markPaid(scope, s.id, { paymentReference: `ACH ${week.to.replace(/-/g, '')}-${p.unit}` });
    out.settlements.push(s.number);
  }
  return out;
}

interface DemoDriver {
  id: string;
  assetId: string;
  profiled: boolean;
}

/** The drivers of the units, with whether they have a pay profile already. */
async function driversOf(db: Db, orgId: string, units: string[]): Promise<Map<string, DemoDriver>> {
  const rows = await db
    .select({
      unit: assets.unitNumber,
      assetId: assets.id,
      id: drivers.id,
      profiled: sql<boolean>`exists (select 1 from driver_pay_profiles p where p.organization_id = ${orgId} and p.driver_id = ${drivers.id})`,
    })
    .from(assets)
    .innerJoin(drivers, and(eq(drivers.organizationId, assets.organizationId), eq(drivers.id, assets.currentDriverId)))
    .where(and(eq(assets.organizationId, orgId), inArray(assets.unitNumber, units)));
  return new Map(rows.map((r) => [r.unit, { id: r.id, assetId: r.assetId, profiled: !!r.profiled }]));
}

/**
 * A delivered load last week for 101 and 102 when they have none, and the team's load (103 leading,
 * 104 second) unless it has one: 103's first load of the week takes 104 as its second driver (the
 * truck's own trip, so positions and times agree); without one, a load is made between two of the
 * demo's customers, with an hour of detention at the delivery, numbered from the organization's
 * counter as every load. Returns how many loads were made or teamed.
 */
async function ensureWeekLoads(db: Db, orgId: string, zone: string, week: { from: string; to: string }, team: Map<string, DemoDriver>): Promise<number> {
  const customers = await db
    .select({ id: places.id, name: places.name, address: places.address, geometry: places.geometry })
    .from(places)
    .where(and(eq(places.organizationId, orgId), eq(places.category, 'CUSTOMER')))
    .orderBy(asc(places.name));
  const points = customers.flatMap((p) =>
    p.geometry.type === 'Point' ? [{ id: p.id, name: p.name, address: p.address, lon: p.geometry.coordinates[0], lat: p.geometry.coordinates[1] }] : [],
  );
  if (points.length < 2) return 0;
  const fromMs = localAt(week.from, 0, zone);
  const toMs = localAt(plusDays(week.to, 1), 0, zone);
  const plans: Array<{ unit: string; lead: DemoDriver; second: DemoDriver | null; day: number; pick: number }> = [];
  let teamed = 0;
  for (const [i, unit] of ['101', '102', '103'].entries()) {
    const lead = team.get(unit);
    if (!lead) continue;
    const second = unit === '103' ? (team.get('104') ?? null) : null;
    const [has] = await db
      .select({ id: loads.id })
      .from(loads)
      .where(
        and(
          eq(loads.organizationId, orgId),
          eq(loads.status, 'DELIVERED'),
          second ? eq(loads.coDriverId, second.id) : or(eq(loads.driverId, lead.id), eq(loads.coDriverId, lead.id)),
          gte(loads.deliveredAt, new Date(fromMs)),
          lt(loads.deliveredAt, new Date(toMs)),
        ),
      )
      .limit(1);
    if (has) continue;
    if (second) {
      const [solo] = await db
        .select({ id: loads.id })
        .from(loads)
        .where(
          and(
            eq(loads.organizationId, orgId),
            eq(loads.status, 'DELIVERED'),
            eq(loads.driverId, lead.id),
            isNull(loads.coDriverId),
            gte(loads.deliveredAt, new Date(fromMs)),
            lt(loads.deliveredAt, new Date(toMs)),
          ),
        )
        .orderBy(asc(loads.deliveredAt))
        .limit(1);
      if (solo) {
        await db
          .update(loads)
          .set({ coDriverId: second.id, notes: 'Demo team load', updatedAt: new Date() })
          .where(and(eq(loads.organizationId, orgId), eq(loads.id, solo.id)));
        teamed++;
        continue;
      }
    }
    plans.push({ unit, lead, second, day: 1 + i, pick: i * 3 });
  }
  if (plans.length === 0) return teamed;
  await db.transaction(async (tx) => {
    const [c] = await tx
      .insert(loadCounters)
      .values({ organizationId: orgId, last: 1000 + plans.length })
      .onConflictDoUpdate({ target: loadCounters.organizationId, set: { last: sql`${loadCounters.last} + ${plans.length}` } })
      .returning({ last: loadCounters.last });
    let number = c!.last - plans.length + 1;
    for (const p of plans) {
      const a = points[p.pick % points.length]!;
      const b = points[(p.pick + 1) % points.length]!;
      const day = plusDays(week.from, p.day);
      const pickAt = localAt(day, 7, zone);
      const dropAt = localAt(plusDays(day, 1), 9, zone);
      // Three hours at the delivery: an hour of detention after two free.
      const leftAt = dropAt + 3 * HOUR;
      const m = loadedMetres([
        { latitude: a.lat, longitude: a.lon },
        { latitude: b.lat, longitude: b.lon },
      ]);
      const miles = m / 1609.344;
      const [row] = await tx
        .insert(loads)
        .values({
          organizationId: orgId,
          number: `L-${number++}`,
          customer: b.name.split(',')[0]!,
          customerPlaceId: b.id,
          commodity: 'Dry groceries',
          weightKg: 15_000,
          status: 'DELIVERED',
          lineHaulCents: Math.round(miles * 265),
          fuelSurchargeCents: Math.round(miles * 45),
          driverId: p.lead.id,
          coDriverId: p.second?.id ?? null,
          assetId: p.lead.assetId,
          loadedM: m,
          deliveredAt: new Date(leftAt),
          notes: p.second ? 'Demo team load' : 'Demo load for last week’s settlement',
          createdAt: new Date(pickAt - DAY),
        })
        .returning({ id: loads.id });
      await tx.insert(loadStops).values([
        {
          organizationId: orgId,
          loadId: row!.id,
          seq: 0,
          kind: 'PICKUP',
          placeId: a.id,
          latitude: a.lat,
          longitude: a.lon,
          address: a.address,
          windowStart: new Date(pickAt - HOUR),
          windowEnd: new Date(pickAt + 2 * HOUR),
          serviceMinutes: 60,
          arrivedAt: new Date(pickAt),
          departedAt: new Date(pickAt + HOUR),
          arrivalSource: 'DRIVER',
          departureSource: 'DRIVER',
        },
        {
          organizationId: orgId,
          loadId: row!.id,
          seq: 1,
          kind: 'DELIVERY',
          placeId: b.id,
          latitude: b.lat,
          longitude: b.lon,
          address: b.address,
          windowStart: new Date(dropAt - HOUR),
          windowEnd: new Date(dropAt + HOUR),
          serviceMinutes: 60,
          arrivedAt: new Date(dropAt),
          departedAt: new Date(leftAt),
          arrivalSource: 'DRIVER',
          departureSource: 'DRIVER',
        },
      ]);
      await tx.insert(loadStatusEvents).values(
        (
          [
            ['ASSIGNED', pickAt - DAY],
            ['AT_STOP', pickAt],
            ['EN_ROUTE', pickAt + HOUR],
            ['AT_STOP', dropAt],
            ['DELIVERED', leftAt],
          ] as const
        ).map(([status, at]) => ({ organizationId: orgId, loadId: row!.id, status, at: new Date(at), note: 'Demo data' })),
      );
    }
  });
  return plans.length + teamed;
}
