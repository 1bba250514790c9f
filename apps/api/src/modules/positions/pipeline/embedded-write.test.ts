import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { pgliteOf } from '../../../db/pglite-copy.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { registryActors } from '../../../test/registry.ts';
import { createTestVehicle, testPositionRow, type TestVehicle } from '../../../test/vehicles.ts';
import { storableProblem } from './fix-check.ts';
import type { PositionRow, Protocol } from './position-row.ts';
import { writeEmbeddedReference, writeOrganization, writeServerReference } from './position-store.ts';

// The group commit binds its values in binary: on PGlite (decision 0331) the text-literal EXECUTE it
// replaced is kept as its plain reference, on a PostgreSQL server (issue 74) the same statement with
// text array literals. On random groups (duplicates within and across groups, nulls, extreme
// numbers, odd JSON) both must answer the same and leave the same rows.

const onPglite = !process.env.TEST_DATABASE_URL;
const query = async (q: string) => rowsOf<Record<string, string | null>>(await t.app.db.execute(sql.raw(q)));
let t: TestContext;
let orgId: string;
/** Two fleets of five devices (the last unpaired): one written by each path. */
const fleets: TestVehicle[][] = [[], []];

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await registryActors(t.app)).orgId;
  for (const [f, fleet] of fleets.entries())
    for (let i = 0; i < 5; i++) fleet.push(await createTestVehicle(t.app.db, orgId, { uniqueId: `bind-${f}-${i}`, driver: i % 2 === 0, paired: i < 4 }));
});
afterAll(async () => {
  await t?.close();
});

/** mulberry32: a seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const T0 = Date.parse('2026-11-30T08:00:00Z');
const PROTOCOLS: Protocol[] = ['osmand', 'batch', 'teltonika', 'traccar', 'simulator', 'import'];
const TEXTS = ['', 'a"b', 'back\\slash', "it's", 'ünïcödé', '🚚 emoji', '{"x":1}', 'new\nline', ' spaced '];

function randomGroup(
  rnd: () => number,
  size = 1 + Math.floor(rnd() * 30),
): Array<Omit<PositionRow, 'organizationId' | 'gatewayId' | 'assetId' | 'driverId'> & { device: number }> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const maybe = <T>(v: () => T, nulls = 0.2): T | null => (rnd() < nulls ? null : v());
  const real = () => pick([0, -0, 1, 95.12, 3.4e38, 1.2e-38, rnd() * 200, Math.fround(rnd() * 1000), 12345.678]);
  const attributes = (): Record<string, unknown> => {
    if (rnd() < 0.4) return {};
    const o: Record<string, unknown> = {};
    for (let k = Math.floor(rnd() * 4); k >= 0; k--)
      o[pick(TEXTS) || 'k'] = pick<unknown>([pick(TEXTS), rnd() * 1e6, true, null, [1, pick(TEXTS)], { n: { m: pick(TEXTS) } }]);
    return o;
  };
  return Array.from({ length: size }, () => ({
    device: Math.floor(rnd() * 5),
    // Few distinct times per device: duplicates within a group and across groups.
    fixTime: new Date(T0 + Math.floor(rnd() * 40) * 1000 + pick([0, 0, 0, 1, 999])),
    latitude: pick([0, -90, 90, 41.123456789012, (rnd() - 0.5) * 180]),
    longitude: pick([0, -180, 180, -87.65432109876, (rnd() - 0.5) * 360]),
    speed: maybe(real),
    course: maybe(() => rnd() * 360),
    altitude: maybe(() => pick([-1000, 0, 8848.86, rnd() * 3000])),
    accuracy: maybe(() => pick([0, 5, 100_000, rnd() * 50])),
    odometer: maybe(() => pick([0, 1e15, 123456789.123, rnd() * 1e7])),
    odometerSource: maybe(() => pick(['ECM', 'GPS'] as const)),
    engineHours: maybe(() => pick([0, 99999.99, rnd() * 1e4])),
    ignition: maybe(() => rnd() < 0.5),
    protocol: pick(PROTOCOLS),
    attributes: attributes(),
  }));
}

/** Everything both paths stored for one fleet, with each device named by its place in the fleet. */
async function snapshot(fleet: TestVehicle[]): Promise<unknown[]> {
  const ids = new Map<string, number>();
  fleet.forEach((v, i) => {
    ids.set(v.gatewayId, i);
    ids.set(v.assetId, i);
    if (v.driverId) ids.set(v.driverId, i);
  });
  const name = (id: string | null) => (id === null ? null : (ids.get(id) ?? id));
  const list = fleet.map((v) => `'${v.gatewayId}'`).join(',');
  const assets = fleet.map((v) => `'${v.assetId}'`).join(',');
  const rows = await query(
    `select gateway_id, asset_id, driver_id, fix_time::text, server_time::text, latitude::text, longitude::text, speed::text, course::text, altitude::text,
       accuracy::text, odometer::text, odometer_source, engine_hours::text, ignition::text, protocol, attributes::text
     from positions where gateway_id in (${list}) order by fix_time, gateway_id`,
  );
  const latest = await query(
    `select asset_id, gateway_id, driver_id, fix_time::text, latitude::text, longitude::text, speed::text, course::text, altitude::text, accuracy::text,
       odometer::text, ignition::text, last_moving_at::text, stationary_since::text, attributes::text
     from latest_positions where asset_id in (${assets}) order by asset_id`,
  );
  const named = (r: Record<string, string | null>) => ({
    ...r,
    gateway_id: name(r.gateway_id ?? null),
    asset_id: name(r.asset_id ?? null),
    driver_id: name(r.driver_id ?? null),
  });
  return [
    rows.map(named).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    latest.map(named).sort((a, b) => Number(a.asset_id) - Number(b.asset_id)),
  ];
}

