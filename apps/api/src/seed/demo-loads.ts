import { and, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES } from '@fleet/api-contract';
import { planTrip, type LatLon, type RoutingPort } from '@fleet/dispatch';
import type { Db, DbOrTx } from '../db/client.ts';
import { loadCounters, loads, loadStatusEvents, loadStops, places, placeVisits, type AccessorialRow } from '../db/schema/index.ts';
import { recordActivityBatch } from '../modules/activity-log/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { planDriversOf } from '../modules/hos/index.ts';
import { loadedMetres } from '../modules/loads/index.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';
import type { Segment } from './simulator/truck-plan.ts';
import { customerIdsByName, demoCustomerOf, ensureDemoCustomers } from './demo-customers.ts';

// The demo's loads (issue 33, decision 0167), derived from what the demo trucks really did and will
// do, so that stop times, revenue and positions agree:
// - delivered: each truck's week of visits to customer places, a pick-up at one visit and the
//   delivery at the next, the stop times those of the visits, $2-3 a loaded mile;
// - running: a truck on its way now carries a load from the place it last left (or stands at) to
//   the city its simulated plan drives to next, the appointment around when it will be there;
// - at risk: one running load whose driver needs a 10-hour rest before its window closes;
// - unassigned: a few loads for the coming days, whose candidates list explains who cannot take them.
// Made once, at the first start (a part marked done, decision 0239); every step is idempotent all the
// same, for a start after a kill: a visit makes one load, a truck with a running load gets no second one.

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const METRES_PER_MILE = 1609.344;
const COMMODITIES = ['Dry groceries', 'Paper products', 'Beverages', 'Steel coils', 'Furniture', 'Auto parts', 'Produce', 'Building materials', 'Appliances'];

export interface DemoPlaceRow {
  id: string;
  name: string;
  category: string;
  address: string | null;
  lat: number;
  lon: number;
}

export interface NewStop {
  kind: 'PICKUP' | 'DELIVERY';
  place: DemoPlaceRow;
  windowStart: number;
  windowEnd: number;
  serviceMinutes: number;
  arrivedAt?: number | null;
  departedAt?: number | null;
  placeVisitId?: string | null;
}

export interface NewLoad {
  status: 'PLANNED' | 'ASSIGNED' | 'EN_ROUTE' | 'AT_STOP' | 'DELIVERED';
  driverId: string | null;
  assetId: string | null;
  stops: NewStop[];
  /** The status history: each status and when. */
  history: Array<{ status: NewLoad['status']; at: number }>;
  deliveredAt: number | null;
  loadedM: number;
  seed: number;
  notes: string | null;
  /** Accessorials beyond the rate (the invoices' history loads: a lumper paid at the dock). */
  accessorials?: AccessorialRow[];
}

/** A repeatable fraction in [0, 1) from a number (the same load gets the same rate on every start). */
const fraction = (n: number) => {
  const x = Math.sin(n * 12.9898) * 43758.5453;
  return x - Math.floor(x);
};
const roundTo = (ms: number, step: number) => Math.round(ms / step) * step;

export interface DemoLoadsResult {
  delivered: number;
  running: number;
  atRisk: number;
  unassigned: number;
}

