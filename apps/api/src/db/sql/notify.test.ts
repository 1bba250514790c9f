import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, readOutbox, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors } from '../../test/registry.ts';
import { AUTH_CHANGE_CHANNEL, HOS_CHANGES_CHANNEL } from './notify.ts';

// The NOTIFYs the API sends itself (db/sql/notify.ts, decision 0169). The database is first made to
// behave as Citus does, where the triggers run on the shards and send nothing (migration 0035):
// fleet_notify drops hos_changes and the drivers' link trigger is silent. Whatever a listener then
// hears came from the API's own statement in the writing transaction. The functions are put back
// after the file: on the Citus pass the database is reused by the next file, and a fleet_notify
// that notifies on a worker breaks every later write of a reference table (two-phase commit).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
const heard: Record<string, string[]> = { [HOS_CHANGES_CHANNEL]: [], [AUTH_CHANGE_CHANNEL]: [] };
const stops: Array<() => Promise<void>> = [];
let originals: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  originals = (
    (await t.database.db.execute(
      `select pg_get_functiondef(f::regprocedure) as def from unnest(array['fleet_notify(text, text)', 'notify_driver_link_change()']) f` as never,
    )) as unknown as {
      rows: Array<{ def: string }>;
    }
  ).rows.map((r) => r.def);
  // As migration 0035's, less hos_changes (still silent on a Citus worker).
  await t.database.db.execute(
    `create or replace function fleet_notify(channel text, payload text) returns void language plpgsql as $$
    declare coordinator boolean := true;
    begin
      if to_regproc('citus_is_coordinator') is not null then execute 'select citus_is_coordinator()' into coordinator; end if;
      if coordinator and channel <> 'hos_changes' then perform pg_notify(channel, payload); end if;
    end $$` as never,
  );
  await t.database.db.execute(
    `create or replace function notify_driver_link_change() returns trigger language plpgsql as $$ begin return null; end $$` as never,
  );
  for (const channel of Object.keys(heard)) {
    const l = await t.database.listen(channel, (p) => heard[channel]!.push(p));
    stops.push(() => l.stop());
  }
});
afterAll(async () => {
  for (const stop of stops) await stop();
  for (const def of originals) await t?.database.db.execute(def as never);
  await t?.close();
});

const org = (rest: string) => `/api/v1/organizations/${a.orgId}${rest}`;
const heardSoon = (channel: string, payload: string) =>
  eventually(
    async () => heard[channel]!,
    (list) => list.includes(payload),
    2000,
  );
const H = 3_600_000;

describe('NOTIFYs sent by the API where the triggers cannot (Citus)', () => {
  it("an office import into a driver's log and a log header edit tell hos_changes with the organization", async () => {
    const driver = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago' }) });
    expect(driver.statusCode, driver.body).toBe(201);
    const driverId = (driver.json() as { id: string }).id;
    heard[HOS_CHANGES_CHANNEL]!.length = 0;
    const start = Math.floor(Date.now() / (24 * H)) * 24 * H - 3 * 24 * H + 14 * H;
    const imported = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${driverId}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Previous ELD', periods: [{ status: 'ON', start: new Date(start).toISOString(), end: new Date(start + 2 * H).toISOString() }] },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(await heardSoon(HOS_CHANGES_CHANNEL, a.orgId)).toContain(a.orgId);

    heard[HOS_CHANGES_CHANNEL]!.length = 0;
    const logId = (imported.json() as { logs: Array<{ id: string }> }).logs[0]!.id;
    const header = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${driverId}/hos_log/${logId}`),
      headers: a.admin,
      payload: { shippingDocuments: ['BOL-1'], trailerIds: [], coDriverId: null },
    });
    expect(header.statusCode, header.body).toBe(200);
    expect(await heardSoon(HOS_CHANGES_CHANNEL, a.orgId)).toContain(a.orgId);
    // Another organization's screens are not told.
    expect(heard[HOS_CHANGES_CHANNEL]).not.toContain(a.otherOrgId);
  });

  it('linking a sign-in account to a driver and unlinking it tell auth_change with the user id', async () => {
    const email = `notify${Date.now().toString(36)}@demofreight.test`;
    const created = await t.app.inject({
      method: 'POST',
      url: org('/drivers'),
      headers: a.admin,
      payload: driverBody({ email, invite: true, homeTimeZone: 'America/Chicago' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const driver = created.json() as { id: string; user: { id: string } | null } & Record<string, unknown>;
    expect(readOutbox(t.dataDir).some((m) => m.to === email)).toBe(true);
    const userId = driver.user!.id;
    expect(await heardSoon(AUTH_CHANGE_CHANNEL, userId)).toContain(userId);

    heard[AUTH_CHANGE_CHANNEL]!.length = 0;
    const { firstName, lastName, licenseNumber, licenseState } = driver as unknown as Record<string, string>;
    const unlinked = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${driver.id}`),
      headers: a.admin,
      payload: { firstName, lastName, licenseNumber, licenseState, userId: null, homeTimeZone: 'America/Chicago' },
    });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect((unlinked.json() as { user: unknown }).user).toBeNull();
    expect(await heardSoon(AUTH_CHANGE_CHANNEL, userId)).toContain(userId);
  });
});
