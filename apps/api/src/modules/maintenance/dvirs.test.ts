import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_ITEMS, dvirPageSchema, dvirSchema, type Dvir } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, type TestContext } from '../../test/helpers.ts';
import { invitedDriver as invitedDriverOf, memberWithRole } from '../../test/members.ts';
import { activityRows, registryActors, trailerBody, vehicleBody } from '../../test/registry.ts';
import { buildApp } from '../../app.ts';

// Driver vehicle inspection reports (issue 31) through HTTP on the real database: the driver's signed
// report and its defects, who reads which reports, the next driver's review, photos, tenancy.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp({ imageLimit: 64 * 1024 });
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const put = (url: string, headers: Headers, payload: unknown) => t.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const count = async (table: string) => {
  const res = (await t.database.db.execute(`select count(*)::int as n from ${table}` as never)) as unknown as { rows: Array<{ n: number }> };
  return res.rows[0]?.n ?? 0;
};

const invitedDriver = () => invitedDriverOf(t.app, t.dataDir, a.orgId, a.admin);

async function newAsset(body: Record<string, unknown>): Promise<{ id: string; unitNumber: string }> {
  const res = await post(org('/assets'), a.admin, body);
  expect(res.statusCode, res.body).toBe(201);
  const { id, unitNumber } = res.json() as { id: string; unitNumber: string };
  return { id, unitNumber };
}
const newVehicle = () => newAsset(vehicleBody({ odometerKm: 120000 }));
const newTrailer = () => newAsset(trailerBody());

async function assign(vehicleId: string, driverId: string) {
  const res = await put(org(`/assets/${vehicleId}/driver/${driverId}`), a.admin, undefined);
  expect(res.statusCode, res.body).toBe(200);
}

type ItemBody = { item: string; assetId?: string; ok: boolean; note?: string; safety?: boolean; imageIds?: string[] };
/** Every 396.11 item passed on the vehicle, and the trailer items on each trailer. */
function passedItems(trailerIds: string[] = []): ItemBody[] {
  return [
    ...DVIR_ITEMS.map((i) => ({ item: i.code, ok: true })),
    ...trailerIds.flatMap((assetId) => DVIR_ITEMS.filter((i) => i.trailer).map((i) => ({ item: i.code, assetId, ok: true }))),
  ];
}
const report = (assetId: string, over: Record<string, unknown> = {}) => ({
  assetId,
  kind: 'PRE_TRIP',
  items: passedItems(),
  signature: { name: 'Signed Driver' },
  ...over,
});

