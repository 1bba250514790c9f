import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_ITEMS, defectPageSchema, defectSchema, dvirSchema, type Dvir } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, login, readOutbox, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';

// Defects (issue 31) through HTTP: the office's list and its filters, the mechanic's certification
// (repaired or not needed, once), who may certify, tenancy.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let dvir: Dvir;
let truck: { id: string; unitNumber: string };
let trailer: { id: string; unitNumber: string };

type Headers = Record<string, string>;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const put = (url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const unit = async (body: Record<string, unknown>) => {
  const res = await post(org('/assets'), a.admin, body);
  expect(res.statusCode, res.body).toBe(201);
  const { id, unitNumber } = res.json() as { id: string; unitNumber: string };
  return { id, unitNumber };
};

/** A driver of the Driver role, assigned to a new truck, signs a report with three defects (two on the truck, one on the trailer). */
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const email = `defects${Date.now().toString(36)}@demofreight.test`;
  const created = await post(org('/drivers'), a.admin, driverBody({ email, invite: true }));
  expect(created.statusCode, created.body).toBe(201);
  const token = /create-new-password\/([A-Za-z0-9_-]+)/.exec(
    readOutbox(t.dataDir)
      .filter((m) => m.to === email)
      .at(-1)!.text,
  )![1]!;
  expect((await post('/api/v1/auth/create-new-password', {}, { token, password: 'Driver#Pass2026' })).statusCode).toBe(204);
  const driver = bearer((await login(t.app, { email, password: 'Driver#Pass2026' }, '10.32.0.1')).accessToken);
  [truck, trailer] = [await unit(vehicleBody()), await unit(trailerBody())];
  expect((await put(org(`/assets/${truck.id}/driver/${(created.json() as { id: string }).id}`), a.admin)).statusCode).toBe(200);
  const failed: Record<string, { note: string; safety: boolean }> = {
    SERVICE_BRAKES: { note: 'Air leak', safety: true },
    HORN: { note: 'Weak', safety: false },
  };
  const items = [
    ...DVIR_ITEMS.map((i) => (failed[i.code] ? { item: i.code, ok: false, ...failed[i.code] } : { item: i.code, ok: true })),
    ...DVIR_ITEMS.filter((i) => i.trailer).map((i) =>
      i.code === 'LIGHTING'
        ? { item: i.code, assetId: trailer.id, ok: false, note: 'Marker light out', safety: true }
        : { item: i.code, assetId: trailer.id, ok: true },
    ),
  ];
  const res = await post(org('/dvirs'), driver, { assetId: truck.id, trailerIds: [trailer.id], kind: 'POST_TRIP', items, signature: { name: 'Test Driver' } });
  expect(res.statusCode, res.body).toBe(201);
  dvir = dvirSchema.parse(res.json());
});
afterAll(async () => {
  await t?.close();
});

const defectOf = (item: string) => dvir.defects.find((d) => d.item === item)!;
const list = async (q = '', headers: Headers = a.admin) => {
  const res = await get(org(`/defects?size=100${q}`), headers);
  expect(res.statusCode, res.body).toBe(200);
  return defectPageSchema.parse(res.json()).content;
};

describe('the office lists defects', () => {
  it('lists every defect newest first, by unit, status and safety', async () => {
    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();
    expect(ids(await list())).toEqual(ids(dvir.defects));
    expect(ids(await list(`&assetId=${trailer.id}`))).toEqual([defectOf('LIGHTING').id]);
    expect(ids(await list(`&assetId=${truck.id}`))).toEqual(ids([defectOf('SERVICE_BRAKES'), defectOf('HORN')]));
    expect(ids(await list('&safety=true'))).toEqual(ids([defectOf('SERVICE_BRAKES'), defectOf('LIGHTING')]));
    expect(ids(await list('&safety=false'))).toEqual([defectOf('HORN').id]);
    expect((await list('&status=OPEN')).length).toBe(3);
    expect(await list('&status=REPAIRED')).toEqual([]);
    expect((await list()).every((d) => d.reportedBy?.name && d.dvirId === dvir.id && d.label)).toBe(true);
    expectFieldErrors((await get(org('/defects?status=FIXED'), a.admin)).json(), 400, { status: 'status must be OPEN, REPAIRED or NOT_NEEDED' });
  });
});

