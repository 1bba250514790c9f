import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HosLogDay } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, login, type TestContext } from '../../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../../test/vehicles.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import type { PositionRow } from '../../positions/index.ts';
import { runEldDiagnostics } from '../../../jobs/eld-diagnostics.ts';
import { EngineEvents } from './engine-events.service.ts';

// Engine power-up and shut-down records (type 6) from positions written through the real ingest
// (the gateways' batch endpoint), decision 0155.

let t: TestContext;
let orgId: string;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const s = await login(t.app, DEMO.admin);
  orgId = s.user.organization!.id;
  headers = bearer(s.accessToken);
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;
const T0 = Date.now() - 6 * 60 * MIN;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

interface Fix {
  /** Minutes after T0. */
  m: number;
  ignition?: boolean | null;
  kmh?: number;
  odometerKm?: number;
  hours?: number;
  vehicleSpeed?: number;
}

/** Posts fixes through the batch endpoint with the engine attributes a Teltonika/Traccar decoder names. */
async function post(v: TestVehicle, fixes: readonly Fix[]): Promise<void> {
  const positions = fixes.map((f) => ({
    fixTime: new Date(T0 + f.m * MIN).toISOString(),
    latitude: 41.8,
    longitude: -87.9 + f.m / 1000,
    ...(f.kmh === undefined ? {} : { speed: f.kmh }),
    attributes: {
      ...(f.ignition === undefined || f.ignition === null ? {} : { ignition: f.ignition }),
      ...(f.odometerKm === undefined ? {} : { vehicleOdometer: f.odometerKm * 1000 }),
      ...(f.hours === undefined ? {} : { engineHours: f.hours }),
      ...(f.vehicleSpeed === undefined ? {} : { vehicleSpeed: f.vehicleSpeed }),
    },
  }));
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions } });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.engineEvents.idle();
  await t.app.autoDuty.idle();
}

interface Row {
  driver_id: string | null;
  event_type: number;
  event_code: number;
  event_time: string | Date;
  odometer_m: number | null;
  engine_hours: number | null;
  latitude: number | null;
  record_origin: number;
}
const engineOf = (v: TestVehicle) => sql<Row>(`select * from hos_events where vehicle_id = '${v.assetId}' and event_type = 6 order by event_time, sequence_id`);
const brief = (rows: Row[]) => rows.map((e) => `${e.event_code} +${Math.round((new Date(e.event_time).getTime() - T0) / MIN)}`);