/** Creates what is missing of the demo organization's loads (see above). */
export async function ensureDemoLoads(db: Db, orgId: string, trucks: readonly DemoTruck[], now: number, routing: RoutingPort): Promise<DemoLoadsResult> {
  const placeRows = (
    await db
      .select({ id: places.id, name: places.name, category: places.category, address: places.address, geometry: places.geometry })
      .from(places)
      .where(and(eq(places.organizationId, orgId), inArray(places.category, ['CUSTOMER', 'TERMINAL'])))
  ).flatMap((p) =>
    p.geometry.type === 'Point'
      ? [{ id: p.id, name: p.name, category: p.category, address: p.address, lon: p.geometry.coordinates[0], lat: p.geometry.coordinates[1] }]
      : [],
  );
  if (placeRows.length === 0) return { delivered: 0, running: 0, atRisk: 0, unassigned: 0 };
  const placeById = new Map(placeRows.map((p) => [p.id, p]));
  const placeAt = (p: LatLon) => placeRows.find((r) => Math.abs(r.lat - p.lat) < 0.005 && Math.abs(r.lon - p.lon) < 0.005) ?? null;
  // The loads module's own rule for `loaded_m` (the built-in roads whatever ROUTING_URL says), so a
  // demo load's revenue per mile is figured as an entered one's.
  const loadedM = (stops: NewStop[]) => loadedMetres(stops.map((s) => ({ latitude: s.place.lat, longitude: s.place.lon })));

  const assetIds = trucks.flatMap((t) => (t.assetId ? [t.assetId] : []));
  const visits = await db
    .select({
      id: placeVisits.id,
      placeId: placeVisits.placeId,
      assetId: placeVisits.assetId,
      driverId: placeVisits.driverId,
      arrivedAt: placeVisits.arrivedAt,
      departedAt: placeVisits.departedAt,
    })
    .from(placeVisits)
    .where(and(eq(placeVisits.organizationId, orgId), inArray(placeVisits.assetId, assetIds), gte(placeVisits.arrivedAt, new Date(now - 8 * DAY))))
    .orderBy(placeVisits.assetId, placeVisits.arrivedAt);
  const used = new Set(
    (
      await db
        .select({ v: loadStops.placeVisitId })
        .from(loadStops)
        .where(and(eq(loadStops.organizationId, orgId), isNotNull(loadStops.placeVisitId)))
    ).map((r) => r.v!),
  );
  const running = new Set(
    (
      await db
        .select({ a: loads.assetId })
        .from(loads)
        .where(and(eq(loads.organizationId, orgId), inArray(loads.status, [...ACTIVE_LOAD_STATUSES]), isNotNull(loads.assetId)))
    ).map((r) => r.a!),
  );
  const out: NewLoad[] = [];

  // Delivered: consecutive visits of a truck to two places, both left.
  const byAsset = new Map<string, typeof visits>();
  for (const v of visits) byAsset.set(v.assetId, [...(byAsset.get(v.assetId) ?? []), v]);
  for (const [assetId, list] of byAsset) {
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (!a.departedAt || !b.departedAt || a.placeId === b.placeId || used.has(a.id) || used.has(b.id)) continue;
      const from = placeById.get(a.placeId);
      const to = placeById.get(b.placeId);
      if (!from || !to) continue;
      const arriveA = a.arrivedAt.getTime();
      const arriveB = b.arrivedAt.getTime();
      const stops: NewStop[] = [
        {
          kind: 'PICKUP',
          place: from,
          windowStart: roundTo(arriveA - HOUR, HOUR / 2),
          windowEnd: roundTo(arriveA + 2 * HOUR, HOUR / 2),
          serviceMinutes: 60,
          arrivedAt: arriveA,
          departedAt: a.departedAt.getTime(),
          placeVisitId: a.id,
        },
        {
          kind: 'DELIVERY',
          place: to,
          windowStart: roundTo(arriveB - 2 * HOUR, HOUR / 2),
          windowEnd: roundTo(arriveB + 2 * HOUR, HOUR / 2),
          serviceMinutes: 60,
          arrivedAt: arriveB,
          departedAt: b.departedAt.getTime(),
          placeVisitId: b.id,
        },
      ];
      out.push({
        status: 'DELIVERED',
        driverId: a.driverId ?? b.driverId,
        assetId,
        stops,
        history: [
          { status: 'PLANNED', at: arriveA - DAY },
          { status: 'ASSIGNED', at: arriveA - 20 * HOUR },
          { status: 'EN_ROUTE', at: a.departedAt.getTime() },
          { status: 'AT_STOP', at: arriveB },
          { status: 'DELIVERED', at: b.departedAt.getTime() },
        ],
        deliveredAt: b.departedAt.getTime(),
        loadedM: loadedM(stops),
        seed: arriveA,
        notes: null,
      });
    }
  }
  const delivered = out.length;

  // Running: a truck on a trip now carries a load to where its plan drives next.
  const candidates: Array<{ load: NewLoad; dockAt: number; restBefore: boolean }> = [];
  for (const t of trucks) {
    if (!t.assetId || !t.driverId || !t.plan || running.has(t.assetId)) continue;
    const last = byAsset.get(t.assetId)?.at(-1);
    if (!last) continue;
    const pickupPlace = placeById.get(last.placeId);
    // Where the plan's next dock stop is, and whether a rest comes before it.
    let seg: Segment = t.plan.segmentAt(now);
    let restBefore = false;
    let guard = 0;
    // Standing at the last visit's place: the trip starts after the loading there.
    while (guard++ < 50_000 && !(seg.reason === 'dock' && seg.start > now)) {
      if (seg.kind === 'PARK' && (seg.reason === 'rest' || seg.reason === 'restart') && seg.start > now) restBefore = true;
      seg = t.plan.segmentAt(seg.end);
    }
    const dest = placeAt(seg.from);
    if (!pickupPlace || !dest || dest.id === pickupPlace.id || seg.reason !== 'dock') continue;
    const arrive = last.arrivedAt.getTime();
    const left = last.departedAt?.getTime() ?? null;
    const stops: NewStop[] = [
      {
        kind: 'PICKUP',
        place: pickupPlace,
        windowStart: roundTo(arrive - HOUR, HOUR / 2),
        windowEnd: roundTo(arrive + 2 * HOUR, HOUR / 2),
        serviceMinutes: 60,
        arrivedAt: arrive,
        departedAt: left,
        placeVisitId: last.id,
      },
      { kind: 'DELIVERY', place: dest, windowStart: seg.start - 2 * HOUR, windowEnd: seg.start + 2 * HOUR, serviceMinutes: 60 },
    ];
    candidates.push({
      load: {
        status: left ? 'EN_ROUTE' : 'AT_STOP',
        driverId: t.driverId,
        assetId: t.assetId,
        stops,
        history: [
          { status: 'PLANNED', at: arrive - 12 * HOUR },
          { status: 'ASSIGNED', at: arrive - 10 * HOUR },
          ...(left ? [{ status: 'EN_ROUTE' as const, at: left }] : [{ status: 'AT_STOP' as const, at: arrive }]),
        ],
        deliveredAt: null,
        loadedM: loadedM(stops),
        seed: arrive,
        notes: null,
      },
      dockAt: seg.start,
      restBefore,
    });
  }
  // The appointments around the legal ETA the planner gives from the driver's real clocks (and the
  // plan's own arrival), so a running load is on time; one whose driver must rest first is made tight.
  let atRisk = 0;
  // One tight load running at a time (a start after a kill finds the one made).
  const hasRisk =
    (
      await db
        .select({ id: loads.id })
        .from(loads)
        .where(and(eq(loads.organizationId, orgId), inArray(loads.status, [...ACTIVE_LOAD_STATUSES]), sql`${loads.notes} like 'Tight appointment%'`))
        .limit(1)
    ).length > 0;
  if (candidates.length) {
    const drivers = await planDriversOf(
      db,
      orgId,
      now,
      candidates.map((c) => c.load.driverId!),
    );
    for (const c of candidates) {
      const rec = drivers.get(c.load.driverId!);
      const fixOf = t0(
        trucks.find((t) => t.assetId === c.load.assetId)!,
        now,
      );
      const remaining = c.load.stops.filter((s) => !s.departedAt);
      if (!rec || !fixOf) continue;
      const legs = await routing.route([fixOf, ...remaining.map((s) => s.place)]);
      const plan = planTrip({
        now,
        origin: fixOf,
        drivers: [
          { driverId: rec.driver.id, periods: rec.periods.length ? rec.periods : [{ status: 'OFF', start: now - 8 * DAY, end: now }], options: rec.options },
        ],
        stops: remaining.map((s, i) => ({
          stopId: String(i),
          kind: s.kind,
          windowStart: s.windowStart,
          windowEnd: s.windowEnd,
          serviceMinutes: s.serviceMinutes,
          arrivedAt: s.arrivedAt ?? null,
          departedAt: null,
        })),
        legs,
      });
      const eta = plan.stops.at(-1)?.eta ?? c.dockAt;
      const delivery = c.load.stops[c.load.stops.length - 1]!;
      // A 10-hour rest on the road (not a wait at a stop), with no restart before the delivery: the
      // late reason is then the rest, whatever the hour the demo starts at.
      const rest = plan.segments.find((s) => s.kind === 'REST' && s.stopId === null && s.end - s.start >= 8 * HOUR && s.start < eta);
      const restart = plan.segments.some((s) => s.kind === 'RESTART' && s.start < eta);
      if (!hasRisk && atRisk === 0 && rest && !restart) {
        // Without the rest the driver would be there in time; with it, hours late.
        const withoutRest = eta - (rest.end - rest.start);
        delivery.windowStart = roundTo(withoutRest - 2 * HOUR, HOUR / 2);
        delivery.windowEnd = roundTo(withoutRest + HOUR, HOUR / 2);
        c.load.notes = 'Tight appointment: the driver’s 10-hour rest falls before it.';
        atRisk++;
      } else {
        delivery.windowStart = roundTo(Math.min(eta, c.dockAt) - 2 * HOUR, HOUR / 2);
        delivery.windowEnd = roundTo(Math.max(eta, c.dockAt) + 3 * HOUR, HOUR / 2);
      }
      out.push(c.load);
    }
  }
  const runningCount = out.length - delivered;

  // Unassigned: three loads for the coming days, unless some are waiting already.
  const [waiting] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.status, 'PLANNED'), isNull(loads.driverId)));
  let unassigned = 0;
  if ((waiting?.n ?? 0) === 0) {
    const customers = placeRows.filter((p) => p.category === 'CUSTOMER').sort((a, b) => a.name.localeCompare(b.name));
    const pick = (i: number) => customers[i % customers.length]!;
    const tomorrow = roundTo(now + DAY, HOUR);
    // A short haul tomorrow, a long one with a tight window, one later in the week.
    const specs: Array<[number, number, number, number, number]> = [
      [0, 3, tomorrow, 6, 14],
      [1, 7, tomorrow + 2 * HOUR, 4, 30],
      [5, 9, tomorrow + 2 * DAY, 6, 40],
    ];
    for (const [a, b, start, pickupHours, deliverAfterHours] of specs) {
      const from = pick(a);
      const to = pick(b) === from ? pick(b + 1) : pick(b);
      const stops: NewStop[] = [
        { kind: 'PICKUP', place: from, windowStart: start, windowEnd: start + pickupHours * HOUR, serviceMinutes: 90 },
        { kind: 'DELIVERY', place: to, windowStart: start + (deliverAfterHours - 4) * HOUR, windowEnd: start + deliverAfterHours * HOUR, serviceMinutes: 60 },
      ];
      out.push({
        status: 'PLANNED',
        driverId: null,
        assetId: null,
        stops,
        history: [{ status: 'PLANNED', at: now }],
        deliveredAt: null,
        loadedM: loadedM(stops),
        seed: start + a,
        notes: null,
      });
      unassigned++;
    }
  }
  if (out.length) await insertLoads(db, orgId, out);
  return { delivered, running: runningCount, atRisk, unassigned };
}

