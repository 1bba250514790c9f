import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityPageSchema, borderCrossingListSchema, borderCrossingSchema, violationPageSchema } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 72 through HTTP: a driver on US rules drives from Detroit into Windsor mid-shift. The
// crossing is found from the truck's positions behind ingest, the Canadian rules apply from it (the
// availability and the violations), and the office corrects it with annotations.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let truck: TestVehicle;

beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'border-truck-1', unitNumber: 'BORDER1' });
});
afterAll(async () => {
  await t?.close();
});

const H = 3_600_000;
const MIN = 60_000;
/** Monday 2026-10-05, 06:00 in Chicago (CDT): the driver's home terminal. */
const T0 = Date.UTC(2026, 9, 5, 11, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const org = (rest: string) => `/api/v1/organizations/${orgId}${rest}`;
const crossingsUrl = (q = `from=${iso(T0 - H)}&to=${iso(T0 + 24 * H)}`) => org(`/drivers/${truck.driverId}/hos_crossings?${q}`);
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

/** One fix a minute from Detroit (Corktown) over the Detroit River into Windsor, then east in Ontario. */
function detroitToWindsor(start: number) {
  const from = { lat: 42.331, lon: -83.08 };
  const to = { lat: 42.29, lon: -82.98 };
  const fixes = [];
  for (let i = 0; i <= 20; i++) {
    const f = i / 20;
    fixes.push({ fixTime: iso(start + i * MIN), latitude: from.lat + (to.lat - from.lat) * f, longitude: from.lon + (to.lon - from.lon) * f, speed: 60 });
  }
  return fixes;
}

async function list() {
  const res = await t.app.inject({ method: 'GET', url: crossingsUrl(), headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return borderCrossingListSchema.parse(res.json());
}

async function availabilityAt(at: number) {
  const res = await t.app.inject({ method: 'GET', url: org(`/availability?at=${encodeURIComponent(iso(at))}&search=BORDER&size=50`), headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  const row = availabilityPageSchema.parse(res.json()).content.find((r) => r.driver.id === truck.driverId);
  expect(row).toBeDefined();
  return row!;
}

async function violations() {
  const res = await t.app.inject({
    method: 'GET',
    url: org(`/violations?driverId=${truck.driverId}&from=${encodeURIComponent(iso(T0))}&to=${encodeURIComponent(iso(T0 + 24 * H))}`),
    headers: admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  return violationPageSchema.parse(res.json()).content.map((v) => [v.rule, v.start, v.end, v.ruleset]);
}

describe('border crossings', () => {
  it('finds the crossing from the positions, and the Canadian rules apply from it', async () => {
    // 1 h on duty, then 12 h of driving with a 30-minute break: past the US 11 h, inside Canada's 13 h.
    let ms = T0;
    const periods = (
      [
        ['ON', 1],
        ['D', 6],
        ['OFF', 0.5],
        ['D', 6],
        ['OFF', 10.5],
      ] as const
    ).map(([status, hours]) => ({ status, start: iso(ms), end: iso((ms += hours * H)) }));
    const imported = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${truck.driverId}/hos_log/import`),
      headers: admin,
      payload: { source: 'Previous ELD', periods },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    // Before the truck crosses: US rules, no time left to drive after 11 h.
    expect(await violations()).toEqual([['DRIVING_LIMIT', iso(T0 + 12.5 * H), iso(T0 + 13.5 * H), 'US_PROPERTY_70_8']]);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: bearer(truck.token),
      payload: { positions: detroitToWindsor(T0 + 2 * H) },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.borderCrossings.idle();
    // Stored behind ingest, before anyone reads the log.
    const rows = await sql<{ source: string; from_country: string; to_country: string; at: Date }>(
      `select source, from_country, to_country, at from hos_border_crossings where driver_id = '${truck.driverId}'`,
    );
    expect(rows.map((r) => [r.source, r.from_country, r.to_country])).toEqual([['POSITIONS', 'US', 'CA']]);

    const { rulesetAtStart, items } = await list();
    expect(rulesetAtStart).toBe('US_PROPERTY_70_8');
    expect(items).toHaveLength(1);
    const c = items[0]!;
    expect(c).toMatchObject({
      from: 'US',
      to: 'CA',
      source: 'POSITIONS',
      vehicleId: truck.assetId,
      annotation: null,
      rulesetBefore: 'US_PROPERTY_70_8',
      rulesetAfter: 'CA_SOUTH_CYCLE_1',
    });
    // Over the Detroit River, between the last fix in Detroit and the first in Windsor.
    expect(Date.parse(c.at)).toBeGreaterThan(T0 + 2 * H);
    expect(Date.parse(c.at)).toBeLessThan(T0 + 2 * H + 20 * MIN);
    expect(c.longitude).toBeGreaterThan(-83.08);
    expect(c.longitude).toBeLessThan(-82.98);

    // 11 h driven: 2 h left by Canada's 13 h.
    const a = await availabilityAt(T0 + 12.5 * H);
    expect(a.ruleset).toBe('CA_SOUTH_CYCLE_1');
    expect(a.strict.driveMs).toBe(2 * H);
    // Before the crossing the US rules count: 1 h driven of 11.
    const before = await availabilityAt(T0 + 2 * H);
    expect(before.ruleset).toBe('US_PROPERTY_70_8');
    expect(before.strict.driveMs).toBe(10 * H);
    expect(await violations()).toEqual([]);
  });

  it('reading the log again finds nothing new', async () => {
    expect((await list()).items).toHaveLength(1);
    expect(await sql(`select id from hos_border_crossings where driver_id = '${truck.driverId}'`)).toHaveLength(1);
  });

  it('the office moves the crossing with an annotation: US rules until the new time', async () => {
    const [c] = (await list()).items;
    const res = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${truck.driverId}/hos_crossings/${c!.id}`),
      headers: admin,
      payload: { at: iso(T0 + 13 * H), annotation: 'Waited at the bridge for customs' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const moved = borderCrossingSchema.parse(res.json());
    expect(moved).toMatchObject({ at: iso(T0 + 13 * H), from: 'US', to: 'CA', source: 'DRIVER', annotation: 'Waited at the bridge for customs' });
    // The detected crossing stays on file, removed with the annotation, and is not detected again.
    const { items } = await list();
    expect(items.map((x) => x.id)).toEqual([moved.id]);
    const kept = await sql<{ source: string; removed_annotation: string | null }>(
      `select source, removed_annotation from hos_border_crossings where driver_id = '${truck.driverId}' order by created_at`,
    );
    expect(kept).toEqual([
      { source: 'POSITIONS', removed_annotation: 'Waited at the bridge for customs' },
      { source: 'DRIVER', removed_annotation: null },
    ]);
    // US findings before the crossing, none after it.
    expect(await violations()).toEqual([['DRIVING_LIMIT', iso(T0 + 12.5 * H), iso(T0 + 13 * H), 'US_PROPERTY_70_8']]);
    const activity = await sql<{ action: string }>(`select action from activity_log where entity_id = '${truck.driverId}' and action = 'CORRECT_HOS_CROSSING'`);
    expect(activity).toHaveLength(1);
  });

  it('bad corrections are refused and change nothing', async () => {
    const [c] = (await list()).items;
    const short = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${truck.driverId}/hos_crossings/${c!.id}`),
      headers: admin,
      payload: { at: iso(T0 + 3 * H), annotation: 'no' },
    });
    expectFieldErrors(short.json(), 400, { annotation: 'Annotation must be at least 4 characters' });
    // The driver is in the US before the crossing: entering the US again is no crossing.
    const again = await t.app.inject({
      method: 'POST',
      url: crossingsUrl(''),
      headers: admin,
      payload: { at: iso(T0 + 3 * H), to: 'US', annotation: 'Crossed back' },
    });
    expectFieldErrors(again.json(), 400, { to: 'The driver is already in the US at that time' });
    const badTo = await t.app.inject({
      method: 'POST',
      url: crossingsUrl(''),
      headers: admin,
      payload: { at: iso(T0 + 3 * H), to: 'MX', annotation: 'Crossed south' },
    });
    expectFieldErrors(badTo.json(), 400, { to: 'To must be US or CA' });
    const range = await t.app.inject({ method: 'GET', url: crossingsUrl(`from=${iso(T0)}&to=${iso(T0 + 40 * 24 * H)}`), headers: admin });
    expectFieldErrors(range.json(), 400, { to: 'The range may cover at most 31 days' });
    expect((await list()).items.map((x) => x.id)).toEqual([c!.id]);
    // Another organization sees no such driver.
    const other = await registerOrganization(t.app);
    const foreign = await t.app.inject({ method: 'GET', url: crossingsUrl(), headers: bearer(other.accessToken) });
    expectErrorBody(foreign.json(), foreign.statusCode === 403 ? 403 : 404);
    const foreignOrg = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/organizations/${other.user.organization!.id}/drivers/${truck.driverId}/hos_crossings/${c!.id}`,
      headers: bearer(other.accessToken),
      payload: { annotation: 'Not ours at all' },
    });
    expectErrorBody(foreignOrg.json(), 404);
    expect((await list()).items.map((x) => x.id)).toEqual([c!.id]);
  });

  it('removing the crossing puts the whole day back on US rules; entering one applies Canada again', async () => {
    const [c] = (await list()).items;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: org(`/drivers/${truck.driverId}/hos_crossings/${c!.id}`),
      headers: admin,
      payload: { annotation: 'Never left Michigan' },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await list()).items).toEqual([]);
    expect(await violations()).toEqual([['DRIVING_LIMIT', iso(T0 + 12.5 * H), iso(T0 + 13.5 * H), 'US_PROPERTY_70_8']]);
    expect((await availabilityAt(T0 + 12.5 * H)).strict.driveMs).toBe(0);

    const added = await t.app.inject({
      method: 'POST',
      url: crossingsUrl(''),
      headers: admin,
      payload: { at: iso(T0 + 3 * H), to: 'CA', annotation: 'Crossed at the Ambassador Bridge' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(borderCrossingSchema.parse(added.json())).toMatchObject({ from: 'US', to: 'CA', source: 'DRIVER', rulesetAfter: 'CA_SOUTH_CYCLE_1' });
    const a = await availabilityAt(T0 + 12.5 * H);
    expect([a.ruleset, a.strict.driveMs]).toEqual(['CA_SOUTH_CYCLE_1', 2 * H]);
    expect(await violations()).toEqual([]);
  });
});
