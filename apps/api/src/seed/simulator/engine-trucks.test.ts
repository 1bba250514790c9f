import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HOS_EVENT_TYPES, isValidVin } from '@fleet/api-contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/sql/rows.ts';
import { createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { EngineEvents } from '../../modules/hos/index.ts';
import { decodeAvlPacket, encodeAvlPacket, encodeImei } from '../../modules/positions/pipeline/teltonika/codec.ts';
import { TeltonikaFrameSplitter } from '../../modules/positions/pipeline/teltonika/frames.ts';
import { loadIoMap, recordsToRows } from '../../modules/positions/pipeline/teltonika/records.ts';
import { buildTeltonikaServer } from '../../modules/positions/teltonika-server.ts';
import { DEMO_ENGINE_TRUCKS, TELTONIKA_MODEL } from '../demo-fleet.ts';
import { seed } from '../seed.ts';
import { backfillDemoHistory, findDemoTrucks, type DemoTruck } from './demo-fleet.ts';
import { avlRecord } from './engine-data.ts';
import { DEMO_FUEL_SENSORS } from './fuel-sensor.ts';
import { runTeltonikaTrucks, SimulatedFmc, TIMING, type TeltonikaFleetHandle } from './teltonika-device.ts';
import { TruckPlan, warmUp } from './truck-plan.ts';

const DAY = 86_400_000;
const MILE_M = 1609.344;

let t: TestContext;
let engineTrucks: Array<DemoTruck & { engine: NonNullable<DemoTruck['engine']> }>;
const until = Date.now();

const backfilled = () => [engineTrucks[0]!, engineTrucks[3]!, engineTrucks[4]!];
const rows = async <T>(q: string) => rowsOf<T>(await t.app.db.execute(q as never));

const luhnOk = (digits: string) =>
  [...digits].reverse().reduce((sum, c, i) => {
    const d = Number(c) * (i % 2 ? 2 : 1);
    return sum + (d > 9 ? d - 9 : d);
  }, 0) %
    10 ===
  0;

async function until_(cond: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await cond())) throw new Error('timed out');
    },
    { timeout: ms, interval: 100 },
  );
}

beforeAll(async () => {
  t = await createTestApp();
  engineTrucks = (await findDemoTrucks(t.app.db)).filter((x): x is DemoTruck & { engine: NonNullable<DemoTruck['engine']> } => x.engine !== null);
  // Two days of history of three Teltonika trucks, as the first start writes the week; the other
  // two drive live below.
  await backfillDemoHistory(t.app.db, backfilled(), until, 2);
});
afterAll(() => t?.close());