/** Where the truck is now by its plan. */
function t0(truck: DemoTruck, now: number): LatLon | null {
  if (!truck.plan) return null;
  const s = truck.plan.stateAt(now);
  return { lat: s.lat, lon: s.lon };
}

/** The loads with their stops, histories and activity rows, numbered from the organization's counter, in one transaction. */
export async function insertLoads(db: Db, orgId: string, list: NewLoad[]): Promise<void> {
  list.sort((a, b) => a.history[0]!.at - b.history[0]!.at);
  await db.transaction(async (tx) => {
    const first = await takeNumbers(tx, orgId, list.length);
    // Each load billed to a demo customer (issue 70): the shipper whose dock it leaves, else a broker.
    await ensureDemoCustomers(tx, orgId);
    const known = await customerIdsByName(tx, orgId);
    const billedTo = (l: NewLoad) => {
      const c = demoCustomerOf(l.stops[0]!.place.name, fraction(l.seed + 5));
      return known.get(c.name.toLowerCase()) ?? { id: null, name: c.name };
    };
    const bills = list.map(billedTo);
    const rows = await tx
      .insert(loads)
      .values(
        list.map((l, i) => {
          const miles = l.loadedM / METRES_PER_MILE;
          const perMile = 2 + fraction(l.seed) * 0.99;
          return {
            organizationId: orgId,
            number: `L-${first + i}`,
            customer: bills[i]!.name,
            customerId: bills[i]!.id,
            customerPlaceId: l.stops.find((s) => s.place.category === 'CUSTOMER')?.place.id ?? null,
            bolNumber: `BOL-${String(first + i).padStart(6, '0')}`,
            poNumber: `PO-${Math.floor(fraction(l.seed + 1) * 900_000 + 100_000)}`,
            commodity: COMMODITIES[Math.floor(fraction(l.seed + 2) * COMMODITIES.length)]!,
            weightKg: Math.round(8000 + fraction(l.seed + 3) * 12_000),
            status: l.status,
            lineHaulCents: Math.round(miles * perMile * 100),
            fuelSurchargeCents: Math.round(miles * 45),
            accessorials: l.accessorials ?? [],
            driverId: l.driverId,
            assetId: l.assetId,
            loadedM: l.loadedM,
            deliveredAt: l.deliveredAt ? new Date(l.deliveredAt) : null,
            notes: l.notes,
            createdAt: new Date(l.history[0]!.at),
          };
        }),
      )
      .returning({ id: loads.id, number: loads.number });
    const stopValues = list.flatMap((l, i) =>
      l.stops.map((s, seq) => ({
        organizationId: orgId,
        loadId: rows[i]!.id,
        seq,
        kind: s.kind,
        placeId: s.place.id,
        latitude: s.place.lat,
        longitude: s.place.lon,
        address: s.place.address,
        windowStart: new Date(s.windowStart),
        windowEnd: new Date(s.windowEnd),
        serviceMinutes: s.serviceMinutes,
        arrivedAt: s.arrivedAt ? new Date(s.arrivedAt) : null,
        departedAt: s.departedAt ? new Date(s.departedAt) : null,
        arrivalSource: s.arrivedAt ? ('PLACE' as const) : null,
        departureSource: s.departedAt ? ('PLACE' as const) : null,
        placeVisitId: s.placeVisitId ?? null,
      })),
    );
    for (let i = 0; i < stopValues.length; i += 1000) await tx.insert(loadStops).values(stopValues.slice(i, i + 1000));
    const events = list.flatMap((l, i) =>
      l.history.map(({ status, at }) => ({ organizationId: orgId, loadId: rows[i]!.id, status, at: new Date(at), note: 'Demo data' })),
    );
    for (let i = 0; i < events.length; i += 1000) await tx.insert(loadStatusEvents).values(events.slice(i, i + 1000));
    await recordActivityBatch(
      tx,
      rows.map((r) => ({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'LOAD', entityId: r.id, after: { number: r.number, demo: true } })),
    );
  });
}

/** Reserves `n` load numbers of the organization; returns the first (numbers start at 1001). */
async function takeNumbers(db: DbOrTx, orgId: string, n: number): Promise<number> {
  const [row] = await db
    .insert(loadCounters)
    .values({ organizationId: orgId, last: 1000 + n })
    .onConflictDoUpdate({ target: loadCounters.organizationId, set: { last: sql`${loadCounters.last} + ${n}` } })
    .returning({ last: loadCounters.last });
  return row!.last - n + 1;
}