describe('engine power-up and shut-down records (decision 0155)', () => {
  it('records each ignition change for the vehicle and its driver, with total miles, engine hours and the position', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-1' });
    await post(v, [
      { m: 0, ignition: false, odometerKm: 1000, hours: 500 },
      { m: 1, ignition: true, odometerKm: 1000, hours: 500 },
      { m: 2, ignition: true, odometerKm: 1001, hours: 500.1 },
      { m: 30, ignition: false, odometerKm: 1040, hours: 500.5 },
    ]);
    const rows = await engineOf(v);
    expect(brief(rows)).toEqual(['1 +1', '3 +30']);
    expect(rows.map((r) => [r.driver_id, r.odometer_m, r.engine_hours, r.record_origin])).toEqual([
      [v.driverId, 1_000_000, 500, 1],
      [v.driverId, 1_040_000, 500.5, 1],
    ]);
    expect(rows[0]!.latitude).toBeCloseTo(41.8, 5);
  });

  it('a resent batch, a restart and its catch-up never record a change twice', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-2' });
    const fixes = [
      { m: 0, ignition: false },
      { m: 5, ignition: true },
      { m: 9, ignition: false },
    ];
    await post(v, fixes);
    await post(v, fixes);
    const restarted = new EngineEvents(t.app.db);
    await restarted.catchUp();
    await post(v, [{ m: 10, ignition: false }]);
    expect(brief(await engineOf(v))).toEqual(['1 +5', '3 +9']);
    // The restarted instance starts from the stored records: the same fix twice is one power-up.
    const row = (m: number, ignition: boolean): PositionRow => ({
      organizationId: orgId,
      gatewayId: v.gatewayId,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + m * MIN),
      latitude: 41.8,
      longitude: -87.9,
      speed: 0,
      course: null,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition,
      protocol: 'batch',
      attributes: {},
    });
    // Stored as the group commit stores them (without this instance's follower behind it).
    await sql(`insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, ignition, protocol)
               values ${[
                 [11, false],
                 [12, true],
               ]
                 .map(
                   ([m, ig]) =>
                     `('${orgId}', '${v.gatewayId}', '${v.assetId}', '${v.driverId}', '${new Date(T0 + Number(m) * MIN).toISOString()}', 41.8, -87.9, ${ig}, 'batch')`,
                 )
                 .join(',')}`);
    restarted.enqueue([row(11, false), row(12, true)], [true, true]);
    await restarted.idle();
    restarted.enqueue([row(12, true)], [true]);
    await restarted.idle();
    expect(brief(await engineOf(v))).toEqual(['1 +5', '3 +9', '1 +12']);
  });

  it('a change stored just before a crash is recorded at its own fix, not at the first fix after the restart', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-crash' });
    await post(v, [
      { m: 0, ignition: true },
      { m: 4, ignition: false },
    ]);
    // The engine came on at +6 and the process was killed after that fix's commit, before its round.
    await sql(`insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, ignition, protocol)
               values ('${orgId}', '${v.gatewayId}', '${v.assetId}', '${v.driverId}', '${new Date(T0 + 6 * MIN).toISOString()}', 41.8, -87.9, true, 'batch')`);
    // The restarted process: its first round for the vehicle is the next fix.
    const restarted = new EngineEvents(t.app.db);
    restarted.enqueue(
      [
        {
          organizationId: orgId,
          gatewayId: v.gatewayId,
          assetId: v.assetId,
          driverId: v.driverId,
          fixTime: new Date(T0 + 7 * MIN),
          latitude: 41.8,
          longitude: -87.9,
          speed: 0,
          course: null,
          altitude: null,
          accuracy: null,
          odometer: null,
          odometerSource: null,
          engineHours: null,
          ignition: true,
          protocol: 'batch',
          attributes: {},
        },
      ],
      [true],
    );
    await restarted.idle();
    await restarted.catchUp();
    expect(brief(await engineOf(v))).toEqual(['1 +0', '3 +4', '1 +6']);
  });

  it('a new instance reconciles a round of vehicles together: each change once, none twice (issue 49)', async () => {
    const vs = await Promise.all([1, 2, 3].map((n) => createTestVehicle(t.app.db, orgId, { uniqueId: `engine-round-${n}` })));
    for (const v of vs)
      await post(v, [
        { m: 0, ignition: false },
        { m: 2, ignition: true },
      ]);
    // The next fixes of all three reach an instance that never saw them, in one round: the first
    // vehicle's engine goes off, the second's stays on, the third's off and on again.
    const row = (v: TestVehicle, m: number, ignition: boolean): PositionRow => ({
      organizationId: orgId,
      gatewayId: v.gatewayId,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + m * MIN),
      latitude: 41.8,
      longitude: -87.9,
      speed: 0,
      course: null,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition,
      protocol: 'batch',
      attributes: {},
    });
    const next = [row(vs[0]!, 3, true), row(vs[0]!, 4, false), row(vs[1]!, 3, true), row(vs[2]!, 3, false), row(vs[2]!, 5, true)];
    await sql(`insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, ignition, protocol)
               values ${next.map((r) => `('${orgId}', '${r.gatewayId}', '${r.assetId}', '${r.driverId}', '${r.fixTime.toISOString()}', 41.8, -87.9, ${r.ignition}, 'batch')`).join(',')}`);
    const other = new EngineEvents(t.app.db);
    other.enqueue(
      next,
      next.map(() => true),
    );
    await other.idle();
    expect(other.stats.reconciled).toBe(3);
    expect(await Promise.all(vs.map(async (v) => brief(await engineOf(v))))).toEqual([['1 +2', '3 +4'], ['1 +2'], ['1 +2', '3 +3', '1 +5']]);
    // Again from a third instance: nothing more.
    const third = new EngineEvents(t.app.db);
    third.enqueue(
      next,
      next.map(() => true),
    );
    await third.idle();
    expect(await Promise.all(vs.map(async (v) => brief(await engineOf(v))))).toEqual([['1 +2', '3 +4'], ['1 +2'], ['1 +2', '3 +3', '1 +5']]);
  });

  it('late and out-of-order fixes: a cycle they show is recorded, a change already recorded is not', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-3' });
    await post(v, [
      { m: 0, ignition: false },
      { m: 10, ignition: true },
      { m: 40, ignition: false },
    ]);
    // A fix stored late shows the engine on before its power-up record: the same power-up, not another.
    await post(v, [{ m: 8, ignition: true }]);
    // Two late fixes show the engine off and on again in the middle of the run.
    await post(v, [
      { m: 21, ignition: true },
      { m: 20, ignition: false },
    ]);
    expect(brief(await engineOf(v))).toEqual(['1 +10', '3 +20', '1 +21', '3 +40']);
  });

  it('the unidentified driver profile holds the changes when nobody is signed in', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-4', driver: false });
    await post(v, [
      { m: 0, ignition: true },
      { m: 3, ignition: false },
    ]);
    const rows = await engineOf(v);
    expect(brief(rows)).toEqual(['1 +0', '3 +3']);
    expect(rows.map((r) => r.driver_id)).toEqual([null, null]);
  });

  it('the catch-up records the changes of positions stored before the start (the demo history)', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-5' });
    // Stored straight into the tables, as a seed does, with no follower behind them.
    const values = [0, 1, 2, 3].map(
      (m) =>
        `('${orgId}', '${v.gatewayId}', '${v.assetId}', '${v.driverId}', '${new Date(T0 + m * MIN).toISOString()}', 41.8, -87.9, ${m === 1 || m === 2}, 'teltonika', ${1000 + m}, ${100 + m / 10})`,
    );
    await sql(
      `insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, ignition, protocol, odometer, engine_hours) values ${values.join(',')}`,
    );
    await sql(`insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, ignition)
               values ('${v.assetId}', '${orgId}', '${v.gatewayId}', '${v.driverId}', '${new Date(T0 + 3 * MIN).toISOString()}', now(), 41.8, -87.9, false)`);
    const n = await new EngineEvents(t.app.db).catchUp();
    expect(n).toBeGreaterThanOrEqual(2);
    const rows = await engineOf(v);
    expect(brief(rows)).toEqual(['1 +1', '3 +3']);
    expect(rows.map((r) => [r.odometer_m, r.engine_hours])).toEqual([
      [1001, 100.1],
      [1003, 100.3],
    ]);
    expect(await new EngineEvents(t.app.db).catchUp()).toBe(0);
  });
});

