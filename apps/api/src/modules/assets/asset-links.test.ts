import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, trailerBody, vehicleBody } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const base = () => `/api/v1/organizations/${a.orgId}`;
async function create(kind: 'assets' | 'drivers', payload: Record<string, unknown>): Promise<{ id: string; unitNumber: string }> {
  const res = await t.app.inject({ method: 'POST', url: `${base()}/${kind}`, headers: a.admin, payload });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json();
}
const openRows = async (table: string, where: string) =>
  ((await t.database.db.execute(`select * from ${table} where ${where}` as never)) as unknown as { rows: unknown[] }).rows.length;

describe('assigning drivers', () => {
  it('assigns a driver, moving them off their previous vehicle, and keeps current_driver_id and the history in step', async () => {
    const v1 = await create('assets', vehicleBody());
    const v2 = await create('assets', vehicleBody());
    const d = await create('drivers', driverBody());
    const first = await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v1.id}/driver/${d.id}`, headers: a.admin });
    expect(first.statusCode).toBe(200);
    expect(first.json().currentDriver).toMatchObject({ id: d.id });
    const moved = await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v2.id}/driver/${d.id}`, headers: a.admin });
    expect(moved.json().currentDriver).toMatchObject({ id: d.id });
    const old = (await t.app.inject({ method: 'GET', url: `${base()}/assets/${v1.id}`, headers: a.admin })).json();
    expect(old.currentDriver).toBeNull();
    expect(old.driverHistory).toHaveLength(1);
    expect(old.driverHistory[0].to).not.toBeNull();
    expect(await openRows('asset_driver_assignments', `driver_id = '${d.id}' and ended_at is null`)).toBe(1);
    const driver = (await t.app.inject({ method: 'GET', url: `${base()}/drivers/${d.id}`, headers: a.admin })).json();
    expect(driver.vehicle).toMatchObject({ id: v2.id });
    expect(driver.vehicleHistory).toHaveLength(2);
    // Assigning again changes nothing.
    await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v2.id}/driver/${d.id}`, headers: a.admin });
    expect(await openRows('asset_driver_assignments', `driver_id = '${d.id}'`)).toBe(2);
    const unassign = await t.app.inject({ method: 'DELETE', url: `${base()}/assets/${v2.id}/driver`, headers: a.admin });
    expect(unassign.json().currentDriver).toBeNull();
    expect(
      unassign
        .json()
        .recentActivity.map((r: { action: string }) => r.action)
        .slice(0, 2),
    ).toEqual(['UNASSIGN_DRIVER', 'ASSIGN_DRIVER']);
    expect(await openRows('asset_driver_assignments', `driver_id = '${d.id}' and ended_at is null`)).toBe(0);
  });

  it('refuses trailers (400), inactive drivers (409), a foreign driver (404) and callers without ASSET_UPDATE (403)', async () => {
    const trailer = await create('assets', trailerBody());
    const v = await create('assets', vehicleBody());
    const d = await create('drivers', driverBody());
    const toTrailer = await t.app.inject({ method: 'PUT', url: `${base()}/assets/${trailer.id}/driver/${d.id}`, headers: a.admin });
    expect(toTrailer.statusCode).toBe(400);
    expect(expectErrorBody(toTrailer.json(), 400).technicalMessage).toMatch(/^assetId: .* is a trailer, not a vehicle$/);
    const inactive = await create('drivers', driverBody({ status: 'INACTIVE' }));
    expect((await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v.id}/driver/${inactive.id}`, headers: a.admin })).statusCode).toBe(409);
    const foreign = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/drivers`, headers: a.other, payload: driverBody() })
    ).json();
    const res = await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v.id}/driver/${foreign.id}`, headers: a.admin });
    expect(res.statusCode).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('Driver not found');
    expect((await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v.id}/driver/${d.id}`, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v.id}/driver/${d.id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `${base()}/assets/${v.id}/driver/not-an-id`, headers: a.admin })).statusCode).toBe(400);
  });
});

describe('trailers', () => {
  it('attaches a trailer, moves it to another vehicle, detaches it, keeping history on both', async () => {
    const v1 = await create('assets', vehicleBody());
    const v2 = await create('assets', vehicleBody());
    const tr = await create('assets', trailerBody());
    const att = await t.app.inject({ method: 'POST', url: `${base()}/assets/${v1.id}/attach/${tr.id}`, headers: a.admin });
    expect(att.statusCode).toBe(200);
    expect(att.json().trailers).toEqual([expect.objectContaining({ id: tr.id })]);
    await t.app.inject({ method: 'POST', url: `${base()}/assets/${v2.id}/attach/${tr.id}`, headers: a.admin });
    const trailer = (await t.app.inject({ method: 'GET', url: `${base()}/assets/${tr.id}`, headers: a.admin })).json();
    expect(trailer.attachedTo).toMatchObject({ id: v2.id });
    expect(trailer.trailerHistory).toHaveLength(2);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/assets/${v1.id}`, headers: a.admin })).json().trailers).toEqual([]);
    const wrong = await t.app.inject({ method: 'POST', url: `${base()}/assets/${v1.id}/deattach/${tr.id}`, headers: a.admin });
    expect(wrong.statusCode).toBe(409);
    const det = await t.app.inject({ method: 'POST', url: `${base()}/assets/${v2.id}/deattach/${tr.id}`, headers: a.admin });
    expect(det.json().trailers).toEqual([]);
    expect(await openRows('trailer_attachments', `trailer_id = '${tr.id}' and detached_at is null`)).toBe(0);
    expect(det.json().recentActivity[0].action).toBe('DETACH_TRAILER');
  });

  it('refuses to attach a vehicle as a trailer and a fourth trailer', async () => {
    const v = await create('assets', vehicleBody());
    const other = await create('assets', vehicleBody());
    const bad = await t.app.inject({ method: 'POST', url: `${base()}/assets/${v.id}/attach/${other.id}`, headers: a.admin });
    expect(bad.statusCode).toBe(400);
    expect(expectErrorBody(bad.json(), 400).technicalMessage).toMatch(/^id: .* is not a trailer$/);
    for (let i = 0; i < 3; i++) {
      const tr = await create('assets', trailerBody());
      expect((await t.app.inject({ method: 'POST', url: `${base()}/assets/${v.id}/attach/${tr.id}`, headers: a.admin })).statusCode).toBe(200);
    }
    const fourth = await create('assets', trailerBody());
    expect((await t.app.inject({ method: 'POST', url: `${base()}/assets/${v.id}/attach/${fourth.id}`, headers: a.admin })).statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/assets/${v.id}/attach/${fourth.id}`, headers: a.other })).statusCode,
    ).toBe(404);
  });
});
