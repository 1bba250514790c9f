import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, customers, invoices, loads, organizations, places } from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { createInvoice, recordPayment } from '../modules/invoices/index.ts';
import { loadedMetres } from '../modules/loads/index.ts';
import { zoneOffsetMs } from '../lib/zone-offset.ts';
import { ensureDemoCustomers } from './demo-customers.ts';
import { insertLoads, type DemoPlaceRow, type NewLoad, type NewStop } from './demo-loads.ts';

// The demo's invoices (issue 70): a month of them, so the invoice list, a customer's unpaid ones and
// the aging report read like a carrier's. The simulator's week of delivered loads is too short for
// that, so this adds delivered loads for the five weeks before it (two a weekday, some waiting past
// the free time, some with a lumper paid at the dock; billed to the demo customers as the simulated
// week's are) and three old loads of a customer who pays late; then invoices every load delivered
// more than two days ago, a customer's week at a time, through the invoices service. The older
// invoices are sent, most paid (a few in part), some not: past due in each aging bucket.
// Made once (seed marks), and not at all in an organization that has invoices already.

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MIN = 60_000;

/** The customer who pays late (a demo shipper): its old invoices stay open, 31-60, 61-90 and over 90 days past due. */
export const DEMO_SLOW_PAYER = 'Ironworks Supply';
/** Days past due of the slow payer's old invoices (each dated the day after its load's delivery). */
const OLD_PAST_DUE = [45, 75, 110];

/** A repeatable fraction in [0, 1) (the same demo on every start). */
const fraction = (n: number) => {
  const x = Math.sin(n * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
};

const nameOf = (p: DemoPlaceRow) => p.name.split(',')[0]!.trim();

export interface DemoInvoicesResult {
  loads: number;
  invoices: number;
  paid: number;
  late: number;
}

export async function ensureDemoInvoices(db: Db, orgId: string, now = Date.now()): Promise<DemoInvoicesResult | null> {
  const [has] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.organizationId, orgId)).limit(1);
  if (has) return null;
  const [org] = await db.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  const zone = org?.zone ?? 'America/Chicago';
  const madeLoads = await ensureHistoryLoads(db, orgId, now, zone);
  const out = await invoiceDelivered(db, orgId, now, zone);
  return { loads: madeLoads, ...out };
}

/** The local midnight of the day `daysAgo` before `now` in `zone`, as epoch ms. */
function localMidnight(now: number, daysAgo: number, zone: string): number {
  const local = now + zoneOffsetMs(now, zone) - daysAgo * DAY;
  const midnightLocal = Math.floor(local / DAY) * DAY;
  return midnightLocal - zoneOffsetMs(midnightLocal, zone);
}

