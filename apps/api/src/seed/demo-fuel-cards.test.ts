import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, login, type TestContext } from '../test/helpers.ts';
import { rowsOf } from '../db/sql/rows.ts';
import { backfillDemoHistory, findDemoTrucks } from './simulator/demo-fleet.ts';
import { seedDemoIfta } from './simulator/demo-ifta.ts';
import { ensureDemoFuelCards } from './demo-fuel-cards.ts';

// Issue 68: the demo's week of fuel-card transactions, from four demo trucks' backfilled week (the
// whole fleet's is demo-fleet.test.ts's subject): mostly verified, a few flagged on purpose, linked to
// the demo purchases of the same stops, and not made twice.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo fuel-card week', () => {
  it('checks the week’s fuel stops against the trucks: most verified, the planted ones flagged, each once', async () => {
    const orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
    const trucks = (await findDemoTrucks(t.app.db)).filter((x) => x.orgId === orgId).slice(0, 4);
    const now = Date.now();
    const from = now - 7 * 86_400_000;
    await backfillDemoHistory(t.app.db, trucks, now);
    const [, purchases] = await seedDemoIfta(t.app.db, orgId, trucks, from, from, now);
    expect(purchases).toBeGreaterThan(4);
    const made = await ensureDemoFuelCards(t.app.db, orgId, trucks, from, now);
    expect(made).toBe(purchases + 4);
    const byCheck = rowsOf<{ v: string; n: number }>(
      await t.database.db.execute(
        `select verification as v, count(*)::int as n from fuel_transactions where organization_id = '${orgId}' group by 1 order by 1` as never,
      ),
    );
    const n = (v: string) => byCheck.find((b) => b.v === v)?.n ?? 0;
    console.log('demo fuel cards', JSON.stringify(byCheck));
    expect(n('VERIFIED')).toBeGreaterThanOrEqual(Math.floor(purchases * 0.8));
    expect(n('OVER_TANK')).toBe(1);
    expect(n('NO_VEHICLE')).toBe(1);
    expect(n('NO_POSITION')).toBeGreaterThanOrEqual(1);
    expect(n('LOCATION_MISMATCH')).toBeGreaterThanOrEqual(1);
    // The demo stops' transactions are their purchases (same receipt), not a second purchase each.
    const [p] = rowsOf<{ card: number; linked: number }>(
      await t.database.db.execute(
        `select (select count(*)::int from ifta_fuel_purchases where organization_id = '${orgId}' and source = 'CARD') as card,
                (select count(*)::int from fuel_transactions t join ifta_fuel_purchases p on p.organization_id = t.organization_id and p.id = t.purchase_id
                  where t.organization_id = '${orgId}' and p.source = 'DEMO') as linked` as never,
      ),
    );
    expect(p).toEqual({ card: 3, linked: purchases });
    expect(await ensureDemoFuelCards(t.app.db, orgId, trucks, from, now)).toBe(0);
  }, 180_000);
});
