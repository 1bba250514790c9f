import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { hosDriverStatusSchema, hosEventDetailSchema, hosImportResultSchema, hosLogDaySchema } from '@fleet/api-contract';
import { clocksAt, periodsWithChanges, type LocalChange } from '@fleet/hos';
import { buildApp } from '../../app.ts';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';
import { createTestVehicle } from '../../test/vehicles.ts';

// Records a driver's phone took without signal and sent when the network returned (issue 44,
// decision 0184): stored at the time they were made, once whatever is resent, refused with a reason
// the phone shows when they can never be accepted.

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
const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;
const rows = async (driverId: string) =>
  (
    (await t.database.db.execute(
      `select event_type, event_time, client_id from hos_events where driver_id = '${driverId}' and event_type in (1, 4) order by event_time` as never,
    )) as unknown as {
      rows: Array<{ event_type: number; event_time: string | Date; client_id: string | null }>;
    }
  ).rows;

/** A driver with their own sign-in and three days of records ending a minute ago (On duty). */
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
    { status: 'OFF', start: new Date(now - 60 * H).toISOString(), end: new Date(now - 3 * H).toISOString() },
    { status: 'ON', start: new Date(now - 3 * H).toISOString(), end: new Date(now - 60_000).toISOString() },
  ];
  const imported = await t.app.inject({
    method: 'POST',
    url: org(`/drivers/${driver.id}/hos_log/import`),
    headers: a.admin,
    payload: { source: 'Earlier ELD', periods },
  });
  expect(imported.statusCode, imported.body).toBe(201);
  const logs = hosImportResultSchema.parse(imported.json()).logs;
  const today = logs.at(-1)!;
  const url = org(`/users/${userId}/hos_log/${today.id}/hos_event`);
  return { headers, userId, driver, logs, today, url };
}

/**
 * The driver's log days from the import, read as the driver: the test's times (an hour or so ago)
 * fall on the day before "today" when it runs just after the driver's midnight.
 */