describe('automatic driving from engine or GNSS speed, only with the engine on (decision 0155)', () => {
  const dutyOf = (v: TestVehicle) => sql<Row>(`select * from hos_events where vehicle_id = '${v.assetId}' and event_type = 1 order by event_time, sequence_id`);

  it("drives on the engine's speed when the device sends no GNSS speed, and the record carries the totals", async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-6' });
    await post(v, [
      { m: 0, ignition: true, vehicleSpeed: 0, odometerKm: 2000, hours: 700 },
      { m: 1, ignition: true, vehicleSpeed: 80, odometerKm: 2000.5, hours: 700.1 },
      { m: 2, ignition: true, vehicleSpeed: 80, odometerKm: 2002, hours: 700.2 },
    ]);
    const rows = await dutyOf(v);
    expect(brief(rows)).toEqual(['3 +1']);
    expect([rows[0]!.odometer_m, rows[0]!.engine_hours]).toEqual([2_000_500, 700.1]);
  });

  it('movement with the ignition known off is not driving (towed); unknown ignition still is', async () => {
    const towed = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-7', driver: false });
    await post(towed, [
      { m: 0, ignition: false, kmh: 60 },
      { m: 1, ignition: false, kmh: 60 },
      { m: 2, ignition: false, kmh: 60 },
    ]);
    expect(await dutyOf(towed)).toEqual([]);
    const unknown = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-8', driver: false });
    await post(unknown, [
      { m: 0, kmh: 60 },
      { m: 1, kmh: 60 },
    ]);
    expect(brief(await dutyOf(unknown))).toEqual(['3 +0']);
  });
});

