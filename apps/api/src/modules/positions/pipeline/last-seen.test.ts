import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../../db/sql/rows.ts';
import { createTestApp, DEMO, login, type TestContext } from '../../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../../test/vehicles.ts';
import { LastSeen } from './last-seen.ts';

let t: TestContext;
let orgId: string;
let a: TestVehicle;
let b: TestVehicle;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
  a = await createTestVehicle(t.app.db, orgId, { uniqueId: `seen-a-${Date.now()}` });
  b = await createTestVehicle(t.app.db, orgId, { uniqueId: `seen-b-${Date.now()}` });
});
afterAll(async () => {
  await t?.close();
});

const seenAt = async (gatewayId: string) => {
  const [r] = rowsOf<{ t: string | null }>(await t.database.db.execute(sql`select last_seen_at::text as t from gateways where id = ${gatewayId}`));
  return r!.t === null ? null : new Date(r!.t).getTime();
};
const reset = () => t.database.db.execute(sql`update gateways set last_seen_at = null where id in (${a.gatewayId}, ${b.gatewayId})`);

describe('the devices’ last-seen time', () => {
  it('writes each device’s newest time noted, once a second, and never moves a time back', async () => {
    await reset();
    const seen = new LastSeen(t.database.db, () => undefined, 200);
    const t0 = Date.UTC(2026, 10, 30, 12, 0, 0);
    seen.note(orgId, a.gatewayId, t0 + 5000);
    seen.note(orgId, a.gatewayId, t0 + 1000);
    seen.note(orgId, b.gatewayId, t0 + 2000);
    expect(await seenAt(a.gatewayId)).toBeNull();
    // Written by the timer, not asked for.
    await vi.waitFor(async () => expect(await seenAt(a.gatewayId)).toBe(t0 + 5000), { timeout: 2000, interval: 20 });
    expect(await seenAt(b.gatewayId)).toBe(t0 + 2000);
    // An older time (another instance's, a retried write) leaves the newer one.
    seen.note(orgId, a.gatewayId, t0 + 3000);
    await seen.flush();
    expect(await seenAt(a.gatewayId)).toBe(t0 + 5000);
    await seen.close();
  });

  it('keeps the times of a failed write for the next round', async () => {
    await reset();
    const errors: string[] = [];
    let fail = true;
    const db = t.database.db;
    const flaky = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'execute' && fail) {
          fail = false;
          return () => Promise.reject(new Error('connection lost'));
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const seen = new LastSeen(flaky, (_err, message) => errors.push(message), 100);
    const t0 = Date.UTC(2026, 10, 30, 13, 0, 0);
    seen.note(orgId, a.gatewayId, t0);
    await seen.flush();
    expect(errors).toHaveLength(1);
    expect(await seenAt(a.gatewayId)).toBeNull();
    await vi.waitFor(async () => expect(await seenAt(a.gatewayId)).toBe(t0), { timeout: 2000, interval: 20 });
    await seen.close();
    // Closed: nothing more is noted or written.
    seen.note(orgId, a.gatewayId, t0 + 1000);
    await seen.flush();
    expect(await seenAt(a.gatewayId)).toBe(t0);
  });

  it('is written for a report without coordinates', async () => {
    await reset();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/ingest/osmand?id=${b.uniqueId}&timestamp=${Math.floor(Date.now() / 1000)}` });
    expect(res.statusCode).toBe(200);
    await t.app.ingest.lastSeen.flush();
    expect(Date.now() - (await seenAt(b.gatewayId))!).toBeLessThan(5000);
  });
});