async function daysOf(me: Awaited<ReturnType<typeof driverWithRecords>>) {
  const days = [];
  for (const log of me.logs)
    days.push(hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/users/${me.userId}/hos_log/${log.id}`), headers: me.headers })).json()));
  return days;
}

describe('a status change sent late', () => {
  it('is stored at the time the driver made it, once for every resend, after a restart too', async () => {
    const me = await driverWithRecords();
    const key = crypto.randomUUID();
    const madeAt = new Date(Date.now() - 40 * 60_000).toISOString();
    const body = { status: 'SB', locationDescription: '5 mi E of Joliet, IL', recordedAt: madeAt };
    const headers = { ...me.headers, 'idempotency-key': key };
    const before = (await rows(me.driver.id)).length;
    const first = await t.app.inject({ method: 'POST', url: me.url, headers, payload: body });
    expect(first.statusCode, first.body).toBe(201);
    const event = hosEventDetailSchema.parse(first.json());
    expect(event).toMatchObject({ status: 'SB', at: madeAt, locationDescription: '5 mi E of Joliet, IL' });
    // The phone never heard the answer: it sends again, and again after the server restarted.
    const second = await t.app.inject({ method: 'POST', url: me.url, headers, payload: body });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().id).toBe(event.id);
    const restarted = await buildApp({ config: t.config, database: t.database });
    try {
      await restarted.ready();
      const third = await restarted.inject({ method: 'POST', url: me.url, headers, payload: body });
      expect(third.statusCode, third.body).toBe(201);
      expect(third.json().id).toBe(event.id);
    } finally {
      await restarted.close();
    }
    const after = await rows(me.driver.id);
    expect(after.length).toBe(before + 1);
    expect(after.filter((r) => r.client_id === key)).toHaveLength(1);
    // A second change made offline later, with its own key, follows it in the log.
    const later = new Date(Date.now() - 10 * 60_000).toISOString();
    const next = await t.app.inject({
      method: 'POST',
      url: me.url,
      headers: { ...me.headers, 'idempotency-key': crypto.randomUUID() },
      payload: { status: 'ON', locationDescription: '5 mi E of Joliet, IL', recordedAt: later },
    });
    expect(next.statusCode, next.body).toBe(201);
    const segments = (await daysOf(me)).flatMap((d) => d.segments);
    expect(segments.filter((s) => s.start === madeAt || s.start === later).map((s) => [s.status, s.start])).toEqual([
      ['SB', madeAt],
      ['ON', later],
    ]);
  });

  it('is refused with its reason when it is in the future or before the last certified day, and nothing is stored', async () => {
    const me = await driverWithRecords();
    const before = (await rows(me.driver.id)).length;
    const future = await t.app.inject({
      method: 'POST',
      url: me.url,
      headers: { ...me.headers, 'idempotency-key': crypto.randomUUID() },
      payload: { status: 'OFF', locationDescription: 'Pilot, Joliet IL', recordedAt: new Date(Date.now() + 10 * 60_000).toISOString() },
    });
    expectFieldErrors(future.json(), 400, { recordedAt: 'Recorded at cannot be in the future' });
    // The driver certified the day before today; a change made two days ago falls before it.
    const certified = me.logs.at(-2)!;
    const cert = await t.app.inject({
      method: 'POST',
      url: org(`/users/${me.userId}/hos_log/${certified.id}/certification`),
      headers: me.headers,
      payload: { agree: true },
    });
    expect(cert.statusCode, cert.body).toBe(200);
    const old = me.logs.find((l) => l.date < certified.date)!;
    expect(old).toBeDefined();
    const inOld = new Date(Date.parse(`${old.date}T18:00:00Z`)).toISOString();
    const refused = await t.app.inject({
      method: 'POST',
      url: me.url,
      headers: { ...me.headers, 'idempotency-key': crypto.randomUUID() },
      payload: { status: 'OFF', locationDescription: 'Pilot, Joliet IL', recordedAt: inOld },
    });
    const body = expectFieldErrors(refused.json(), 400, { recordedAt: 'This change, made at 12:00 on' });
    expect(body.message).toContain(`falls before your last certified day (${certified.date}), so it was not recorded`);
    expect((await rows(me.driver.id)).length).toBe(before + 1); // the certification only
  });

  it('a certification signed offline is stored at its time, once', async () => {
    const me = await driverWithRecords();
    const day = me.logs.at(-2)!;
    const signedAt = new Date(Date.now() - 20 * 60_000).toISOString();
    const headers = { ...me.headers, 'idempotency-key': crypto.randomUUID() };
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: org(`/users/${me.userId}/hos_log/${day.id}/certification`),
        headers,
        payload: { agree: true, recordedAt: signedAt },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(hosLogDaySchema.parse(res.json()).certification).toMatchObject({ certified: true });
    }
    const certs = (await rows(me.driver.id)).filter((r) => r.event_type === 4);
    expect(certs).toHaveLength(1);
    expect(new Date(certs[0]!.event_time).toISOString()).toBe(signedAt);
  });
});

describe('an office edit answered offline', () => {
  it('is decided at the time the driver answered it, once however often it is resent', async () => {
    const me = await driverWithRecords();
    // The day holding the On duty that began 3 hours ago (yesterday, just after the driver's midnight).
    const day = (await daysOf(me)).find((d) => d.events.some((e) => e.eventType === 1 && e.status === 'ON'))!;
    const on = day.events.find((e) => e.eventType === 1 && e.status === 'ON')!;
    const proposed = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${me.driver.id}/hos_log/${day.id}/hos_event/${on.id}`),
      headers: a.admin,
      payload: { status: 'ON', at: new Date(Date.parse(on.at) - 15 * 60_000).toISOString(), annotation: 'Pre-trip began earlier' },
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const proposalId = hosEventDetailSchema.parse(proposed.json()).editRequestId!;
    const answeredAt = new Date(Date.now() - 7 * 60_000).toISOString();
    const url = org(`/users/${me.userId}/hos_log/proposals/${proposalId}/accept`);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...me.headers, 'idempotency-key': 'accept-edit-0001' },
        payload: { recordedAt: answeredAt },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ state: 'ACCEPTED', decidedAt: answeredAt });
    }
    const future = await t.app.inject({
      method: 'POST',
      url: org(`/users/${me.userId}/hos_log/proposals/${proposalId}/reject`),
      headers: me.headers,
      payload: { recordedAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expectFieldErrors(future.json(), 400, { recordedAt: 'Recorded at cannot be in the future' });
  });
});