describe('demo Teltonika trucks (decision 0156)', () => {
  it('registers five FMC650s with valid IMEIs on trucks of both regions; the rest stay phones', async () => {
    const devices = await rows<{
      unique_id: string;
      protocol: string;
      model: string;
      manufacturer: string;
      io_map: object;
      unit: string;
      region: string;
      vin: string;
    }>(
      `select g.unique_id, m.protocol, m.name as model, m.manufacturer, m.io_map, a.unit_number as unit, gr.name as region, a.vin
       from gateways g join device_models m on m.id = g.device_model_id join assets a on a.organization_id = g.organization_id and a.id = g.asset_id
       join group_assets ga on ga.organization_id = a.organization_id and ga.asset_id = a.id
       join groups gr on gr.organization_id = ga.organization_id and gr.id = ga.group_id order by a.unit_number`,
    );
    const teltonika = devices.filter((d) => d.protocol === 'teltonika');
    expect(teltonika.map((d) => d.unit)).toEqual(DEMO_ENGINE_TRUCKS.map((e) => String(100 + e.index)));
    for (const d of teltonika) {
      expect(d.unique_id).toMatch(/^\d{15}$/);
      expect(luhnOk(d.unique_id), d.unique_id).toBe(true);
      expect(d).toMatchObject({ model: TELTONIKA_MODEL.name, manufacturer: 'Teltonika', io_map: {} });
    }
    expect(new Set(teltonika.map((d) => d.region))).toEqual(new Set(['East region', 'West region']));
    expect(devices.filter((d) => d.protocol === 'osmand')).toHaveLength(20);
    expect(engineTrucks.map((x) => x.engine.vin)).toEqual(teltonika.map((d) => d.vin));
  });

  it('backfills engine data: ignition on and off, the ECM odometer with the distance, engine hours while the engine runs', async () => {
    for (const truck of backfilled()) {
      const fixes = await rows<{
        t: number;
        ign: boolean;
        odo: number;
        src: string;
        hours: number;
        gps: number;
        rpm: number;
        speed: number;
        vin: string;
        io: Record<string, number | string>;
        protocol: string;
        fuel: number;
      }>(
        `select extract(epoch from fix_time) * 1000 as t, ignition as ign, odometer as odo, odometer_source as src, engine_hours as hours,
                (attributes->>'fuelUsed')::float8 as fuel, (attributes->>'gpsOdometer')::float8 as gps, (attributes->>'rpm')::int as rpm, speed, attributes->>'vin' as vin, attributes->'io' as io, protocol
         from positions where gateway_id = '${truck.gatewayId}' order by fix_time`,
      );
      expect(fixes.length).toBeGreaterThan(600);
      expect(new Set(fixes.map((f) => f.protocol))).toEqual(new Set(['teltonika']));
      expect(new Set(fixes.map((f) => f.src))).toEqual(new Set(['ECM']));
      expect(new Set(fixes.map((f) => f.vin))).toEqual(new Set([truck.engine.vin]));
      expect(isValidVin(truck.engine.vin)).toBe(true);
      // A realistic ECM total: 300,000-700,000 miles.
      expect(fixes[0]!.odo / MILE_M).toBeGreaterThan(300_000);
      expect(fixes[0]!.odo / MILE_M).toBeLessThan(700_000);
      let on = 0;
      let off = 0;
      for (let i = 1; i < fixes.length; i++) {
        const a = fixes[i - 1]!;
        const b = fixes[i]!;
        if (!a.ign && b.ign) on++;
        if (a.ign && !b.ign) off++;
        // The engine's distance moves with the GNSS one (the truck's driven distance), to the metre.
        expect(Math.abs(b.odo - a.odo - (b.gps - a.gps))).toBeLessThanOrEqual(1);
        const hours = b.hours - a.hours;
        // Hours count while the ignition is on (idling included) and stand still while it is off.
        if (!a.ign) expect(hours).toBe(0);
        if (a.ign && b.ign) expect(Math.abs(hours - (b.t - a.t) / 3_600_000)).toBeLessThan(1.01 / 60);
        if (b.ign && b.speed > 0) expect(b.rpm).toBeGreaterThanOrEqual(1200);
        if (b.ign && b.speed > 0) expect(b.rpm).toBeLessThanOrEqual(1600);
        if (b.ign && b.speed === 0) expect(Math.abs(b.rpm - 650)).toBeLessThan(20);
        if (!b.ign) expect(b.rpm).toBe(0);
        // The engine's fuel counter (IO 83, decision 0280) stands still while the engine is off and rises while it runs.
        if (!a.ign) expect(b.fuel).toBe(a.fuel);
        else expect(b.fuel).toBeGreaterThanOrEqual(a.fuel);
      }
      // A loaded class 8 truck: 5.5-7.5 mpg over the two days, idling included.
      const gallons = (fixes[fixes.length - 1]!.fuel - fixes[0]!.fuel) / 3.785411784;
      const mpg = (fixes[fixes.length - 1]!.odo - fixes[0]!.odo) / MILE_M / gallons;
      expect(mpg).toBeGreaterThan(5.5);
      expect(mpg).toBeLessThan(7.5);
      expect(on).toBeGreaterThanOrEqual(2);
      expect(off).toBeGreaterThanOrEqual(2);
      expect(fixes[fixes.length - 1]!.odo - fixes[0]!.odo).toBeGreaterThan(500_000);
      // The raw elements the default map decodes from are kept (the VIN as its ASCII bytes in hex);
      // tractor 116's fuel-level sensor reads litres (84; 110's percent, 89: decision 0276).
      const sensor = DEMO_FUEL_SENSORS.get(truck.index);
      const fuel = sensor === 'LITRES' ? ['84'] : sensor === 'PERCENT' ? ['89'] : [];
      expect(Object.keys(fixes[0]!.io).sort()).toEqual(['102', '16', '239', '240', '256', '66', '81', '83', '85', '87', ...fuel].sort());
      expect(fixes[0]!.io['256']).toBe(Buffer.from(truck.engine.vin).toString('hex'));
    }
  });

  it('stores a backfilled fix exactly as the Teltonika decoder stores the same record from a device', async () => {
    const truck = engineTrucks[0]!;
    const plan = new TruckPlan(truck.index);
    const from = Math.floor((until - 2 * DAY) / 60_000) * 60_000;
    await warmUp([plan], from);
    // The backfilled fix at a minute when the truck is on the road or idling (stored every minute),
    // the first such minute past the middle of the two days (a 35-hour restart may cover the middle).
    let time = from + DAY;
    while (plan.stateAt(time).kind === 'PARK' && time < until - 60_000) time += 60_000;
    if (plan.stateAt(time).kind === 'PARK') for (time = from + DAY; plan.stateAt(time).kind === 'PARK';) time -= 60_000;
    const [stored] = await rows<{
      attributes: Record<string, unknown>;
      odometer: number;
      engine_hours: number;
      ignition: boolean;
      speed: number;
      course: number;
      latitude: number;
    }>(
      `select attributes, odometer, engine_hours, ignition, speed, course, latitude from positions where gateway_id = '${truck.gatewayId}' and fix_time = to_timestamp(${time / 1000})`,
    );
    const gw = (await t.app.ingest.directory.byUniqueId(truck.engine.imei))!;
    const { records } = decodeAvlPacket(encodeAvlPacket(0x8e, [avlRecord(truck.engine, time, plan.stateAt(time))]));
    const device = { gw, ioMap: await loadIoMap(t.app.db, gw.id), lastFix: null, lastFixLoaded: false };
    const {
      rows: [row],
    } = await recordsToRows(t.app.ingest, device, records);
    expect(stored?.attributes).toEqual(row?.attributes);
    expect(stored).toMatchObject({ odometer: row?.odometer, engine_hours: row?.engineHours, ignition: row?.ignition, speed: row?.speed, course: row?.course });
    expect(stored?.latitude).toBeCloseTo(row!.latitude, 7);
  });

  it('records engine power-up and shut-down events for them once the catch-up has run', async () => {
    const n = await new EngineEvents(t.app.db).catchUp();
    expect(n).toBeGreaterThan(0);
    const perVehicle = await rows<{ vehicle_id: string; ups: number; downs: number; miles: number; hours: number }>(
      `select vehicle_id, count(*) filter (where event_code in (1, 2))::int as ups, count(*) filter (where event_code in (3, 4))::int as downs,
              count(*) filter (where odometer_m is not null)::int as miles, count(*) filter (where engine_hours is not null)::int as hours
       from hos_events where event_type = ${HOS_EVENT_TYPES.ENGINE_POWER} group by vehicle_id`,
    );
    for (const truck of backfilled()) {
      const v = perVehicle.find((x) => x.vehicle_id === truck.assetId);
      expect(v, `vehicle ${100 + truck.index}`).toBeDefined();
      expect(v!.ups).toBeGreaterThanOrEqual(2);
      expect(v!.downs).toBeGreaterThanOrEqual(2);
      // Every one carries the engine's total miles and hours.
      expect(v!.miles).toBe(v!.ups + v!.downs);
      expect(v!.hours).toBe(v!.ups + v!.downs);
    }
  });
});