describe("the mechanic's certification", () => {
  it('certifies a defect repaired, signed and dated, once: a second certification is a 409', async () => {
    const url = org(`/defects/${defectOf('SERVICE_BRAKES').id}`);
    const res = await put(url, a.admin, { status: 'REPAIRED', certification: 'Replaced the air line', signature: { name: 'Mike Mechanic' } });
    expect(res.statusCode, res.body).toBe(200);
    const d = defectSchema.parse(res.json());
    expect(d).toMatchObject({ status: 'REPAIRED', certification: 'Replaced the air line', certifiedBy: { name: 'Mike Mechanic', imageId: null } });
    expect(Date.now() - Date.parse(d.certifiedAt!)).toBeLessThan(60_000);
    const again = await put(url, a.admin, { status: 'NOT_NEEDED', signature: { name: 'Someone Else' } });
    expect(expectErrorBody(again.json(), 409).message).toContain('already certified as repaired');
    expect(defectSchema.parse((await list(`&status=REPAIRED`))[0]).certifiedBy?.name).toBe('Mike Mechanic');
    expect((await activityRows(t.database.db, truck.id)).map((r) => r.action)).toContain('CERTIFY_DEFECT');
    // The report shows it: still unsafe while the trailer's safety defect is open.
    const report = dvirSchema.parse((await get(org(`/dvirs/${dvir.id}`), a.admin)).json());
    expect(report.defects.find((x) => x.id === d.id)?.status).toBe('REPAIRED');
    expect(report.unsafe).toBe(true);
  });

  it('certifies that repair is unnecessary; the report is no longer unsafe once its safety defects are closed', async () => {
    const res = await put(org(`/defects/${defectOf('LIGHTING').id}`), a.admin, { status: 'NOT_NEEDED', signature: { name: 'Mike Mechanic' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(defectSchema.parse(res.json())).toMatchObject({ status: 'NOT_NEEDED', certification: null });
    expect(dvirSchema.parse((await get(org(`/dvirs/${dvir.id}`), a.admin)).json()).unsafe).toBe(false);
    expect((await list('&status=OPEN')).map((d) => d.item)).toEqual(['HORN']);
  });

  it('answers bad input with a 400 naming the field and changes nothing; an unknown defect is 404', async () => {
    const url = org(`/defects/${defectOf('HORN').id}`);
    expectFieldErrors((await put(url, a.admin, { status: 'OPEN', signature: { name: 'M' } })).json(), 400, { status: 'Status must be REPAIRED or NOT_NEEDED' });
    expectFieldErrors((await put(url, a.admin, { status: 'REPAIRED', signature: { name: '' } })).json(), 400, { 'signature.name': 'Name' });
    expectFieldErrors((await put(url, a.admin, { status: 'REPAIRED', signature: { name: 'M', imageId: dvir.id } })).json(), 400, {
      'signature.imageId': 'Drawn signature must be an image uploaded to this organization',
    });
    expect((await list('&status=OPEN')).map((d) => d.item)).toEqual(['HORN']);
    expect(
      expectErrorBody((await put(org('/defects/00000000-0000-4000-8000-000000000000'), a.admin, { status: 'REPAIRED', signature: { name: 'M' } })).json(), 404)
        .message,
    ).toBe('Defect not found');
  });

  it('needs DEFECT_UPDATE to certify and DVIR_LIST to list', async () => {
    const reader = await userWithPermissions(t, a.orgId, ['DVIR_LIST']);
    expect((await put(org(`/defects/${defectOf('HORN').id}`), reader, { status: 'REPAIRED', signature: { name: 'M' } })).statusCode).toBe(403);
    expect((await list('', reader)).length).toBe(3);
    const mechanic = await userWithPermissions(t, a.orgId, ['DEFECT_UPDATE']);
    expect((await get(org('/defects'), mechanic)).statusCode).toBe(403);
  });
});

describe('tenancy', () => {
  it("keeps our defects from another organization's admin: 404 to certify, absent from their list", async () => {
    const res = await put(org(`/defects/${defectOf('HORN').id}`, a.otherOrgId), a.other, { status: 'REPAIRED', signature: { name: 'X' } });
    expect(expectErrorBody(res.json(), 404).message).toBe('Defect not found');
    expect((await get(org('/defects'), a.other)).statusCode).toBe(404);
    const theirs = await get(org('/defects?size=100', a.otherOrgId), a.other);
    expect(defectPageSchema.parse(theirs.json()).totalElements).toBe(0);
    expect((await list('&status=OPEN')).map((d) => d.item)).toEqual(['HORN']);
  });
});
