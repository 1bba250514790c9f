import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveVehicle } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import {
  bearer,
  createTestApp,
  DEMO,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  login,
  registerOrganization,
  type TestContext,
} from '../../test/helpers.ts';
import { userWithPermissions } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

let t: TestContext;
let orgId: string;
let token: string;
let truck: TestVehicle;
let other: TestVehicle;
let groupId: string;
let baseUrl: string;

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const post = (v: TestVehicle, positions: unknown[]) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions } });

beforeAll(async () => {
  t = await createTestApp();
  const s = await login(t.app, DEMO.admin);
  orgId = s.user.organization!.id;
  token = s.accessToken;
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'live-1', unitNumber: '901' });
  other = await createTestVehicle(t.app.db, orgId, { uniqueId: 'live-2', unitNumber: '902' });
  const [g] = await sql<{ id: string }>(`insert into groups (organization_id, name) values ('${orgId}', 'West') returning id`);
  groupId = g!.id;
  await sql(`insert into group_assets (group_id, organization_id, asset_id) values ('${groupId}', '${orgId}', '${truck.assetId}')`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** A single-use stream ticket for `orgId` (default: the demo organization) as the holder of `accessToken`. */
async function ticketFor(accessToken = token, org = orgId): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${org}/assets/stream/ticket`, headers: bearer(accessToken) });
  if (res.statusCode !== 200) throw new Error(`ticket: ${res.statusCode} ${res.body}`);
  return res.json().ticket;
}
const streamPath = async (query = '', org = orgId) =>
  `/api/v1/organizations/${org}/assets/stream?${query}${query ? '&' : ''}ticket=${await ticketFor(token, org)}`;

/** Opens an SSE stream and collects its events until closed. */
function openStream(
  path: string,
  headers: Record<string, string> = {},
  base = baseUrl,
): Promise<{
  status: number;
  events: Array<{ event: string; data: { vehicles: LiveVehicle[] }; at: number }>;
  close: () => void;
  next: (
    pred: (e: { event: string; data: { vehicles: LiveVehicle[] } }) => boolean,
    ms?: number,
  ) => Promise<{ event: string; data: { vehicles: LiveVehicle[] }; at: number }>;
}> {
  return new Promise((resolve, reject) => {
    const events: Array<{ event: string; data: { vehicles: LiveVehicle[] }; at: number }> = [];
    const waiters: Array<() => void> = [];
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const ev = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (ev && data) events.push({ event: ev, data: JSON.parse(data), at: Date.now() });
          waiters.forEach((w) => w());
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        events,
        close: () => req.destroy(),
        next: (pred, ms = 2000) =>
          new Promise((ok, fail) => {
            const check = () => {
              const e = events.find(pred);
              if (e) {
                ok(e);
                return true;
              }
              return false;
            };
            if (check()) return;
            const timer = setTimeout(() => fail(new Error('no matching event')), ms);
            waiters.push(() => {
              if (check()) clearTimeout(timer);
            });
          }),
      });
    });
    req.on('error', reject);
  });
}

describe('live stream (SSE)', () => {
  it('sends a snapshot, then a new position as it is committed', async () => {
    await post(truck, [{ fixTime: new Date(Date.now() - 5000).toISOString(), latitude: 35.1, longitude: -101.8, speed: 0, ignition: true }]);
    const s = await openStream(await streamPath());
    expect(s.status).toBe(200);
    const snap = await s.next((e) => e.event === 'snapshot');
    expect(snap.data.vehicles.map((v) => v.unitNumber)).toContain('901');
    const sent = Date.now();
    const res = await post(truck, [{ fixTime: new Date().toISOString(), latitude: 35.2, longitude: -101.7, speed: 96, course: 45, ignition: true }]);
    expect(res.statusCode).toBe(200);
    // The push is immediate (no polling); the bound leaves room for a loaded test machine, where the
    // PostgreSQL pass runs beside the browser tests (the latency itself is benchmarked, bench/map-fps.ts).
    const ev = await s.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 35.2), 3000);
    expect(ev.at - sent).toBeLessThan(3000);
    const v = ev.data.vehicles.find((x) => x.assetId === truck.assetId)!;
    expect(v).toMatchObject({ unitNumber: '901', speed: 96, course: 45, status: 'MOVING', driverId: truck.driverId });
    expect(v.groupIds).toEqual([groupId]);
    s.close();
  });

  it('filters by group', async () => {
    const s = await openStream(await streamPath(`group=${groupId}`));
    await post(other, [{ fixTime: new Date().toISOString(), latitude: 40, longitude: -100, speed: 50 }]);
    await post(truck, [{ fixTime: new Date().toISOString(), latitude: 35.3, longitude: -101.6, speed: 90 }]);
    await s.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 35.3), 1000);
    const seen = s.events.flatMap((e) => e.data.vehicles.map((v) => v.unitNumber));
    expect(seen).toContain('901');
    expect(seen).not.toContain('902');
    s.close();
  });

  it("delivers published changes like notified ones: to the organization's streams, filtered by group", async () => {
    const all = await openStream(await streamPath());
    const west = await openStream(await streamPath(`group=${groupId}`));
    await all.next((e) => e.event === 'snapshot');
    await west.next((e) => e.event === 'snapshot');
    const [snapTruck, snapOther] = ['901', '902'].map((u) => all.events[0]!.data.vehicles.find((v) => v.unitNumber === u)!);
    t.app.liveHub.publish(orgId, [
      { ...snapTruck!, latitude: 36.5 },
      { ...snapOther!, latitude: 41.5 },
    ]);
    const toAll = await all.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 41.5), 1000);
    expect(toAll.data.vehicles.map((v) => v.unitNumber).sort()).toEqual(['901', '902']);
    const toWest = await west.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 36.5), 1000);
    expect(toWest.data.vehicles.map((v) => v.unitNumber)).toEqual(['901']);
    t.app.liveHub.publish('00000000-0000-4000-8000-000000000000', [{ ...snapTruck!, latitude: 1 }]);
    // A later position of its own organization marks the stream's order: once it came, the other's would have.
    t.app.liveHub.publish(orgId, [{ ...snapOther!, latitude: 41.6 }]);
    await all.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 41.6), 5_000);
    expect(all.events.some((e) => e.data.vehicles.some((v) => v.latitude === 1))).toBe(false);
    all.close();
    west.close();
  });

  it('refuses without a token, a foreign organization and a foreign group', async () => {
    expect((await openStream(`/api/v1/organizations/${orgId}/assets/stream`)).status).toBe(401);
    const stranger = await registerOrganization(t.app, 'Stranger Freight');
    const foreign = await openStream(`/api/v1/organizations/${orgId}/assets/stream`, bearer(stranger.accessToken));
    expect(foreign.status).toBe(404);
    foreign.close();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${stranger.user.organization!.id}/assets/live?group=${groupId}`,
      headers: bearer(stranger.accessToken),
    });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });

  it('lists the live vehicles over REST with their status', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/assets/live`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const units = res.json().vehicles.map((v: LiveVehicle) => v.unitNumber);
    expect(units).toEqual(['901', '902']);
  });
});

describe('stream tickets', () => {
  const ticketUrl = (org = orgId) => `/api/v1/organizations/${org}/assets/stream/ticket`;
  const plainStream = (org = orgId) => `/api/v1/organizations/${org}/assets/stream`;

  it('issues an opaque ticket valid for about 30 seconds that the browser must not cache', async () => {
    const before = Date.now();
    const res = await t.app.inject({ method: 'POST', url: ticketUrl(), headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { ticket, expiresAt } = res.json() as { ticket: string; expiresAt: string };
    expect(ticket).toMatch(/^[\w-]{40,}$/);
    expect(ticket).not.toContain(token.slice(0, 20));
    const ttl = Date.parse(expiresAt) - before;
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThan(35_000);
    // Only a hash is stored.
    const stored = await sql<{ token_hash: string }>(`select token_hash from stream_tickets`);
    expect(stored.some((r) => r.token_hash.includes(ticket))).toBe(false);
  });

  it('opens the stream once: the same ticket again is refused', async () => {
    const ticket = await ticketFor();
    const first = await openStream(`${plainStream()}?ticket=${ticket}`);
    expect(first.status).toBe(200);
    await first.next((e) => e.event === 'snapshot');
    const again = await openStream(`${plainStream()}?ticket=${ticket}`);
    expect(again.status).toBe(401);
    first.close();
    again.close();
  });

  it('refuses an expired ticket, an unknown one and the access token in the URL', async () => {
    const ticket = await ticketFor();
    await sql(`update stream_tickets set expires_at = now() - interval '1 second'`);
    expect((await openStream(`${plainStream()}?ticket=${ticket}`)).status).toBe(401);
    expect((await openStream(`${plainStream()}?ticket=not-a-ticket`)).status).toBe(401);
    expect((await openStream(`${plainStream()}?access_token=${token}`)).status).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: `${plainStream()}?ticket=not-a-ticket` });
    expect(expectErrorBody(res.json(), 401).technicalMessage).toMatch(/stream ticket/);
  });

  it('keeps the Authorization header for clients that can send it', async () => {
    const s = await openStream(plainStream(), bearer(token));
    expect(s.status).toBe(200);
    await s.next((e) => e.event === 'snapshot');
    s.close();
  });

  it('binds a ticket to its organization: another organization neither gets one nor opens with one', async () => {
    const stranger = await registerOrganization(t.app, 'Ticket Stranger Freight');
    const strangerOrg = stranger.user.organization!.id;
    const foreign = await t.app.inject({ method: 'POST', url: ticketUrl(), headers: bearer(stranger.accessToken) });
    expect(foreign.statusCode).toBe(404);
    expectErrorBody(foreign.json(), 404);
    // The stranger's own ticket does not open the demo organization's stream.
    const theirs = await ticketFor(stranger.accessToken, strangerOrg);
    expect((await openStream(`${plainStream()}?ticket=${theirs}`)).status).toBe(401);
    // Nor ours theirs.
    const ours = await ticketFor();
    expect((await openStream(`${plainStream(strangerOrg)}?ticket=${ours}`)).status).toBe(401);
  });

  it('answers 401 without a token, 400 for a bad organization id or ticket, 403 without ASSET_LIST', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: ticketUrl() });
    expect(anonymous.statusCode).toBe(401);
    expectErrorBody(anonymous.json(), 401);
    // A member's foreign organization id is a 404 before validation; the super administrator's is validated.
    const superAdmin = await login(t.app, DEMO.superAdmin);
    const badOrg = await t.app.inject({ method: 'POST', url: ticketUrl('not-an-id'), headers: bearer(superAdmin.accessToken) });
    expect(badOrg.statusCode).toBe(400);
    expect(expectErrorBody(badOrg.json(), 400).message).toMatch(/orgId/);
    const badTicket = await t.app.inject({ method: 'GET', url: `${plainStream()}?ticket=`, headers: bearer(token) });
    expect(badTicket.statusCode).toBe(400);
    expect(expectErrorBody(badTicket.json(), 400).message).toMatch(/ticket/);
    const limited = await userWithPermissions(t, orgId, ['ORG_READ']);
    const res = await t.app.inject({ method: 'POST', url: ticketUrl(), headers: limited });
    expect(res.statusCode).toBe(403);
    expectErrorBody(res.json(), 403);
  });

  it("checks the holder's current permissions and status when the ticket is used", async () => {
    const viewer = await userWithPermissions(t, orgId, ['ASSET_LIST']);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: viewer })).json() as { id: string };
    const ticket = await ticketFor(viewer.authorization!.slice(7));
    // The role loses ASSET_LIST after the ticket was issued.
    await sql(`update roles set permissions = '{}' where id = (select role_id from users where id = '${me.id}')`);
    await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: viewer }).then((r) => r.json() as { permissions: string[] }),
      (u) => !u.permissions.includes('ASSET_LIST'),
    );
    expect((await openStream(`${plainStream()}?ticket=${ticket}`)).status).toBe(403);

    await sql(`update roles set permissions = '{ASSET_LIST}' where id = (select role_id from users where id = '${me.id}')`);
    // The change reaches this instance's auth cache by NOTIFY, asynchronously on a PostgreSQL server.
    await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: viewer }).then((r) => r.json() as { permissions: string[] }),
      (u) => u.permissions.includes('ASSET_LIST'),
    );
    const second = await ticketFor(viewer.authorization!.slice(7));
    await sql(`update users set status = 'INACTIVE' where id = '${me.id}'`);
    await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: viewer }).then((r) => r.statusCode),
      (code) => code === 401,
    );
    expect((await openStream(`${plainStream()}?ticket=${second}`)).status).toBe(401);
  });

  it('is redeemed by another API instance on the same database (several instances behind a load balancer)', async () => {
    const other = await buildApp({ config: t.config, database: t.database });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const ticket = await ticketFor();
      const s = await openStream(`${plainStream()}?ticket=${ticket}`, {}, otherUrl);
      expect(s.status).toBe(200);
      await s.next((e) => e.event === 'snapshot');
      s.close();
      // Spent there, so refused here.
      expect((await openStream(`${plainStream()}?ticket=${ticket}`)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('sweeps expired tickets when new ones are issued', async () => {
    await ticketFor();
    await sql(`update stream_tickets set expires_at = now() - interval '1 minute'`);
    await ticketFor();
    const left = await sql<{ n: number }>(`select count(*)::int as n from stream_tickets`);
    expect(left[0]!.n).toBe(1);
  });
});

describe('history routes', () => {
  const start = Date.UTC(2026, 10, 1, 12);
  beforeAll(async () => {
    // One hour at 1 Hz: 30 min at 90 km/h east, a 15 min stop with 5 min idling, 15 min at 60 km/h.
    const positions = [];
    let lon = -97.0;
    for (let s = 0; s < 3600; s++) {
      let speed = 0;
      let ignition = true;
      if (s < 1800) speed = 90;
      else if (s < 2700) ignition = s < 2100;
      else speed = 60;
      lon += speed / 3.6 / (111_320 * Math.cos((35 * Math.PI) / 180));
      positions.push({ fixTime: new Date(start + s * 1000).toISOString(), latitude: 35, longitude: lon, speed, ignition });
    }
    for (let i = 0; i < positions.length; i += 1000)
      expect((await post(truck, positions.slice(i, i + 1000))).json().accepted).toBe(Math.min(1000, positions.length - i));
  });

  const url = (subject: string, id: string, q = '') =>
    `/api/v1/organizations/${orgId}/history-routes/${subject}/${id}?from=${new Date(start).toISOString()}&to=${new Date(start + 3600_000).toISOString()}${q}`;

  it('answers the simplified track, the stop and the summary for a vehicle', async () => {
    // The vehicle's visit to one of the organization's places covers the stop (issue 32's visits).
    const [place] = await sql<{ id: string }>(
      `insert into places (organization_id, name, category, geometry, radius_m, min_lat, min_lon, max_lat, max_lon)
       values ('${orgId}', 'History Dock', 'CUSTOMER', '{"type":"Point","coordinates":[-96.7,35]}', 300, 34.9, -96.8, 35.1, -96.6) returning id`,
    );
    await sql(
      `insert into place_visits (organization_id, place_id, asset_id, arrived_at, departed_at)
       values ('${orgId}', '${place!.id}', '${truck.assetId}', '${new Date(start + 1850_000).toISOString()}', '${new Date(start + 2650_000).toISOString()}')`,
    );
    const res = await t.app.inject({ method: 'GET', url: url('assets', truck.assetId), headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.summary.positions).toBe(3600);
    expect(body.track.length).toBeLessThan(50);
    expect(body.track[0].time).toBe(new Date(start).toISOString());
    expect(body.stops).toHaveLength(1);
    expect(body.stops[0].durationS).toBeCloseTo(900, -1);
    expect(body.stops[0].idleS).toBeCloseTo(300, -1);
    expect(body.stops[0].jurisdiction).toBe('OK');
    expect(body.stops[0].place).toEqual({ id: place!.id, name: 'History Dock' });
    expect(body.stops[0].address).toMatch(/, OK$/);
    expect(body.summary.distanceM / 1000).toBeCloseTo(60, 0);
    expect(body.summary.maxSpeed).toBe(90);
    expect(body.summary.drivingS).toBeCloseTo(2700, -1);
    expect(body.summary.averageSpeed).toBeCloseTo(80, 0);
  });

  it('answers each track point exactly as stored: millisecond times, unknown speed, course and ignition as null', async () => {
    const t0 = Date.UTC(2026, 10, 3, 9, 0, 0, 123);
    const fixes = [
      { fixTime: new Date(t0).toISOString(), latitude: 36.1, longitude: -95.9, speed: 12.5, course: 270, ignition: false },
      { fixTime: new Date(t0 + 999).toISOString(), latitude: 36.2, longitude: -95.8 },
      { fixTime: new Date(t0 + 60_001).toISOString(), latitude: 36.3, longitude: -95.95, speed: 0, ignition: true },
    ];
    expect((await post(other, fixes)).json().accepted).toBe(3);
    const q = `?from=${new Date(t0 - 1000).toISOString()}&to=${new Date(t0 + 120_000).toISOString()}&zoom=22`;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/history-routes/assets/${other.assetId}${q}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().track).toEqual([
      {
        time: new Date(t0).toISOString(),
        latitude: 36.1,
        longitude: -95.9,
        speed: 12.5,
        course: 270,
        ignition: false,
        odometer: null,
        odometerSource: null,
        engineHours: null,
        rpm: null,
      },
      {
        time: new Date(t0 + 999).toISOString(),
        latitude: 36.2,
        longitude: -95.8,
        speed: null,
        course: null,
        ignition: null,
        odometer: null,
        odometerSource: null,
        engineHours: null,
        rpm: null,
      },
      {
        time: new Date(t0 + 60_001).toISOString(),
        latitude: 36.3,
        longitude: -95.95,
        speed: 0,
        course: null,
        ignition: true,
        odometer: null,
        odometerSource: null,
        engineHours: null,
        rpm: null,
      },
    ]);
    expect(res.json().summary.positions).toBe(3);
  });

  it('carries the engine data of each point: ignition, engine odometer and hours, rpm (issue 46)', async () => {
    const t0 = Date.UTC(2026, 10, 4, 9);
    const fixes = [
      {
        fixTime: new Date(t0).toISOString(),
        latitude: 36.1,
        longitude: -95.9,
        speed: 80,
        ignition: true,
        odometer: 1_000,
        attributes: { vehicleOdometer: 987_654_321, engineHours: 1500.5, rpm: 1450 },
      },
      { fixTime: new Date(t0 + 60_000).toISOString(), latitude: 36.2, longitude: -95.8, speed: 0, ignition: false, odometer: 2_500 },
    ];
    expect((await post(other, fixes)).json().accepted).toBe(2);
    const q = `?from=${new Date(t0 - 1000).toISOString()}&to=${new Date(t0 + 120_000).toISOString()}&zoom=22`;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/history-routes/assets/${other.assetId}${q}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    // The engine's odometer wins over the device's GNSS one; a fix without engine data says so with nulls.
    expect(res.json().track.map((p: Record<string, unknown>) => [p.ignition, p.odometer, p.odometerSource, p.engineHours, p.rpm])).toEqual([
      [true, 987_654_321, 'ECM', 1500.5, 1450],
      [false, 2_500, 'GPS', null, null],
    ]);
  });

  it('answers fixes that arrived out of time order in time order, bounded by a range given with an offset', async () => {
    // A tracker emptying its buffer sends old fixes after new ones: stored in arrival order. A zigzag,
    // so simplification keeps every point.
    const t0 = Date.UTC(2026, 10, 5, 8);
    const fix = (s: number) => ({
      fixTime: new Date(t0 + s * 1000).toISOString(),
      latitude: s % 20 ? 36.01 : 36,
      longitude: -96 + s / 1000,
      speed: 50 + s,
      ignition: true,
    });
    for (const s of [40, 30, 20, 10, 0, 50]) expect((await post(other, [fix(s)])).json().accepted).toBe(1);
    // 09:00:05+01:00 is 08:00:05Z: the fix at 0 s is outside, the one at 50 s is the last inside.
    const q = `?from=${encodeURIComponent('2026-11-05T09:00:05+01:00')}&to=${encodeURIComponent('2026-11-05T09:00:50.5+01:00')}&zoom=22`;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/history-routes/assets/${other.assetId}${q}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.track.map((p: { time: string }) => p.time)).toEqual([10, 20, 30, 40, 50].map((s) => new Date(t0 + s * 1000).toISOString()));
    expect(body.track.map((p: { speed: number }) => p.speed)).toEqual([60, 70, 80, 90, 100]);
    expect(body.summary).toMatchObject({ positions: 5, maxSpeed: 100 });
  });

  it('answers an empty route for a range without fixes', async () => {
    const q = `?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/history-routes/assets/${truck.assetId}${q}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ track: [], stops: [], capped: false, summary: { positions: 0, distanceM: 0 } });
  });

  it('answers the same route for the device and the driver', async () => {
    const g = await t.app.inject({ method: 'GET', url: url('gateways', truck.gatewayId), headers: bearer(token) });
    const d = await t.app.inject({ method: 'GET', url: url('drivers', truck.driverId!), headers: bearer(token) });
    expect(g.json().summary.positions).toBe(3600);
    expect(d.json().summary.positions).toBe(3600);
  });

  it('caps the track at maxPoints', async () => {
    const res = await t.app.inject({ method: 'GET', url: url('assets', truck.assetId, '&zoom=22&maxPoints=10'), headers: bearer(token) });
    expect(res.json().track.length).toBeLessThanOrEqual(10);
  });

  it('answers 400 naming the field for a bad range, 404 for a foreign vehicle, 403 without HR_READ', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/history-routes/assets/${truck.assetId}?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`,
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { 'querystring.to': 'to must be after from' });
    const stranger = await registerOrganization(t.app, 'Other Carrier');
    const strangerOrg = stranger.user.organization!.id;
    const foreign = await t.app.inject({ method: 'GET', url: url('assets', truck.assetId).replace(orgId, strangerOrg), headers: bearer(stranger.accessToken) });
    expect(foreign.statusCode).toBe(404);
    const cross = await t.app.inject({ method: 'GET', url: url('assets', truck.assetId), headers: bearer(stranger.accessToken) });
    expect(cross.statusCode).toBe(404);
    const dispatcher = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({ method: 'GET', url: url('assets', truck.assetId), headers: bearer(dispatcher.accessToken) });
    expect([200, 403]).toContain(res.statusCode);
    if (!dispatcher.user.permissions.includes('HR_READ')) expect(res.statusCode).toBe(403);
  });
});
