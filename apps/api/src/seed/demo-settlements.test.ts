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
    ...customer(name, lat, lon),
    organizationId: orgId,
  });
  await t.app.db.insert(places).values([point('Acme DC', 41.88, -87.63), point('Globex Foods', 39.77, -86.16), point('Initech Steel', 38.63, -90.2)]);
}, 60_000);

function customer(name: string, lat: number, lon: number) {
  return {
    name,
    category: 'CUSTOMER' as const,
    geometry: { type: 'Point' as const, coordinates: [lon, lat] as [number, number] },
    radiusM: 200,
    address: `${name}, somewhere`,
    minLat: lat,
    maxLat: lat,
    minLon: lon,
    maxLon: lon,
  };
}
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

  it("makes the team of 103's own load of the week when it has one, instead of a load of its own", async () => {
    const owner = await registerOrganization(t.app, 'Demo Team Carrier');
    const org = owner.user.organization!.id;
    const headers = bearer(owner.accessToken);
    const units = new Map<string, string>();
    for (const unit of ['101', '102', '103', '104'])
      units.set(unit, (await createTestVehicle(t.app.db, org, { uniqueId: `team-${unit}`, unitNumber: unit })).driverId!);
    await t.app.db.insert(places).values([
      { ...customer('Acme DC', 41.88, -87.63), organizationId: org },
      { ...customer('Globex Foods', 39.77, -86.16), organizationId: org },
    ]);
    const day = new Date(Date.parse(`${lastWeek(Date.now(), 'America/Chicago').from}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
    const at = (hhmm: string) => `${day}T${hhmm}:00-06:00`;
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${org}/loads`,
      headers,
      payload: {
        customer: 'Own trip',
        driverIds: [units.get('103')],
        overlapAllowed: true,
        rate: { lineHaul: 900 },
        stops: [
          { kind: 'PICKUP', latitude: 41.88, longitude: -87.63, windowStart: at('06:00'), windowEnd: at('08:00'), serviceMinutes: 30 },
          { kind: 'DELIVERY', latitude: 39.77, longitude: -86.16, windowStart: at('12:00'), windowEnd: at('14:00'), serviceMinutes: 30 },
        ],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const load = made.json() as { id: string; stops: Array<{ id: string }> };
    for (const [i, event, hhmm] of [
      [0, 'ARRIVE', '06:30'],
      [0, 'DEPART', '07:00'],
      [1, 'ARRIVE', '12:00'],
      [1, 'DEPART', '12:30'],
    ] as const)
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/v1/organizations/${org}/loads/${load.id}/stops/${load.stops[i]!.id}/status`,
            headers,
            payload: { event, at: at(hhmm) },
          })
        ).statusCode,
      ).toBe(200);
    const made2 = await ensureDemoSettlements(t.app.db, org, owner.user.id);
    // 101 and 102 get a load each; 103's own trip takes 104 as its second driver.
    expect(made2.loads).toBe(3);
    const after = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${org}/loads/${load.id}`, headers })).json() as {
      drivers: Array<{ id: string }>;
    };
    expect(after.drivers.map((d) => d.id)).toEqual([units.get('103'), units.get('104')]);
  });
});