async function created(headers: Headers, body: unknown): Promise<Dvir> {
  const res = await post(org('/dvirs'), headers, body);
  expect(res.statusCode, res.body).toBe(201);
  return dvirSchema.parse(res.json());
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);
function multipart(data: Buffer) {
  const boundary = '----dvirtest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
async function upload(headers: Headers, orgId = a.orgId, data = PNG) {
  const m = multipart(data);
  return t.app.inject({ method: 'POST', url: org('/dvirs/images', orgId), payload: m.payload, headers: { ...m.headers, ...headers } });
}

let luis: Awaited<ReturnType<typeof invitedDriver>>;
let maria: Awaited<ReturnType<typeof invitedDriver>>;
let truck: { id: string; unitNumber: string };
let marias: { id: string; unitNumber: string };
let trailer: { id: string; unitNumber: string };
beforeAll(async () => {
  [luis, maria] = [await invitedDriver(), await invitedDriver()];
  [truck, marias, trailer] = [await newVehicle(), await newVehicle(), await newTrailer()];
  await assign(truck.id, luis.driver.id);
  await assign(marias.id, maria.driver.id);
});

describe('the driver signs a report', () => {
  it('stores a report without defects on the vehicle they drive: driver, odometer from the vehicle, a place, the activity log', async () => {
    const dvir = await created(luis.headers, report(truck.id, { remarks: 'All good' }));
    expect(dvir).toMatchObject({
      asset: truck,
      trailers: [],
      driver: { id: luis.driver.id, name: luis.name },
      kind: 'PRE_TRIP',
      odometer: 120000,
      hasDefects: false,
      unsafe: false,
      defects: [],
      signature: { name: 'Signed Driver', imageId: null },
      remarks: 'All good',
      review: null,
    });
    expect(dvir.items).toHaveLength(DVIR_ITEMS.length);
    expect(dvir.items.find((i) => i.item === 'PARKING_BRAKE')).toEqual({
      item: 'PARKING_BRAKE',
      label: 'Parking brake',
      assetId: truck.id,
      ok: true,
      note: null,
      imageIds: [],
      imageUrls: [],
      safety: false,
      defectId: null,
    });
    expect(Date.now() - Date.parse(dvir.inspectedAt)).toBeLessThan(60_000);
    expect((await activityRows(t.database.db, truck.id)).map((r) => [r.action, r.entity_type])).toContainEqual(['INSPECT', 'ASSET']);
    // The driver reads it back.
    expect(dvirSchema.parse((await get(org(`/dvirs/${dvir.id}`), luis.headers)).json()).id).toBe(dvir.id);
  });

  it('turns each failed item into an open defect with its label, on the vehicle or the trailer, the organization’s own items too', async () => {
    const before = await count('vehicle_defects');
    const items = passedItems([trailer.id]).map((i) =>
      i.item === 'TIRES' && i.assetId === trailer.id
        ? { ...i, ok: false, note: 'Left rear tire flat', safety: true }
        : i.item === 'HORN'
          ? { ...i, ok: false, note: 'Weak', safety: false }
          : i,
    );
    items.push({ item: 'Fire extinguisher bracket', ok: false, note: 'Loose', safety: false });
    const dvir = await created(luis.headers, report(truck.id, { kind: 'POST_TRIP', trailerIds: [trailer.id], items, odometer: 120450.5 }));
    expect(dvir).toMatchObject({ hasDefects: true, unsafe: true, odometer: 120450.5, trailers: [trailer] });
    expect(dvir.defects.map((d) => [d.asset.unitNumber, d.item, d.label, d.status, d.safety, d.note])).toEqual([
      [truck.unitNumber, 'HORN', 'Horn', 'OPEN', false, 'Weak'],
      [trailer.unitNumber, 'TIRES', 'Tires', 'OPEN', true, 'Left rear tire flat'],
      [truck.unitNumber, 'Fire extinguisher bracket', 'Fire extinguisher bracket', 'OPEN', false, 'Loose'],
    ]);
    expect(dvir.defects.every((d) => d.dvirId === dvir.id && d.reportedBy?.id === luis.driver.id && d.certifiedAt === null)).toBe(true);
    const tires = dvir.items.find((i) => i.item === 'TIRES' && i.assetId === trailer.id)!;
    expect(tires.defectId).toBe(dvir.defects.find((d) => d.item === 'TIRES')!.id);
    expect(await count('vehicle_defects')).toBe(before + 3);
  });

  it("fills the odometer, position and place from the vehicle's latest fix when the driver gives none", async () => {
    const sql = (q: string) => t.database.db.execute(q as never);
    const gw = `dvir-gw-${Date.now()}`;
    await sql(`insert into gateways (organization_id, unique_id, name) values ('${a.orgId}', '${gw}', '${gw}')`);
    await sql(
      `insert into latest_positions (asset_id, organization_id, gateway_id, fix_time, server_time, latitude, longitude, odometer)
       select '${truck.id}', '${a.orgId}', id, now(), now(), 41.8781, -87.6298, 123456700 from gateways where unique_id = '${gw}'`,
    );
    const dvir = await created(luis.headers, report(truck.id));
    expect(dvir).toMatchObject({ odometer: 123456.7, latitude: 41.8781, longitude: -87.6298 });
    expect(dvir.location).toMatch(/Chicago/);
    const given = await created(luis.headers, report(truck.id, { odometer: 5, latitude: 40, longitude: -88, location: 'Yard 3' }));
    expect(given).toMatchObject({ odometer: 5, latitude: 40, longitude: -88, location: 'Yard 3' });
    await sql(`delete from latest_positions where asset_id = '${truck.id}'`);
  });

  it('refuses a report missing a 396.11 item, naming it, and stores nothing', async () => {
    const [reports, defects] = [await count('dvirs'), await count('vehicle_defects')];
    const items = passedItems([trailer.id]).filter((i) => i.item !== 'PARKING_BRAKE' && !(i.item === 'LIGHTING' && i.assetId === trailer.id));
    items[0] = { ...items[0]!, ok: false, note: 'Soft pedal' };
    const res = await post(org('/dvirs'), luis.headers, report(truck.id, { trailerIds: [trailer.id], items }));
    const body = expectFieldErrors(res.json(), 400, { items: 'Items missing from the inspection' });
    expect(body.message).toContain(`Parking brake (vehicle ${truck.unitNumber})`);
    expect(body.message).toContain(`Lighting devices and reflectors (trailer ${trailer.unitNumber})`);
    expect([await count('dvirs'), await count('vehicle_defects')]).toEqual([reports, defects]);
  });

  it('refuses an item on a trailer that is not on the report, and a trailer or vehicle of the wrong kind', async () => {
    const other = await newTrailer();
    const items = [...passedItems(), { item: 'TIRES', assetId: other.id, ok: true }];
    expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, { items }))).json(), 400, {
      'items.11.assetId': 'Unit must be the vehicle or one of the trailers',
    });
    expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, { trailerIds: [marias.id] }))).json(), 400, {
      trailerIds: 'Trailers must be trailers of this organization',
    });
    const twice = [...passedItems(), { item: 'horn', ok: true }];
    expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, { items: twice }))).json(), 400, {
      'items.11.item': 'Item "Horn" is reported twice',
    });
  });

  it('answers bad input with a 400 naming the field, and changes nothing', async () => {
    const n = await count('dvirs');
    const bad: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ kind: 'MID_TRIP' }, { kind: 'Inspection must be PRE_TRIP or POST_TRIP' }],
      [{ items: [{ item: 'HORN', ok: false }, ...passedItems().slice(1)] }, { 'items.0.note': 'Defect note is required' }],
      [{ signature: { name: '' } }, { 'signature.name': 'Name' }],
      [{ odometer: -5 }, { odometer: 'Odometer must be 0 or more' }],
      [{ assetId: 'not-a-uuid' }, { assetId: 'Vehicle must be a vehicle id' }],
    ];
    for (const [over, fields] of bad) expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, over))).json(), 400, fields);
    expect(await count('dvirs')).toBe(n);
  });

  it('keeps a driver to the vehicles they drive: another driver’s vehicle is 404 to inspect and to read, and absent from the list', async () => {
    const hers = await created(maria.headers, report(marias.id));
    expectErrorBody((await post(org('/dvirs'), luis.headers, report(marias.id))).json(), 404);
    expect((await post(org('/dvirs'), luis.headers, report(marias.id))).json().message).toBe('Vehicle not found');
    expect((await get(org(`/dvirs/${hers.id}`), luis.headers)).statusCode).toBe(404);
    expect((await post(org(`/dvirs/${hers.id}/review`), luis.headers, { signature: { name: 'Luis' } })).statusCode).toBe(404);
    const mine = dvirPageSchema.parse((await get(org('/dvirs?size=100'), luis.headers)).json());
    expect(mine.content.length).toBeGreaterThan(0);
    expect(mine.content.every((d) => d.asset.id === truck.id)).toBe(true);
    expect(dvirPageSchema.parse((await get(org(`/dvirs?assetId=${marias.id}`), luis.headers)).json()).totalElements).toBe(0);
  });

  it('is signed by drivers only: an office account without a driver record gets 404, one without the code 403', async () => {
    expect((await post(org('/dvirs'), a.admin, report(truck.id))).json().message).toBe('Driver not found');
    expectErrorBody((await post(org('/dvirs'), a.dispatcher, report(truck.id))).json(), 403);
  });
});

