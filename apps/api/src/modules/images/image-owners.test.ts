import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_ITEMS, driverMessageSchema, dvirSchema, uploadedImageSchema } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { uploadImage } from '../../test/images.ts';
import { invitedDriver, memberWithRole } from '../../test/members.ts';
import { vehicleBody } from '../../test/registry.ts';

// Issue 66: any member read any of the organization's images by id, and a driver attached another
// driver's message photo to their own message, which answered a fresh signed link to it. An image
// is now read by whoever may read what it is attached to, and an image id one did not upload, or
// one attached to something else, is refused. Through HTTP on the real database.

let t: TestContext;
let orgId: string;
let admin: Headers;
let office: Headers;
let nobody: Headers;
let driver1: Awaited<ReturnType<typeof invitedDriver>>;
let driver2: Awaited<ReturnType<typeof invitedDriver>>;
let truckId: string;

type Headers = Record<string, string>;
const org = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

/** A photo uploaded as a phone does, through the messages' or the reports' upload. */
const upload = (headers: Headers, via?: '/messages/images' | '/dvirs/images', key?: string) => uploadImage(t.app, orgId, headers, via, key);
async function uploaded(headers: Headers, via?: '/messages/images' | '/dvirs/images') {
  const res = await upload(headers, via);
  expect(res.statusCode, res.body).toBe(201);
  return uploadedImageSchema.parse(res.json());
}
/** The status of reading the image by id, by both paths. */
async function readBy(headers: Headers, imageId: string): Promise<[number, number]> {
  return [(await get(org(`/images/${imageId}`), headers)).statusCode, (await get(`/api/v1/images/${imageId}`, headers)).statusCode];
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Image Owners Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  office = bearer((await memberWithRole(t.app, t.dataDir, owner, ['MESSAGE_LIST', 'MESSAGE_SEND', 'DVIR_LIST', 'LOAD_LIST'])).session.accessToken);
  nobody = bearer((await memberWithRole(t.app, t.dataDir, owner, [])).session.accessToken);
  driver1 = await invitedDriver(t.app, t.dataDir, orgId, admin);
  driver2 = await invitedDriver(t.app, t.dataDir, orgId, admin);
  const truck = await post(org('/assets'), admin, vehicleBody());
  expect(truck.statusCode, truck.body).toBe(201);
  truckId = truck.json().id;
  expect((await t.app.inject({ method: 'PUT', url: org(`/assets/${truckId}/driver/${driver1.driver.id}`), headers: admin })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe("a driver's message photo", () => {
  it('is read by the driver and the office, not by another driver nor a member without the permission (it was: 200 to any member)', async () => {
    const photo = await uploaded(driver1.headers);
    const sent = await post(org('/messages'), driver1.headers, { driverId: driver1.driver.id, body: 'Dented door', imageIds: [photo.id] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await readBy(driver1.headers, photo.id)).toEqual([200, 200]);
    expect(await readBy(office, photo.id)).toEqual([200, 200]);
    expect(await readBy(driver2.headers, photo.id)).toEqual([404, 404]);
    expect(await readBy(nobody, photo.id)).toEqual([404, 404]);
    expect(expectErrorBody((await get(org(`/images/${photo.id}`), driver2.headers)).json(), 404).message).toBe('Image not found');
    // The signed link the message shows stays a credential of its own.
    expect((await get(driverMessageSchema.parse(sent.json()).imageUrls[0]!, {})).statusCode).toBe(200);
  });

  it('cannot be attached by another driver to their own message (it was: 201 with a fresh signed link)', async () => {
    const photo = await uploaded(driver1.headers);
    expect((await post(org('/messages'), driver1.headers, { driverId: driver1.driver.id, body: 'Tire', imageIds: [photo.id] })).statusCode).toBe(201);
    const res = await post(org('/messages'), driver2.headers, { driverId: driver2.driver.id, body: 'Mine now', imageIds: [photo.id] });
    expectFieldErrors(res.json(), 400, { 'imageIds.0': 'Photos are attached to something else: upload them again' });
    // Nothing was stored.
    const mine = await get(org(`/messages?driverId=${driver2.driver.id}`), driver2.headers);
    expect(mine.json().content.filter((m: { body: string }) => m.body === 'Mine now')).toEqual([]);
  });

  it('is its uploader’s alone until attached: another driver can neither read nor attach it', async () => {
    const photo = await uploaded(driver1.headers);
    expect(await readBy(driver1.headers, photo.id)).toEqual([200, 200]);
    expect(await readBy(driver2.headers, photo.id)).toEqual([404, 404]);
    expect(await readBy(office, photo.id)).toEqual([404, 404]);
    const res = await post(org('/messages'), driver2.headers, { driverId: driver2.driver.id, body: 'Not mine', imageIds: [photo.id] });
    expectFieldErrors(res.json(), 400, { 'imageIds.0': 'Photos must be images you uploaded' });
    // Its uploader attaches it; a resend of the same message (same client id) is answered as before.
    const body = { driverId: driver1.driver.id, body: 'Mine', imageIds: [photo.id], clientId: `owner-${Date.now()}` };
    expect((await post(org('/messages'), driver1.headers, body)).statusCode).toBe(201);
    expect((await post(org('/messages'), driver1.headers, body)).statusCode).toBe(200);
  });

  it("is not answered to another uploader's resend with the same upload key", async () => {
    const key = `upload-key-${Date.now()}`;
    const first = await upload(driver1.headers, '/messages/images', key);
    expect(first.statusCode).toBe(201);
    const again = await upload(driver1.headers, '/messages/images', key);
    expect(again.json().id).toBe(first.json().id);
    const theirs = await upload(driver2.headers, '/messages/images', key);
    expect(theirs.statusCode).toBe(409);
    expectErrorBody(theirs.json(), 409);
  });
});

describe('photos of a report and papers of a load', () => {
  it('a report photo is read by its readers and cannot go into a message; a message photo cannot go into a report', async () => {
    const photo = await uploaded(driver1.headers, '/dvirs/images');
    const items = DVIR_ITEMS.map((i) => ({ item: i.code, ok: i.code !== 'HORN', ...(i.code === 'HORN' ? { note: 'Weak', imageIds: [photo.id] } : {}) }));
    const res = await post(org('/dvirs'), driver1.headers, { assetId: truckId, kind: 'PRE_TRIP', items, signature: { name: 'Driver One' } });
    expect(res.statusCode, res.body).toBe(201);
    const dvir = dvirSchema.parse(res.json());
    expect(await readBy(driver1.headers, photo.id)).toEqual([200, 200]);
    expect(await readBy(office, photo.id)).toEqual([200, 200]);
    // Driver 2 does not drive the truck: its reports are out of reach, and so are their photos.
    expect((await get(org(`/dvirs/${dvir.id}`), driver2.headers)).statusCode).toBe(404);
    expect(await readBy(driver2.headers, photo.id)).toEqual([404, 404]);
    const reused = await post(org('/messages'), driver1.headers, { driverId: driver1.driver.id, body: 'Again', imageIds: [photo.id] });
    expectFieldErrors(reused.json(), 400, { 'imageIds.0': 'Photos are attached to something else: upload them again' });

    const messagePhoto = await uploaded(driver1.headers);
    expect((await post(org('/messages'), driver1.headers, { driverId: driver1.driver.id, body: 'Horn', imageIds: [messagePhoto.id] })).statusCode).toBe(201);
    const withIt = DVIR_ITEMS.map((i) => ({
      item: i.code,
      ok: i.code !== 'HORN',
      ...(i.code === 'HORN' ? { note: 'Weak', imageIds: [messagePhoto.id] } : {}),
    }));
    const refused = await post(org('/dvirs'), driver1.headers, { assetId: truckId, kind: 'POST_TRIP', items: withIt, signature: { name: 'Driver One' } });
    const horn = DVIR_ITEMS.findIndex((i) => i.code === 'HORN');
    expectFieldErrors(refused.json(), 400, { [`items.${horn}.imageIds`]: 'Photos are attached to something else: upload them again' });
  });

  it("a load's paper is read by the load's drivers and the office; another driver's upload is refused", async () => {
    const load = await post(org('/loads'), admin, {
      customer: 'Acme Foods',
      stops: [
        {
          kind: 'PICKUP',
          latitude: 39.1,
          longitude: -94.58,
          windowStart: new Date(Date.now() + 3600_000).toISOString(),
          windowEnd: new Date(Date.now() + 7200_000).toISOString(),
          serviceMinutes: 30,
        },
        {
          kind: 'DELIVERY',
          latitude: 38.63,
          longitude: -90.2,
          windowStart: new Date(Date.now() + 6 * 3600_000).toISOString(),
          windowEnd: new Date(Date.now() + 8 * 3600_000).toISOString(),
          serviceMinutes: 30,
        },
      ],
      rate: { lineHaul: 900, fuelSurcharge: 0, accessorials: [] },
      driverIds: [driver1.driver.id],
    });
    expect(load.statusCode, load.body).toBe(201);
    const docs = org(`/loads/${load.json().id}/documents`);
    const bol = await uploaded(driver1.headers, '/dvirs/images');
    const stranger = await uploaded(driver2.headers, '/dvirs/images');
    expectFieldErrors((await post(docs, driver1.headers, { documentKind: 'BOL', imageId: stranger.id })).json(), 400, {
      imageId: 'Photo must be an image you uploaded',
    });
    expect((await post(docs, driver1.headers, { documentKind: 'BOL', imageId: bol.id })).statusCode).toBe(201);
    expect(await readBy(driver1.headers, bol.id)).toEqual([200, 200]);
    expect(await readBy(office, bol.id)).toEqual([200, 200]);
    expect(await readBy(driver2.headers, bol.id)).toEqual([404, 404]);
  });
});
