import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadContactListSchema,
  loadSchema,
  PUBLIC_TRACKING_RATE_PER_MINUTE,
  publicTrackingSchema,
  shareLinkCreatedSchema,
  shareLinkListSchema,
  type Load,
} from '@fleet/api-contract';
import { drivers, latestPositions, loads, loadStops } from '../../db/schema/index.ts';
import { ensureDemoTracking } from '../../seed/demo-tracking.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { memberWithRole } from '../../test/members.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { multipartForm, pngOf } from '../../test/images.ts';
import { pdfImageSizes } from '../../test/pdf.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';

// Customer tracking through HTTP on the real database (issue 69, decision 0282): links made, listed
// and revoked; what the public answer shows while the load runs and after; what it never shows;
// the one 404 for every token that shows nothing; the per-address limit; another organization's
// reach; the 400s; contacts and one-click unsubscribe.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let owner: Awaited<ReturnType<typeof registerOrganization>>;
let other: { orgId: string; headers: Record<string, string> };
let truck: TestVehicle;
let otherTruck: TestVehicle;
const H = 3_600_000;
const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
const api = (p: string) => `/api/v1/organizations/${orgId}${p}`;
let address = 0;
/** A fresh client address per call, so the per-address limit is only met where a test means to. */
const nextIp = () => `10.69.${Math.floor(++address / 250)}.${address % 250}`;

const DRIVER = { firstName: 'Zebulon', lastName: 'Quixote', phone: '+1 555 013 4477' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerOrganization(t.app, 'Tracking Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'trk-1', unitNumber: 'T-101' });
  otherTruck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'trk-2', unitNumber: 'T-SECRET-202' });
  await t.app.db.update(drivers).set(DRIVER).where(eq(drivers.id, truck.driverId!));
  const o = await registerOrganization(t.app, 'Nosy Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };
});
afterAll(async () => {
  await t?.close();
});

