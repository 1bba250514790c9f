import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile } from '@fleet/eld';
import { hosDiagnosticPageSchema, hosDriverStatusSchema, eldTransferStatusSchema } from '@fleet/api-contract';
import { bearer, createTestApp, login, type TestContext } from '../test/helpers.ts';
import { driverBody, registryActors } from '../test/registry.ts';
import { makeTestCertificates, type TestCertificates } from '../test/fmcsa-certs.ts';
import { startFmcsaStandIn, type FmcsaStandIn } from '../test/fmcsa-stand-in.ts';
import { validateEldFile } from '../test/fmcsa-validator.ts';
import { eldWebService } from '../modules/eld-transfer/eld-web-service.ts';
import { checkDue, runEldTransferCheck, type TransferCheckDeps } from './eld-transfer-check.ts';

// The self-check of the data transfer mechanism (4.6.1.7) driven by a clock over days, against the
// FMCSA stand-in: a failed Ping records the data transfer diagnostic (4) for every driver, the next
// success clears it; failing 3 days after the first failure it becomes the malfunction (S), which a
// success clears too. Shown on the driver's screen, in the office's list and in the output file.

const H = 3_600_000;
const DAY = 24 * H;

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let certs: TestCertificates;
let standIn: FmcsaStandIn;
let deps: TransferCheckDeps;
let me: { headers: Record<string, string>; userId: string; driverId: string };
/** A driver of another organization: the mechanism is every organization's. */
let theirs: string;
/** The clock's start: far enough back that the whole story has happened by now. */
const T0 = Math.floor(Date.now() / H) * H - 20 * DAY;

