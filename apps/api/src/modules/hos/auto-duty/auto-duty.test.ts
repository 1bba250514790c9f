import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityPageSchema, hosLogDaySchema } from '@fleet/api-contract';
import { createTestApp, DEMO, login, bearer, type TestContext } from '../../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../../test/vehicles.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { type PositionRow, writePositions } from '../../positions/index.ts';
import { dayStartMs, previousDate, logDateOf } from '../hos.time.ts';
import { AutoDuty } from './auto-duty.service.ts';
import { fixesOf, fixesOfMany } from './auto-duty.repository.ts';

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
const KNOTS_90_KMH = 90 / 1.852;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
// Yesterday 08:00 in Chicago (the drivers' default home zone): the whole drive sits in one log day.
const today = logDateOf(Date.now(), 'America/Chicago', '00:00');
const T0 = dayStartMs(previousDate(today), 'America/Chicago', '00:00') + 8 * 60 * MIN;

/** One OsmAnd fix a minute from `start`: [minutes, km/h] pieces, moving east at that speed. */
async function post(v: TestVehicle, pieces: Array<[number, number]>, start = T0, lon0 = -95): Promise<number> {
  let t0 = start;
  let lon = lon0;
  let odo = 500_000_000;
  for (const [minutes, kmh] of pieces) {
    for (let i = 0; i < minutes; i++) {
      const knots = kmh === 0 ? 0 : KNOTS_90_KMH * (kmh / 90);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/ingest/osmand?id=${v.uniqueId}&timestamp=${t0 / 1000}&lat=38.6&lon=${lon.toFixed(5)}&speed=${knots.toFixed(3)}&odometer=${Math.round(odo)}`,
      });
      expect(res.statusCode).toBe(200);
      t0 += MIN;
      lon += kmh / 60 / 87;
      odo += (kmh * 1000) / 60;
    }
  }
  return lon;
}

interface EventRow {
  driver_id: string | null;
  vehicle_id: string;
  event_type: number;
  event_code: number;
  record_origin: number;
  event_time: string | Date;
  location_description: string | null;
  latitude: number;
  odometer_m: number | null;
}
const eventsOf = (vehicleId: string) => sql<EventRow>(`select * from hos_events where vehicle_id = '${vehicleId}' order by event_time, sequence_id`);
const brief = (rows: EventRow[]) => rows.map((e) => `${e.event_type}/${e.event_code} +${Math.round((new Date(e.event_time).getTime() - T0) / MIN)}`);

describe("the driver's own choices win over automatic duty status (decision 0112)", () => {
  const insert = (v: TestVehicle, seq: number, type: number, code: number, origin: number, minutes: number) =>
    sql(`insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_origin, event_time, log_date)
         values ('${orgId}', '${v.driverId}', '${v.assetId}', ${seq}, ${type}, ${code}, ${origin}, '${new Date(T0 + minutes * MIN).toISOString()}', '${previousDate(today)}')`);

  it('records no ON after the stop once the driver answered it with a status of their own', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-own-1' });
    await post(v, [
      [10, 0],
      [30, 90],
      [2, 0],
    ]);
    await t.app.autoDuty.idle();
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/3 +10']);
    // The driver goes off duty two minutes into the stop (the prompt of 4.4.1.2 answered).
    await insert(v, 50, 1, 1, 2, 42);
    await post(v, [[10, 0]], T0 + 42 * MIN);
    await t.app.autoDuty.idle();
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/3 +10', '1/1 +42']);
  });

  it('records no Driving while the driver is in personal conveyance', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-own-2' });
    await insert(v, 60, 1, 1, 2, 0);
    await insert(v, 61, 3, 1, 2, 0);
    await post(v, [
      [5, 0],
      [30, 60],
      [10, 0],
    ]);
    await t.app.autoDuty.idle();
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/1 +0', '3/1 +0']);
  });
});

describe('automatic duty status from ingested positions', () => {
  it('turns a recorded drive into D, ON and intermediate logs for the assigned driver, visible in the log day and availability', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-1' });
    // Parked 10 min, 2 h driving, 20 min stop, 1 h driving, 10 min stop.
    await post(v, [
      [10, 0],
      [120, 90],
      [20, 0],
      [60, 90],
      [10, 0],
    ]);
    await t.app.autoDuty.idle();

    const rows = await eventsOf(v.assetId);
    expect(brief(rows)).toEqual(['1/3 +10', '2/1 +70', '1/4 +135', '1/3 +150', '1/4 +215']);
    expect(rows.every((e) => e.driver_id === v.driverId && e.record_origin === 1)).toBe(true);
    expect(rows[0]!.location_description).toMatch(/, [A-Z]{2}$/);
    expect(rows[0]!.odometer_m).toBe(500_000_000);
    expect(rows[3]!.odometer_m).toBeCloseTo(500_000_000 + 180_000, -2);

    const [log] = await sql<{ id: string }>(`select id from hos_logs where driver_id = '${v.driverId}' and log_date = '${previousDate(today)}'`);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/hos_log/${log!.id}`, headers });
    expect(res.statusCode).toBe(200);
    const day = hosLogDaySchema.parse(res.json());
    expect(day.totals.D).toBe((125 + 65) * MIN);
    expect(day.segments.filter((s) => s.status === 'D').map((s) => [Date.parse(s.start) - T0, Date.parse(s.end) - T0])).toEqual([
      [10 * MIN, 135 * MIN],
      [150 * MIN, 215 * MIN],
    ]);
    expect(day.header.vehicles.map((x) => x.id)).toEqual([v.assetId]);

    const at = new Date(T0 + 220 * MIN).toISOString();
    const av = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/availability?at=${at}&search=${encodeURIComponent('auto-duty-1')}&size=100`,
      headers,
    });
    expect(av.statusCode).toBe(200);
    const row = availabilityPageSchema.parse(av.json()).content.find((r) => r.driver.id === v.driverId)!;
    expect(row.status).toBe('ON');
    expect(row.since).toBe(new Date(T0 + 215 * MIN).toISOString());
    expect(row.strict.driveMs).toBe(11 * 60 * MIN - 190 * MIN);
  });

  it('records a vehicle without a driver as the unidentified driver', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-2', driver: false });
    await post(
      v,
      [
        [2, 0],
        [65, 90],
        [6, 0],
      ],
      T0 + 600 * MIN,
    );
    await t.app.autoDuty.idle();
    const rows = await eventsOf(v.assetId);
    expect(brief(rows)).toEqual(['1/3 +602', '2/1 +662', '1/4 +672']);
    expect(rows.every((e) => e.driver_id === null && e.record_origin === 1 && e.vehicle_id === v.assetId)).toBe(true);
  });

  it('derives positions stored before a restart and not yet derived, once', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-3' });
    const lon = await post(
      v,
      [
        [20, 90],
        [6, 0],
      ],
      T0 + 300 * MIN,
    );
    await t.app.autoDuty.idle();
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/3 +300', '1/4 +325']);
    // Stored by ingest while the process died before deriving: written without the queue.
    const [gw] = await sql<{ id: string }>(`select id from gateways where unique_id = 'auto-duty-3'`);
    const rows: PositionRow[] = Array.from({ length: 10 }, (_, i) => ({
      organizationId: orgId,
      gatewayId: gw!.id,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + (340 + i) * MIN),
      latitude: 38.6,
      longitude: lon + i * 0.02,
      speed: 90,
      course: 90,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'osmand',
      attributes: {},
    }));
    await writePositions(t.app.db, rows);
    const restarted = new AutoDuty(t.app.db);
    expect(await restarted.catchUp()).toBe(1);
    expect(await new AutoDuty(t.app.db).catchUp()).toBe(0);
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/3 +300', '1/4 +325', '1/3 +340']);
  });

  it('starts again from the database when another instance derived the vehicle meanwhile', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'auto-duty-4' });
    const [gw] = await sql<{ id: string }>(`select id from gateways where unique_id = 'auto-duty-4'`);
    const fix = (m: number, speed: number): PositionRow => ({
      organizationId: orgId,
      gatewayId: gw!.id,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + m * MIN),
      latitude: 38.6,
      longitude: -95 + m * 0.02,
      speed,
      course: 90,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'osmand',
      attributes: {},
    });
    // Two instances behind a load balancer each take some of the device's fixes.
    const one = new AutoDuty(t.app.db, { verifyAfterMs: 0 });
    const two = new AutoDuty(t.app.db, { verifyAfterMs: 0 });
    const send = async (to: AutoDuty, rows: PositionRow[]) => {
      const { stored } = await writePositions(t.app.db, rows);
      to.enqueue(rows, stored);
      await to.idle();
    };
    await send(one, [fix(400, 90), fix(401, 90)]);
    await send(one, [fix(402, 0), fix(408, 0)]);
    await send(two, [fix(430, 90), fix(431, 90)]);
    // Instance one still believes the vehicle stopped: it reads the watermark and starts again.
    await send(one, [fix(432, 0), fix(436, 0), fix(437, 0)]);
    expect(one.stats.rebuilt).toBe(1);
    expect(brief(await eventsOf(v.assetId))).toEqual(['1/3 +400', '1/4 +407', '1/3 +430', '1/4 +437']);
  });

  it('derives the fixes of a failed round with the next ones, as a clean replay does (decision 0328)', async () => {
    const vs = await Promise.all([8, 9].map((n) => createTestVehicle(t.app.db, orgId, { uniqueId: `auto-duty-${n}` })));
    const gws = await sql<{ id: string; unique_id: string }>(`select id, unique_id from gateways where unique_id in ('auto-duty-8', 'auto-duty-9')`);
    const fix = (v: TestVehicle, m: number, speed: number): PositionRow => ({
      organizationId: orgId,
      gatewayId: gws.find((g) => g.unique_id === v.uniqueId)!.id,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + m * MIN),
      latitude: 38.6,
      longitude: -95 + m * 0.02,
      speed,
      course: 90,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'osmand',
      attributes: {},
    });
    // The database goes away under one round (the embedded database's thread killed), then comes back.
    let down = false;
    const flaky = new Proxy(t.app.db, {
      get(target, p, receiver) {
        const value: unknown = Reflect.get(target, p, receiver);
        if (!down || typeof value !== 'function') return value;
        return () => {
          throw new Error('the database went away (test)');
        };
      },
    });
    const duty = new AutoDuty(flaky);
    const send = async (rows: PositionRow[]) => {
      const { stored } = await writePositions(t.app.db, rows);
      duty.enqueue(rows, stored);
      await duty.idle();
    };
    const [first, idle] = vs as [TestVehicle, TestVehicle];
    // `idle` stood still in an earlier round: nothing derived, nothing written.
    await send([fix(idle, 600, 0)]);
    down = true;
    // The failing round holds the first vehicle's first fix and the moment the second one moves.
    await send([fix(first, 600, 90), fix(idle, 601, 90)]);
    expect(duty.stats.failures).toBe(1);
    expect(await eventsOf(first.assetId)).toEqual([]);
    down = false;
    await send([fix(first, 601, 90), fix(first, 602, 90), fix(idle, 602, 90), fix(idle, 603, 0), fix(idle, 609, 0)]);
    expect(brief(await eventsOf(first.assetId))).toEqual(['1/3 +600']);
    expect(brief(await eventsOf(idle.assetId))).toEqual(['1/3 +601', '1/4 +608']);
    // And each vehicle goes on from there as one that never failed.
    await send([fix(first, 603, 0), fix(first, 610, 0)]);
    expect(brief(await eventsOf(first.assetId))).toEqual(['1/3 +600', '1/4 +608']);
  });

  it('derives a round of vehicles new to an instance together, each as it would alone (issue 49)', async () => {
    const vs = await Promise.all([5, 6, 7].map((n) => createTestVehicle(t.app.db, orgId, { uniqueId: `auto-duty-${n}` })));
    const gws = await sql<{ id: string; unique_id: string }>(
      `select id, unique_id from gateways where unique_id in ('auto-duty-5', 'auto-duty-6', 'auto-duty-7')`,
    );
    const fix = (v: TestVehicle, m: number, speed: number): PositionRow => ({
      organizationId: orgId,
      gatewayId: gws.find((g) => g.unique_id === v.uniqueId)!.id,
      assetId: v.assetId,
      driverId: v.driverId,
      fixTime: new Date(T0 + m * MIN),
      latitude: 38.6,
      longitude: -95 + m * 0.02,
      speed,
      course: 90,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: true,
      protocol: 'osmand',
      attributes: {},
    });
    const send = async (to: AutoDuty, rows: PositionRow[]) => {
      const { stored } = await writePositions(t.app.db, rows);
      to.enqueue(rows, stored);
      await to.idle();
    };
    // Instance one derives each vehicle's drive; the vehicles' next fixes reach instance two, which never saw them.
    const one = new AutoDuty(t.app.db);
    await send(
      one,
      vs.flatMap((v, i) => [fix(v, 500 + i, 90), fix(v, 501 + i, 90)]),
    );
    const two = new AutoDuty(t.app.db);
    await send(
      two,
      vs.flatMap((v, i) => [fix(v, 502 + i, 90), fix(v, 503 + i, 0), fix(v, 509 + i, 0), fix(v, 510 + i, 0)]),
    );
    for (const [i, v] of vs.entries()) expect(brief(await eventsOf(v.assetId)), v.uniqueId).toEqual([`1/3 +${500 + i}`, `1/4 +${508 + i}`]);

    // The read behind it gives each vehicle's fixes as the one-vehicle read does, for random stretches.
    for (let k = 0; k < 8; k++) {
      const spans = vs.map((v) => {
        const a = T0 + (495 + Math.floor(Math.random() * 20)) * MIN;
        return { vehicleId: v.assetId, fromMs: a, toMs: a + Math.floor(Math.random() * 15) * MIN };
      });
      const many = await fixesOfMany(t.app.db, orgId, spans);
      for (const sp of spans) expect(many.get(sp.vehicleId), JSON.stringify(sp)).toEqual(await fixesOf(t.app.db, orgId, sp.vehicleId, sp.fromMs, sp.toMs));
    }
  });
});