describe('the office reads reports', () => {
  it('lists the whole organization newest first, by vehicle, driver, period and defects', async () => {
    const list = async (q: string) => dvirPageSchema.parse((await get(org(`/dvirs?size=100${q}`), a.admin)).json()).content;
    const all = await list('');
    expect(all.map((d) => d.inspectedAt)).toEqual([...all.map((d) => d.inspectedAt)].sort().reverse());
    expect(new Set(all.map((d) => d.asset.id))).toEqual(new Set([truck.id, marias.id]));
    expect((await list(`&assetId=${marias.id}`)).map((d) => d.driver?.id)).toEqual([maria.driver.id]);
    expect((await list(`&driverId=${luis.driver.id}`)).every((d) => d.driver?.id === luis.driver.id)).toBe(true);
    expect((await list('&hasDefects=true')).map((d) => d.hasDefects)).toEqual([true]);
    expect((await list('&hasDefects=false')).every((d) => !d.hasDefects)).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await list(`&from=${encodeURIComponent(future)}`)).toEqual([]);
    expect(await list(`&to=${encodeURIComponent('2020-01-01T00:00:00Z')}`)).toEqual([]);
    expect((await list(`&from=${encodeURIComponent('2020-01-01T00:00:00Z')}&to=${encodeURIComponent(future)}`)).length).toBe(all.length);
    expectFieldErrors((await get(org('/dvirs?hasDefects=maybe'), a.admin)).json(), 400, { hasDefects: 'hasDefects must be true or false' });
    expectFieldErrors((await get(org('/dvirs?from=yesterday'), a.admin)).json(), 400, { from: 'from must be an ISO date-time' });
  });
});

