import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile, writeEldFile, utcOffsetHours, homeTerminalTime, type EldFile } from '@fleet/eld';
import {
  availabilityPageSchema,
  DRIVER_ROLE_PERMISSIONS,
  hosDiagnosticPageSchema,
  hosDriverStatusSchema,
  hosEventDetailSchema,
  hosImportResultSchema,
  hosLogDaySchema,
  hosProposalPageSchema,
  hosProposalSchema,
  hosUnidentifiedPageSchema,
  hosUnidentifiedSegmentSchema,
  HOS_CERTIFICATION_STATEMENT,
} from '@fleet/api-contract';
import { runEldDiagnostics } from '../../jobs/eld-diagnostics.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, login, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions, vehicleBody } from '../../test/registry.ts';

// The driver's side of the ELD (issue 16) through HTTP: who signs in, the driver's endpoints, the
// office's unidentified driving and diagnostics, the ELD output file and its import.

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
const MIN = 60_000;
/** 08:00 (09:00 in summer) in Chicago some days ago: a day's periods then stay on one log day whatever the hour the suite runs. */
const morningDaysAgo = (days: number) => Math.floor(Date.now() / (24 * H)) * 24 * H - days * 24 * H + 14 * H;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
type Headers = Record<string, string>;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const sqlRows = async <T>(q: string): Promise<T[]> => ((await t.database.db.execute(q as never)) as unknown as { rows: T[] }).rows;

let serial = 0;
/**
 * A driver invited through the driver form, who chose a password from the invitation e-mail and
 * signed in: the built-in Driver role's codes, linked to the driver record.
 */
