import { and, eq, sql } from 'drizzle-orm';
import { FAR_FROM_STATION_M, priceMismatch, quarterDays, quarterDueDate, quarterOf } from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';
import type { TrackFix } from '@fleet/geo/ifta';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import type { Db } from '../../db/client.ts';
import { iftaFilings, iftaFuelPurchases, iftaVehicleDays } from '../../db/schema/index.ts';
import { fileQuarter } from '../../modules/ifta/ifta-filings.service.ts';
import { accumulateDays, type DayRecords } from '../../modules/ifta/distance-days.ts';
import { iftaClockOf } from '../../modules/ifta/ifta-zone.ts';
import { writeRound } from '../../modules/ifta/ifta-miles.repository.ts';
import type { DemoTruck } from './demo-fleet.ts';
import { TruckPlan, warmUp } from './truck-plan.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

// The demo fleet's IFTA quarter (decision 0127). The week before start-up has real positions
// (backfilled, counted by the IFTA catch-up like any ingest); the weeks before it, back to the start
// of the previous quarter, are counted straight from the simulator's plan (a fix every 3 minutes on
// the road), without writing a quarter of positions. Fuel is bought at the plan's fuel stops.

/** Under 5 miles apart at highway speed, so no pair is a gap (decision 0102). */
const STEP_MS = 3 * 60_000;
const VENDORS = ['Pilot Travel Center', "Love's Travel Stop", 'TA Travel Center', 'Petro Stopping Center', 'Flying J'];

/** Start of the previous quarter (UTC): the demo shows a finished quarter and the current one. */
export function demoIftaFrom(now: number): number {
  const { from } = quarterDays(quarterOf(now));
  return Date.parse(`${quarterDays(quarterOf(Date.parse(`${from}T00:00:00Z`) - 1)).from}T00:00:00Z`);
}

/**
 * Seeds the demo trucks' distance days from `from` up to `positionsFrom` (where their stored
 * positions begin) or the organization's first recorded day, whichever is earlier, and their fuel purchases from `from` up to `until` (idempotent: receipt
 * numbers are fixed). Returns [vehicle-days written, purchases written].
 */