describe('a status change sent late while the truck was driving', () => {
  it('leaves the Driving the ELD recorded and tells the driver why; one made once the truck stood still is stored', async () => {
    const headers = await userWithPermissions(t, a.orgId, ['HOS_SELF_READ', 'HOS_SELF_WRITE']);
    const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json().id as string;
    // The vehicle's driver is this sign-in's (rows written straight, as the ingest directory reads them at once).
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `offline-drive-${Date.now()}` });
    const driverId = v.driverId!;
    await t.database.db.execute(`update drivers set user_id = '${userId}' where id = '${driverId}'` as never);
    // Driving at 90 km/h from 40 to 15 minutes ago, then standing still.
    const start = Date.now() - 40 * 60_000;
    let lon = -95;
    for (let m = 0; m < 38; m++) {
      const kmh = m < 25 ? 90 : 0;
      const knots = kmh / 1.852;
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/ingest/osmand?id=${v.uniqueId}&timestamp=${(start + m * 60_000) / 1000}&lat=38.6&lon=${lon.toFixed(5)}&speed=${knots.toFixed(3)}`,
      });
      expect(res.statusCode).toBe(200);
      lon += kmh / 60 / 87;
    }
    await t.app.autoDuty.idle();
    const status = await t.app.inject({ method: 'GET', url: org(`/users/${userId}/hos_log/driver-status`), headers });
    const url = org(`/users/${userId}/hos_log/${status.json().today.id as string}/hos_event`);
    const before = (await rows(driverId)).length;
    expect(before).toBeGreaterThan(0);
    const during = new Date(start + 12 * 60_000).toISOString();
    const refused = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      payload: { status: 'SB', recordedAt: during },
    });
    const body = expectFieldErrors(refused.json(), 400, { recordedAt: 'The truck was moving at' });
    expect(body.message).toContain('the Driving the ELD recorded stands, so this change was not recorded');
    expect((await rows(driverId)).length).toBe(before);
    // Three minutes into the stop the driver chose Off duty, offline: stored then, at the truck's place.
    const stopped = new Date(start + 28 * 60_000).toISOString();
    const ok = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      payload: { status: 'OFF', recordedAt: stopped },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(hosEventDetailSchema.parse(ok.json())).toMatchObject({ status: 'OFF', at: stopped });
    expect(hosEventDetailSchema.parse(ok.json()).latitude).toBeCloseTo(38.6, 1);
  });
});

describe("the phone's own clocks (issue 44)", () => {
  it("equal the server's once the changes made offline are sent: same engine, same periods", async () => {
    const me = await driverWithRecords();
    const statusUrl = org(`/users/${me.userId}/hos_log/driver-status`);
    const s1 = hosDriverStatusSchema.parse((await t.app.inject({ method: 'GET', url: statusUrl, headers: me.headers })).json());
    // The engine input reproduces the clocks the server answered.
    const again = clocksAt(s1.engine.periods, s1.engine.at, s1.engine.options);
    expect(again.strict).toEqual(s1.clocks.strict);
    expect(again.provisional).toEqual(s1.clocks.provisional);
    // Two changes the phone made after that answer, without signal, then sent 2.1 s after it: the
    // clock is the subject, moved on rather than waited for.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    vi.setSystemTime(Date.now() + 2100);
    const changes: LocalChange[] = [
      { status: 'SB', at: s1.engine.at + 1000 },
      { status: 'OFF', at: s1.engine.at + 2000 },
    ];
    for (const c of changes) {
      const res = await t.app.inject({
        method: 'POST',
        url: me.url,
        headers: { ...me.headers, 'idempotency-key': crypto.randomUUID() },
        payload: { status: c.status, locationDescription: 'Rest area, I-80 mile 112', recordedAt: new Date(c.at).toISOString() },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const s2 = hosDriverStatusSchema.parse((await t.app.inject({ method: 'GET', url: statusUrl, headers: me.headers })).json());
    const local = clocksAt(periodsWithChanges(s1.engine.periods, s1.engine.at, changes, s2.engine.at), s2.engine.at, s1.engine.options);
    expect(local.strict).toEqual(s2.clocks.strict);
    expect(local.provisional).toEqual(s2.clocks.provisional);
    expect(s2.clocks.status).toBe('OFF');
  });
});