async function invitedDriver(over: Record<string, unknown> = {}) {
  const email = `drv${Date.now().toString(36)}${++serial}@demofreight.test`;
  const created = await post(
    org('/drivers'),
    a.admin,
    driverBody({ email, invite: true, homeTimeZone: 'America/Chicago', personalConveyanceAllowed: true, yardMovesAllowed: true, ...over }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const driver = created.json() as { id: string; lastName: string; firstName: string; licenseNumber: string; user: { id: string; email: string } };
  const mail = readOutbox(t.dataDir)
    .filter((m) => m.to === email)
    .at(-1)!;
  const token = /create-new-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  const password = 'Driver#Pass2026';
  expect((await post('/api/v1/auth/create-new-password', {}, { token, password })).statusCode).toBe(204);
  const session = await login(t.app, { email, password }, `10.7.${serial % 250}.1`);
  return { driver, userId: session.user.id, headers: bearer(session.accessToken), session, email, password };
}

async function newVehicle(): Promise<{ id: string; unitNumber: string }> {
  const res = await post(org('/assets'), a.admin, vehicleBody({ unitNumber: `U${Date.now().toString(36).slice(-4)}${++serial}` }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function assign(vehicleId: string, driverId: string) {
  const res = await t.app.inject({ method: 'PUT', url: org(`/assets/${vehicleId}/driver/${driverId}`), headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
}

const importPeriods = (driverId: string, periods: Array<{ status: string; start: string; end: string; special?: string }>, headers: Headers = a.admin) =>
  post(org(`/drivers/${driverId}/hos_log/import`), headers, { source: 'Previous ELD', periods });

/** Contiguous [status, hours] from `startMs`. */
function periodsFrom(startMs: number, spec: Array<[string, number]>) {
  let ms = startMs;
  return spec.map(([status, hours]) => ({ status, start: new Date(ms).toISOString(), end: new Date((ms += hours * H)).toISOString() }));
}

const statusUrl = (userId: string, orgId = a.orgId) => org(`/users/${userId}/hos_log/driver-status`, orgId);
async function driverStatus(me: { userId: string; headers: Headers }) {
  const res = await get(statusUrl(me.userId), me.headers);
  expect(res.statusCode, res.body).toBe(200);
  return hosDriverStatusSchema.parse(res.json());
}

describe('who signs in', () => {
  it('every organization has a built-in Driver role holding only the driver codes, which nobody can change', async () => {
    const roles = (await get(org('/roles?size=50'), a.admin)).json().content as Array<{
      id: string;
      name: string;
      builtIn: boolean;
      systemRole: string | null;
      permissions: string[];
    }>;
    expect(roles.slice(0, 2).map((r) => [r.name, r.systemRole])).toEqual([
      ['Administrator', 'ADMIN'],
      ['Driver', 'DRIVER'],
    ]);
    const driverRole = roles[1]!;
    expect(driverRole.permissions.sort()).toEqual([...DRIVER_ROLE_PERMISSIONS].sort());
    expect(driverRole.permissions.filter((p) => ['HOS_LIST', 'HOS_READ', 'ORG_DASH_READ', 'ASSET_LIST', 'DRIVER_LIST'].includes(p))).toEqual([]);
    const put = await t.app.inject({
      method: 'PUT',
      url: org(`/roles/${driverRole.id}`),
      headers: a.admin,
      payload: { name: 'Driver', permissions: ['HOS_SELF_READ', 'HOS_LIST'] },
    });
    expect(expectErrorBody(put.json(), 409).message).toContain('built-in Driver role');
    expect((await t.app.inject({ method: 'DELETE', url: org(`/roles/${driverRole.id}`), headers: a.admin })).statusCode).toBe(409);
    // A new organization gets one too.
    const other = await registerOrganization(t.app, `Fresh Carrier ${Date.now()}`);
    const theirs = (await get(org('/roles', other.user.organization!.id), bearer(other.accessToken))).json().content as Array<{ systemRole: string | null }>;
    expect(theirs.map((r) => r.systemRole)).toEqual(['ADMIN', 'DRIVER']);
  });

  it('the demo drivers sign in with the Driver role, linked to their driver record, and the sign-in is an ELD login record', async () => {
    const s = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' }, '10.8.0.1');
    expect(s.user.driverId).toEqual(expect.any(String));
    expect(s.user.roleName).toBe('Driver');
    expect(s.user.permissions).toEqual([...DRIVER_ROLE_PERMISSIONS].sort());
    const [unit] = await sqlRows<{ unit_number: string }>(`select unit_number from assets where current_driver_id = '${s.user.driverId}'`);
    expect(unit?.unit_number).toBe('101');
    const logins = await sqlRows<{ event_code: number; record_origin: number }>(
      `select event_code, record_origin from hos_events where driver_id = '${s.user.driverId}' and event_type = 5`,
    );
    expect(logins).toEqual([{ event_code: 1, record_origin: 2 }]);
    expect((await post('/api/v1/auth/logout', bearer(s.accessToken), { refreshToken: s.refreshToken })).statusCode).toBeLessThan(300);
    const after = await sqlRows<{ event_code: number }>(
      `select event_code from hos_events where driver_id = '${s.user.driverId}' and event_type = 5 order by sequence_id`,
    );
    expect(after.map((r) => r.event_code)).toEqual([1, 2]);
    // Office accounts write no login records.
    const me = (await get('/api/v1/auth/me', a.admin)).json();
    expect(me.driverId).toBeNull();
  });

  it('creating a driver with an e-mail invites them with the Driver role; the invitation needs USER_CREATE and an e-mail', async () => {
    const me = await invitedDriver();
    expect(me.driver.user).toMatchObject({ id: me.userId, email: me.email });
    expect(me.session.user).toMatchObject({ driverId: me.driver.id, roleName: 'Driver' });
    expect((await activityRows(t.database.db as never, me.userId)).map((r) => r.action)).toContain('INVITE');
    expectFieldErrors((await post(org('/drivers'), a.admin, driverBody({ invite: true }))).json(), 400, {
      email: 'Email is a required field to invite the driver to sign in',
    });
    const driversOnly = await userWithPermissions(t, a.orgId, ['DRIVER_LIST', 'DRIVER_CREATE']);
    const refused = await post(org('/drivers'), driversOnly, driverBody({ email: `x${Date.now()}@demofreight.test`, invite: true }));
    expect(expectErrorBody(refused.json(), 403).technicalMessage).toContain('USER_CREATE');
    // Without `invite` no account is made.
    const plain = await post(org('/drivers'), a.admin, driverBody({ email: `plain${Date.now()}@demofreight.test` }));
    expect(plain.json().user).toBeNull();
  });

  it('a driver is refused every office screen (403), another account (404) and another organization (404)', async () => {
    const me = await invitedDriver();
    const other = await invitedDriver();
    for (const url of [
      org('/hos_log?date=2026-06-01'),
      org('/availability'),
      org('/violations'),
      org('/drivers'),
      org('/hos_log/unidentified'),
      org('/hos_log/diagnostics'),
      org(`/drivers/${me.driver.id}/hos_log/current-day`),
      org(`/drivers/${me.driver.id}/hos_log/proposals`),
      org('/assets'),
    ]) {
      const res = await get(url, me.headers);
      expect(res.statusCode, url).toBe(403);
      expectErrorBody(res.json(), 403);
    }
    expect((await post(org(`/drivers/${me.driver.id}/hos_log/import`), me.headers, { source: 'x', periods: [] })).statusCode).toBe(403);
    for (const url of [
      statusUrl(other.userId),
      org(`/users/${other.userId}/hos_log/current-day`),
      org(`/users/${other.userId}/hos_log/proposals`),
      org(`/drivers/${other.driver.id}/hos_log/eld-output`),
    ]) {
      const res = await get(url, me.headers);
      expect(res.statusCode, url).toBe(404);
      expectErrorBody(res.json(), 404);
    }
    expect((await get(statusUrl(me.userId, a.otherOrgId), me.headers)).statusCode).toBe(404);
    expect((await get(statusUrl(me.userId), {})).statusCode).toBe(401);
    expect((await get(statusUrl(me.userId), a.other)).statusCode).toBe(404);
    // The office reads a driver's screen; a user without either code is refused.
    expect((await get(statusUrl(me.userId), a.dispatcher)).statusCode).toBe(200);
    expect((await get(statusUrl(me.userId), await userWithPermissions(t, a.orgId, ['HOS_LIST']))).statusCode).toBe(403);
    expectFieldErrors((await get(org('/users/nobody/hos_log/driver-status'), me.headers)).json(), 400, { userId: 'userId must be a user id' });
  });
});

describe("the driver's status", () => {
  it('changes now with origin driver, refuses Driving and special categories the record does not allow, and reaches the office availability', async () => {
    const me = await invitedDriver({ yardMovesAllowed: false });
    const status = await driverStatus(me);
    expect(status).toMatchObject({
      driver: { id: me.driver.id, personalConveyanceAllowed: true, yardMovesAllowed: false },
      vehicle: null,
      moving: false,
      pendingProposals: 0,
      unidentifiedSegments: 0,
    });
    const url = org(`/users/${me.userId}/hos_log/${status.today.id}/hos_event`);
    expectFieldErrors((await post(url, me.headers, { status: 'D' })).json(), 400, {
      status: "Driving is recorded from the vehicle's motion and cannot be chosen",
    });
    expectFieldErrors((await post(url, me.headers, { status: 'ON', special: 'YM' })).json(), 400, { special: 'This driver is not allowed yard moves' });
    expectFieldErrors((await post(url, me.headers, { status: 'ON', special: 'PC' })).json(), 400, { special: 'Personal conveyance goes only with status OFF' });
    expectFieldErrors((await post(url, me.headers, { status: 'ON', annotation: 'no' })).json(), 400, {
      annotation: 'Annotation must be at least 4 characters',
    });
    expect(await sqlRows(`select id from hos_events where driver_id = '${me.driver.id}' and event_type = 1`)).toEqual([]);

    // No truck, so no position of the ELD's own: the device's coordinates or a typed location (ELD 4.3.2.7) are needed.
    expectFieldErrors((await post(url, me.headers, { status: 'ON', annotation: 'Pre-trip inspection' })).json(), 400, {
      locationDescription: 'Your position is not known: type where you are',
    });
    expectFieldErrors((await post(url, me.headers, { status: 'ON', locationDescription: 'Yard' })).json(), 400, {
      locationDescription: 'Your position is not known',
    });
    expect(await sqlRows(`select id from hos_events where driver_id = '${me.driver.id}' and event_type = 1`)).toEqual([]);
    const before = Date.now();
    const res = await post(url, me.headers, { status: 'ON', annotation: 'Pre-trip inspection', latitude: 41.88, longitude: -87.63 });
    expect(res.statusCode, res.body).toBe(201);
    const on = hosEventDetailSchema.parse(res.json());
    expect(on).toMatchObject({
      status: 'ON',
      recordStatus: 'ACTIVE',
      recordOrigin: 'DRIVER',
      annotation: 'Pre-trip inspection',
      editRequestId: null,
      latitude: 41.88,
      longitude: -87.63,
    });
    expect(on.locationDescription).toBeTruthy();
    expect(Date.parse(on.at)).toBeGreaterThanOrEqual(before - 1000);
    // The office's availability screen shows it on its next read.
    const avail = availabilityPageSchema.parse((await get(org(`/availability?search=${me.driver.lastName}`), a.dispatcher)).json());
    expect(avail.content[0]).toMatchObject({ driver: { id: me.driver.id }, status: 'ON', since: on.at });
    const mine = await driverStatus(me);
    expect(mine.clocks).toMatchObject({ status: 'ON', since: on.at });
    expect(mine.clocks.strict.windowMs).toBeLessThan(14 * H);

    // Personal conveyance goes with OFF; a plain status after it clears it.
    const pc = hosEventDetailSchema.parse((await post(url, me.headers, { status: 'OFF', special: 'PC', locationDescription: '2 mi ESE Darien, IL' })).json());
    expect(pc).toMatchObject({ status: 'OFF', recordOrigin: 'DRIVER', latitude: null, longitude: null, locationDescription: '2 mi ESE Darien, IL' });
    expect((await driverStatus(me)).clocks).toMatchObject({ status: 'OFF', special: 'PC' });
    // An entry in the past needs an annotation (a missing record, 4.4.4.2.3).
    const past = new Date(Date.now() - 3 * H).toISOString();
    const day = hosLogDaySchema.parse((await get(org(`/users/${me.userId}/hos_log/current-day`), me.headers)).json());
    if (Date.parse(past) >= Date.parse(day.dayStart)) {
      expectFieldErrors((await post(url, me.headers, { status: 'SB', at: past })).json(), 400, { annotation: 'Annotation is a required field' });
    }
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action).filter((x) => x === 'ADD_HOS_EVENT')).toHaveLength(2);
  });

  it('cannot leave automatic driving while the vehicle moves, may once it stopped, and the stopped-vehicle ON is then not recorded', async () => {
    const me = await invitedDriver();
    const truck = await newVehicle();
    await assign(truck.id, me.driver.id);
    const now = Date.now();
    // As automatic duty status records it: Driving from 20 minutes ago on this truck, the truck moving now.
    await t.database.db.execute(
      `insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_origin, event_time, log_date, latitude, longitude)
       values ('${a.orgId}', '${me.driver.id}', '${truck.id}', 100, 1, 3, 1, '${new Date(now - 20 * MIN).toISOString()}', (now() at time zone 'America/Chicago')::date, 41.88, -87.63)` as never,
    );
    const [gw] = await sqlRows<{ id: string }>(
      `insert into gateways (organization_id, unique_id, name) values ('${a.orgId}', 'drv-test-${serial}-${now}', 'Test tracker') returning id`,
    );
    const fix = async (speed: number) =>
      t.database.db.execute(
        `insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, odometer)
         values ('${truck.id}', '${a.orgId}', '${gw!.id}', '${me.driver.id}', now(), now(), 41.9, -87.7, ${speed}, 250000000)
         on conflict (asset_id, organization_id) do update set speed = excluded.speed, fix_time = excluded.fix_time` as never,
      );
    await fix(88);
    const status = await driverStatus(me);
    expect(status).toMatchObject({ vehicle: { id: truck.id }, moving: true, clocks: { status: 'D' } });
    const url = org(`/users/${me.userId}/hos_log/${status.today.id}/hos_event`);
    expectFieldErrors((await post(url, me.headers, { status: 'ON' })).json(), 400, { status: 'The vehicle is moving: Driving is recorded until it stops' });
    await fix(0);
    const on = await post(url, me.headers, { status: 'OFF', annotation: 'Fuel stop' });
    expect(on.statusCode, on.body).toBe(201);
    // Located at the truck's fix, on the truck.
    expect(hosEventDetailSchema.parse(on.json())).toMatchObject({ latitude: 41.9, longitude: -87.7, vehicle: { id: truck.id }, odometerM: 250000000 });
    expect((await driverStatus(me)).clocks.status).toBe('OFF');
  });
});

describe("the driver's log days and trip", () => {
  it("reads their own days, sets the trip (documents, trailers, co-driver) and gets the choices; not another driver's", async () => {
    const me = await invitedDriver();
    const other = await invitedDriver();
    const status = await driverStatus(me);
    const dayUrl = org(`/users/${me.userId}/hos_log/${status.today.id}`);
    const day = await get(dayUrl, me.headers);
    expect(day.statusCode, day.body).toBe(200);
    expect(hosLogDaySchema.parse(day.json()).header.driver.id).toBe(me.driver.id);
    expect((await get(org(`/users/${other.userId}/hos_log/${status.today.id}`), other.headers)).statusCode).toBe(404);
    expect((await get(org(`/users/${me.userId}/hos_log/${status.today.id}`), other.headers)).statusCode).toBe(404);

    const choices = (await get(org(`/users/${me.userId}/hos_log/choices`), me.headers)).json() as {
      trailers: Array<{ id: string; type: string }>;
      coDrivers: Array<{ id: string }>;
    };
    expect(choices.trailers.length).toBeGreaterThan(0);
    expect(choices.trailers.every((x) => x.type === 'TRAILER')).toBe(true);
    expect(choices.coDrivers.map((d) => d.id)).toContain(other.driver.id);
    expect(choices.coDrivers.map((d) => d.id)).not.toContain(me.driver.id);

    const put = (payload: unknown, headers: Headers = me.headers) => t.app.inject({ method: 'PUT', url: dayUrl, headers, payload: payload as object });
    expectFieldErrors((await put({ shippingDocuments: ['x'.repeat(41)], trailerIds: [], coDriverId: null })).json(), 400, {
      'shippingDocuments.0': 'Shipping document must be at most 40 characters',
    });
    expectFieldErrors((await put({ shippingDocuments: [], trailerIds: [], coDriverId: me.driver.id })).json(), 400, {
      coDriverId: 'The co-driver must be another driver',
    });
    const res = await put({ shippingDocuments: ['BOL-7731'], trailerIds: [choices.trailers[0]!.id], coDriverId: other.driver.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(hosLogDaySchema.parse(res.json()).header).toMatchObject({
      shippingDocuments: ['BOL-7731'],
      trailers: [{ id: choices.trailers[0]!.id }],
      coDriver: { id: other.driver.id },
    });
    expect((await put({ shippingDocuments: [], trailerIds: [], coDriverId: null }, other.headers)).statusCode).toBe(404);
    expect((await put({ shippingDocuments: [], trailerIds: [], coDriverId: null }, a.dispatcher)).statusCode).toBe(403);
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action)).toContain('UPDATE_HOS_LOG');
  });
});

describe('certification', () => {
  it('records the statement as a type-4 event numbered per day; an edit asks for it again; only the driver certifies', async () => {
    const me = await invitedDriver();
    const base = morningDaysAgo(3);
    const imported = hosImportResultSchema.parse(
      (
        await importPeriods(
          me.driver.id,
          periodsFrom(base, [
            ['ON', 1],
            ['D', 5],
            ['OFF', 10],
          ]),
        )
      ).json(),
    );
    const day = imported.logs[0]!;
    const certify = (headers: Headers, userId = me.userId, payload: unknown = { agree: true }) =>
      post(org(`/users/${userId}/hos_log/${day.id}/certification`), headers, payload);
    const status = await driverStatus(me);
    expect(status.uncertifiedDays.map((d) => d.date)).toContain(day.date);

    expectFieldErrors((await certify(me.headers, me.userId, { agree: false })).json(), 400, { agree: 'Agree must be true' });
    // The office cannot certify for the driver, even holding every code.
    expect(expectErrorBody((await certify(a.admin)).json(), 403).message).toBe('Only the driver can certify their own records');
    expect((await certify(a.dispatcher)).statusCode).toBe(403);
    const res = await certify(me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(hosLogDaySchema.parse(res.json()).certification).toMatchObject({ certified: true, count: 1 });
    expect((await certify(me.headers)).statusCode).toBe(200);
    const events = await sqlRows<{ event_code: number; log_date: string; record_origin: number }>(
      `select event_code, to_char(log_date, 'YYYY-MM-DD') as log_date, record_origin from hos_events where driver_id = '${me.driver.id}' and event_type = 4`,
    );
    expect(events).toEqual([{ event_code: 1, log_date: day.date, record_origin: 2 }]);
    const activity = await sqlRows<{ changes: { after: { statement: string } } }>(
      `select changes from activity_log where entity_id = '${me.driver.id}' and action = 'CERTIFY_HOS_LOG'`,
    );
    expect(activity[0]!.changes.after.statement).toBe(HOS_CERTIFICATION_STATEMENT);
    expect((await driverStatus(me)).uncertifiedDays.map((d) => d.date)).not.toContain(day.date);

    // The driver edits the certified day: it asks for certification again, the next one is number 2.
    const logDay = hosLogDaySchema.parse((await get(org(`/hos_log/${day.id}`), a.admin)).json());
    const off = logDay.events.find((e) => e.status === 'OFF')!;
    const edit = await t.app.inject({
      method: 'PUT',
      url: org(`/users/${me.userId}/hos_log/${day.id}/hos_event/${off.id}`),
      headers: me.headers,
      payload: { status: 'OFF', at: new Date(base + 6.5 * H).toISOString(), annotation: 'Parked later than logged' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(hosEventDetailSchema.parse(edit.json())).toMatchObject({
      recordStatus: 'ACTIVE',
      recordOrigin: 'DRIVER',
      versions: [{ id: off.id, recordStatus: 'INACTIVE_CHANGED' }],
    });
    const edited = hosLogDaySchema.parse((await get(org(`/hos_log/${day.id}`), a.admin)).json());
    expect(edited.certification).toMatchObject({ certified: false, count: 1 });
    expect(hosLogDaySchema.parse((await certify(me.headers)).json()).certification).toMatchObject({ certified: true, count: 2 });
    const codes = await sqlRows<{ event_code: number }>(
      `select event_code from hos_events where driver_id = '${me.driver.id}' and event_type = 4 order by sequence_id`,
    );
    expect(codes.map((c) => c.event_code)).toEqual([1, 2]);
    // Another driver cannot certify it; a day of another driver is not found.
    const other = await invitedDriver();
    expect((await certify(other.headers)).statusCode).toBe(404);
    expect((await certify(other.headers, other.userId)).statusCode).toBe(404);
  });
});

describe('edit proposals', () => {
  it('the office proposes, the driver sees both sides and accepts or rejects; record statuses follow Appendix A 4.4.4.2.6', async () => {
    const me = await invitedDriver();
    const imported = hosImportResultSchema.parse(
      (
        await importPeriods(
          me.driver.id,
          periodsFrom(Date.parse('2026-09-21T11:00:00Z'), [
            ['ON', 1],
            ['D', 5],
            ['OFF', 10],
          ]),
        )
      ).json(),
    );
    const logId = imported.logs[0]!.id;
    const day = hosLogDaySchema.parse((await get(org(`/hos_log/${logId}`), a.admin)).json());
    const off = day.events.find((e) => e.status === 'OFF')!;
    const on = day.events.find((e) => e.status === 'ON')!;
    const officeEdit = (eventId: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: org(`/drivers/${me.driver.id}/hos_log/${logId}/hos_event/${eventId}`), headers: a.admin, payload: payload as object });
    const first = hosEventDetailSchema.parse((await officeEdit(off.id, { status: 'ON', at: '2026-09-21T17:00:00Z', annotation: 'Unloading until 12' })).json());
    const second = hosEventDetailSchema.parse((await officeEdit(off.id, { status: 'OFF', at: '2026-09-21T17:15:00Z', annotation: 'Off at 12:15' })).json());
    const third = hosEventDetailSchema.parse(
      (await officeEdit(on.id, { status: 'ON', at: '2026-09-21T10:45:00Z', annotation: 'Pre-trip began earlier' })).json(),
    );
    for (const p of [first, second, third]) expect(p).toMatchObject({ recordStatus: 'INACTIVE_CHANGE_REQUESTED', recordOrigin: 'OTHER' });

    const list = hosProposalPageSchema.parse((await get(org(`/users/${me.userId}/hos_log/proposals?state=PENDING`), me.headers)).json());
    expect(list.totalElements).toBe(3);
    const p1 = list.content.find((p) => p.id === first.editRequestId)!;
    expect(p1).toMatchObject({
      kind: 'EDIT',
      state: 'PENDING',
      applicable: true,
      annotation: 'Unloading until 12',
      log: { id: logId, date: '2026-09-21' },
      requestedBy: { name: expect.any(String) },
    });
    expect(p1.original.map((e) => [e.id, e.status, e.recordStatus])).toEqual([[off.id, 'OFF', 'ACTIVE']]);
    expect(p1.proposed.map((e) => [e.status, e.at, e.recordStatus])).toEqual([['ON', '2026-09-21T17:00:00.000Z', 'INACTIVE_CHANGE_REQUESTED']]);
    expect((await driverStatus(me)).pendingProposals).toBe(3);

    const decide = (id: string, what: 'accept' | 'reject', headers: Headers = me.headers, payload?: unknown) =>
      post(org(`/users/${me.userId}/hos_log/proposals/${id}/${what}`), headers, payload);
    // Only the driver decides.
    expect(expectErrorBody((await decide(p1.id, 'accept', a.admin)).json(), 403).message).toContain('Only the driver');
    const stranger = await invitedDriver();
    expect((await post(org(`/users/${stranger.userId}/hos_log/proposals/${p1.id}/accept`), stranger.headers)).statusCode).toBe(404);
    expect((await decide(p1.id, 'accept', stranger.headers)).statusCode).toBe(404);

    const accepted = hosProposalSchema.parse((await decide(p1.id, 'accept')).json());
    expect(accepted).toMatchObject({ state: 'ACCEPTED', decidedAt: expect.any(String), applicable: false });
    expect(accepted.original[0]!.recordStatus).toBe('INACTIVE_CHANGED');
    expect(accepted.proposed[0]!.recordStatus).toBe('ACTIVE');
    // The second proposal replaced the same original: it no longer fits and can only be rejected.
    const stale = await decide(second.editRequestId!, 'accept');
    expect(expectErrorBody(stale.json(), 409).message).toContain('only be rejected');
    const rejected = hosProposalSchema.parse((await decide(second.editRequestId!, 'reject', me.headers, { note: 'That is not right' })).json());
    expect(rejected).toMatchObject({ state: 'REJECTED' });
    expect(rejected.proposed[0]!.recordStatus).toBe('INACTIVE_CHANGE_REJECTED');
    expect(rejected.original[0]!.recordStatus).toBe('INACTIVE_CHANGED');
    // The same decision sent again (a phone resending) answers it as made; the other one is a 409.
    const again = await decide(second.editRequestId!, 'reject');
    expect(again.statusCode).toBe(200);
    expect(hosProposalSchema.parse(again.json())).toMatchObject({ state: 'REJECTED', decidedAt: rejected.decidedAt });
    expect(expectErrorBody((await decide(second.editRequestId!, 'accept')).json(), 409).message).toContain('already rejected');
    expect(hosProposalSchema.parse((await decide(p1.id, 'accept')).json())).toMatchObject({ state: 'ACCEPTED', decidedAt: accepted.decidedAt });
    const rejected3 = hosProposalSchema.parse((await decide(third.editRequestId!, 'reject')).json());
    expect(rejected3.original[0]).toMatchObject({ id: on.id, recordStatus: 'ACTIVE' });

    // The log day as the office sees it: the accepted edit in force, the rejected ones kept and marked.
    const after = hosLogDaySchema.parse((await get(org(`/hos_log/${logId}`), a.admin)).json());
    const rows = after.events
      .filter((e) => e.eventType === 1)
      .map((e) => [e.status, e.at.slice(11, 16), e.recordStatus, e.recordOrigin, e.editRequestId !== null]);
    expect(rows).toEqual([
      ['ON', '10:45', 'INACTIVE_CHANGE_REJECTED', 'OTHER', true],
      ['ON', '11:00', 'ACTIVE', 'OTHER', false],
      ['D', '12:00', 'ACTIVE', 'OTHER', false],
      ['OFF', '17:00', 'INACTIVE_CHANGED', 'OTHER', false],
      ['ON', '17:00', 'ACTIVE', 'OTHER', true],
      ['OFF', '17:15', 'INACTIVE_CHANGE_REJECTED', 'OTHER', true],
    ]);
    expect(after.segments.at(-1)).toMatchObject({ status: 'ON', start: '2026-09-21T17:00:00.000Z' });
    const office = hosProposalPageSchema.parse((await get(org(`/drivers/${me.driver.id}/hos_log/proposals`), a.dispatcher)).json());
    expect(office.content.map((p) => p.state).sort()).toEqual(['ACCEPTED', 'REJECTED', 'REJECTED']);
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action).filter((x) => x.endsWith('PROPOSAL'))).toEqual([
      'ACCEPT_HOS_PROPOSAL',
      'REJECT_HOS_PROPOSAL',
      'REJECT_HOS_PROPOSAL',
    ]);
    expectFieldErrors((await get(org(`/users/${me.userId}/hos_log/proposals?state=MAYBE`), me.headers)).json(), 400, {
      'querystring.state': 'State must be PENDING, ACCEPTED or REJECTED',
    });
    // The admin who proposed hears of each decision in the bell; the dispatcher, who proposed nothing, does not.
    const bell = async (headers: Headers) =>
      ((await get(org('/notifications?size=50'), headers)).json().content as Array<{ kind: string; title: string }>).filter(
        (n) => n.kind === 'EDIT_PROPOSAL_DECIDED' && n.title.startsWith(`${me.driver.firstName} ${me.driver.lastName} `),
      );
    expect((await bell(a.admin)).map((n) => n.title.replace(`${me.driver.firstName} ${me.driver.lastName} `, '')).sort()).toEqual([
      'accepted your edit of the log of 2026-09-21',
      'rejected your edit of the log of 2026-09-21',
      'rejected your edit of the log of 2026-09-21',
    ]);
    expect(await bell(a.dispatcher)).toEqual([]);
  });
});

/** Unidentified driving on a vehicle as automatic duty status writes it: D, an intermediate log an hour in, ON at the end. */
async function unidentifiedDriving(vehicleId: string, startMs: number, minutes: number, seq: number, odometerM = 100_000_000): Promise<string> {
  const endMs = startMs + minutes * MIN;
  const rows = await sqlRows<{ id: string }>(
    `insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_origin, event_time, log_date, latitude, longitude, location_description, odometer_m) values
     ('${a.orgId}', null, '${vehicleId}', ${seq}, 1, 3, 1, '${new Date(startMs).toISOString()}', '${new Date(startMs).toISOString().slice(0, 10)}', 41.88, -87.63, '1 mi N of Chicago, IL', ${odometerM}),
     ${minutes > 60 ? `('${a.orgId}', null, '${vehicleId}', ${seq + 1}, 2, 1, 1, '${new Date(startMs + H).toISOString()}', '${new Date(startMs + H).toISOString().slice(0, 10)}', 41.6, -87.4, null, ${odometerM + 90_000}),` : ''}
     ('${a.orgId}', null, '${vehicleId}', ${seq + 2}, 1, 4, 1, '${new Date(endMs).toISOString()}', '${new Date(endMs).toISOString().slice(0, 10)}', 41.5, -87.3, '2 mi S of Gary, IN', ${odometerM + 120_000})
     returning id`,
  );
  return rows[0]!.id;
}

describe('unidentified driving', () => {
  it('lists segments for the office, lets the driver of the vehicle claim one (origin 4, originals inactive-changed)', async () => {
    const me = await invitedDriver();
    const truck = await newVehicle();
    await assign(truck.id, me.driver.id);
    const start = Date.now() - 6 * H;
    const segmentId = await unidentifiedDriving(truck.id, start, 90, 1);
    const page = hosUnidentifiedPageSchema.parse((await get(org(`/hos_log/unidentified?assetId=${truck.id}`), a.dispatcher)).json());
    expect(page).toMatchObject({ page: 0, size: 15, totalElements: 1, totalPages: 1 });
    expect(page.content[0]).toMatchObject({
      id: segmentId,
      vehicle: { id: truck.id, unitNumber: truck.unitNumber },
      start: new Date(start).toISOString(),
      end: new Date(start + 90 * MIN).toISOString(),
      durationMs: 90 * MIN,
      distanceM: 120_000,
      startLocation: { description: '1 mi N of Chicago, IL', latitude: 41.88 },
      endLocation: { description: '2 mi S of Gary, IN' },
      state: 'UNASSIGNED',
    });
    expect((await get(org('/hos_log/unidentified'), me.headers)).statusCode).toBe(403);
    expectFieldErrors((await get(org('/hos_log/unidentified?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z'), a.admin)).json(), 400, {
      to: 'To must be after From',
    });
    expect((await get(org('/hos_log/unidentified'), a.other)).statusCode).toBe(404);

    const mine = hosUnidentifiedPageSchema.parse((await get(org(`/users/${me.userId}/hos_log/unidentified`), me.headers)).json());
    expect(mine.content.map((s) => s.id)).toEqual([segmentId]);
    expect((await driverStatus(me)).unidentifiedSegments).toBe(1);
    // Another driver, whose vehicle it is not, sees nothing and cannot claim it.
    const other = await invitedDriver();
    expect(hosUnidentifiedPageSchema.parse((await get(org(`/users/${other.userId}/hos_log/unidentified`), other.headers)).json()).totalElements).toBe(0);
    const foreignClaim = await post(org(`/users/${other.userId}/hos_log/unidentified/${segmentId}/claim`), other.headers);
    expect(foreignClaim.statusCode, foreignClaim.body).toBe(404);
    // The office cannot claim it for the driver.
    expect((await post(org(`/users/${me.userId}/hos_log/unidentified/${segmentId}/claim`), a.admin)).statusCode).toBe(403);

    const claimed = await post(org(`/users/${me.userId}/hos_log/unidentified/${segmentId}/claim`), me.headers, { annotation: 'That was me, forgot to log in' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(hosUnidentifiedSegmentSchema.parse(claimed.json())).toMatchObject({ state: 'ASSIGNED', driver: { id: me.driver.id } });
    const originals = await sqlRows<{ record_status: number }>(
      `select record_status from hos_events where vehicle_id = '${truck.id}' and driver_id is null order by sequence_id`,
    );
    expect(originals.map((r) => r.record_status)).toEqual([2, 2, 2]);
    const copies = await sqlRows<{ event_type: number; event_code: number; record_status: number; record_origin: number; annotation: string | null }>(
      `select event_type, event_code, record_status, record_origin, annotation from hos_events where driver_id = '${me.driver.id}' and event_type in (1, 2) order by event_time`,
    );
    expect(copies).toEqual([
      { event_type: 1, event_code: 3, record_status: 1, record_origin: 4, annotation: 'That was me, forgot to log in' },
      { event_type: 2, event_code: 1, record_status: 1, record_origin: 4, annotation: null },
      { event_type: 1, event_code: 4, record_status: 1, record_origin: 4, annotation: null },
    ]);
    expect((await driverStatus(me)).clocks.strict.driveMs).toBe(11 * H - 90 * MIN);
    expect((await post(org(`/users/${me.userId}/hos_log/unidentified/${segmentId}/claim`), me.headers)).statusCode).toBe(409);
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action)).toContain('CLAIM_UNIDENTIFIED');
  });

  it("the office proposes a segment to a driver who accepts it, or annotates one as nobody's driving", async () => {
    const me = await invitedDriver();
    const truck = await newVehicle();
    const start = Date.now() - 30 * H;
    const proposedId = await unidentifiedDriving(truck.id, start, 45, 1);
    const testDriveId = await unidentifiedDriving(truck.id, start + 5 * H, 20, 4);
    const propose = (id: string, payload: unknown, headers: Headers = a.admin) => post(org(`/hos_log/unidentified/${id}/proposal`), headers, payload);
    expectFieldErrors((await propose(proposedId, { driverId: 'me' })).json(), 400, { driverId: 'Driver must be a driver id' });
    expectFieldErrors((await propose(proposedId, { driverId: '00000000-0000-4000-8000-000000000000' })).json(), 400, {
      driverId: 'Driver must be an active driver of the organization',
    });
    expect((await propose(proposedId, { driverId: me.driver.id }, a.dispatcher)).statusCode).toBe(403);
    const res = await propose(proposedId, { driverId: me.driver.id, annotation: 'Your truck that night' });
    expect(res.statusCode, res.body).toBe(201);
    expect(hosUnidentifiedSegmentSchema.parse(res.json())).toMatchObject({ state: 'PROPOSED', driver: { id: me.driver.id }, proposalId: expect.any(String) });
    expect((await propose(proposedId, { driverId: me.driver.id })).statusCode).toBe(409);

    const proposals = hosProposalPageSchema.parse((await get(org(`/users/${me.userId}/hos_log/proposals`), me.headers)).json());
    const p = proposals.content[0]!;
    expect(p).toMatchObject({ kind: 'ASSIGN_UNIDENTIFIED', state: 'PENDING', annotation: 'Your truck that night' });
    expect(p.original.map((e) => [e.status, e.recordStatus, e.recordOrigin])).toEqual([
      ['D', 'ACTIVE', 'AUTOMATIC'],
      ['ON', 'ACTIVE', 'AUTOMATIC'],
    ]);
    expect(p.proposed.map((e) => [e.status, e.recordStatus, e.recordOrigin])).toEqual([
      ['D', 'INACTIVE_CHANGE_REQUESTED', 'UNIDENTIFIED'],
      ['ON', 'INACTIVE_CHANGE_REQUESTED', 'UNIDENTIFIED'],
    ]);
    const accepted = hosProposalSchema.parse((await post(org(`/users/${me.userId}/hos_log/proposals/${p.id}/accept`), me.headers)).json());
    expect(accepted.proposed.map((e) => e.recordStatus)).toEqual(['ACTIVE', 'ACTIVE']);
    expect(accepted.original.map((e) => e.recordStatus)).toEqual(['INACTIVE_CHANGED', 'INACTIVE_CHANGED']);

    const annotate = (payload: unknown) => post(org(`/hos_log/unidentified/${testDriveId}/annotation`), a.admin, payload);
    expectFieldErrors((await annotate({ reason: 'no' })).json(), 400, { reason: 'Reason must be at least 4 characters' });
    expectFieldErrors((await annotate({ reason: 'x'.repeat(61) })).json(), 400, { reason: 'Reason must be at most 60 characters' });
    const noted = await annotate({ reason: 'Mechanic test drive after brake repair' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(hosUnidentifiedSegmentSchema.parse(noted.json())).toMatchObject({
      state: 'ANNOTATED',
      annotation: { reason: 'Mechanic test drive after brake repair' },
    });
    expect((await post(org(`/hos_log/unidentified/${proposedId}/annotation`), a.admin, { reason: 'Not a driver' })).statusCode).toBe(409);
    const list = hosUnidentifiedPageSchema.parse((await get(org(`/hos_log/unidentified?assetId=${truck.id}`), a.admin)).json());
    expect(list.content.map((s) => [s.id, s.state])).toEqual([
      [testDriveId, 'ANNOTATED'],
      [proposedId, 'ASSIGNED'],
    ]);
    expect(hosUnidentifiedPageSchema.parse((await get(org(`/hos_log/unidentified?assetId=${truck.id}&state=ANNOTATED`), a.admin)).json()).totalElements).toBe(
      1,
    );
  });
});

describe('malfunctions and data diagnostics', () => {
  it('logs the unidentified driving diagnostic above 30 minutes in 24 hours, lists it per vehicle and on the log day and the driver screen', async () => {
    const me = await invitedDriver();
    const truck = await newVehicle();
    await assign(truck.id, me.driver.id);
    const now = Date.now();
    await unidentifiedDriving(truck.id, now - 3 * H, 40, 1);
    const [gw] = await sqlRows<{ id: string }>(
      `insert into gateways (organization_id, unique_id, name) values ('${a.orgId}', 'diag-${now}', 'Diag tracker') returning id`,
    );
    await t.database.db.execute(
      `insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed) values ('${truck.id}', '${a.orgId}', '${gw!.id}', '${me.driver.id}', now(), now(), 41.5, -87.3, 0)` as never,
    );
    const run = await runEldDiagnostics(t.database, now);
    expect(run).toMatchObject({ ran: true });
    expect(run.logged).toBeGreaterThanOrEqual(1);
    const stored = await sqlRows<{ event_code: number; diagnostic_code: string; record_origin: number }>(
      `select event_code, diagnostic_code, record_origin from hos_events where vehicle_id = '${truck.id}' and event_type = 7`,
    );
    expect(stored).toEqual([{ event_code: 3, diagnostic_code: '5', record_origin: 1 }]);
    // A second run changes nothing.
    await runEldDiagnostics(t.database, now + MIN);
    expect(await sqlRows(`select id from hos_events where vehicle_id = '${truck.id}' and event_type = 7`)).toHaveLength(1);
    // The office hears of it once in the bell (HOS_LIST); the driver, without that code, does not.
    const bell = async (headers: Headers) =>
      (
        (await get(org('/notifications?size=50'), headers)).json().content as Array<{ kind: string; title: string; expandedButton: { href: string } | null }>
      ).filter((n) => n.kind === 'UNIDENTIFIED_DRIVING' && n.title.startsWith(`Vehicle ${truck.unitNumber} `));
    expect(await bell(a.dispatcher)).toEqual([
      expect.objectContaining({
        title: `Vehicle ${truck.unitNumber} drove over 30 minutes with nobody logged in`,
        expandedButton: { href: '/hos/unidentified', label: 'Review unidentified driving' },
      }),
    ]);
    expect(await bell(me.headers)).toEqual([]);

    const page = hosDiagnosticPageSchema.parse((await get(org(`/hos_log/diagnostics?assetId=${truck.id}`), a.dispatcher)).json());
    expect(page.content).toEqual([
      expect.objectContaining({
        kind: 'DIAGNOSTIC',
        code: '5',
        name: 'Unidentified driving records data diagnostic',
        active: true,
        vehicle: { id: truck.id, unitNumber: truck.unitNumber, type: 'VEHICLE' },
      }),
    ]);
    expect(page.content[0]!.detail).toContain('40 min of unidentified driving');
    expect((await driverStatus(me)).diagnostics.map((d) => d.code)).toEqual(['5']);
    // The log day of a driver who drove the truck that day lists it.
    await importPeriods(me.driver.id, [{ status: 'ON', start: new Date(now - 20 * MIN).toISOString(), end: new Date(now - MIN).toISOString() }]);
    await t.database.db.execute(`update hos_events set vehicle_id = '${truck.id}' where driver_id = '${me.driver.id}' and event_type = 1` as never);
    const today = hosLogDaySchema.parse((await get(org(`/drivers/${me.driver.id}/hos_log/current-day`), a.admin)).json());
    expect(today.diagnostics.map((d) => [d.code, d.active])).toEqual([['5', true]]);
    expect((await get(org('/hos_log/diagnostics'), me.headers)).statusCode).toBe(403);
    expectFieldErrors((await get(org('/hos_log/diagnostics?active=maybe'), a.admin)).json(), 400, { 'querystring.active': 'Active must be true or false' });

    // Cleared once 8 days hold 15 minutes or less: the driving was claimed meanwhile? No, time passes: 9 days later.
    const later = await runEldDiagnostics(t.database, now + 9 * 24 * H);
    expect(later.cleared).toBeGreaterThanOrEqual(1);
    const codes = await sqlRows<{ event_code: number }>(
      `select event_code from hos_events where vehicle_id = '${truck.id}' and event_type = 7 order by sequence_id`,
    );
    expect(codes.map((c) => c.event_code)).toEqual([3, 4]);
  });
});

describe('the ELD output file', () => {
  it('answers the file for the driver and the office, named in Content-Disposition; it parses back into the records', async () => {
    const me = await invitedDriver();
    const truck = await newVehicle();
    await assign(truck.id, me.driver.id);
    const base = morningDaysAgo(3);
    const imported = hosImportResultSchema.parse(
      (
        await importPeriods(
          me.driver.id,
          periodsFrom(base, [
            ['ON', 1],
            ['D', 5],
            ['OFF', 1],
            ['D', 3],
            ['SB', 10],
          ]),
        )
      ).json(),
    );
    await post(org(`/users/${me.userId}/hos_log/${imported.logs[0]!.id}/certification`), me.headers, { agree: true });
    const day = hosLogDaySchema.parse((await get(org(`/hos_log/${imported.logs[0]!.id}`), a.admin)).json());
    const d1 = day.events.find((e) => e.status === 'D')!;
    await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${me.driver.id}/hos_log/${day.id}/hos_event/${d1.id}`),
      headers: a.admin,
      payload: { status: 'D', at: new Date(Date.parse(d1.at) - 10 * MIN).toISOString(), annotation: 'Left the yard earlier' },
    });

    const url = (q = '', driverId = me.driver.id) => org(`/drivers/${driverId}/hos_log/eld-output${q}`);
    const res = await get(url('?comment=Officer%2012'), me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const name = /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))![1]!;
    expect(name).toMatch(/^.{25}\.csv$/);
    expect(name.slice(0, 5)).toBe(
      me.driver.lastName
        .replace(/[^A-Za-z]/g, '')
        .slice(0, 5)
        .padEnd(5, '_'),
    );
    expect(/^[\x20-\x7e\r\n]*$/.test(res.body)).toBe(true);
    const file = parseEldFile(res.body);
    expect(file.header.driver).toMatchObject({ lastName: me.driver.lastName, username: me.email, licenseNumber: me.driver.licenseNumber });
    expect(file.header.outputFileComment).toBe('Officer 12');
    expect(file.header.cmv.powerUnitNumber).toBe(truck.unitNumber);
    expect(file.header.carrier).toMatchObject({ name: 'Demo Freight', usdotNumber: '2718281' });
    // Every type 1-3 record of the driver, every status and origin, most recent first: the same as the database's.
    const stored = await sqlRows<{
      sequence_id: number;
      record_status: number;
      record_origin: number;
      event_type: number;
      event_code: number;
      event_time: string;
    }>(
      `select sequence_id, record_status, record_origin, event_type, event_code, event_time from hos_events where driver_id = '${me.driver.id}' and event_type in (1, 2, 3) order by sequence_id`,
    );
    const fromFile = [...file.events].sort((x, y) => x.sequenceId - y.sequenceId);
    expect(fromFile.map((e) => [e.sequenceId, e.recordStatus, e.recordOrigin, e.type, e.code, e.at])).toEqual(
      stored.map((r) => [
        r.sequence_id,
        r.record_status,
        r.record_origin,
        r.event_type,
        r.event_code,
        homeTerminalTime(new Date(r.event_time), 'America/Chicago'),
      ]),
    );
    expect(fromFile.some((e) => e.recordStatus === 3)).toBe(true);
    expect(file.users.map((u) => u.accountType)).toEqual(['D', 'S']);
    expect(file.certifications).toHaveLength(1);
    expect(file.certifications[0]).toMatchObject({ code: 1, certifiedDate: imported.logs[0]!.date });
    expect(file.loginLogouts.map((l) => l.code)).toEqual([1]);
    // Written again from the parsed model: the same text (the parser reads everything the writer wrote).
    expect(writeEldFile(file).text).toBe(res.body);

    expect((await get(url(), a.dispatcher)).statusCode).toBe(200);
    expect((await get(url(), await userWithPermissions(t, a.orgId, ['HOS_LIST']))).statusCode).toBe(403);
    expect((await get(url(), a.other)).statusCode).toBe(404);
    expectFieldErrors((await get(url('?from=2026-06-10&to=2026-06-01'), me.headers)).json(), 400, { to: 'To must not be before From' });
    expectFieldErrors((await get(url('?from=2026-01-01&to=2026-06-01'), me.headers)).json(), 400, { to: 'The file may cover at most 31 days' });
    expectFieldErrors((await get(url('?from=june'), me.headers)).json(), 400, { 'querystring.from': 'From must be a date like 2026-06-01' });
  });

  it('sends the file by e-mail as an attachment to the address the officer gives', async () => {
    const me = await invitedDriver();
    await importPeriods(
      me.driver.id,
      periodsFrom(Date.now() - 30 * H, [
        ['ON', 2],
        ['D', 4],
        ['OFF', 10],
      ]),
    );
    const url = org(`/drivers/${me.driver.id}/hos_log/eld-output/email`);
    expectFieldErrors((await post(url, me.headers, { email: 'officer' })).json(), 400, { email: 'Email must be a valid email address' });
    const res = await post(url, me.headers, { email: 'Officer@Fmcsa.Example', comment: 'Roadside 7' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sentTo: 'officer@fmcsa.example', fileName: expect.stringMatching(/^.{25}$/) });
    const mail = readOutbox(t.dataDir)
      .filter((m) => m.to === 'officer@fmcsa.example')
      .at(-1) as unknown as { subject: string; attachments: Array<{ filename: string; content: string }> };
    expect(mail.subject).toContain('ELD output file');
    expect(mail.attachments[0]!.filename).toBe(`${res.json().fileName}.csv`);
    expect(parseEldFile(mail.attachments[0]!.content).header.outputFileComment).toBe('Roadside 7');
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action)).toContain('SEND_ELD_OUTPUT');
    const other = await invitedDriver();
    expect((await post(url, other.headers, { email: 'officer@fmcsa.example' })).statusCode).toBe(404);
  });
});

describe('importing an ELD output file', () => {
  /** A file another ELD made for the driver: two days ending now, in the driver's home zone. */
  function fileFor(d: { lastName: string; firstName: string; licenseNumber: string }, now: number, zone = 'America/Chicago'): string {
    const at = (ms: number) => homeTerminalTime(ms, zone);
    const start = now - 30 * H;
    const ev = (seq: number, code: number, ms: number) => ({
      sequenceId: seq,
      recordStatus: 1 as const,
      recordOrigin: 1 as const,
      type: 1 as const,
      code,
      at: at(ms),
      accumulatedVehicleMiles: 0,
      elapsedEngineHours: 0,
      position: { kind: 'fix' as const, latitude: 39.1, longitude: -94.6, reduced: false },
      distanceSinceLastValidCoordinates: 0,
      cmvOrder: 1,
      userOrder: null,
      malfunction: false,
      dataDiagnostic: false,
      annotation: null,
    });
    const file: EldFile = {
      header: {
        driver: { lastName: d.lastName, firstName: d.firstName, username: 'previous-eld-user', licenseState: 'IL', licenseNumber: d.licenseNumber },
        coDriver: null,
        cmv: { powerUnitNumber: '77', vin: '', trailerNumbers: [] },
        carrier: { usdotNumber: '123456', name: 'Previous Carrier Inc' },
        multidayBasis: 8,
        periodStartTime: '00:00:00',
        timeZoneOffsetHours: utcOffsetHours(now, zone),
        shippingDocumentNumber: '',
        exempt: false,
        current: { at: at(now), position: { kind: 'none' }, totalVehicleMiles: null, totalEngineHours: null },
        eld: { registrationId: 'AB12', identifier: 'OTHELD', authenticationValue: 'previous-eld-signature-value' },
        outputFileComment: '',
      },
      users: [{ accountType: 'D', lastName: d.lastName, firstName: d.firstName }],
      cmvs: [{ powerUnitNumber: '77', vin: '' }],
      events: [
        ev(10, 4, start),
        ev(11, 3, start + H),
        ev(12, 1, start + 6 * H),
        { ...ev(13, 2, start + 16 * H), recordStatus: 2 as const },
        ev(14, 2, start + 17 * H),
      ],
      certifications: [],
      malfunctions: [],
      loginLogouts: [],
      enginePower: [],
      unidentifiedEvents: [],
    };
    return writeEldFile(file).text;
  }

  it('imports the active duty statuses of a file for the same driver (text/csv and multipart), refuses a bad one whole naming line and field', async () => {
    const create = async () =>
      (await post(org('/drivers'), a.admin, driverBody({ homeTimeZone: 'America/Chicago' }))).json() as {
        id: string;
        lastName: string;
        firstName: string;
        licenseNumber: string;
      };
    const d = await create();
    const now = Date.now() - 5 * MIN;
    const text = fileFor(d, now);
    const url = org(`/drivers/${d.id}/hos_log/import`);
    const send = (body: string, driverUrl = url) =>
      t.app.inject({ method: 'POST', url: driverUrl, headers: { ...a.admin, 'content-type': 'text/csv' }, payload: body });

    // A line's check value that does not match: 400 naming the line, nothing stored.
    const broken = text.replace(/^([0-9A-F]+),1,1,1,4,/m, (m) => m.replace(/,4,$/, ',3,'));
    expect(broken).not.toBe(text);
    const bad = await send(broken);
    const words = expectErrorBody(bad.json(), 400);
    expect(words.technicalMessage).toMatch(/^file: Line \d+ \(ELD Event List\)/);
    // Another driver's file.
    const stranger = await create();
    const theirs = await send(text, org(`/drivers/${stranger.id}/hos_log/import`));
    expect(expectErrorBody(theirs.json(), 400).message).toContain("Driver's License Number");
    expect(await sqlRows(`select id from hos_events where driver_id in ('${d.id}', '${stranger.id}')`)).toEqual([]);

    const res = await send(text);
    expect(res.statusCode, res.body).toBe(201);
    const result = hosImportResultSchema.parse(res.json());
    // ON, D, OFF and the last SB (the inactive SB record is not a period).
    expect(result.events).toBe(4);
    const stored = await sqlRows<{ event_code: number; record_origin: number; annotation: string }>(
      `select event_code, record_origin, annotation from hos_events where driver_id = '${d.id}' order by event_time`,
    );
    expect(stored.map((s) => s.event_code)).toEqual([4, 3, 1, 2]);
    expect(stored[0]).toMatchObject({ record_origin: 3, annotation: 'Imported from ELD OTHELD file' });

    // Multipart upload of a file for another driver.
    const d2 = await create();
    const boundary = '----eldfile';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n${fileFor(d2, now)}\r\n--${boundary}--\r\n`;
    const multi = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${d2.id}/hos_log/import`),
      headers: { ...a.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(multi.statusCode, multi.body).toBe(201);
    // JSON periods still work and are still checked per field.
    expectFieldErrors((await post(url, a.admin, { source: 'x', periods: [{ status: 'NAP', start: 'x', end: 'y' }] })).json(), 400, {
      'periods.0.status': 'Status must be OFF, SB, D or ON',
    });
    expect((await send(text, org(`/drivers/${d.id}/hos_log/import`).replace(a.orgId, a.otherOrgId))).statusCode).toBe(404);
  });
});

describe('hos.duty_status_changed from every path that changes a duty status (issue 48)', () => {
  it('the driver’s edit, an office edit once the driver accepts it, and claimed unidentified driving each write one, in their transaction', async () => {
    // A subscription of the organization (the outbox writes only for one that wants the type); its URL
    // is refused by the sender (plain http), so the rows stay to be read here.
    const [sub] = await sqlRows<{ id: string }>(
      `insert into webhook_subscriptions (organization_id, url, events, secret) values ('${a.orgId}', 'http://127.0.0.1:9/hooks', '{hos.duty_status_changed}', 'whsec_${Buffer.alloc(32, 3).toString('base64')}') returning id`,
    );
    try {
      const sent = async (driverId: string) =>
        (
          await sqlRows<{ body: string }>(
            `select e.body from webhook_events e join webhook_deliveries d on d.organization_id = e.organization_id and d.event_id = e.id
             where d.subscription_id = '${sub!.id}' and e.type = 'hos.duty_status_changed' order by d.id`,
          )
        )
          .map((r) => JSON.parse(r.body) as { data: { eventId: string; driverId: string; status: string; origin: string; startedAt: string } })
          .filter((p) => p.data.driverId === driverId)
          .map((p) => p.data);
      const me = await invitedDriver();
      const base = morningDaysAgo(4);
      const imported = hosImportResultSchema.parse(
        (
          await importPeriods(
            me.driver.id,
            periodsFrom(base, [
              ['ON', 1],
              ['D', 5],
              ['OFF', 10],
            ]),
          )
        ).json(),
      );
      const day = hosLogDaySchema.parse((await get(org(`/hos_log/${imported.logs[0]!.id}`), a.admin)).json());
      const off = day.events.find((e) => e.status === 'OFF')!;
      const on = day.events.find((e) => e.status === 'ON')!;
      const before = (await sent(me.driver.id)).length;

      // 1. The driver's own edit: in force at once.
      const edit = await t.app.inject({
        method: 'PUT',
        url: org(`/users/${me.userId}/hos_log/${day.id}/hos_event/${off.id}`),
        headers: me.headers,
        payload: { status: 'OFF', at: new Date(base + 6.5 * H).toISOString(), annotation: 'Parked later than logged' },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      const edited = hosEventDetailSchema.parse(edit.json());
      let got = (await sent(me.driver.id)).slice(before);
      expect(got).toEqual([
        {
          eventId: edited.id,
          driverId: me.driver.id,
          driverName: `${me.driver.firstName} ${me.driver.lastName}`,
          status: 'OFF',
          startedAt: new Date(base + 6.5 * H).toISOString(),
          origin: 'DRIVER',
          assetId: null,
        },
      ]);

      // 2. An office edit: nothing while it is only proposed, one when the driver accepts it.
      const proposal = await t.app.inject({
        method: 'PUT',
        url: org(`/drivers/${me.driver.id}/hos_log/${day.id}/hos_event/${on.id}`),
        headers: a.admin,
        payload: { status: 'ON', at: new Date(base - 15 * MIN).toISOString(), annotation: 'Pre-trip began earlier' },
      });
      expect(proposal.statusCode, proposal.body).toBe(200);
      const proposed = hosEventDetailSchema.parse(proposal.json());
      expect((await sent(me.driver.id)).slice(before)).toHaveLength(1);
      const accepted = await post(org(`/users/${me.userId}/hos_log/proposals/${proposed.editRequestId}/accept`), me.headers);
      expect(accepted.statusCode, accepted.body).toBe(200);
      got = (await sent(me.driver.id)).slice(before);
      expect(got).toHaveLength(2);
      expect(got[1]).toMatchObject({ eventId: proposed.id, status: 'ON', startedAt: new Date(base - 15 * MIN).toISOString(), origin: 'OTHER' });

      // 3. Unidentified driving the driver claims: its duty statuses become theirs.
      const truck = await newVehicle();
      await assign(truck.id, me.driver.id);
      const segmentId = await unidentifiedDriving(truck.id, Date.now() - 3 * H, 30, 1);
      const claimed = await post(org(`/users/${me.userId}/hos_log/unidentified/${segmentId}/claim`), me.headers, { annotation: 'That was me' });
      expect(claimed.statusCode, claimed.body).toBe(200);
      got = (await sent(me.driver.id)).slice(before + 2);
      expect(got.map((g) => [g.status, g.origin])).toEqual([
        ['D', 'UNIDENTIFIED'],
        ['ON', 'UNIDENTIFIED'],
      ]);
      expect(got.every((g) => (g as { assetId?: string | null }).assetId === truck.id)).toBe(true);
    } finally {
      await sqlRows(`delete from webhook_subscriptions where id = '${sub!.id}'`);
    }
  });
});