describe('engine records in the ELD output file and the edit paths (decision 0155)', () => {
  it('fills the power-up and shut-down section and the miles and hours since the power-up', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-9', unitNumber: 'ENG9' });
    await sql(`update drivers set license_number = 'D1234567', license_state = 'IL' where id = '${v.driverId}'`);
    const MILE_KM = 1.609344;
    await post(v, [
      { m: 0, ignition: true, kmh: 0, odometerKm: 1000 * MILE_KM, hours: 1200 },
      { m: 1, ignition: true, kmh: 80, odometerKm: 1000.4 * MILE_KM, hours: 1200.05 },
      { m: 30, ignition: true, kmh: 80, odometerKm: 1040.2 * MILE_KM, hours: 1200.5 },
      { m: 31, ignition: false, kmh: 0, odometerKm: 1041 * MILE_KM, hours: 1200.6 },
    ]);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers/${v.driverId}/hos_log/eld-output`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.split('\r\n');
    const section = lines.indexOf('CMV Engine Power-Up and Shut Down Activity:');
    const engine = lines.slice(section + 1, lines.indexOf('Unidentified Driver Profile Records:'));
    // Most recent first: the shut-down, then the power-up, each with whole total miles and engine hours.
    expect(
      engine.map((l) =>
        l
          .split(',')
          .filter((_, i) => [1, 4, 5, 8].includes(i))
          .join(','),
      ),
    ).toEqual(['3,1041,1200.6,ENG9', '1,1000,1200.0,ENG9']);
    // The automatic Driving record: 0 miles (1000.4 - 1000, rounded down) and 0.0 hours since the power-up.
    const eventList = lines.slice(lines.indexOf('ELD Event List:') + 1, lines.indexOf('ELD Event Annotations or Comments:'));
    // Type, code, accumulated miles, elapsed hours, newest first: the Driving at +1 (0.4 mi, 0.05 h:
    // rounded down), the ON of the stop the 29-minute gap shows, the Driving again at +30 (40.2 mi, 0.5 h).
    expect(
      eventList.map((l) =>
        l
          .split(',')
          .filter((_, i) => [3, 4, 7, 8].includes(i))
          .join(','),
      ),
    ).toEqual(['1,3,40,0.5', '1,4,0,0.0', '1,3,0,0.0']);

    // The log day shows the same: distance and engine hours since the power-up on each record.
    const [d] = await sql<{ log_id: string }>(
      `select l.id as log_id from hos_events e join hos_logs l on l.organization_id = e.organization_id and l.driver_id = e.driver_id and l.log_date = e.log_date where e.vehicle_id = '${v.assetId}' and e.event_type = 1 order by e.event_time desc limit 1`,
    );
    const day = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/hos_log/${d!.log_id}`, headers });
    expect(day.statusCode, day.body).toBe(200);
    const events = (day.json() as HosLogDay).events.filter((e) => e.vehicle?.id === v.assetId && e.eventType === 1);
    const newest = events.at(-1)!;
    expect(newest.sincePowerUp?.engineHours).toBe(0.5);
    expect(newest.sincePowerUp?.distanceM).toBeCloseTo(40.2 * 1609.344, 0);
  });

  it('an engine record cannot be edited', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-10' });
    await post(v, [
      { m: 0, ignition: false },
      { m: 1, ignition: true },
    ]);
    const [e] = await sql<{ id: string; log_id: string }>(
      `select e.id, l.id as log_id from hos_events e join hos_logs l on l.organization_id = e.organization_id and l.driver_id = e.driver_id and l.log_date = e.log_date where e.vehicle_id = '${v.assetId}' and e.event_type = 6`,
    );
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/drivers/${v.driverId}/hos_log/${e!.log_id}/hos_event/${e!.id}`,
      headers,
      payload: { status: 'ON', at: new Date(T0 + 2 * MIN).toISOString(), annotation: 'Moved the power-up' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Only duty-status events can be edited/);
    expect(brief(await engineOf(v))).toEqual(['1 +1']);
  });
});

describe('malfunctions and diagnostics that need the engine (decision 0155)', () => {
  /** Fixes a minute apart, `from`..`to` minutes from now, moving east at about 80 km/h. */
  const run = (from: number, to: number, over: (m: number) => Partial<Fix> = () => ({})) =>
    Array.from({ length: to - from }, (_, i) => ({
      m: from + i,
      ignition: true,
      kmh: 80,
      odometerKm: 5000 + (from + i) * 1.33,
      hours: 900 + (from + i) / 60,
      ...over(from + i),
    }));
  /** Posts fixes `m` minutes from now (negative: ago), each a minute further east. */
  async function postNow(v: TestVehicle, fixes: readonly Fix[]): Promise<void> {
    const now = Date.now();
    const positions = fixes.map((f) => ({
      fixTime: new Date(now + f.m * MIN).toISOString(),
      latitude: 40,
      longitude: -100 + (f.m + 200) * 0.0155,
      speed: f.kmh ?? 0,
      attributes: {
        ignition: f.ignition,
        ...(f.odometerKm === undefined ? {} : { vehicleOdometer: f.odometerKm * 1000 }),
        ...(f.hours === undefined ? {} : { engineHours: f.hours }),
      },
    }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: { authorization: `Bearer ${v.token}` },
      payload: { positions },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.engineEvents.idle();
    await t.app.autoDuty.idle();
  }

  it('logs E and 2 when the engine data stop, P for driving not recorded, T for a clock behind, each shown with its name', async () => {
    const sync = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-diag-1' });
    // 15 minutes with the engine's data, then 55 without while still driving.
    await postNow(
      sync,
      run(-70, -1, (m) => (m >= -55 ? { odometerKm: undefined, hours: undefined } : {})),
    );
    const power = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-diag-2' });
    // 20 minutes of fixes, a 40-minute silence with the engine on while the truck went on, 10 more minutes.
    await postNow(power, [...run(-100, -80), ...run(-40, -30)]);
    const clock = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-diag-3' });
    // Received now, stamped 15 minutes ago by a clock that is behind.
    await postNow(
      clock,
      run(-16, -14, () => ({ kmh: 0 })),
    );
    const gpsOnly = await createTestVehicle(t.app.db, orgId, { uniqueId: 'engine-diag-4' });
    await postNow(
      gpsOnly,
      run(-70, -1, () => ({ odometerKm: undefined, hours: undefined, ignition: undefined })),
    );

    await runEldDiagnostics(t.database);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/hos_log/diagnostics?active=true&size=100`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().content as Array<{ vehicle: { id: string } | null; code: string; name: string; kind: string }>;
    const codesOf = (v: TestVehicle) =>
      items
        .filter((d) => d.vehicle?.id === v.assetId)
        .map((d) => d.code)
        .sort();
    expect(codesOf(sync)).toEqual(['2', '3', 'E']);
    expect(items.find((d) => d.vehicle?.id === sync.assetId && d.code === 'E')).toMatchObject({
      kind: 'MALFUNCTION',
      name: 'Engine synchronization compliance malfunction',
    });
    expect(codesOf(power)).toContain('P');
    expect(codesOf(clock)).toEqual(['T']);
    // A GPS-only device is no ELD: none of the engine checks (the devices screen says so).
    expect(codesOf(gpsOnly).filter((c) => ['P', 'E', '2', '3', 'T'].includes(c))).toEqual([]);
    // The malfunction record carries the vehicle's total miles when logged.
    const [e] = await sql<{ odometer_m: number | null }>(
      `select odometer_m from hos_events where vehicle_id = '${power.assetId}' and event_type = 7 and diagnostic_code = 'P'`,
    );
    expect(e!.odometer_m).toBeGreaterThan(4_000_000);
  });
});