describe('a demo Teltonika truck live', () => {
  it('records every 5 s on the road, every 5 min parked, and an event record the moment the engine starts', async () => {
    const truck = engineTrucks[0]!;
    const device = new SimulatedFmc({ index: truck.index, engine: truck.engine }, { port: 1 }, () => undefined, TIMING);
    // The engine's last start before yesterday noon, with ten minutes either side of it.
    const probe = new TruckPlan(truck.index);
    let at = Math.floor((until - DAY) / 60_000) * 60_000;
    await warmUp([probe, device.plan], at - DAY);
    // An engine start the engine then ran for at least ten minutes after (a short stop would
    // put ignition-off records inside the window and make the test depend on the clock), driving
    // for 9 of them: an idle after the start (a record a minute) left 36 records where 100 were
    // counted, in a CI run at 07:27 UTC.
    const runsTenMinutes = (from: number) => {
      let driving = 0;
      for (let s = 0; s <= 600; s += 5) {
        const state = probe.stateAt(from + s * 1000);
        if (!state.ignition) return false;
        if (state.kind === 'DRIVE') driving++;
      }
      return driving >= 108;
    };
    const lastLongStart = (): number => {
      for (; ; at -= 60_000) {
        if (!probe.stateAt(at).ignition) continue;
        const since = probe.ignitionSince(at);
        if (runsTenMinutes(since)) return since;
        at = since - 60_000;
      }
    };
    const start = lastLongStart();
    device.start(start - 10 * 60_000, until);
    device.record(start + 10 * 60_000);
    const records = device.records;
    const event = records.findIndex((r) => r.eventIoId === 239);
    expect(records[event]).toMatchObject({ timestamp: start, priority: 1, speed: 0 });
    expect(records[event]!.io.get(239)).toBe(1);
    for (const r of records.slice(0, event)) expect(r.io.get(239)).toBe(0);
    // Parked before it: a record at most every five minutes; after it: one every 5 s while moving.
    expect(event).toBeLessThanOrEqual(3);
    const after = records.slice(event + 1);
    expect(after.every((r) => r.io.get(239) === 1)).toBe(true);
    expect(after.length).toBeGreaterThanOrEqual(100);
    // The hour meter stood still while parked and runs from the start.
    expect(records[event]!.io.get(102)).toBe(records[0]!.io.get(102));
    expect(Number(after[after.length - 1]!.io.get(102)) - Number(records[event]!.io.get(102))).toBeGreaterThanOrEqual(9);
  });

  let handle: TeltonikaFleetHandle | null = null;
  afterAll(() => handle?.stop());

  it('sends codec 8E packets over TCP after the IMEI handshake; what is not acknowledged is sent again', async () => {
    const truck = engineTrucks[1]!;
    // A proxy in front of the real port that swallows the first packet (no acknowledgement) and
    // then closes: the device reconnects and sends the same records again.
    const server = buildTeltonikaServer(t.app.ingest);
    const { port } = await server.listen({ port: 0, host: '127.0.0.1' });
    let swallowed = 0;
    let packets = 0;
    const proxy = net.createServer((device) => {
      const upstream = net.connect({ port, host: '127.0.0.1' });
      const splitter = new TeltonikaFrameSplitter();
      device.on('data', (chunk: Buffer) => {
        for (const m of splitter.push(chunk)) {
          if (m.kind === 'avl') {
            packets++;
            if (swallowed === 0) {
              swallowed = decodeAvlPacket(m.frame).records.length;
              setTimeout(() => device.destroy(), 300);
              continue;
            }
            upstream.write(m.frame);
          } else upstream.write(encodeImei(m.imei));
        }
      });
      upstream.on('data', (b) => device.write(b));
      device.on('close', () => upstream.destroy());
      device.on('error', () => upstream.destroy());
      upstream.on('error', () => device.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyPort = (proxy.address() as AddressInfo).port;
    const from = Date.now() - 20 * 60_000;
    const before = await rows<{ n: number }>(
      `select count(*)::int as n from positions where gateway_id = '${truck.gatewayId}' and fix_time >= to_timestamp(${from / 1000})`,
    );
    expect(before[0]!.n).toBe(0);
    handle = runTeltonikaTrucks([{ index: truck.index, engine: truck.engine, recordingFrom: from }], { port: proxyPort }, () => undefined, {
      sendPause: () => 200,
      tickMs: 100,
      retryMs: 200,
      ackTimeoutMs: 2000,
    });
    await until_(() => handle!.acknowledged > 0 && handle!.buffered < 5, 20_000);
    handle.stop();
    expect(swallowed).toBeGreaterThan(0);
    expect(packets).toBeGreaterThan(1);
    expect(handle.resent).toBeGreaterThanOrEqual(1);
    const stored = await rows<{ n: number; protocol: string; ecm: number; hours: number }>(
      `select count(*)::int as n, min(protocol) as protocol, count(*) filter (where odometer_source = 'ECM')::int as ecm, count(engine_hours)::int as hours
       from positions where gateway_id = '${truck.gatewayId}' and fix_time >= to_timestamp(${from / 1000})`,
    );
    // Every acknowledged record is stored once: the swallowed packet's records came again.
    expect(stored[0]).toEqual({ n: handle.acknowledged, protocol: 'teltonika', ecm: handle.acknowledged, hours: handle.acknowledged });
    expect(handle.acknowledged).toBeGreaterThanOrEqual(swallowed);
    await new Promise<void>((r) => proxy.close(() => r()));
    await server.close();
  });

  it('answers commands from the console as an FMC650 does, its acknowledgements read in step (issue 73)', async () => {
    const truck = engineTrucks[1]!;
    const server = buildTeltonikaServer(t.app.ingest);
    const { port } = await server.listen({ port: 0, host: '127.0.0.1' });
    const fleet = runTeltonikaTrucks([{ index: truck.index, engine: truck.engine, recordingFrom: Date.now() - 10 * 60_000 }], { port }, () => undefined, {
      sendPause: () => 200,
      tickMs: 100,
      retryMs: 200,
      ackTimeoutMs: 2000,
    });
    try {
      await until_(() => fleet.acknowledged > 0, 20_000);
      const admin = await login(t.app, DEMO.admin);
      const url = `/api/v1/organizations/${admin.user.organization!.id}/gateways/${truck.gatewayId}/commands`;
      const headers = { authorization: `Bearer ${admin.accessToken}` };
      const answerTo = async (text: string): Promise<string | null> => {
        const queued = await t.app.inject({ method: 'POST', url, headers, payload: { text } });
        expect(queued.statusCode).toBe(201);
        const id = (queued.json() as { id: string }).id;
        let answer: string | null = null;
        await until_(async () => {
          const list = (await t.app.inject({ method: 'GET', url, headers })).json() as {
            content: Array<{ id: string; status: string; answer: string | null }>;
          };
          const c = list.content.find((x) => x.id === id);
          answer = c?.status === 'ANSWERED' ? c.answer : null;
          return answer !== null;
        }, 20_000);
        return answer;
      };
      expect(await answerTo('getver')).toContain(`Hw:FMC650 Mod:38 IMEI:${truck.engine.imei}`);
      // The stream stays in step: the next answer comes too, and no packet was taken for lost.
      expect(await answerTo('setdigout 10')).toBe('DOUT1:1 DOUT2:0 DOUT3:0');
      expect(fleet.resent).toBe(0);
    } finally {
      fleet.stop();
      await server.close();
    }
  });

  it('hands the decoded records to ingest in process when the Teltonika port is off', async () => {
    const truck = engineTrucks[2]!;
    const from = Date.now() - 15 * 60_000;
    const local = runTeltonikaTrucks(
      [{ index: truck.index, engine: truck.engine, recordingFrom: from }],
      { ingest: t.app.ingest },
      (err) => {
        throw err;
      },
      { sendPause: () => 100, tickMs: 100 },
    );
    await until_(() => local.acknowledged > 0 && local.buffered < 5, 20_000);
    local.stop();
    const [stored] = await rows<{ n: number; ecm: number }>(
      `select count(*)::int as n, count(*) filter (where odometer_source = 'ECM' and protocol = 'teltonika')::int as ecm from positions where gateway_id = '${truck.gatewayId}' and fix_time >= to_timestamp(${from / 1000})`,
    );
    expect(stored).toEqual({ n: local.acknowledged, ecm: local.acknowledged });
  });
});

describe('a demo database seeded before the Teltonika trucks', () => {
  it('turns their phones into FMC650s on the next start, keeping the gateway and its history', async () => {
    const truck = engineTrucks[0]!;
    await t.app.db.execute(
      `update gateways set unique_id = 'demo-truck-03', device_model_id = (select id from device_models where protocol = 'osmand' limit 1), name = 'Truck 103 tracker' where id = '${truck.gatewayId}'` as never,
    );
    expect((await findDemoTrucks(t.app.db)).find((x) => x.index === 3)?.engine).toBeNull();
    await seed(t.app.db, { ...t.config, demo: true }, () => undefined);
    const [g] = await rows<{ unique_id: string; protocol: string; positions: number }>(
      `select g.unique_id, m.protocol, count(p.gateway_id)::int as positions from gateways g join device_models m on m.id = g.device_model_id
       left join positions p on p.organization_id = g.organization_id and p.gateway_id = g.id where g.id = '${truck.gatewayId}' group by g.unique_id, m.protocol`,
    );
    expect(g).toMatchObject({ unique_id: truck.engine.imei, protocol: 'teltonika' });
    expect(g!.positions).toBeGreaterThan(600);
    expect((await findDemoTrucks(t.app.db)).find((x) => x.index === 3)?.engine?.imei).toBe(truck.engine.imei);
  });
});
