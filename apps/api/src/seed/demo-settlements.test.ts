import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementPageSchema, settlementSchema } from '@fleet/api-contract';
import { places } from '../db/schema/index.ts';
import { bearer, createTestApp, registerOrganization, type TestContext } from '../test/helpers.ts';
import { createTestVehicle } from '../test/vehicles.ts';
import { ensureDemoSettlements, lastWeek } from './demo-settlements.ts';

// The demo's driver pay (issue 70): profiles of the drivers of 101-104, a lease and an advance, a
// delivery last week for whoever had none and the team's load, and last week's settlements, one
// paid, one approved, one a draft; a second run makes nothing again.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Demo Pay Carrier');
  orgId = owner.user.organization!.id;
  ownerId = owner.user.id;
  admin = bearer(owner.accessToken);
  for (const unit of ['101', '102', '103', '104']) await createTestVehicle(t.app.db, orgId, { uniqueId: `pay-${unit}`, unitNumber: unit });
  const point = (name: string, lat: number, lon: number) => ({
    organizationId: orgId,
    name,
    category: 'CUSTOMER' as const,
    geometry: { type: 'Point' as const, coordinates: [lon, lat] as [number, number] },
    radiusM: 200,
    address: `${name}, somewhere`,
    minLat: lat,
    maxLat: lat,
    minLon: lon,
    maxLon: lon,
  });
  await t.app.db.insert(places).values([point('Acme DC', 41.88, -87.63), point('Globex Foods', 39.77, -86.16), point('Initech Steel', 38.63, -90.2)]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('demo settlements', () => {
  it("makes last week's settlements: paid, approved and a team's draft, each with something to pay", async () => {
    const made = await ensureDemoSettlements(t.app.db, orgId, ownerId);
    expect(made).toMatchObject({ profiles: 4, loads: 3 });
    expect(made.settlements).toHaveLength(3);
    const week = lastWeek(Date.now(), 'America/Chicago');
    const page = settlementPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/settlements?sort=number,asc`, headers: admin })).json(),
    );
    expect(page.content.map((s) => [s.status, s.from, s.to])).toEqual([
      ['PAID', week.from, week.to],
      ['APPROVED', week.from, week.to],
      ['DRAFT', week.from, week.to],
    ]);
    const full = async (id: string) =>
      settlementSchema.parse((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/settlements/${id}`, headers: admin })).json());
    const [paid, approved, draft] = await Promise.all(page.content.map((s) => full(s.id)));
    // 101: per mile, an hour of detention, the lumper back and the advance off.
    expect(paid!.lines.map((l) => l.kind)).toEqual(expect.arrayContaining(['LOADED_MILES', 'DETENTION', 'REIMBURSEMENT', 'DEDUCTION']));
    expect(paid!.createdBy).toBe('Olive Owner');
    // 102: a share of line haul, less the truck lease.
    expect(approved!.lines.map((l) => [l.kind, l.description])).toEqual(
      expect.arrayContaining([
        ['LINE_HAUL_PERCENT', '72% of line haul'],
        ['DEDUCTION', 'Truck lease, tractor 102'],
      ]),
    );
    // 103: the team's load, at half the team rate.
    expect(draft!.loads.map((l) => [l.seat, l.sharePercent])).toEqual([['LEAD', 50]]);
    expect(draft!.lines.find((l) => l.kind === 'LOADED_MILES')!.description).toBe('Loaded miles (your share: 50%)');
  });

  it('makes nothing again on a second run', async () => {
    expect(await ensureDemoSettlements(t.app.db, orgId, ownerId)).toEqual({ profiles: 0, loads: 0, settlements: [] });
  });
});