async function ensureHistoryLoads(db: Db, orgId: string, now: number, zone: string): Promise<number> {
  const rows = await db
    .select({ id: places.id, name: places.name, category: places.category, address: places.address, geometry: places.geometry })
    .from(places)
    .where(and(eq(places.organizationId, orgId), eq(places.category, 'CUSTOMER')))
    .orderBy(asc(places.name));
  const docks: DemoPlaceRow[] = rows.flatMap((p) =>
    p.geometry.type === 'Point'
      ? [{ id: p.id, name: p.name, category: p.category, address: p.address, lon: p.geometry.coordinates[0], lat: p.geometry.coordinates[1] }]
      : [],
  );
  if (docks.length < 2) return 0;
  const trucks = await db
    .select({ assetId: assets.id, driverId: assets.currentDriverId })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'), isNotNull(assets.currentDriverId)))
    .orderBy(asc(assets.unitNumber));
  if (trucks.length === 0) return 0;
  const slow = docks.filter((d) => nameOf(d) === DEMO_SLOW_PAYER);
  // The customers the loads are billed to (made with the loads on a first start; here first, for their terms).
  await ensureDemoCustomers(db, orgId);
  const [slowTerms] = await db
    .select({ days: customers.paymentTermsDays })
    .from(customers)
    .where(and(eq(customers.organizationId, orgId), sql`lower(${customers.name}) = ${DEMO_SLOW_PAYER.toLowerCase()}`));
  const list: NewLoad[] = [];
  let k = 0;
  const make = (daysAgo: number, from: DemoPlaceRow, to: DemoPlaceRow, seed: number) => {
    const truck = trucks[k++ % trucks.length]!;
    const day = localMidnight(now, daysAgo, zone);
    const arriveA = day + 6 * HOUR + Math.round(fraction(seed) * 4) * 30 * MIN;
    // Loading takes an hour to three and a half: past two hours, the customer pays detention.
    const departA = arriveA + (60 + Math.round(fraction(seed + 1) * 150)) * MIN;
    const stopsLatLon = [
      { latitude: from.lat, longitude: from.lon },
      { latitude: to.lat, longitude: to.lon },
    ];
    const metres = loadedMetres(stopsLatLon);
    const arriveB = departA + Math.max(2 * HOUR, Math.round((metres / 1000 / 85) * HOUR));
    const departB = arriveB + (45 + Math.round(fraction(seed + 2) * 195)) * MIN;
    const stops: NewStop[] = [
      { kind: 'PICKUP', place: from, windowStart: arriveA - HOUR, windowEnd: arriveA + 2 * HOUR, serviceMinutes: 60, arrivedAt: arriveA, departedAt: departA },
      {
        kind: 'DELIVERY',
        place: to,
        windowStart: arriveB - 2 * HOUR,
        windowEnd: arriveB + 2 * HOUR,
        serviceMinutes: 60,
        arrivedAt: arriveB,
        departedAt: departB,
      },
    ];
    list.push({
      status: 'DELIVERED',
      driverId: truck.driverId,
      assetId: truck.assetId,
      stops,
      history: [
        { status: 'PLANNED', at: arriveA - 2 * DAY },
        { status: 'ASSIGNED', at: arriveA - DAY },
        { status: 'EN_ROUTE', at: departA },
        { status: 'AT_STOP', at: arriveB },
        { status: 'DELIVERED', at: departB },
      ],
      deliveredAt: departB,
      loadedM: metres,
      seed,
      notes: 'Demo history: delivered before the simulated week',
      // Every fifth load the consignee's lumper unloaded, paid by the driver at the dock.
      accessorials: seed % 5 === 0 ? [{ kind: 'LUMPER', amountCents: 12_500 + Math.round(fraction(seed + 3) * 10_000), note: `Receipt ${4400 + seed}` }] : [],
    });
  };
  // Two loads each weekday of the five weeks before the simulated one.
  for (let daysAgo = 9; daysAgo <= 40; daysAgo++) {
    const weekday = new Date(localMidnight(now, daysAgo, zone) + 12 * HOUR).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (let j = 0; j < 2; j++) {
      const seed = daysAgo * 10 + j;
      const a = docks[(daysAgo * 3 + j * 5) % docks.length]!;
      let b = docks[(daysAgo * 7 + j * 3 + 1) % docks.length]!;
      if (b.id === a.id) b = docks[(docks.indexOf(a) + 1) % docks.length]!;
      make(daysAgo, a, b, seed);
    }
  }
  // The slow payer's old loads: picked up at its dock.
  if (slow[0])
    for (const [i, late] of OLD_PAST_DUE.entries()) {
      const to = docks[(i * 4 + 2) % docks.length]!;
      make((slowTerms?.days ?? 30) + late + 1, slow[0], to.id === slow[0].id ? docks[(i * 4 + 3) % docks.length]! : to, 5000 + i);
    }
  if (list.length) await insertLoads(db, orgId, list);
  return list.length;
}

const localDayOf = (ms: number, zone: string) => new Date(ms + zoneOffsetMs(ms, zone)).toISOString().slice(0, 10);
const dayPlus = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const dayDiff = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

