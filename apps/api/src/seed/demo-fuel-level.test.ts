import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelEventPageSchema, type FuelTransaction } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, login, type TestContext } from '../test/helpers.ts';
import { backfillDemoHistory, findDemoTrucks } from './simulator/demo-fleet.ts';
import { seedDemoIfta } from './simulator/demo-ifta.ts';
import { ensureDemoFuelCards } from './demo-fuel-cards.ts';
import { ensureDemoFuelLevel } from './demo-fuel-level.ts';

// Issue 68, part 2: the demo's two trucks with fuel-level sensors (tractors 110 and 116) over their
// backfilled week: their refuels at the fuel stops verify the week's card transactions, one night's
// drop with the ignition off on 110 and the cash refuel after it (no card transaction), and the
// planted card purchase on 116 whose fill never came; nothing found twice.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo fuel levels', () => {
  it('a week of refuels matched to card purchases, a night-time drop, a cash refuel and a fill not seen, each once', async () => {
    const session = await login(t.app, DEMO.admin);
    const orgId = session.user.organization!.id;
    const trucks = (await findDemoTrucks(t.app.db)).filter((x) => x.orgId === orgId && (x.index === 10 || x.index === 16));
    expect(trucks.map((x) => x.index)).toEqual([10, 16]);
    const now = Date.now();
    const from = now - 7 * 86_400_000;
    await backfillDemoHistory(t.app.db, trucks, now);
    // Purchases from a week before the positions: each of the week's is then what the miles since the last one burnt.
    await seedDemoIfta(t.app.db, orgId, trucks, from - 7 * 86_400_000, from, now);
    const found = await ensureDemoFuelLevel(t.app.db, orgId, trucks, t.app.fuelEvents, from);
    expect(found).toBeGreaterThan(3);
    await ensureDemoFuelCards(t.app.db, orgId, trucks, from, now);

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/fuel-events?size=200&sort=startedAt,asc`,
      headers: bearer(session.accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = fuelEventPageSchema.parse(res.json());
    console.log(
      'demo fuel events',
      page.content.map((e) => `${e.vehicleUnitNumber} ${e.type} ${e.startedAt} ${e.levelBeforePct}->${e.levelAfterPct} ${e.purchase?.transactionId ?? '-'}`),
    );
    // One drop: tractor 110, in the small hours in Chicago, the ignition off.
    const drops = page.content.filter((e) => e.type === 'DROP');
    expect(drops).toHaveLength(1);
    expect(drops[0]).toMatchObject({ vehicleUnitNumber: '110', ignitionOff: true, tankCapacityAssumed: false, unit: 'GAL' });
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hourCycle: 'h23' }).format(Date.parse(drops[0]!.startedAt)),
    );
    expect(hour).toBeGreaterThanOrEqual(1);
    expect(hour).toBeLessThanOrEqual(4);
    expect(drops[0]!.levelBeforePct - drops[0]!.levelAfterPct).toBeCloseTo(22, 0);
    // One refuel no card paid for: 110's, at the same stop, before it drives on (cash).
    const unmatched = page.content.filter((e) => e.type === 'REFUEL' && e.purchase === null);
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toMatchObject({ vehicleUnitNumber: '110' });
    expect(Date.parse(unmatched[0]!.startedAt)).toBeGreaterThan(Date.parse(drops[0]!.endedAt));
    expect(unmatched[0]!.latitude).toBeCloseTo(drops[0]!.latitude, 4);
    // Every other refuel is a fuel stop's, paid by card; both trucks have them.
    const matched = page.content.filter((e) => e.type === 'REFUEL' && e.purchase !== null);
    expect(new Set(matched.map((e) => e.vehicleUnitNumber))).toEqual(new Set(['110', '116']));
    expect(page.counts).toEqual({ REFUEL: matched.length + 1, DROP: 1, UNMATCHED: 1 });

    // The card transactions of those stops: verified by the refuel; the one at 116's rest never filled.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/fuel-transactions?size=200&from=${new Date(from).toISOString()}`,
      headers: bearer(session.accessToken),
    });
    const txs = list.json().content as FuelTransaction[];
    const byRefuel = txs.filter((x) => matched.some((e) => e.purchase!.id === x.id));
    // Each verified by its refuel (one in 40 demo receipts is keyed 40 km off: the truck elsewhere).
    expect(byRefuel.length).toBe(matched.length);
    const verified = byRefuel.filter((x) => x.verification === 'VERIFIED');
    expect(verified.every((x) => /; its fuel level rose by \d+(\.\d)? gal$/.test(x.reason))).toBe(true);
    expect(byRefuel.filter((x) => x.verification !== 'VERIFIED').map((x) => x.verification)).toEqual(
      byRefuel.filter((x) => x.verification !== 'VERIFIED').map(() => 'LOCATION_MISMATCH'),
    );
    expect(verified.length).toBeGreaterThanOrEqual(byRefuel.length - 1);
    const noFill = txs.find((x) => x.transactionId === 'CARD-DEMO-NOFILL')!;
    expect(noFill).toMatchObject({ verification: 'NO_FILL_SEEN', vehicleUnitNumber: '116' });
    expect(noFill.reason).toMatch(/^The truck was \d+ ft from the station, but its fuel level did not rise after the purchase/);

    // Nothing found twice: the week again changes nothing.
    expect(await ensureDemoFuelLevel(t.app.db, orgId, trucks, t.app.fuelEvents, from)).toBe(0);
  }, 300_000);
});
