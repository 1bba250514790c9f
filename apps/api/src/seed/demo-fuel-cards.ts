import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { FuelTransactionInput } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import { assets, iftaFuelPurchases } from '../db/schema/index.ts';
import { putCardAssignment } from '../modules/ifta/fuel-transactions.repository.ts';
import { recordTransactions } from '../modules/ifta/fuel-transactions.service.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';
import { demoNoFillStop } from './simulator/fuel-sensor.ts';

// The demo's fuel-card week (issue 68): the week's fuel stops (the demo IFTA purchases bought at the
// simulator plan's fuel stops, decision 0127) as they come from the card processor, checked against
// the backfilled positions like any posted transaction; each links to its purchase (same receipt).
// A few are wrong on purpose so the review queue has work: a card used where its truck was not, a
// fill larger than the tank, one from before the positions begin, one whose card nobody holds, and
// (tractor 116 has a fuel-level sensor, decision 0276) one where the truck stood but its level never rose.

const SYSTEM = { userId: null, email: 'demo seed', role: 'SYSTEM', ip: null };
/** Cards: truck i holds card 4100+i; the drivers of the first five trucks hold 5200+i (their transactions name only the card). */
const vehicleCard = (i: number) => String(4100 + i);
const driverCard = (i: number) => String(5200 + i);

/** Seeds the week's card transactions from `from` to `until` (idempotent: transaction ids are the receipts, or fixed). Returns how many were recorded. */
export async function ensureDemoFuelCards(db: Db, orgId: string, trucks: readonly DemoTruck[], from: number, until: number): Promise<number> {
  const withAsset = trucks.filter((t): t is DemoTruck & { assetId: string } => t.assetId !== null);
  if (withAsset.length === 0) return 0;
  for (const t of withAsset) {
    await putCardAssignment(db, orgId, vehicleCard(t.index), { vehicleId: t.assetId, driverId: null });
    if (t.index < 5 && t.driverId) await putCardAssignment(db, orgId, driverCard(t.index), { vehicleId: null, driverId: t.driverId });
  }
  const units = new Map(
    (
      await db
        .select({ id: assets.id, unit: assets.unitNumber })
        .from(assets)
        .where(
          and(
            eq(assets.organizationId, orgId),
            inArray(
              assets.id,
              withAsset.map((t) => t.assetId),
            ),
          ),
        )
    ).map((a) => [a.id, a.unit]),
  );
  const byAsset = new Map(withAsset.map((t) => [t.assetId, t]));
  const bought = await db
    .select()
    .from(iftaFuelPurchases)
    .where(
      and(
        eq(iftaFuelPurchases.organizationId, orgId),
        eq(iftaFuelPurchases.source, 'DEMO'),
        gte(iftaFuelPurchases.purchasedAt, new Date(from)),
        lt(iftaFuelPurchases.purchasedAt, new Date(until)),
      ),
    )
    .orderBy(asc(iftaFuelPurchases.purchasedAt));
  const items: FuelTransactionInput[] = bought.map((p, k) => {
    const truck = byAsset.get(p.vehicleId);
    const byDriverCard = truck !== undefined && truck.index < 5 && truck.driverId !== null && k % 2 === 0;
    return {
      transactionId: p.receiptNumber,
      // Most name the unit and the card; some (the drivers' cards) only the card, as a portal exports them.
      unitNumber: byDriverCard ? null : (units.get(p.vehicleId) ?? null),
      cardNumberLast4: truck ? (byDriverCard ? driverCard(truck.index) : vehicleCard(truck.index)) : null,
      time: p.purchasedAt.toISOString(),
      latitude: p.stationLat,
      longitude: p.stationLon,
      merchant: p.vendor,
      city: p.city,
      state: p.jurisdiction,
      fuelType: 'DIESEL',
      quantity: p.quantityMilli / 1000,
      unit: p.volumeUnit,
      unitPrice: p.pricePerUnitMilli === null ? null : p.pricePerUnitMilli / 1000,
      total: p.totalCents === null ? null : p.totalCents / 100,
    };
  });
  // The ones to review, made from real stops so the places are real.
  const a = items[Math.floor(items.length / 3)];
  const b = items.find((x) => a && x.cardNumberLast4 !== a.cardNumberLast4 && Math.abs(Date.parse(x.time) - Date.parse(a.time)) > 6 * 3_600_000);
  if (a && b) {
    // Truck a's card at b's station, at a time truck a was on its own road: the card was used elsewhere.
    items.push({ ...b, transactionId: 'CARD-DEMO-ELSEWHERE', unitNumber: a.unitNumber, cardNumberLast4: a.cardNumberLast4, time: a.time });
  }
  const c = items[Math.floor((items.length * 2) / 3)];
  if (c) {
    // 400 gal into a tractor's 300 gal tanks.
    items.push({
      ...c,
      transactionId: 'CARD-DEMO-OVERTANK',
      time: new Date(Date.parse(c.time) + 2 * 60_000).toISOString(),
      quantity: 400,
      total: 400 * (c.unitPrice ?? 4),
    });
    // Bought the day before the positions begin: nothing to check it against.
    items.push({ ...c, transactionId: 'CARD-DEMO-NOFIX', time: new Date(from - 86_400_000).toISOString() });
    // A card nobody was given, no unit: no truck to check.
    items.push({
      ...c,
      transactionId: 'CARD-DEMO-NOCARD',
      unitNumber: null,
      cardNumberLast4: '9917',
      time: new Date(Date.parse(c.time) + 3_600_000).toISOString(),
    });
  }
  const sensor = withAsset.find((t) => t.index === 16);
  const stop = sensor ? await demoNoFillStop(from, until) : null;
  if (sensor && stop) {
    // 40 gal on tractor 116's card at its overnight rest: the truck was there; its tank never rose.
    items.push({
      transactionId: 'CARD-DEMO-NOFILL',
      unitNumber: units.get(sensor.assetId) ?? null,
      cardNumberLast4: vehicleCard(sensor.index),
      time: new Date(stop.t).toISOString(),
      latitude: Number(stop.lat.toFixed(5)),
      longitude: Number(stop.lon.toFixed(5)),
      merchant: 'Pilot Travel Center',
      fuelType: 'DIESEL',
      quantity: 40,
      unit: 'GAL',
      unitPrice: 3.899,
      total: 155.96,
    });
  }
  let recorded = 0;
  for (let i = 0; i < items.length; i += 500) {
    const r = await recordTransactions({ db, orgId, actor: SYSTEM }, items.slice(i, i + 500) as Parameters<typeof recordTransactions>[1], { source: 'DEMO' });
    recorded += r.created;
  }
  return recorded;
}
