import type pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { isPlainServer } from '../../../db/database-kind.ts';
import { createTestApp, eventually, type TestContext } from '../../../test/helpers.ts';
import { registryActors } from '../../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../../test/vehicles.ts';
import type { PositionRow } from './position-row.ts';
import { POSITIONS_CHANNEL, writePositions } from './position-store.ts';

// The group commit's write of several organizations (decision 0169: one statement per organization,
// so that on Citus each lands on its organization's worker; the live map's NOTIFY sent by the API).
// On PGlite the embedded statement, on PostgreSQL the pooled one (its NOTIFY inside on a plain
// server, after the commit on a handle not known to be one), and both inside a caller's transaction.

let t: TestContext;
let orgA: string;
let orgB: string;
let va: TestVehicle;
let vb: TestVehicle;
const heard: Array<{ o: string; a: string[] }> = [];
let stop: () => Promise<void>;

beforeAll(async () => {
  t = await createTestApp();
  const a = await registryActors(t.app);
  orgA = a.orgId;
  orgB = a.otherOrgId;
  va = await createTestVehicle(t.app.db, orgA, { uniqueId: 'store-org-a' });
  vb = await createTestVehicle(t.app.db, orgB, { uniqueId: 'store-org-b' });
  const l = await t.database.listen(POSITIONS_CHANNEL, (p) => heard.push(JSON.parse(p) as { o: string; a: string[] }));
  stop = () => l.stop();
});
afterAll(async () => {
  await stop?.();
  await t?.close();
});

const T0 = Date.parse('2026-03-02T15:00:00Z');
const fix = (v: TestVehicle, orgId: string, minute: number): PositionRow => ({
  organizationId: orgId,
  gatewayId: v.gatewayId,
  assetId: v.assetId,
  driverId: v.driverId,
  fixTime: new Date(T0 + minute * 60_000),
  latitude: 38.6,
  longitude: -95 + minute * 0.01,
  speed: 50,
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
const latest = async () =>
  (
    (await t.database.db.execute(
      `select asset_id, extract(epoch from fix_time) * 1000 as t from latest_positions where asset_id in ('${va.assetId}', '${vb.assetId}')` as never,
    )) as unknown as { rows: Array<{ asset_id: string; t: number | string }> }
  ).rows
    .map((r) => [r.asset_id === va.assetId ? 'A' : 'B', (Number(r.t) - T0) / 60_000])
    .sort();
const told = (orgId: string, assetId: string) => heard.some((h) => h.o === orgId && h.a.includes(assetId));
/** Waits until both organizations' maps were told of their vehicle, and fails if they never are. */
async function bothTold(): Promise<void> {
  const both = () => told(orgA, va.assetId) && told(orgB, vb.assetId);
  await eventually(async () => heard, both, 2000);
  expect(both()).toBe(true);
}

describe('writing a group of several organizations', () => {
  it('stores each organization once, answers duplicates at their place and tells each organization’s map', async () => {
    const { stored } = await writePositions(t.app.db, [fix(va, orgA, 1), fix(vb, orgB, 1), fix(va, orgA, 1), fix(vb, orgB, 2)]);
    expect(stored).toEqual([true, true, false, true]);
    expect(await latest()).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    await bothTold();
    // One organization's payload never names another's vehicle.
    expect(heard.some((h) => h.o === orgA && h.a.includes(vb.assetId))).toBe(false);

    heard.length = 0;
    const again = await writePositions(t.app.db, [fix(vb, orgB, 2), fix(va, orgA, 3), fix(va, orgA, 1)]);
    expect(again.stored).toEqual([false, true, false]);
    expect(await latest()).toEqual([
      ['A', 3],
      ['B', 2],
    ]);
    await eventually(
      async () => heard,
      () => told(orgA, va.assetId),
      2000,
    );
    // B's only fix was a duplicate: its map is not told.
    expect(told(orgB, vb.assetId)).toBe(false);
  });

  it('does the same inside a caller’s transaction, and the rows are gone when it rolls back', async () => {
    heard.length = 0;
    const { stored } = await t.app.db.transaction((tx) => writePositions(tx, [fix(va, orgA, 5), fix(vb, orgB, 5)]));
    expect(stored).toEqual([true, true]);
    expect(await latest()).toEqual([
      ['A', 5],
      ['B', 5],
    ]);
    await bothTold();

    await expect(
      t.app.db.transaction(async (tx) => {
        await writePositions(tx, [fix(va, orgA, 6), fix(vb, orgB, 6)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await latest()).toEqual([
      ['A', 5],
      ['B', 5],
    ]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('tells the map on a server whether the NOTIFY is in the statement or after it', async () => {
    // The app's handle is known to be a plain server: the NOTIFY rides in the statement.
    expect(isPlainServer(t.app.db)).toBe(true);
    // A handle openDatabase did not make (it could be a Citus coordinator's): the NOTIFY follows the commit.
    const own = drizzlePg({ client: (t.app.db as unknown as { $client: pg.Pool }).$client }) as unknown as Db;
    expect(isPlainServer(own)).toBe(false);
    for (const [db, minute] of [
      [t.app.db, 7],
      [own, 8],
    ] as const) {
      heard.length = 0;
      expect((await writePositions(db, [fix(va, orgA, minute), fix(vb, orgB, minute)])).stored).toEqual([true, true]);
      await bothTold();
      expect(heard.some((h) => h.o === orgA && h.a.includes(vb.assetId))).toBe(false);
    }
    expect(await latest()).toEqual([
      ['A', 8],
      ['B', 8],
    ]);
  });
});
