import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';

// The device-id directory (migration 0036, decision 0169, docs/deploy.md 7.2) through HTTP: kept
// with the device by the device service, read by ingest, and the one global check of a device id
// where the gateways' own index is per organization (Citus).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}/gateways`;
const deviceBody = (over: Record<string, unknown> = {}) => ({ uniqueId: `77${Date.now()}${++n}`, name: `Directory tracker ${n}`, ...over });
const sql = async <T>(q: string): Promise<T[]> => ((await t.database.db.execute(q as never)) as unknown as { rows: T[] }).rows;
const directory = (gatewayId: string) =>
  sql<{ unique_id: string; organization_id: string; ingest_token_hash: string | null }>(
    `select unique_id, organization_id, ingest_token_hash from device_ids where gateway_id = '${gatewayId}'`,
  );
const TS = Math.floor(Date.now() / 1000) - 60;
const osmand = (id: string, lat = 41.5) => t.app.inject({ method: 'GET', url: `/api/v1/ingest/osmand?id=${id}&timestamp=${TS}&lat=${lat}&lon=-93.6&speed=40` });
const batch = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/positions',
    headers: { authorization: `Bearer ${token}` },
    payload: { positions: [{ fixTime: new Date(Date.now() - 30_000).toISOString(), latitude: 41.6, longitude: -93.6 }] },
  });

describe('the device-id directory', () => {
  it('follows a device through creation, a new id, a new token and deletion, and ingest finds it only through it', async () => {
    const created = await t.app.inject({ method: 'POST', url: base(), headers: a.admin, payload: deviceBody() });
    expect(created.statusCode, created.body).toBe(201);
    const g = created.json() as { id: string; uniqueId: string; ingestToken: string };
    expect(await directory(g.id)).toEqual([{ unique_id: g.uniqueId, organization_id: a.orgId, ingest_token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect((await osmand(g.uniqueId)).statusCode).toBe(200);
    expect((await batch(g.ingestToken)).statusCode).toBe(200);

    const renamed = `${g.uniqueId}9`;
    const put = await t.app.inject({ method: 'PUT', url: `${base()}/${g.id}`, headers: a.admin, payload: deviceBody({ uniqueId: renamed, name: 'Renamed' }) });
    expect(put.statusCode, put.body).toBe(200);
    expect((await directory(g.id)).map((r) => r.unique_id)).toEqual([renamed]);
    expect((await osmand(renamed, 41.51)).statusCode).toBe(200);

    const before = (await directory(g.id))[0]!.ingest_token_hash;
    const token = await t.app.inject({ method: 'POST', url: `${base()}/${g.id}/token`, headers: a.admin });
    expect(token.statusCode, token.body).toBe(200);
    expect((await directory(g.id))[0]!.ingest_token_hash).not.toBe(before);
    expect((await batch((token.json() as { ingestToken: string }).ingestToken)).statusCode).toBe(200);

    const removed = await t.app.inject({ method: 'DELETE', url: `${base()}/${g.id}`, headers: a.admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await directory(g.id)).toEqual([]);
  });

  it('ingest does not find a device the directory does not hold', async () => {
    // A device row written past the device service (no directory row): unknown to ingest.
    const uniqueId = `88${Date.now()}`;
    await sql(`insert into gateways (organization_id, unique_id, name) values ('${a.orgId}', '${uniqueId}', 'Outside the directory')`);
    expect((await osmand(uniqueId)).statusCode).toBe(400);
    await sql(
      `insert into device_ids (unique_id, organization_id, gateway_id) select unique_id, organization_id, id from gateways where unique_id = '${uniqueId}'`,
    );
    // Unknown ids are remembered for a while: a second id of the same device row is looked up afresh.
    const again = await sql<{ id: string }>(`select id from gateways where unique_id = '${uniqueId}'`);
    await sql(`update gateways set unique_id = '${uniqueId}1' where id = '${again[0]!.id}'`);
    await sql(`update device_ids set unique_id = '${uniqueId}1' where gateway_id = '${again[0]!.id}'`);
    expect((await osmand(`${uniqueId}1`)).statusCode).toBe(200);
  });

  it("refuses another organization's device id with the spec's error where the gateways' index is per organization (Citus)", async () => {
    const first = await t.app.inject({ method: 'POST', url: base(), headers: a.admin, payload: deviceBody() });
    expect(first.statusCode, first.body).toBe(201);
    const uniqueId = (first.json() as { uniqueId: string }).uniqueId;
    // What db:distribute leaves on Citus (already so on a Citus test database): no global index on
    // gateways, the directory checks.
    await sql(`drop index if exists gateways_unique_id_uq`);
    await sql(`create unique index if not exists gateways_org_unique_id_uq on gateways (unique_id, organization_id)`);
    const res = await t.app.inject({ method: 'POST', url: base(a.otherOrgId), headers: a.other, payload: deviceBody({ uniqueId }) });
    expectFieldErrors(res.json(), 409, { uniqueId: `A device with unique id ${uniqueId} is already registered` });
    expect(await sql(`select 1 from gateways where unique_id = '${uniqueId}' and organization_id = '${a.otherOrgId}'`)).toEqual([]);
    // A rename onto it is refused the same way; the organization's own duplicate by its own index.
    const other = await t.app.inject({ method: 'POST', url: base(a.otherOrgId), headers: a.other, payload: deviceBody() });
    expect(other.statusCode, other.body).toBe(201);
    const rename = await t.app.inject({
      method: 'PUT',
      url: `${base(a.otherOrgId)}/${(other.json() as { id: string }).id}`,
      headers: a.other,
      payload: deviceBody({ uniqueId }),
    });
    expectFieldErrors(rename.json(), 409, { uniqueId: `A device with unique id ${uniqueId} is already registered` });
    const own = await t.app.inject({ method: 'POST', url: base(), headers: a.admin, payload: deviceBody({ uniqueId }) });
    expectFieldErrors(own.json(), 409, { uniqueId: `A device with unique id ${uniqueId} is already registered` });
  });
});