describe("the next driver's review", () => {
  it('is refused while a defect is open, accepted once every defect is certified, and only once', async () => {
    const [first, next, van] = [await invitedDriver(), await invitedDriver(), await newVehicle()];
    await assign(van.id, first.driver.id);
    const items = passedItems().map((i) => (i.item === 'STEERING' ? { ...i, ok: false, note: 'Play in the wheel', safety: true } : i));
    const dvir = await created(first.headers, report(van.id, { items }));
    expect(dvir.unsafe).toBe(true);
    // The next driver takes the vehicle: before the first drive they read its last report.
    expect((await get(org(`/dvirs/${dvir.id}`), next.headers)).statusCode).toBe(404);
    await assign(van.id, next.driver.id);
    const last = dvirPageSchema.parse((await get(org(`/dvirs?assetId=${van.id}&size=1`), next.headers)).json()).content[0];
    expect(last?.id).toBe(dvir.id);
    const review = () => post(org(`/dvirs/${dvir.id}/review`), next.headers, { signature: { name: 'Next Driver' } });
    expect(expectErrorBody((await review()).json(), 409).message).toContain('Steering mechanism');
    const cert = await put(org(`/defects/${dvir.defects[0]!.id}`), a.admin, {
      status: 'REPAIRED',
      certification: 'Replaced tie rod end',
      signature: { name: 'Mike Mechanic' },
    });
    expect(cert.statusCode, cert.body).toBe(200);
    const res = await review();
    expect(res.statusCode, res.body).toBe(200);
    const reviewed = dvirSchema.parse(res.json());
    expect(reviewed.unsafe).toBe(false);
    expect(reviewed.review).toMatchObject({ driver: { id: next.driver.id, name: next.name }, signature: { name: 'Next Driver', imageId: null } });
    expect((await activityRows(t.database.db, van.id)).map((r) => r.action)).toContain('REVIEW_INSPECTION');
    expect(expectErrorBody((await review()).json(), 409).message).toContain('already reviewed');
  });

  it('is refused on a report without defects', async () => {
    const clean = await created(maria.headers, report(marias.id));
    expect(expectErrorBody((await post(org(`/dvirs/${clean.id}/review`), maria.headers, { signature: { name: 'Maria' } })).json(), 409).message).toContain(
      'no defect',
    );
    expectFieldErrors((await post(org(`/dvirs/${clean.id}/review`), maria.headers, { signature: {} })).json(), 400, { 'signature.name': 'Name' });
  });
});

describe('photos and signatures', () => {
  it('uploads an image for the organization and refuses another organization’s image on a report', async () => {
    const up = await upload(luis.headers);
    expect(up.statusCode, up.body).toBe(201);
    const { id, url } = up.json() as { id: string; url: string };
    // Shown through the signed link the upload answers (images are never public, issue 43).
    expect((await get(url, {})).headers['content-type']).toBe('image/png');
    const items = passedItems().map((i) => (i.item === 'WIPERS' ? { ...i, ok: false, note: 'Torn blade', safety: false, imageIds: [id] } : i));
    const dvir = await created(luis.headers, report(truck.id, { items, signature: { name: 'Luis', imageId: id } }));
    expect(dvir.defects[0]?.imageIds).toEqual([id]);
    expect(dvir.signature.imageId).toBe(id);
    // The report shows each photo and the drawn signature by a signed link a page can embed without a token.
    for (const link of [dvir.defects[0]!.imageUrls[0]!, dvir.items.find((i) => i.item === 'WIPERS')!.imageUrls[0]!, dvir.signature.imageUrl!]) {
      expect(link.startsWith(`/api/v1/images/${id}?exp=`), link).toBe(true);
      expect((await get(link, {})).statusCode).toBe(200);
    }

    const theirs = await upload(a.other, a.otherOrgId);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const foreign = (theirs.json() as { id: string }).id;
    const n = await count('dvirs');
    const withForeign = items.map((i) => (i.item === 'WIPERS' ? { ...i, imageIds: [foreign] } : i));
    expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, { items: withForeign }))).json(), 400, {
      'items.6.imageIds': 'Photos must be images uploaded to this organization',
    });
    expectFieldErrors((await post(org('/dvirs'), luis.headers, report(truck.id, { signature: { name: 'L', imageId: foreign } }))).json(), 400, {
      'signature.imageId': 'Drawn signature must be an image uploaded to this organization',
    });
    expect(await count('dvirs')).toBe(n);
    expectErrorBody((await upload(luis.headers, a.orgId, Buffer.from('not an image'))).json(), 400);
    // The image size limit of every upload applies (64 KiB in this suite).
    expect((await upload(luis.headers, a.orgId, Buffer.concat([PNG, Buffer.alloc(70 * 1024)]))).statusCode).toBe(413);
    // An account holding neither inspection code (the demo dispatcher reads reports: DVIR_LIST).
    const { session: clerk } = await memberWithRole(t.app, t.dataDir, await login(t.app, DEMO.admin), ['ASSET_LIST'], 'dvirclerk');
    expect((await upload(bearer(clerk.accessToken))).statusCode).toBe(403);
  });
});