async function invoiceDelivered(db: Db, orgId: string, now: number, zone: string): Promise<Omit<DemoInvoicesResult, 'loads'>> {
  const today = localDayOf(now, zone);
  const delivered = await db
    .select({ id: loads.id, customerId: loads.customerId, customer: loads.customer, deliveredAt: loads.deliveredAt })
    .from(loads)
    .where(
      and(
        eq(loads.organizationId, orgId),
        eq(loads.status, 'DELIVERED'),
        isNotNull(loads.customerId),
        sql`${loads.deliveredAt} < ${new Date(now - 2 * DAY).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(loads.deliveredAt));
  // A customer's loads of a week on one invoice, dated the day after the week's last delivery.
  const groups = new Map<string, { customerId: string; customer: string; loadIds: string[]; last: number }>();
  for (const l of delivered) {
    const week = Math.floor((now - l.deliveredAt!.getTime()) / (7 * DAY));
    const key = `${l.customerId}:${week}`;
    const g = groups.get(key) ?? { customerId: l.customerId!, customer: l.customer, loadIds: [], last: 0 };
    g.loadIds.push(l.id);
    g.last = Math.max(g.last, l.deliveredAt!.getTime());
    groups.set(key, g);
  }
  const emails = new Map(
    (
      await db
        .select({ id: customers.id, email: customers.invoiceEmail })
        .from(customers)
        .where(
          and(
            eq(customers.organizationId, orgId),
            inArray(
              customers.id,
              [...groups.values()].map((g) => g.customerId),
            ),
          ),
        )
    ).map((c) => [c.id, c.email]),
  );
  const scope = { db, orgId, actor: SYSTEM, now };
  let made = 0;
  let paid = 0;
  let late = 0;
  const ordered = [...groups.values()].sort((a, b) => a.last - b.last);
  for (const [i, g] of ordered.entries()) {
    const invoiceDate = [dayPlus(localDayOf(g.last, zone), 1), today].sort()[0]!;
    const inv = await createInvoice(scope, { loadIds: g.loadIds, invoiceDate, notes: null });
    made++;
    const age = dayDiff(invoiceDate, today);
    const email = emails.get(g.customerId) ?? null;
    // The last two days' invoices are drafts still; the others went out on their day.
    if (age <= 2) continue;
    const sentAt = new Date(Date.parse(`${invoiceDate}T15:00:00Z`));
    await db
      .update(invoices)
      .set({ status: 'SENT', sentAt, sentTo: email, updatedAt: sentAt })
      .where(and(eq(invoices.organizationId, orgId), eq(invoices.id, inv.id)));
    const r = fraction(i + 7);
    const overdue = inv.dueDate < today;
    const lateDays = dayDiff(inv.dueDate, today);
    const slowOld = g.customer === DEMO_SLOW_PAYER && lateDays > 30;
    const method = (['ACH', 'CHECK', 'WIRE', 'ACH'] as const)[i % 4]!;
    const reference = method === 'CHECK' ? `No. ${10_400 + i}` : method === 'WIRE' ? `Fed ref ${880_200 + i * 7}` : `Trace ${447_100 + i * 13}`;
    let amountCents = 0;
    let receivedOn = '';
    if (slowOld) {
      // The slow payer sent something on the one 61-90 days late only.
      if (lateDays > 60 && lateDays <= 90) {
        amountCents = Math.round(inv.totalCents * 0.4);
        receivedOn = dayPlus(inv.dueDate, 12);
      }
    } else if (overdue ? r < 0.55 : r < 0.25) {
      amountCents = inv.totalCents;
      receivedOn = overdue ? dayPlus(inv.dueDate, Math.round(fraction(i) * 8) - 3) : dayPlus(invoiceDate, 5 + Math.round(fraction(i) * 5));
    } else if (overdue && r < 0.75) {
      amountCents = Math.round(inv.totalCents / 2);
      receivedOn = dayPlus(inv.dueDate, Math.round(fraction(i) * 6) - 2);
    }
    if (receivedOn > today) receivedOn = today;
    if (receivedOn && receivedOn < invoiceDate) receivedOn = invoiceDate;
    if (amountCents > 0) {
      const after = await recordPayment(scope, inv.id, { amountCents, receivedOn, method, reference });
      if (after.status === 'PAID') paid++;
      if (after.overdue) late++;
    } else if (overdue) late++;
  }
  return { invoices: made, paid, late };
}
