import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosEventDetailSchema, hosImportResultSchema } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';

// What a driver's own entries and the office's proposal list answer when the input is not what they
// need (issue 28, "Safe and honest output"): a change without a location, a change now posted to a
// past day's log, proposals of a driver outside the organization.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const H = 3_600_000;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const eventCount = async (driverId: string) =>
  (
    (await t.database.db.execute(`select count(*)::int as n from hos_events where driver_id = '${driverId}'` as never)) as unknown as {
      rows: Array<{ n: number }>;
    }
  ).rows[0]!.n;

/** A driver signing in with the driver's own codes, with two days of records ending about now. */
async function driverWithRecords() {
  const headers = await userWithPermissions(t, a.orgId, ['HOS_SELF_READ', 'HOS_SELF_WRITE']);
  const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json().id as string;
  const created = await t.app.inject({
    method: 'POST',
    url: org('/drivers'),
    headers: a.admin,
    payload: driverBody({ homeTimeZone: 'America/Chicago', userId }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const driver = created.json() as { id: string };
  const now = Date.now();
  const periods = [
    { status: 'OFF', start: new Date(now - 40 * H).toISOString(), end: new Date(now - 2 * H).toISOString() },
    { status: 'ON', start: new Date(now - 2 * H).toISOString(), end: new Date(now - 60_000).toISOString() },
  ];
  const imported = await t.app.inject({
    method: 'POST',
    url: org(`/drivers/${driver.id}/hos_log/import`),
    headers: a.admin,
    payload: { source: 'Earlier ELD', periods },
  });
  expect(imported.statusCode, imported.body).toBe(201);
  const logs = hosImportResultSchema.parse(imported.json()).logs;
  return { headers, userId, driver, logs };
}

describe("a driver's status change now", () => {
  it('is refused on a past log day without a time (400 naming it), and nothing is stored', async () => {
    const me = await driverWithRecords();
    const today = me.logs.at(-1)!;
    const past = me.logs[0]!;
    expect(past.date < today.date).toBe(true);
    const before = await eventCount(me.driver.id);
    const res = await t.app.inject({
      method: 'POST',
      url: org(`/users/${me.userId}/hos_log/${past.id}/hos_event`),
      headers: me.headers,
      payload: { status: 'OFF', latitude: 41.88, longitude: -87.63 },
    });
    expectFieldErrors(res.json(), 400, { at: `Time is a required field for an entry in the log of ${past.date}` });
    expect(await eventCount(me.driver.id)).toBe(before);
    // Today's log takes it, now.
    const ok = await t.app.inject({
      method: 'POST',
      url: org(`/users/${me.userId}/hos_log/${today.id}/hos_event`),
      headers: me.headers,
      payload: { status: 'OFF', latitude: 41.88, longitude: -87.63 },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(Date.now() - Date.parse(hosEventDetailSchema.parse(ok.json()).at)).toBeLessThan(60_000);
  });

  it('without coordinates needs a typed location of 5 to 60 characters, which is stored as the manual location', async () => {
    const me = await driverWithRecords();
    const url = org(`/users/${me.userId}/hos_log/${me.logs.at(-1)!.id}/hos_event`);
    const before = await eventCount(me.driver.id);
    expectFieldErrors((await t.app.inject({ method: 'POST', url, headers: me.headers, payload: { status: 'SB' } })).json(), 400, {
      locationDescription: 'Your position is not known',
    });
    const short = expectFieldErrors(
      (await t.app.inject({ method: 'POST', url, headers: me.headers, payload: { status: 'SB', locationDescription: ' Bay ' } })).json(),
      400,
      { locationDescription: 'Your position is not known' },
    );
    expect(short.message).toContain('at least 5 characters');
    expect(await eventCount(me.driver.id)).toBe(before);
    const ok = await t.app.inject({ method: 'POST', url, headers: me.headers, payload: { status: 'SB', locationDescription: 'Pilot truck stop, Joliet IL' } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(hosEventDetailSchema.parse(ok.json())).toMatchObject({
      status: 'SB',
      latitude: null,
      longitude: null,
      locationDescription: 'Pilot truck stop, Joliet IL',
    });
  });
});

describe("a driver's proposals", () => {
  it('answer 404 for a driver outside the organization or unknown, never an empty list', async () => {
    const mine = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago' }) });
    const theirs = await t.app.inject({
      method: 'POST',
      url: org('/drivers', a.otherOrgId),
      headers: a.other,
      payload: driverBody({ homeTimeZone: 'America/Chicago' }),
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: org(`/drivers/${mine.json().id}/hos_log/proposals`), headers: a.admin })).json()).toMatchObject({
      content: [],
      totalElements: 0,
    });
    const foreign = await t.app.inject({ method: 'GET', url: org(`/drivers/${theirs.json().id}/hos_log/proposals`), headers: a.admin });
    expect(expectErrorBody(foreign.json(), 404).message).toContain('Driver');
    const unknown = await t.app.inject({ method: 'GET', url: org('/drivers/00000000-0000-4000-8000-000000000000/hos_log/proposals'), headers: a.admin });
    expectErrorBody(unknown.json(), 404);
  });
});
