import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineFault, Page } from '@fleet/api-contract';
import { createTestApp, type TestContext } from '../test/helpers.ts';
import { registryActors } from '../test/registry.ts';
import { decodeAvlPacket, encodeAvlPacket } from '../modules/positions/pipeline/teltonika/codec.ts';
import { loadIoMap, recordsToRows } from '../modules/positions/pipeline/teltonika/records.ts';
import { ensureDemoEngineFaults } from './demo-engine-faults.ts';
import { findDemoTrucks } from './simulator/demo-fleet.ts';
import { avlRecord, DEMO_FAULT } from './simulator/engine-data.ts';
import { TruckPlan } from './simulator/truck-plan.ts';

// Issue 46: the demo shows an engine fault (decision 0191): tractor 108's seeded episode, kept
// active by its simulated FMC650's DM1 element.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(() => t?.close());

describe('demo engine faults', () => {
  it("seeds tractor 108's active coolant fault and a cleared one once, and its device's records keep the fault active", async () => {
    const now = Date.now();
    expect(await ensureDemoEngineFaults(t.app.db, a.orgId, now)).toBe(2);
    expect(await ensureDemoEngineFaults(t.app.db, a.orgId, now)).toBe(0);
    const truck = (await findDemoTrucks(t.app.db)).find((x) => x.orgId === a.orgId && x.index === DEMO_FAULT.index)!;
    expect(truck.engine).not.toBeNull();
    const list = async (status: string) => {
      await t.app.engineFaults.idle();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${a.orgId}/assets/${truck.assetId}/engine-faults?status=${status}`,
        headers: a.admin,
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as Page<EngineFault>).content;
    };
    const [active] = await list('ACTIVE');
    expect(active).toMatchObject({
      code: 'SPN 110 FMI 16',
      spn: 110,
      fmi: 16,
      occurrences: 3,
      description: 'Engine coolant temperature: data valid but above normal operating range (moderately severe)',
      grounding: false,
    });
    expect(await list('CLEARED')).toEqual([
      expect.objectContaining({
        code: 'SPN 1761 FMI 18',
        description: 'Aftertreatment 1 diesel exhaust fluid tank level: data valid but below normal operating range (moderately severe)',
      }),
    ]);
    const codes = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/maintenance/grounding-codes`, headers: a.admin })).json();
    expect(codes.codes).toContain('SPN 100 FMI 1');

    // The simulated device's record now, its engine running: the DM1 element, decoded and committed as the port does.
    const at = Date.now();
    const { records } = decodeAvlPacket(encodeAvlPacket(0x8e, [avlRecord(truck.engine!, at, { ...new TruckPlan(truck.index).stateAt(at), ignition: true })]));
    expect(records[0]!.io.get(10493)).toBeDefined();
    const gw = (await t.app.ingest.directory.byUniqueId(truck.uniqueId))!;
    const { rows } = await recordsToRows(t.app.ingest, { gw, ioMap: await loadIoMap(t.app.db, gw.id), lastFix: null, lastFixLoaded: false }, records);
    await t.app.ingest.committer.write(rows);
    const after = await list('ACTIVE');
    expect(after).toEqual([expect.objectContaining({ id: active!.id, code: 'SPN 110 FMI 16' })]);
    expect(Date.parse(after[0]!.lastSeenAt)).toBe(at);
  });
});