/**
 * The group written twice, once per fleet (each device named by its place in the fleet): by the
 * plain reference (the text literals of PGlite's EXECUTE or of the server's statement) into the
 * first fleet, by the group commit's write into the second. Both answers.
 */
async function writeBoth(group: ReturnType<typeof randomGroup>, now: Date): Promise<{ reference: boolean[]; written: boolean[] }> {
  const [ref, written] = fleets.map((fleet) =>
    group.map(({ device, ...r }): PositionRow => {
      const v = fleet[device]!;
      return { ...r, organizationId: orgId, gatewayId: v.gatewayId, assetId: device < 4 ? v.assetId : null, driverId: v.driverId };
    }),
  );
  const embedded = pgliteOf(t.app.db);
  const reference = embedded ? await writeEmbeddedReference(embedded, orgId, ref!, now) : await writeServerReference(t.app.db, orgId, ref!, now);
  return { reference, written: await writeOrganization(t.app.db, orgId, written!, now) };
}

describe('the group commit with binary parameters', () => {
  it('answers and stores exactly what the text-literal reference does, on random groups', async () => {
    const rnd = random(74);
    let stored = 0;
    for (let g = 0; g < 42; g++) {
      // Two groups far larger than the message writer's first buffer (16 kB), so it grows mid-value.
      const group = randomGroup(rnd, g % 20 === 19 ? 800 : undefined).filter((r) => storableProblem(r) === null);
      const now = new Date(T0 + 3_600_000 + g * 1000);
      const answered = await writeBoth(group, now);
      expect(answered.written, `group ${g}`).toEqual(answered.reference);
      stored += answered.written.filter(Boolean).length;
    }
    // The random groups did repeat fixes, and did store many.
    expect(stored).toBeGreaterThan(300);
    const [a, b] = [await snapshot(fleets[0]!), await snapshot(fleets[1]!)];
    expect((a[0] as unknown[]).length).toBe(stored);
    expect(b).toEqual(a);
  });

  it('writes groups in which no vehicle has two fixes (their own statement on PGlite) as the reference does', async () => {
    const rnd = random(7474);
    const before = await Promise.all(fleets.map((f) => snapshot(f)));
    expect(before[1]).toEqual(before[0]);
    let stored = 0;
    for (let g = 0; g < 60; g++) {
      // One row each for a few of the five devices (the fifth unpaired), moving or not, some older than what is stored.
      const order = [0, 1, 2, 3, 4].sort(() => rnd() - 0.5).slice(0, 1 + Math.floor(rnd() * 5));
      const group = randomGroup(rnd, order.length)
        .map((r, k) => ({ ...r, device: order[k]!, fixTime: new Date(r.fixTime.getTime() + 120_000 + g * 2000 * (rnd() < 0.8 ? 1 : -1)) }))
        .filter((r) => storableProblem(r) === null);
      const now = new Date(T0 + 7_000_000 + g * 1000);
      const answered = await writeBoth(group, now);
      expect(answered.written, `group ${g}`).toEqual(answered.reference);
      stored += answered.written.filter(Boolean).length;
    }
    expect(stored).toBeGreaterThan(100);
    expect(await snapshot(fleets[1]!)).toEqual(await snapshot(fleets[0]!));
  });

  it.runIf(onPglite)('leaves the session planning as before, and prepares its statements again on a session without them', async () => {
    const embedded = pgliteOf(t.app.db)!;
    const v = fleets[1]![0]!;
    const row = (s: number): PositionRow =>
      testPositionRow(v, orgId, new Date(T0 + 7_200_000 + s * 1000), { latitude: 41, longitude: -87, speed: 10, course: 0 });
    expect(await writeOrganization(t.app.db, orgId, [row(1)], new Date())).toEqual([true]);
    expect((await embedded.query<{ plan_cache_mode: string }>('show plan_cache_mode')).rows[0]!.plan_cache_mode).toBe('auto');
    // As after the worker thread opened the data directory again: the session has neither statement.
    await embedded.exec('deallocate all');
    expect(await writeOrganization(t.app.db, orgId, [row(2), row(1)], new Date())).toEqual([true, false]);
    // A statement's error reaches the caller with its code, and the session goes on.
    await expect(writeOrganization(t.app.db, orgId, [{ ...row(3), assetId: '00000000-0000-4000-8000-000000000000' }], new Date())).rejects.toMatchObject({
      code: '23503',
    });
    expect(await writeOrganization(t.app.db, orgId, [row(3)], new Date())).toEqual([true]);
  });
});
