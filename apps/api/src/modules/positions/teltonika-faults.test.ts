import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineFault, Page } from '@fleet/api-contract';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { dtcValue } from '../engine-faults/index.ts';
import { decodeAvlPacket, encodeAvlPacket, type AvlRecord } from './pipeline/teltonika/codec.ts';
import { loadIoMap, recordsToRows } from './pipeline/teltonika/records.ts';

// Issue 46 (decision 0191): Teltonika's fault elements, named by the default IO map, decoded and
// committed as the Teltonika port does, become the vehicle's engine faults (read through the API).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let j1939Truck: TestVehicle;
let fmbTruck: TestVehicle;

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  j1939Truck = await createTestVehicle(t.app.db, a.orgId, { uniqueId: '860317060000461', unitNumber: 'F-461' });
  fmbTruck = await createTestVehicle(t.app.db, a.orgId, { uniqueId: '860317060000462' });
});
afterAll(() => t?.close());

const base = Date.now() - 3_600_000;
let seq = 0;
/** Records of a Teltonika device decoded and committed as the Teltonika port does (TELTONIKA_PORT=0's path). */
async function teltonika(v: TestVehicle, records: Array<{ ignition: 0 | 1; io?: Array<[number, number | Buffer]> }>) {
  const avl: AvlRecord[] = records.map((r) => ({
    timestamp: base + ++seq * 1000,
    priority: 0,
    longitude: -87.6298,
    latitude: 41.8781,
    altitude: 180,
    angle: 90,
    satellites: 12,
    speed: 0,
    eventIoId: 0,
    io: new Map<number, number | bigint | Buffer>([[239, r.ignition], ...(r.io ?? [])]),
  }));
  const { records: decoded } = decodeAvlPacket(encodeAvlPacket(0x8e, avl));
  const gw = (await t.app.ingest.directory.byUniqueId(v.uniqueId))!;
  const { rows } = await recordsToRows(t.app.ingest, { gw, ioMap: await loadIoMap(t.app.db, gw.id), lastFix: null, lastFixLoaded: false }, decoded);
  await t.app.ingest.committer.write(rows);
}

const faults = async (v: TestVehicle, status: 'ACTIVE' | 'CLEARED') => {
  await t.app.engineFaults.idle();
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/organizations/${a.orgId}/assets/${v.assetId}/engine-faults?status=${status}`,
    headers: a.admin,
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as Page<EngineFault>).content;
};

describe('engine faults from Teltonika', () => {
  it('decodes FMC650 "DTC DM1" (10493): SPN, FMI and occurrences; cleared after an ignition cycle without it', async () => {
    const dtc = dtcValue(110, 16, 3);
    await teltonika(j1939Truck, [{ ignition: 1, io: [[10493, dtc]] }, { ignition: 0 }]);
    const [f] = await faults(j1939Truck, 'ACTIVE');
    expect(f).toMatchObject({
      code: 'SPN 110 FMI 16',
      source: 'J1939',
      spn: 110,
      fmi: 16,
      occurrences: 3,
      description: 'Engine coolant temperature: data valid but above normal operating range (moderately severe)',
    });
    // The device sends it again after the next ignition on: still active.
    await teltonika(j1939Truck, [{ ignition: 1 }, { ignition: 1, io: [[10493, dtcValue(110, 16, 4)]] }, { ignition: 0 }]);
    expect(await faults(j1939Truck, 'ACTIVE')).toEqual([expect.objectContaining({ id: f!.id, occurrences: 4 })]);
    // A whole cycle without it: cleared when the ignition goes off.
    await teltonika(j1939Truck, [{ ignition: 1 }, { ignition: 1 }, { ignition: 0 }]);
    expect(await faults(j1939Truck, 'ACTIVE')).toEqual([]);
    expect((await faults(j1939Truck, 'CLEARED'))[0]).toMatchObject({ id: f!.id });
  });

  it('decodes FMB "Fault Codes" (281) and "Number of DTC" (30): a count of 0 clears them', async () => {
    await teltonika(fmbTruck, [
      {
        ignition: 1,
        io: [
          [30, 2],
          [281, Buffer.from('P0100,P0200', 'ascii')],
        ],
      },
    ]);
    expect((await faults(fmbTruck, 'ACTIVE')).map((f) => [f.code, f.description])).toEqual([
      ['P0100', 'Mass or volume air flow circuit malfunction'],
      ['P0200', 'Injector circuit malfunction'],
    ]);
    await teltonika(fmbTruck, [{ ignition: 1, io: [[30, 0]] }]);
    expect(await faults(fmbTruck, 'ACTIVE')).toEqual([]);
    expect(await faults(fmbTruck, 'CLEARED')).toHaveLength(2);
  });
});