export async function seedDemoIfta(
  db: Db,
  orgId: string,
  trucks: readonly DemoTruck[],
  from: number,
  positionsFrom: number,
  until: number,
): Promise<[number, number]> {
  // Only days before any the organization already has (a later start never counts a day twice).
  const [first] = await db
    .select({ d: sql<string | null>`min(${iftaVehicleDays.day})::text` })
    .from(iftaVehicleDays)
    .where(eq(iftaVehicleDays.organizationId, orgId));
  // The organization's IFTA days (its base jurisdiction's zone, decision 0189).
  const clock = await iftaClockOf(db, orgId);
  const seedUntil = Math.min(positionsFrom, first?.d ? clock.startOf(first.d) : Infinity);
  let days = 0;
  let purchases = 0;
  for (const truck of trucks) {
    if (!truck.assetId) continue;
    const plan = new TruckPlan(truck.index);
    await warmUp([plan], from);
    // Seeded per truck: the same purchases on every start.
    const random = seededRandom(0x1f7a + truck.index * 104_729);
    const fixes: TrackFix[] = [];
    const rows: Array<typeof iftaFuelPurchases.$inferInsert> = [];
    let lastFuelOdo: number | null = null;
    let lastStop = -1;
    for (let t = from; t < until; t += STEP_MS) {
      const seg = plan.segmentAt(t);
      const s = plan.stateAt(t);
      if (t < seedUntil) fixes.push({ time: t, lat: s.lat, lon: s.lon, speedKmh: s.speed, odometerM: Math.round(s.odometer) });
      if (seg.reason !== 'fuel' || seg.kind !== 'IDLE' || seg.start === lastStop) continue;
      lastStop = seg.start;
      const where = locateJurisdiction(seg.from.lat, seg.from.lon);
      if (!where?.jurisdiction.ifta) continue;
      // Fill what was burnt since the last stop (6.2-7.2 mpg); the first stop of the period a typical fill.
      const mpg = 6.2 + random();
      const gallons = lastFuelOdo === null ? 90 + random() * 40 : (seg.odometer - lastFuelOdo) / 1609.344 / mpg;
      lastFuelOdo = seg.odometer;
      const quantityMilli = Math.round(gallons * 1000);
      const priceMilli = Math.round((3.55 + random() * 0.7) * 1000);
      // Station a few hundred metres from where the truck stood; one purchase in 40 keyed 40 km off (flagged).
      const off = rows.length % 40 === 17 ? 0.36 : 0.002;
      // Longitude off by half the offset either way, so a keyed-off station is always beyond the place check's 2 km.
      const station = { lat: seg.from.lat + off * (random() - 0.5), lon: seg.from.lon + off * (random() < 0.5 ? -0.5 : 0.5) };
      const stationM = Math.round(distanceM(seg.from, station));
      const purchasedAt = seg.start + Math.round((3 + random() * 5) * 60_000);
      // A stop that straddles the period's start or end is bought outside it (before `from`, or after
      // `until`: in the future at a seed's start): not this period's purchase.
      if (purchasedAt < from || purchasedAt >= until) continue;
      // One receipt in 60 typed with the total's decimal point slipped (x10): a price mismatch to review.
      const exactCents = Math.round((quantityMilli * priceMilli) / 10_000);
      const totalCents = rows.length % 60 === 29 ? exactCents * 10 : exactCents;
      rows.push({
        organizationId: orgId,
        vehicleId: truck.assetId,
        purchasedAt: new Date(purchasedAt),
        jurisdiction: where.jurisdiction.code,
        fuelType: 'DIESEL',
        quantityMilli,
        volumeUnit: 'GAL',
        pricePerUnitMilli: priceMilli,
        totalCents,
        priceMismatch: priceMismatch(quantityMilli / 1000, priceMilli / 1000, totalCents / 100),
        currency: 'USD',
        vendor: VENDORS[Math.floor(random() * VENDORS.length)]!,
        receiptNumber: `DEMO-${String(truck.index).padStart(2, '0')}-${Math.round(seg.start / 60_000)}`,
        taxPaid: true,
        stationLat: Number(station.lat.toFixed(5)),
        stationLon: Number(station.lon.toFixed(5)),
        source: 'DEMO',
        locationCheck: stationM > FAR_FROM_STATION_M ? 'FAR' : 'OK',
        locationDistanceM: stationM,
      });
    }
    if (fixes.length > 1) {
      const records: DayRecords = new Map();
      accumulateDays(records, null, fixes, { clock });
      await writeRound(db, [{ vehicleId: truck.assetId, orgId, days: records }], [], []);
      days += records.size;
    }
    for (let i = 0; i < rows.length; i += 500) {
      const r = await db
        .insert(iftaFuelPurchases)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ id: iftaFuelPurchases.id });
      purchases += r.length;
    }
  }
  return [days, purchases];
}

/**
 * The previous quarter filed a few days before its due date (once): the demo shows a closed
 * quarter beside the open one. Skipped when someone filed it already.
 */
export async function fileDemoQuarter(db: Db, orgId: string, now: number): Promise<string | null> {
  const quarter = quarterOf(demoIftaFrom(now));
  const [done] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(iftaFilings)
    .where(and(eq(iftaFilings.organizationId, orgId), eq(iftaFilings.quarter, quarter)));
  if (done?.n) return null;
  const due = Date.parse(`${quarterDueDate(quarter)}T00:00:00Z`);
  const filedAt = new Date(Math.min(now, due - 3 * 86_400_000)).toISOString().slice(0, 10);
  await fileQuarter({ db, orgId, actor: { userId: null, email: 'demo seed', role: 'SYSTEM', ip: null } }, { quarter, filedAt });
  return quarter;
}