async function createLoad(base = Date.now(), over: Record<string, unknown> = {}): Promise<Load> {
  const res = await t.app.inject({
    method: 'POST',
    url: api('/loads'),
    headers: admin,
    payload: {
      customer: 'Acme Foods',
      poNumber: 'PO-4711',
      bolNumber: 'BOL-77',
      driverIds: [truck.driverId],
      assetId: truck.assetId,
      overlapAllowed: true,
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(base - 6 * H), windowEnd: at(base - 4 * H), serviceMinutes: 60 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(base + H), windowEnd: at(base + 2 * H), serviceMinutes: 45 },
      ],
      rate: { lineHaul: 1250.5, fuelSurcharge: 180.25, accessorials: [{ kind: 'DETENTION', amount: 75.1 }] },
      ...over,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return loadSchema.parse(res.json());
}

async function stopEvent(load: Load, i: number, event: 'ARRIVE' | 'DEPART', when: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: api(`/loads/${load.id}/stops/${load.stops[i]!.id}/status`),
    headers: admin,
    payload: { event, at: at(when) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function share(loadId: string, payload: Record<string, unknown> = {}, headers = admin) {
  const res = await t.app.inject({ method: 'POST', url: api(`/loads/${loadId}/share-links`), headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return shareLinkCreatedSchema.parse(res.json());
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const track = (token: string, ip = nextIp()) => t.app.inject({ method: 'GET', url: `/api/v1/public/tracking/${token}`, remoteAddress: ip });

async function putFix(v: TestVehicle, fixTime: number, lat = 38.9, lon = -92.3) {
  const row = {
    gatewayId: v.gatewayId,
    driverId: v.driverId,
    fixTime: new Date(fixTime),
    serverTime: new Date(fixTime),
    latitude: lat,
    longitude: lon,
    speed: 88,
    course: 95,
  };
  await t.app.db
    .insert(latestPositions)
    .values({ organizationId: orgId, assetId: v.assetId, ...row })
    // Not the organization in the update: Citus refuses to set the distribution column, even to itself.
    .onConflictDoUpdate({ target: [latestPositions.organizationId, latestPositions.assetId], set: row });
}

describe('tracking links', () => {
  it('makes a link whose url holds a 256-bit token, lists it with its views, and an API token may make and list them', async () => {
    const load = await createLoad();
    const made = await share(load.id, { label: 'For Acme' });
    expect(made.url).toMatch(/^http:\/\/fleet\.test\/track\/[A-Za-z0-9_-]{43}$/);
    // By default: 24 hours after the last stop's appointment end.
    expect(Date.parse(made.expiresAt)).toBe(Date.parse(load.stops[1]!.windowEnd) + 24 * H);
    // Only the hash is stored.
    const stored = await t.database.db.execute(`select token_hash from share_links where id = '${made.id}'`);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(made.url));

    expect((await track(tokenOf(made.url))).statusCode).toBe(200);
    expect((await track(tokenOf(made.url))).statusCode).toBe(200);

    const token = await createApiToken(t.app, orgId, admin, ['LOAD_LIST', 'LOAD_UPDATE']);
    const byToken = await share(load.id, {}, bearer(token.token));
    const list = await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: bearer(token.token) });
    expect(list.statusCode, list.body).toBe(200);
    const items = shareLinkListSchema.parse(list.json()).items;
    const mine = items.find((l) => l.id === made.id)!;
    expect(mine).toMatchObject({ kind: 'LOAD', label: 'For Acme', status: 'ACTIVE', createdBy: 'Olive Owner', viewCount: 2, revokedAt: null });
    expect(mine.lastViewedAt).not.toBeNull();
    // A token acts for its organization: no person made that link.
    expect(items.find((l) => l.id === byToken.id)).toMatchObject({ createdBy: null, viewCount: 0 });
  });

  it('shows the position and ETA while the load runs, and no position from an hour after the last stop', async () => {
    const now = Date.now();
    const load = await createLoad(now);
    const link = await share(load.id);
    const token = tokenOf(link.url);
    await putFix(truck, now - 2 * MIN);

    // Assigned, not started: no position yet.
    let body = publicTrackingSchema.parse((await track(token)).json());
    expect(body.position).toBeNull();
    expect(body.load).toEqual({ number: load.number, customerReference: 'PO-4711', status: 'ASSIGNED' });

    await stopEvent(load, 0, 'ARRIVE', now - 5 * H);
    await stopEvent(load, 0, 'DEPART', now - 4 * H);
    // The live ETA the follower wrote, a minute ago, after the fix: HIGH; after the window: late.
    const eta = now + 2 * H + 30 * MIN;
    await t.app.db
      .update(loadStops)
      .set({ eta: new Date(eta) })
      .where(eq(loadStops.id, load.stops[1]!.id));
    await t.app.db
      .update(loads)
      .set({ etaUpdatedAt: new Date(now - MIN) })
      .where(eq(loads.id, load.id));

    const res = await track(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    body = publicTrackingSchema.parse(res.json());
    expect(body).toMatchObject({ kind: 'LOAD', carrier: { name: 'Tracking Carrier' }, vehicle: { unitNumber: 'T-101' }, load: { status: 'EN_ROUTE' } });
    expect(body.position).toMatchObject({ latitude: 38.9, longitude: -92.3, at: at(now - 2 * MIN), speedKmh: 88, heading: 95 });
    expect(body.stops.map((s) => s.status)).toEqual(['DEPARTED', 'PENDING']);
    expect(body.stops[0]).toMatchObject({ kind: 'PICKUP', eta: null, etaConfidence: null, arrivedAt: at(now - 5 * H), departedAt: at(now - 4 * H) });
    expect(body.stops[1]).toMatchObject({ kind: 'DELIVERY', eta: at(eta), etaConfidence: 'HIGH', late: true });
    expect(body.stops[1]!.state).toBe('MO');
    // In time order (the stop events were given earlier times than the assignment).
    expect(body.statusHistory.map((h) => h.status)).toEqual(['AT_STOP', 'EN_ROUTE', 'ASSIGNED']);
    expect(body.statusHistory[0]!.at).toBe(at(now - 5 * H));

    // Delivered 50 minutes ago: still shown; 70 minutes ago: no position any more.
    await stopEvent(load, 1, 'ARRIVE', now - 80 * MIN);
    await stopEvent(load, 1, 'DEPART', now - 50 * MIN);
    body = publicTrackingSchema.parse((await track(token)).json());
    expect(body.load!.status).toBe('DELIVERED');
    expect(body.position).not.toBeNull();
    expect(body.stops[1]!.eta).toBeNull();
    await t.app.db
      .update(loadStops)
      .set({ departedAt: new Date(now - 70 * MIN) })
      .where(eq(loadStops.id, load.stops[1]!.id));
    body = publicTrackingSchema.parse((await track(token)).json());
    expect(body.position).toBeNull();
    expect(body.stops[1]!.status).toBe('DEPARTED');
  });

  it('never names a driver, hours of service, a rate or revenue, another load or another vehicle', async () => {
    const now = Date.now();
    const secret = await createLoad(now, { driverIds: [otherTruck.driverId], assetId: otherTruck.assetId, customer: 'Hidden Co', poNumber: 'PO-SECRET-9' });
    const load = await createLoad(now);
    await stopEvent(load, 0, 'ARRIVE', now - 5 * H);
    await stopEvent(load, 0, 'DEPART', now - 4 * H);
    await putFix(truck, now - MIN);
    await putFix(otherTruck, now - MIN, 40.1, -88.2);
    await t.app.db
      .update(loadStops)
      .set({ eta: new Date(now + 90 * MIN) })
      .where(eq(loadStops.id, load.stops[1]!.id));
    const res = await track(tokenOf((await share(load.id)).url));
    expect(res.statusCode, res.body).toBe(200);
    const forbiddenKey =
      /driver|phone|hos|hours|duty|cycle|rate|revenue|cents|haul|surcharge|accessorial|currency|money|amount|customer$|weight|commodity|notes|email/i;
    const forbiddenValue = [
      DRIVER.firstName,
      DRIVER.lastName,
      DRIVER.phone,
      '1250.5',
      '125050',
      '180.25',
      '75.1',
      'Acme Foods',
      secret.number,
      'PO-SECRET-9',
      'T-SECRET-202',
      'Hidden Co',
      '40.1',
    ];
    const found: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (forbiddenKey.test(k)) found.push(`key ${path}.${k}`);
          walk(x, `${path}.${k}`);
        }
      else if (v !== null && forbiddenValue.some((f) => String(v).includes(f))) found.push(`value ${path} = ${String(v)}`);
    };
    walk(res.json(), '$');
    expect(found).toEqual([]);
    // The answer is the contract's shape exactly: nothing beside it.
    expect(publicTrackingSchema.strict().safeParse(res.json()).success).toBe(true);
  });

  it('answers the same 404 for unknown, malformed, expired and revoked tokens', async () => {
    const load = await createLoad();
    const revoked = await share(load.id);
    const expired = await share(load.id);
    const ok = await share(load.id);
    const del = await t.app.inject({ method: 'DELETE', url: api(`/loads/${load.id}/share-links/${revoked.id}`), headers: admin });
    expect(del.statusCode, del.body).toBe(204);
    await t.database.db.execute(`update share_links set expires_at = now() - interval '1 second' where id = '${expired.id}'`);
    expect((await track(tokenOf(ok.url))).statusCode).toBe(200);

    const bodies = [];
    for (const token of [tokenOf(revoked.url), tokenOf(expired.url), 'A'.repeat(43), 'not-a-token', `${tokenOf(ok.url)}x`, '%27%20or%201%3D1']) {
      const res = await track(token);
      expect(res.statusCode, token).toBe(404);
      const { timestamp: _, ...rest } = res.json() as Record<string, unknown>;
      bodies.push(rest);
    }
    expectErrorBody((await track('A'.repeat(43))).json(), 404);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);

    // Listed as revoked and expired; revoking again changes nothing.
    const again = await t.app.inject({ method: 'DELETE', url: api(`/loads/${load.id}/share-links/${revoked.id}`), headers: admin });
    expect(again.statusCode).toBe(204);
    const items = shareLinkListSchema.parse((await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: admin })).json()).items;
    expect(items.find((l) => l.id === revoked.id)?.status).toBe('REVOKED');
    expect(items.find((l) => l.id === expired.id)?.status).toBe('EXPIRED');
  });

  it('limits reads per address with 429 and Retry-After', async () => {
    const load = await createLoad();
    const token = tokenOf((await share(load.id)).url);
    const ip = '10.70.0.1';
    for (let i = 0; i < PUBLIC_TRACKING_RATE_PER_MINUTE; i++) expect((await track(token, ip)).statusCode).toBe(200);
    const refused = await track(token, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expectErrorBody(refused.json(), 429);
    // Unknown tokens count too: probing is as slow.
    expect((await track('B'.repeat(43), ip)).statusCode).toBe(429);
    // Another address is not held back.
    expect((await track(token, '10.70.0.2')).statusCode).toBe(200);
  });

  it('keeps each organization to its own links and contacts', async () => {
    const load = await createLoad();
    const link = await share(load.id);
    const theirs = (p: string) => `/api/v1/organizations/${other.orgId}${p}`;
    const tries = [
      { method: 'GET' as const, url: theirs(`/loads/${load.id}/share-links`) },
      { method: 'POST' as const, url: theirs(`/loads/${load.id}/share-links`), payload: {} },
      { method: 'DELETE' as const, url: theirs(`/loads/${load.id}/share-links/${link.id}`) },
      { method: 'DELETE' as const, url: theirs(`/share-links/${link.id}`) },
      { method: 'GET' as const, url: theirs(`/loads/${load.id}/contacts`) },
      { method: 'PUT' as const, url: theirs(`/loads/${load.id}/contacts`), payload: { contacts: [] } },
      { method: 'POST' as const, url: theirs(`/assets/${truck.assetId}/share-links`), payload: { expiresAt: at(Date.now() + H) } },
      // Their own organization in the path does not reach ours.
      { method: 'GET' as const, url: api(`/loads/${load.id}/share-links`) },
      { method: 'GET' as const, url: api(`/loads/${load.id}/contacts`) },
    ];
    for (const r of tries) {
      const res = await t.app.inject({ ...r, headers: other.headers });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
    }
    expect((await track(tokenOf(link.url))).statusCode).toBe(200);
  });

  it('takes the load’s codes for a load’s links and the vehicle’s for a vehicle’s', async () => {
    const load = await createLoad();
    const link = await share(load.id);
    const fleet = bearer((await memberWithRole(t.app, t.dataDir, owner, ['ASSET_LIST', 'ASSET_UPDATE'])).session.accessToken);
    const reader = bearer((await memberWithRole(t.app, t.dataDir, owner, ['LOAD_LIST'])).session.accessToken);
    expectErrorBody((await t.app.inject({ method: 'DELETE', url: api(`/share-links/${link.id}`), headers: fleet })).json(), 403);
    expectErrorBody((await t.app.inject({ method: 'POST', url: api(`/loads/${load.id}/share-links`), headers: reader, payload: {} })).json(), 403);
    expectErrorBody((await t.app.inject({ method: 'PUT', url: api(`/loads/${load.id}/contacts`), headers: reader, payload: { contacts: [] } })).json(), 403);
    expect((await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: reader })).statusCode).toBe(200);
    expect((await track(tokenOf(link.url))).statusCode).toBe(200);
  });

  it('refuses bad input with the spec’s 400 and changes nothing', async () => {
    const load = await createLoad();
    const past = await t.app.inject({
      method: 'POST',
      url: api(`/loads/${load.id}/share-links`),
      headers: admin,
      payload: { expiresAt: at(Date.now() - MIN) },
    });
    expectFieldErrors(past.json(), 400, { expiresAt: 'Expires at must be in the future' });
    const far = await t.app.inject({
      method: 'POST',
      url: api(`/assets/${truck.assetId}/share-links`),
      headers: admin,
      payload: { expiresAt: at(Date.now() + 8 * 24 * H) },
    });
    expectFieldErrors(far.json(), 400, { expiresAt: 'Expires at must be at most 7 days ahead' });
    const missing = await t.app.inject({ method: 'POST', url: api(`/assets/${truck.assetId}/share-links`), headers: admin, payload: {} });
    expectErrorBody(missing.json(), 400);
    const badEmail = await t.app.inject({
      method: 'PUT',
      url: api(`/loads/${load.id}/contacts`),
      headers: admin,
      payload: { contacts: [{ role: 'SHIPPER', name: 'Sam', email: 'not-an-address', notices: ['LINK'] }] },
    });
    expectFieldErrors(badEmail.json(), 400, { 'contacts.0.email': 'E-mail must be an e-mail address' });
    const list = shareLinkListSchema.parse((await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: admin })).json());
    expect(list.items).toEqual([]);
    const contacts = loadContactListSchema.parse((await t.app.inject({ method: 'GET', url: api(`/loads/${load.id}/contacts`), headers: admin })).json());
    expect(contacts.items).toEqual([]);
  });

  it('shows the load’s proof of delivery through the same link once delivered, and no other paper (issue 70)', async () => {
    const now = Date.now();
    const load = await createLoad(now);
    const paper = async (l: Load, type: string, widths: number[]) => {
      const form = multipartForm(
        { type, stopId: l.stops[1]!.id },
        widths.map((w) => ['pages', pngOf(w, 30), 'image/png']),
      );
      const res = await t.app.inject({ method: 'POST', url: api(`/loads/${l.id}/documents`), payload: form.payload, headers: { ...form.headers, ...admin } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const pod = await paper(load, 'POD', [70, 140]);
    const bol = await paper(load, 'BOL', [50]);
    const otherLoad = await createLoad(now);
    const othersPod = await paper(otherLoad, 'POD', [60]);
    const made = await share(load.id);
    const token = tokenOf(made.url);
    const pdf = (id: string, tk = token) => t.app.inject({ method: 'GET', url: `/api/v1/public/tracking/${tk}/documents/${id}/pdf`, remoteAddress: nextIp() });

    // Not delivered yet: nothing listed, the PDF unknown.
    expect(publicTrackingSchema.parse((await track(token)).json()).proofOfDelivery).toEqual([]);
    expectErrorBody((await pdf(pod.id)).json(), 404);

    await stopEvent(load, 0, 'ARRIVE', now - 5 * H);
    await stopEvent(load, 0, 'DEPART', now - 4 * H);
    await stopEvent(load, 1, 'ARRIVE', now - 2 * H);
    await stopEvent(load, 1, 'DEPART', now - H);
    const body = publicTrackingSchema.parse((await track(token)).json());
    expect(body.proofOfDelivery).toEqual([
      { id: pod.id, stopSeq: 1, pageCount: 2, createdAt: expect.any(String), url: `/api/v1/public/tracking/${token}/documents/${pod.id}/pdf` },
    ]);
    const res = await t.app.inject({ method: 'GET', url: body.proofOfDelivery[0]!.url, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(pdfImageSizes(res.rawPayload).map((i) => i.width)).toEqual([70, 140]);
    // The bill of lading, another load's proof, a made-up id: the one 404.
    for (const id of [bol.id, othersPod.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) expectErrorBody((await pdf(id)).json(), 404);
    // A revoked link reads nothing.
    expect((await t.app.inject({ method: 'DELETE', url: api(`/loads/${load.id}/share-links/${made.id}`), headers: admin })).statusCode).toBe(204);
    expectErrorBody((await pdf(pod.id)).json(), 404);
  });

  it('shares a vehicle for a time box, with its position until the link ends', async () => {
    const now = Date.now();
    await putFix(truck, now - MIN, 41.5, -87.6);
    const res = await t.app.inject({
      method: 'POST',
      url: api(`/assets/${truck.assetId}/share-links`),
      headers: admin,
      payload: { expiresAt: at(now + 6 * 24 * H), label: 'Dock meeting' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const link = shareLinkCreatedSchema.parse(res.json());
    const body = publicTrackingSchema.parse((await track(tokenOf(link.url))).json());
    expect(body).toMatchObject({
      kind: 'VEHICLE',
      load: null,
      vehicle: { unitNumber: 'T-101' },
      stops: [],
      statusHistory: [],
      position: { latitude: 41.5, longitude: -87.6 },
    });
    const list = shareLinkListSchema.parse((await t.app.inject({ method: 'GET', url: api(`/assets/${truck.assetId}/share-links`), headers: admin })).json());
    expect(list.items.map((l) => l.label)).toEqual(['Dock meeting']);
    // The organization-wide revoke serves a vehicle's link.
    expect((await t.app.inject({ method: 'DELETE', url: api(`/share-links/${link.id}`), headers: admin })).statusCode).toBe(204);
    expect((await track(tokenOf(link.url))).statusCode).toBe(404);
  });
});

describe('contacts', () => {
  it('replaces the list, keeps a contact by e-mail, and unsubscribes in one click (GET changes nothing)', async () => {
    const load = await createLoad();
    const put = (contacts: unknown[]) => t.app.inject({ method: 'PUT', url: api(`/loads/${load.id}/contacts`), headers: admin, payload: { contacts } });
    const first = await put([
      { role: 'SHIPPER', name: 'Sam Shipper', email: 'sam@shipper.test', notices: ['LINK', 'DELIVERED'] },
      { role: 'BROKER', name: 'Bo Broker', email: 'bo@broker.test', notices: ['LATE'] },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    const before = loadContactListSchema.parse(first.json()).items;
    expect(before.map((c) => [c.role, c.email, c.notices, c.unsubscribedAt, c.sent])).toEqual([
      ['SHIPPER', 'sam@shipper.test', ['LINK', 'DELIVERED'], null, []],
      ['BROKER', 'bo@broker.test', ['LATE'], null, []],
    ]);
    const second = loadContactListSchema.parse(
      (await put([{ role: 'CONSIGNEE', name: 'Sam S.', email: 'SAM@shipper.test', notices: ['ARRIVED'] }])).json(),
    ).items;
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ id: before[0]!.id, role: 'CONSIGNEE', name: 'Sam S.', notices: ['ARRIVED'] });

    const dup = await put([
      { role: 'SHIPPER', name: 'A', email: 'a@x.test', notices: [] },
      { role: 'BROKER', name: 'B', email: 'A@x.test', notices: [] },
    ]);
    expectErrorBody(dup.json(), 400);
  });
});

describe('the demo', () => {
  it('gives a running load two contacts and a link that opens, once whatever the restarts', async () => {
    const org = await registerOrganization(t.app, 'Demo-like Carrier');
    const id = org.user.organization!.id;
    const headers = bearer(org.accessToken);
    const v = await createTestVehicle(t.app.db, id, { uniqueId: 'trk-demo', unitNumber: 'D-1' });
    const now = Date.now();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${id}/loads`,
      headers,
      payload: {
        customer: 'Acme Foods',
        driverIds: [v.driverId],
        rate: { lineHaul: 900 },
        stops: [
          { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(now - 3 * H), windowEnd: at(now - 2 * H), serviceMinutes: 30 },
          { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(now + H), windowEnd: at(now + 2 * H), serviceMinutes: 30 },
        ],
      },
    });
    const load = loadSchema.parse(res.json());
    for (const [event, when] of [
      ['ARRIVE', now - 2 * H],
      ['DEPART', now - H],
    ] as const) {
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${id}/loads/${load.id}/stops/${load.stops[0]!.id}/status`,
        headers,
        payload: { event, at: at(when) },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const made = await ensureDemoTracking(t.app.db, id, t.app.apiTokenKey, 'http://fleet.test');
    expect(made?.loadNumber).toBe(load.number);
    expect((await track(tokenOf(made!.url))).statusCode).toBe(200);
    expect(await ensureDemoTracking(t.app.db, id, t.app.apiTokenKey, 'http://fleet.test')).toBeNull();
    const contacts = loadContactListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${id}/loads/${load.id}/contacts`, headers })).json(),
    );
    expect(contacts.items.map((c) => c.role)).toEqual(['CONSIGNEE', 'BROKER']);
    const links = shareLinkListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${id}/loads/${load.id}/share-links`, headers })).json(),
    );
    expect(links.items).toHaveLength(1);
  });
});