beforeAll(async () => {
  certs = makeTestCertificates();
  standIn = await startFmcsaStandIn({ certs });
  t = await createTestApp();
  a = await registryActors(t.app);
  const client = eldWebService({
    url: standIn.url,
    credentials: { cert: fs.readFileSync(certs.clientCert), key: fs.readFileSync(certs.clientKey) },
    ca: fs.readFileSync(certs.ca),
    identity: { registrationId: 'FLT0', eldIdentifier: 'FLTLN1' },
    timeoutMs: 10_000,
  });
  deps = { ping: () => client.ping() };
  const s = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' }, '10.46.0.1');
  me = { headers: bearer(s.accessToken), userId: s.user.id, driverId: s.user.driverId! };
  const other = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/drivers`, headers: a.other, payload: driverBody() });
  expect(other.statusCode, other.body).toBe(201);
  theirs = other.json().id;
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
  if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
});

const rows = async <T>(q: string) => ((await t.database.db.execute(q as never)) as unknown as { rows: T[] }).rows;
/** Each driver's data transfer codes in force: the newest record per code is a logged one. */
async function inForce(): Promise<Map<string, string[]>> {
  const list = await rows<{ driver_id: string; code: string; event_code: number }>(
    `select distinct on (driver_id, diagnostic_code) driver_id, diagnostic_code as code, event_code from hos_events
     where event_type = 7 and vehicle_id is null and driver_id is not null order by driver_id, diagnostic_code, event_time desc, sequence_id desc`,
  );
  const out = new Map<string, string[]>();
  for (const r of list) if (r.event_code === 1 || r.event_code === 3) out.set(r.driver_id, [...(out.get(r.driver_id) ?? []), r.code].sort());
  return out;
}
const activeDrivers = async () =>
  (
    await rows<{ id: string }>(`select d.id from drivers d join organizations o on o.id = d.organization_id where d.status = 'ACTIVE' and o.status = 'ACTIVE'`)
  ).map((r) => r.id);
const at = (days: number, hours = 0) => T0 + days * DAY + hours * H;
const run = (now: number) => runEldTransferCheck(t.database, deps, now);

describe('the weekly self-check, on a clock', () => {
  it('checks when due: the first time, 6 days after a success (within the 7), a day after a failure', () => {
    expect(checkDue(null, T0)).toBe(true);
    expect(checkDue({ checkedAt: T0, ok: true }, at(6) - 1)).toBe(false);
    expect(checkDue({ checkedAt: T0, ok: true }, at(6))).toBe(true);
    // A server started after a week down checks at once.
    expect(checkDue({ checkedAt: T0, ok: true }, at(9))).toBe(true);
    expect(checkDue({ checkedAt: T0, ok: false }, at(1) - 1)).toBe(false);
    expect(checkDue({ checkedAt: T0, ok: false }, at(1))).toBe(true);
  });

  it('a success records nothing on the drivers; the next run before 6 days does not ping', async () => {
    expect(await run(at(0))).toMatchObject({ ran: true, checked: true, ok: true, logged: 0, cleared: 0 });
    expect(await run(at(3))).toMatchObject({ checked: false, ok: true, logged: 0 });
    expect(standIn.pings).toBe(1);
    expect(await inForce()).toEqual(new Map());
  });

  it('a failed check records the data transfer diagnostic (4) for every driver of every organization; the next success clears it', async () => {
    standIn.pingMode = 'UnexpectedError';
    const drivers = await activeDrivers();
    expect(drivers).toContain(theirs);
    const failed = await run(at(6));
    expect(failed).toMatchObject({ checked: true, ok: false, logged: drivers.length, cleared: 0 });
    const codes = await inForce();
    expect(codes.size).toBe(drivers.length);
    expect(codes.get(theirs)).toEqual(['4']);
    expect([...new Set([...codes.values()].map((c) => c.join()))]).toEqual(['4']);
    const [record] = await rows<{ event_code: number; record_origin: number; annotation: string; sequence_id: number }>(
      `select event_code, record_origin, annotation, sequence_id from hos_events where driver_id = '${me.driverId}' and event_type = 7 order by sequence_id desc limit 1`,
    );
    expect(record).toMatchObject({ event_code: 3, record_origin: 1 });
    expect(record!.annotation).toContain('The check of the data transfer mechanism failed');
    expect(record!.annotation).toContain('UnexpectedError');
    // Again before a day has passed: no Ping, nothing written twice.
    expect(await run(at(6, 12))).toMatchObject({ checked: false, logged: 0 });
    standIn.pingMode = 'Success';
    expect(await run(at(7))).toMatchObject({ checked: true, ok: true, logged: 0, cleared: drivers.length });
    expect(await inForce()).toEqual(new Map());
  });

  it('failing for 3 more days it becomes the data transfer malfunction (S), shown on the driver screen and in the office', async () => {
    // The service cannot be reached at all this time.
    standIn.pingMode = 'hangup';
    const drivers = await activeDrivers();
    expect(await run(at(13))).toMatchObject({ checked: true, ok: false, logged: drivers.length });
    expect(await run(at(14))).toMatchObject({ checked: true, ok: false, logged: 0 });
    expect(await run(at(15))).toMatchObject({ checked: true, ok: false, logged: 0 });
    expect([...(await inForce()).values()].every((c) => c.join() === '4')).toBe(true);
    expect(await run(at(16))).toMatchObject({ checked: true, ok: false, logged: drivers.length });
    expect([...new Set([...(await inForce()).values()].map((c) => c.join()))]).toEqual(['4,S']);

    // The driver's screen shows both, the driver's own ELD's.
    const status = hosDriverStatusSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/users/${me.userId}/hos_log/driver-status`, headers: me.headers })).json(),
    );
    expect(status.diagnostics.map((d) => [d.code, d.kind, d.name, d.driver?.id]).sort()).toEqual([
      ['4', 'DIAGNOSTIC', 'Data transfer data diagnostic', me.driverId],
      ['S', 'MALFUNCTION', 'Data transfer compliance malfunction', me.driverId],
    ]);
    expect(status.diagnostics.find((d) => d.code === 'S')!.detail).toMatch(/has failed its checks since .* \(3 days\)/);
    // The office's list, with the driver named.
    const office = hosDiagnosticPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/hos_log/diagnostics?active=true&size=500`, headers: a.admin })).json(),
    );
    const mine = office.content.filter((d) => d.driver?.id === me.driverId);
    expect(mine.map((d) => d.code).sort()).toEqual(['4', 'S']);
    // The last check, where the organization's account page reads it.
    const check = eldTransferStatusSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/hos_log/eld-transfer-status`, headers: a.admin })).json(),
    );
    expect(check.lastCheck).toMatchObject({ checkedAt: new Date(at(16)).toISOString(), status: 'FAILED', ok: false });
    expect(check.lastCheck!.detail).toContain('closed the connection');
  });

  it('a success clears the malfunction and the diagnostic; the output file lists the four records and still passes', async () => {
    standIn.pingMode = 'Success';
    const drivers = await activeDrivers();
    expect(await run(at(17))).toMatchObject({ checked: true, ok: true, cleared: 2 * drivers.length });
    expect(await inForce()).toEqual(new Map());
    const status = hosDriverStatusSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/users/${me.userId}/hos_log/driver-status`, headers: me.headers })).json(),
    );
    expect(status.diagnostics.filter((d) => d.driver)).toEqual([]);

    // The file of those days: the malfunction segment holds them, no CMV (the driver's own ELD's).
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${a.orgId}/drivers/${me.driverId}/hos_log/eld-output?from=${day(at(12))}&to=${day(at(18))}&comment=CHECK`,
      headers: me.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const file = parseEldFile(res.body);
    expect(file.malfunctions.map((m) => [m.code, m.diagnosticCode, m.cmvOrder]).sort()).toEqual([
      [1, 'S', null],
      [2, 'S', null],
      [3, '4', null],
      [4, '4', null],
    ]);
    const cr = res.body.replace(/\r\n/g, '\r');
    const name = /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))![1]!;
    expect(validateEldFile(cr, { registrationId: 'FLT0', eldIdentifier: 'FLTLN1', fileName: name, comment: 'CHECK' })).toEqual([]);
  });

  it('a driver added while the mechanism is failing gets the diagnostic on the next run, without a Ping', async () => {
    standIn.pingMode = 'UnexpectedError';
    expect(await run(at(23))).toMatchObject({ checked: true, ok: false });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers`,
      headers: a.admin,
      payload: { firstName: 'Nadia', lastName: 'Newhire', licenseNumber: `NH${Date.now()}`, licenseState: 'TX' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const pings = standIn.pings;
    expect(await run(at(23, 1))).toMatchObject({ checked: false, logged: 1 });
    expect(standIn.pings).toBe(pings);
    expect((await inForce()).get(created.json().id)).toEqual(['4']);
  });

  it('without the web service set up, no check is made and nothing is recorded', async () => {
    const before = (await rows<{ n: number }>('select count(*)::int as n from eld_transfer_checks'))[0]!.n;
    expect(await runEldTransferCheck(t.database, { ping: null }, at(40))).toMatchObject({ ran: true, checked: false });
    expect((await rows<{ n: number }>('select count(*)::int as n from eld_transfer_checks'))[0]!.n).toBe(before);
  });
});