describe('tenancy', () => {
  it("hides our reports from another organization's admin", async () => {
    const ours = dvirPageSchema.parse((await get(org('/dvirs?size=1'), a.admin)).json()).content[0]!;
    expect((await get(org(`/dvirs/${ours.id}`, a.otherOrgId), a.other)).statusCode).toBe(404);
    expect((await post(org(`/dvirs/${ours.id}/review`, a.otherOrgId), a.other, { signature: { name: 'X' } })).statusCode).toBe(404);
    expect(dvirPageSchema.parse((await get(org('/dvirs', a.otherOrgId), a.other)).json()).totalElements).toBe(0);
    expect((await get(org(`/dvirs?assetId=${truck.id}`, a.otherOrgId), a.other)).json().totalElements).toBe(0);
    // Our organization's path is closed to them altogether.
    expect((await get(org('/dvirs'), a.other)).statusCode).toBe(404);
  });
});

describe('a report a phone signed offline and sent late (issue 44)', () => {
  it('is stored at the time it was signed, once however often it is resent, with its photo once, after a restart too', async () => {
    const key = `dvir-${crypto.randomUUID()}`;
    const photoKey = `photo-${crypto.randomUUID()}`;
    const signedAt = new Date(Date.now() - 25 * 60_000).toISOString();
    const [reports, photos] = [await count('dvirs'), await count('images')];
    const photo = await upload({ ...luis.headers, 'idempotency-key': photoKey });
    expect(photo.statusCode, photo.body).toBe(201);
    const again = await upload({ ...luis.headers, 'idempotency-key': photoKey });
    expect(again.json().id).toBe(photo.json().id);
    expect(await count('images')).toBe(photos + 1);
    const items = passedItems().map((i) =>
      i.item === 'HORN' ? { ...i, ok: false, note: 'Weak horn', safety: false, imageIds: [photo.json().id as string] } : i,
    );
    const body = report(truck.id, { items, recordedAt: signedAt });
    const first = await t.app.inject({ method: 'POST', url: org('/dvirs'), headers: { ...luis.headers, 'idempotency-key': key }, payload: body });
    expect(first.statusCode, first.body).toBe(201);
    expect(Date.parse(dvirSchema.parse(first.json()).inspectedAt)).toBe(Date.parse(signedAt));
    // The answer was lost; the phone sends again, then the server restarts and it sends once more.
    const second = await t.app.inject({ method: 'POST', url: org('/dvirs'), headers: { ...luis.headers, 'idempotency-key': key }, payload: body });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    const restarted = await buildApp({ config: t.config, database: t.database });
    try {
      await restarted.ready();
      const third = await restarted.inject({ method: 'POST', url: org('/dvirs'), headers: { ...luis.headers, 'idempotency-key': key }, payload: body });
      expect(third.statusCode, third.body).toBe(201);
      expect(third.json().id).toBe(first.json().id);
    } finally {
      await restarted.close();
    }
    expect(await count('dvirs')).toBe(reports + 1);
    expect((dvirSchema.parse(first.json()).defects ?? []).length).toBe(1);
    // Another key is another report; a time in the future or a malformed key is a 400 that stores nothing.
    const future = await t.app.inject({
      method: 'POST',
      url: org('/dvirs'),
      headers: { ...luis.headers, 'idempotency-key': `dvir-${crypto.randomUUID()}` },
      payload: report(truck.id, { recordedAt: new Date(Date.now() + 3_600_000).toISOString() }),
    });
    expectFieldErrors(future.json(), 400, { recordedAt: 'Recorded at cannot be in the future' });
    const bad = await t.app.inject({ method: 'POST', url: org('/dvirs'), headers: { ...luis.headers, 'idempotency-key': 'no' }, payload: report(truck.id) });
    expectFieldErrors(bad.json(), 400, { 'Idempotency-Key': 'Idempotency-Key must be 8 to 100' });
    expect(await count('dvirs')).toBe(reports + 1);
  });
});
