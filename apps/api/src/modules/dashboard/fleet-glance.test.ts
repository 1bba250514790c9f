import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dashboardSchema, fleetOverviewSchema, fleetPerformanceSchema, searchResultSchema } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { createTestVehicle, testPositionRow } from '../../test/vehicles.ts';
import { addFixes, emptyTotals, FleetStats } from '../fleet-stats/index.ts';
import { writePositions } from '../positions/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const api = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const get = async (rest: string, headers: Record<string, string> = a.admin) => t.app.inject({ method: 'GET', url: api(rest), headers });
const H = 3_600_000;

/** A day's totals folded from the sent fixes in order, with the demo organization's 105 km/h limit: what the row must hold. */
const inOrder = (sent: ReadonlyArray<{ fixTime: string; latitude: number; longitude: number; speed: number; ignition: boolean }>) =>
  addFixes(
    emptyTotals(),
    null,
    sent.map((p) => ({ t: Date.parse(p.fixTime), lat: p.latitude, lon: p.longitude, speed: p.speed, ignition: p.ignition })),
    105,
  ).totals;

describe('dashboard', () => {
  it('counts what the linked lists show, with the same filters', async () => {
    // Two trucks reporting: one driving now, one parked with a device silent for two days.
    const moving = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `dash-m-${Date.now()}` });
    const quiet = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `dash-q-${Date.now()}` });
    const now = Date.now();
    const post = (v: typeof moving, positions: object[]) =>
      t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions } });
    expect(
      (
        await post(
          moving,
          [0, 1, 2].map((i) => ({ fixTime: new Date(now - (2 - i) * 60_000).toISOString(), latitude: 40, longitude: -90 + i * 0.01, speed: 70 })),
        )
      ).statusCode,
    ).toBe(200);
    expect((await post(quiet, [{ fixTime: new Date(now - 48 * H).toISOString(), latitude: 41, longitude: -88, speed: 0 }])).statusCode).toBe(200);
    // The ingest notes last-seen times behind its commit (decision 0327): written before the backdating.
    await t.app.ingest.lastSeen.flush();
    await t.database.db.execute(sql`update gateways set last_seen_at = now() - interval '48 hours' where id = ${quiet.gatewayId}`);
    await t.database.db.execute(sql`update latest_positions set server_time = now() - interval '48 hours' where asset_id = ${quiet.assetId}`);
    await t.app.autoDuty.idle();
    await t.app.fleetStats.idle();
    const res = await get('/dashboard/charts?days=7&tz=America/Chicago');
    expect(res.statusCode, res.body).toBe(200);
    const d = dashboardSchema.parse(res.json());
    const c = (k: string) => d.counters.find((x) => x.key === k)!;
    expect(d.counters.map((x) => x.key)).toEqual([
      'vehiclesMoving',
      'vehiclesIdle',
      'vehiclesStopped',
      'vehiclesOffline',
      'driversDriving',
      'driversOnDuty',
      'driversOffDuty',
      'driversUnderOneHour',
      'violationsToday',
      'violations7Days',
      'uncertifiedLogDays',
      'unidentifiedDrivingHours',
      'devicesOffline',
      'inspectionsDue',
      'openDefects',
      'serviceOverdue',
    ]);
    // Vehicles: the map's statuses.
    const live = (await get('/assets/live')).json().vehicles as Array<{ status: string }>;
    for (const [k, st] of [
      ['vehiclesMoving', 'MOVING'],
      ['vehiclesIdle', 'IDLING'],
      ['vehiclesStopped', 'STOPPED'],
      ['vehiclesOffline', 'OFFLINE'],
    ] as const) {
      expect(c(k).value, k).toBe(live.filter((v) => v.status === st).length);
      expect(c(k).link).toBe(`/map?status=${st}`);
    }
    expect(c('vehiclesMoving').value).toBeGreaterThanOrEqual(1);
    expect(c('vehiclesOffline').value).toBeGreaterThanOrEqual(1);
    // Drivers: availability with the counter's filters.
    for (const [k, q] of [
      ['driversDriving', 'duty=DRIVING'],
      ['driversOnDuty', 'duty=ON_DUTY'],
      ['driversOffDuty', 'duty=OFF_DUTY'],
      ['driversUnderOneHour', 'underMinutes=60'],
    ] as const) {
      const page = (await get(`/availability?${q}&size=1`)).json();
      expect(c(k).value, k).toBe(page.totalElements);
    }
    expect(c('driversDriving').value).toBeGreaterThanOrEqual(1);
    // Violations: the list for the same days.
    const day = (s: string) => new Date(Date.parse(`${s}T00:00:00`)).toISOString();
    const linkQuery = new URLSearchParams(c('violations7Days').link!.split('?')[1]);
    const from = linkQuery.get('from')!;
    expect(from).toBe(d.charts.violationsPerDay[0]!.date);
    void day;
    // Devices offline: the devices list filtered so.
    const devices = (await get('/gateways?offline=true&size=1')).json();
    expect(c('devicesOffline').value).toBe(devices.totalElements);
    expect(c('devicesOffline').value).toBeGreaterThanOrEqual(1);
    expect(c('devicesOffline').link).toBe('/settings/organization-settings/devices?offline=true');
    // Uncertified logs of yesterday: the log list with the problem filter.
    const y = new URLSearchParams(c('uncertifiedLogDays').link!.split('?')[1]).get('date')!;
    expect(c('uncertifiedLogDays').value).toBe((await get(`/hos_log?date=${y}&problem=UNCERTIFIED&size=1`)).json().totalElements);
    expect(c('unidentifiedDrivingHours').value).toBe(0);
    // Charts and lists.
    expect(d.charts.violationsPerDay).toHaveLength(7);
    expect(d.charts.hoursPerDay).toHaveLength(7);
    expect(d.charts.distancePerDay.at(-1)!.distanceM).toBeGreaterThan(1000);
    expect(d.lists.offlineVehicles.map((v) => v.assetId)).toContain(quiet.assetId);
  });

  it('counts one group, offers the user’s own groups, and leaves out counters of lists the caller may not open', async () => {
    const groups = (await get('/groups')).json().content as Array<{ id: string; name: string }>;
    const east = groups.find((g) => g.name === 'East region')!;
    const all = dashboardSchema.parse((await get('/dashboard/charts?days=7')).json());
    const mine = dashboardSchema.parse((await get(`/dashboard/charts?days=7&groupId=${east.id}`, a.dispatcher)).json());
    expect(mine.myGroups.map((g) => g.name)).toEqual(['East region']);
    expect(mine.groupId).toBe(east.id);
    const total = (x: typeof all, k: string) => x.counters.find((c) => c.key === k)?.value ?? 0;
    expect(total(mine, 'driversOffDuty') + total(mine, 'driversOnDuty') + total(mine, 'driversDriving')).toBeLessThan(
      total(all, 'driversOffDuty') + total(all, 'driversOnDuty') + total(all, 'driversDriving'),
    );
    expect(mine.counters.find((x) => x.key === 'driversDriving')?.link).toContain(`group=${east.id}`);
    const dashOnly = await userWithPermissions(t, a.orgId, ['ORG_DASH_READ', 'VIO_LIST']);
    const limited = dashboardSchema.parse((await get('/dashboard/charts', dashOnly)).json());
    expect(limited.counters.map((x) => x.key)).toEqual(['violationsToday', 'violations7Days']);
  });

  it('answers 401, 403 without ORG_DASH_READ, 404 across organizations and for a foreign group, 400 naming the field', async () => {
    expect((await t.app.inject({ method: 'GET', url: api('/dashboard/charts') })).statusCode).toBe(401);
    const noDash = await userWithPermissions(t, a.orgId, ['VIO_LIST']);
    const forbidden = await get('/dashboard/charts', noDash);
    expect(forbidden.statusCode).toBe(403);
    expectErrorBody(forbidden.json(), 403);
    expect((await t.app.inject({ method: 'GET', url: api('/dashboard/charts', a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
    const otherGroup = await t.app.inject({ method: 'POST', url: api('/groups', a.otherOrgId), headers: a.other, payload: { name: 'Theirs' } });
    expect((await get(`/dashboard/charts?groupId=${otherGroup.json().id}`)).statusCode).toBe(404);
    expectFieldErrors((await get('/dashboard/charts?days=5')).json(), 400, { days: 'days must be 7, 14 or 30' });
    expectFieldErrors((await get('/dashboard/charts?tz=Mars/Olympus')).json(), 400, { tz: 'tz must be a time zone like America/Chicago' });
  });
});

describe('dashboard days (decision 0140)', () => {
  it('counts "today" in the user’s profile zone, else the organization’s, and the count is the list the counter opens', async () => {
    // A Chicago driver (the organization's zone) driving 12 hours from 20:00 CDT on May 31: the break
    // and 11-hour violations fall on the Chicago morning of June 1 (09:00Z, 12:00Z), before Tokyo's June 2 begins (15:00Z).
    const d = (
      await t.app.inject({ method: 'POST', url: api('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago' }) })
    ).json() as { id: string };
    const start = Date.parse('2026-06-01T01:00:00Z');
    const periods = [
      { status: 'D', start: new Date(start).toISOString(), end: new Date(start + 12 * H).toISOString() },
      { status: 'OFF', start: new Date(start + 12 * H).toISOString(), end: new Date(start + 24 * H).toISOString() },
    ];
    const imported = await t.app.inject({
      method: 'POST',
      url: api(`/drivers/${d.id}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'Test ELD', periods },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const viewer = await userWithPermissions(t, a.orgId, ['ORG_DASH_READ', 'VIO_LIST', 'HOS_LIST']);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: viewer })).json();
    expect(me.timeZone).toBeNull();
    expect(me.organization.timeZone).toBe('America/Chicago');
    // 23:59 CDT on June 1 is 13:59 on June 2 in Tokyo.
    const at = '2026-06-02T04:59:00Z';
    const dash = async () => dashboardSchema.parse((await get(`/dashboard/charts?days=7&at=${at}`, viewer)).json());
    const violations = async (from: string, to: string, driver = '') =>
      (await get(`/violations?from=${from}&to=${to}&size=100${driver}`, viewer)).json() as { totalElements: number; content: Array<{ logId: string }> };
    const today = (x: Awaited<ReturnType<typeof dash>>) => x.counters.find((c) => c.key === 'violationsToday')!;

    const chicago = await dash();
    expect(chicago).toMatchObject({ timeZone: 'America/Chicago', today: '2026-06-01' });
    expect(today(chicago).link).toBe('/hos/violations?from=2026-06-01&to=2026-06-01');
    const chicagoDay = await violations('2026-06-01T05:00:00Z', '2026-06-02T05:00:00Z');
    expect(today(chicago).value).toBe(chicagoDay.totalElements);
    // The driver's share of it is what the driver's log day shows.
    const ours = await violations('2026-06-01T05:00:00Z', '2026-06-02T05:00:00Z', `&driverId=${d.id}`);
    expect(ours.totalElements).toBeGreaterThanOrEqual(2);
    const opened = await get(`/hos_log/${ours.content[0]!.logId}`, a.admin);
    expect(opened.statusCode, opened.body.slice(0, 300)).toBe(200);
    const logDay = opened.json() as { violations: unknown[]; header: { date: string } };
    expect(logDay.header.date).toBe('2026-06-01');
    expect(logDay.violations).toHaveLength(ours.totalElements);

    // The user picks Tokyo in their profile: their "today" is June 2 there, counted over Tokyo's day.
    const saved = await t.app.inject({
      method: 'PUT',
      url: api(`/users/${me.id}`),
      headers: viewer,
      payload: { firstName: me.firstName, lastName: me.lastName, email: me.email, position: '', phone: '', timeZone: 'Asia/Tokyo' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const tokyo = await dash();
    expect(tokyo).toMatchObject({ timeZone: 'Asia/Tokyo', today: '2026-06-02' });
    expect(today(tokyo).link).toBe('/hos/violations?from=2026-06-02&to=2026-06-02');
    expect(today(tokyo).value).toBe((await violations('2026-06-01T15:00:00Z', '2026-06-02T15:00:00Z')).totalElements);
    expect((await violations('2026-06-01T15:00:00Z', '2026-06-02T15:00:00Z', `&driverId=${d.id}`)).totalElements).toBe(0);
    // An explicit zone still wins (a report for another office).
    expect((await dashboardSchema.parseAsync((await get(`/dashboard/charts?days=7&at=${at}&tz=America/Chicago`, viewer)).json())).today).toBe('2026-06-01');
  });
});

describe('fleet overview', () => {
  it('counts each part by status and lists vehicles without driver or device and unpaired devices', async () => {
    const bare = (await t.app.inject({ method: 'POST', url: api('/assets'), headers: a.admin, payload: vehicleBody() })).json();
    const unpaired = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `unpaired-${Date.now()}`, paired: false });
    const o = fleetOverviewSchema.parse((await get('/fleet/overview')).json());
    expect(o.sections.map((s) => s.key)).toEqual(['vehicles', 'trailers', 'drivers', 'devices']);
    const vehicles = o.sections[0]!;
    const listed = (await get('/assets?type=VEHICLE&size=1')).json().totalElements;
    expect(vehicles.total).toBe(listed);
    expect(o.unassignedVehicles.find((v) => v.id === bare.id)?.missing).toEqual(['driver', 'device']);
    expect(o.unpairedDevices.map((d) => d.id)).toContain(unpaired.gatewayId);
    const devices = o.sections.find((s) => s.key === 'devices')!;
    expect(devices.unassigned[0]).toMatchObject({
      value: (await get('/gateways?paired=false&size=1')).json().totalElements,
      link: '/settings/organization-settings/devices?paired=false',
    });
    // Only the parts the caller may list.
    const driversOnly = await userWithPermissions(t, a.orgId, ['DRIVER_LIST']);
    expect(fleetOverviewSchema.parse((await get('/fleet/overview', driversOnly)).json()).sections.map((s) => s.key)).toEqual(['drivers']);
    expect((await t.app.inject({ method: 'GET', url: api('/fleet/overview', a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api('/fleet/overview') })).statusCode).toBe(401);
  });
});

describe('search', () => {
  it('finds a vehicle by a VIN fragment, drivers and their log days, devices, users and groups', async () => {
    const v = (await t.app.inject({ method: 'POST', url: api('/assets'), headers: a.admin, payload: vehicleBody({ unitNumber: 'SRCH-1' }) })).json();
    const fragment = v.vin.slice(9, 15).toLowerCase();
    const r = searchResultSchema.parse((await get(`/search?q=${fragment}`)).json());
    const vehicles = r.groups.find((g) => g.tag === 'vehicle')!;
    expect(vehicles.hits.map((h) => h.id)).toContain(v.id);
    expect(vehicles.hits.find((h) => h.id === v.id)!.link).toBe(`/settings/organization-settings/vehicles?open=${v.id}`);
    const region = searchResultSchema.parse((await get('/search?q=east')).json());
    expect(region.groups.find((g) => g.tag === 'group')!.hits[0]!.title).toBe('Group East region');
    const marco = searchResultSchema.parse((await get('/search?q=marco&tags=user')).json());
    expect(marco.groups.map((g) => g.tag)).toEqual(['user']);
    const dev = searchResultSchema.parse((await get('/search?q=demo-truck-0&tags=device&limit=3')).json());
    expect(dev.groups[0]!.hits).toHaveLength(3);
    // demo-truck-01…09, less the ones that are Teltonika devices known by their IMEI.
    expect(dev.groups[0]!.total).toBeGreaterThan(3);
    const inactive = searchResultSchema.parse((await get(`/search?q=${fragment}&status=INACTIVE`)).json());
    expect(inactive.groups.find((g) => g.tag === 'vehicle')).toBeUndefined();
  });

  it('searches only what the caller may list, names bad fields, keeps organizations apart', async () => {
    const driversOnly = await userWithPermissions(t, a.orgId, ['DRIVER_LIST']);
    const r = searchResultSchema.parse((await get('/search?q=a', driversOnly)).json());
    expect(new Set(r.groups.map((g) => g.tag))).toEqual(new Set(['driver']));
    const tags = (await get('/search/tags', driversOnly)).json().tags as Array<{ tag: string; allowed: boolean }>;
    expect(tags.filter((x) => x.allowed).map((x) => x.tag)).toEqual(['driver']);
    const filters = (await get('/search/filters')).json();
    expect(filters.groups.map((g: { name: string }) => g.name)).toEqual(['East region', 'West region']);
    expectFieldErrors((await get('/search')).json(), 400, { q: 'q is a required field' });
    expectFieldErrors((await get('/search?q=x&limit=99')).json(), 400, { limit: 'limit must be at most 20' });
    expect((await get('/search?q=x&tags=robots')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: api('/search?q=demo', a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
    const theirs = searchResultSchema.parse((await t.app.inject({ method: 'GET', url: api('/search?q=demo-truck', a.otherOrgId), headers: a.other })).json());
    expect(theirs.groups).toEqual([]);
  });
});

describe('daily statistics behind ingest', () => {
  it('folds fixes as they come, and a late fix rebuilds its day from the positions: the same as folding them in order', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `late-${Date.now()}` });
    const start = Date.UTC(2026, 5, 10, 14, 0); // 09:00 in Chicago, the demo organization's zone
    let lon = -95;
    const all = Array.from({ length: 90 }, (_, i) => {
      const speed = i % 30 < 20 ? 110 : 0;
      lon += speed / 60 / 85;
      return { fixTime: new Date(start + i * 60_000).toISOString(), latitude: 39, longitude: lon, speed, ignition: i % 30 < 25 };
    });
    const send = async (positions: typeof all) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/positions',
        headers: { authorization: `Bearer ${v.token}` },
        payload: { positions },
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.app.fleetStats.idle();
    };
    const row = async () =>
      rowsOf<Record<string, number>>(
        await t.database.db.execute(
          sql`select distance_m, driving_ms, idle_ms, max_speed_kmh, speeding_events, stops, fixes from vehicle_daily_stats where asset_id = ${v.assetId} and day = '2026-06-10'`,
        ),
      )[0]!;
    const rebuilt0 = t.app.fleetStats.stats.daysRebuilt;
    await send(all.filter((_, i) => i !== 40));
    expect(t.app.fleetStats.stats.daysRebuilt).toBe(rebuilt0);
    await send([all[40]!]);
    expect(t.app.fleetStats.stats.daysRebuilt).toBe(rebuilt0 + 1);
    const expected = inOrder(all);
    const got = await row();
    expect(Number(got.fixes)).toBe(90);
    expect(Number(got.distance_m)).toBeCloseTo(expected.distanceM, 3);
    expect({
      driving: Number(got.driving_ms),
      idle: Number(got.idle_ms),
      speeding: Number(got.speeding_events),
      stops: Number(got.stops),
      max: Number(got.max_speed_kmh),
    }).toEqual({
      driving: expected.drivingMs,
      idle: expected.idleMs,
      speeding: expected.speedingEvents,
      stops: expected.stops,
      max: expected.maxSpeedKmh,
    });
    expect(expected.speedingEvents).toBe(3);
  });

  it('folds rounds in order into the row, every column of it, without rebuilding the day', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `rounds-${Date.now()}` });
    const start = Date.UTC(2026, 5, 11, 14, 0); // 09:00 in Chicago
    let lon = -95;
    const all = Array.from({ length: 60 }, (_, i) => {
      const speed = i % 20 < 12 ? 115 : 0;
      lon += speed / 60 / 85;
      return { fixTime: new Date(start + i * 60_000).toISOString(), latitude: 39, longitude: lon, speed, ignition: true };
    });
    const rebuilt0 = t.app.fleetStats.stats.daysRebuilt;
    // Three rounds, each after the last is worked: the first inserts the day, the others update it.
    for (const part of [all.slice(0, 20), all.slice(20, 40), all.slice(40)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/positions',
        headers: { authorization: `Bearer ${v.token}` },
        payload: { positions: part },
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.app.fleetStats.idle();
    }
    expect(t.app.fleetStats.stats.daysRebuilt).toBe(rebuilt0);
    const expected = inOrder(all);
    const [got] = rowsOf<Record<string, number | string>>(
      await t.database.db.execute(
        sql`select distance_m, driving_ms, idle_ms, max_speed_kmh, speeding_events, stops, fixes, extract(epoch from last_fix_at) * 1000 as last from vehicle_daily_stats where asset_id = ${v.assetId} and day = '2026-06-11'`,
      ),
    );
    expect(Number(got!.distance_m)).toBeCloseTo(expected.distanceM, 3);
    expect({
      driving: Number(got!.driving_ms),
      idle: Number(got!.idle_ms),
      speeding: Number(got!.speeding_events),
      stops: Number(got!.stops),
      fixes: Number(got!.fixes),
      last: Number(got!.last),
    }).toEqual({
      driving: expected.drivingMs,
      idle: expected.idleMs,
      speeding: expected.speedingEvents,
      stops: expected.stops,
      fixes: 60,
      last: Date.parse(all[59]!.fixTime),
    });
    expect(expected.speedingEvents).toBe(3);
  });
});

describe('daily statistics after a kill', () => {
  it('counts a fix stored just before a kill, which no round worked, once newer fixes come to the restarted follower', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `kill-${Date.now()}` });
    const start = Date.UTC(2026, 5, 12, 14, 0); // 09:00 in Chicago
    const fixes = Array.from({ length: 30 }, (_, i) =>
      testPositionRow(v, a.orgId, new Date(start + i * 60_000), { longitude: -95 + i * 0.02, speed: i % 10 < 7 ? 100 : 0 }),
    );
    // Before the kill: fixes 0-9 worked, fix 10 stored and never handed to a follower.
    const before = new FleetStats(t.app.db);
    before.enqueue(
      fixes.slice(0, 10),
      fixes.slice(0, 10).map(() => true),
    );
    await before.idle();
    await writePositions(t.app.db, fixes.slice(0, 11));
    // After the restart: a new follower, the newer fixes only (the device's resend of fix 10 was a duplicate).
    const after = new FleetStats(t.app.db);
    await writePositions(t.app.db, fixes.slice(11));
    after.enqueue(
      fixes.slice(11),
      fixes.slice(11).map(() => true),
    );
    await after.idle();
    expect(after.stats.holes).toBe(1);
    const expected = addFixes(
      emptyTotals(),
      null,
      fixes.map((f) => ({ t: f.fixTime.getTime(), lat: f.latitude, lon: f.longitude, speed: f.speed, ignition: f.ignition })),
      105,
    ).totals;
    const [got] = rowsOf<Record<string, number | string>>(
      await t.database.db.execute(
        sql`select distance_m, driving_ms, idle_ms, stops, fixes from vehicle_daily_stats where asset_id = ${v.assetId} and day = '2026-06-12'`,
      ),
    );
    expect({ fixes: Number(got!.fixes), driving: Number(got!.driving_ms), idle: Number(got!.idle_ms), stops: Number(got!.stops) }).toEqual({
      fixes: 30,
      driving: expected.drivingMs,
      idle: expected.idleMs,
      stops: expected.stops,
    });
    expect(Number(got!.distance_m)).toBeCloseTo(expected.distanceM, 3);
    await before.close();
    await after.close();
  });
});

describe('fleet performance', () => {
  it('sums the daily statistics kept behind ingest per vehicle, group and day', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `perf-${Date.now()}` });
    // Yesterday 14:00 UTC (08:00 or 09:00 in Chicago): the drive stays within one day of the organization's
    // zone, whatever the hour the test runs (from now - 3 h it crossed Chicago's midnight between 08:00 and
    // 09:00 UTC, and the hour of speeding counted once on each side).
    const d = new Date();
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - 1, 14);
    // An hour at 120 km/h (over the 105 km/h limit), a 10-minute stop with the engine on, 30 min at 60.
    const fixes = [
      ...Array.from({ length: 61 }, (_, i) => ({ t: start + i * 60_000, speed: 120 })),
      ...Array.from({ length: 10 }, (_, i) => ({ t: start + (61 + i) * 60_000, speed: 0 })),
      ...Array.from({ length: 31 }, (_, i) => ({ t: start + (71 + i) * 60_000, speed: 60 })),
    ];
    let lon = -95;
    const positions = fixes.map((f) => {
      lon += f.speed > 0 ? f.speed / 60 / 85 : 0;
      return { fixTime: new Date(f.t).toISOString(), latitude: 39, longitude: lon, speed: f.speed, ignition: true };
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: { authorization: `Bearer ${v.token}` },
      payload: { positions },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.fleetStats.idle();
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    void today;
    const p = fleetPerformanceSchema.parse((await get(`/analytics/fleet-performance?from=${from}&to=${to}`)).json());
    const mine = p.vehicles.find((x) => x.assetId === v.assetId)!;
    expect(mine.drivingMs).toBeGreaterThan(1.4 * H);
    expect(mine.idleMs).toBeGreaterThanOrEqual(9 * 60_000);
    expect(mine.distanceM).toBeGreaterThan(130_000);
    expect(mine.speedingEvents).toBe(1);
    expect(mine.stops).toBe(1);
    expect(mine.topSpeedKmh).toBe(120);
    expect(mine.fuelLPer100Km).toBeNull();
    expect(p.fleet.distanceM).toBeGreaterThanOrEqual(mine.distanceM);
    expect(p.groups.at(-1)!.name).toBe('In no group');
    expect(p.perDay.reduce((s, d) => s + d.distanceM, 0)).toBeCloseTo(p.fleet.distanceM, 0);
    // A replayed upload of the same fixes changes nothing.
    await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions } });
    await t.app.fleetStats.idle();
    const again = fleetPerformanceSchema.parse((await get(`/analytics/fleet-performance?from=${from}&to=${to}`)).json());
    expect(again.vehicles.find((x) => x.assetId === v.assetId)!.distanceM).toBeCloseTo(mine.distanceM, 3);
  });

  it('answers 403 without ANALYTICS_FLEET_PERFORMANCE, 404 across organizations, 400 naming the field', async () => {
    const q = '/analytics/fleet-performance?from=2026-01-01&to=2026-03-31';
    expect((await get(q, a.dispatcher)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: api(q, a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
    expectFieldErrors((await get('/analytics/fleet-performance?from=2026-03-01&to=2026-01-01')).json(), 400, { to: 'To must be on or after From' });
    expectFieldErrors((await get('/analytics/fleet-performance?to=2026-01-01')).json(), 400, { from: 'From is a required field' });
    expectFieldErrors((await get('/analytics/fleet-performance?from=2024-01-01&to=2026-01-01')).json(), 400, { to: 'The range may cover at most 366 days' });
  });
});
