import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_DOCUMENT_MAX_PAGES, loadDocumentSchema, loadSchema, type Load } from '@fleet/api-contract';
import { migrationsFolder } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { multipartForm, pngOf } from '../../test/images.ts';
import { invitedDriver } from '../../test/members.ts';
import { pdfImageSizes, pdfPageCount } from '../../test/pdf.ts';

// A load's papers of several pages through HTTP on the real database (issue 70, decision 0287):
// photographed page by page, sent as a multipart form or as JSON naming uploads, read back as one
// PDF with the pages in the order taken; readable by the office and the load's own driver only;
// limits answered with the spec's error body; a resend with the phone's key stored once.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let driver: { id: string; headers: Record<string, string> };
let otherDriver: Record<string, string>;
let other: Record<string, string>;
let load: Load;
const H = 3_600_000;
const IMAGE_LIMIT = 256 * 1024;
const url = (p = '') => `/api/v1/organizations/${orgId}/loads/${load.id}/documents${p}`;
/** Pages told apart by their width: the PDF keeps each image's pixel size. */
const page = (width: number) => pngOf(width, 40);

beforeAll(async () => {
  t = await createTestApp({ imageLimit: IMAGE_LIMIT });
  const owner = await registerOrganization(t.app, 'Paper Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const d = await invitedDriver(t.app, t.dataDir, orgId, admin);
  driver = { id: d.driver.id, headers: d.headers };
  otherDriver = (await invitedDriver(t.app, t.dataDir, orgId, admin)).headers;
  other = bearer((await registerOrganization(t.app, 'Other Paper Carrier')).accessToken);
  const now = Date.now();
  const at = (ms: number) => new Date(ms).toISOString();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/loads`,
    headers: admin,
    payload: {
      customer: 'Acme Foods',
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(now - 2 * H), windowEnd: at(now + H), serviceMinutes: 60 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(now + 4 * H), windowEnd: at(now + 6 * H), serviceMinutes: 45 },
      ],
      rate: { lineHaul: 900 },
      driverIds: [driver.id],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  load = loadSchema.parse(res.json());
});
afterAll(async () => {
  await t?.close();
});

const sendForm = (fields: Record<string, string>, files: Array<[string, Buffer, string]>, headers = driver.headers, key?: string) => {
  const form = multipartForm(fields, files);
  return t.app.inject({
    method: 'POST',
    url: url(),
    payload: form.payload,
    headers: { ...form.headers, ...headers, ...(key ? { 'idempotency-key': key } : {}) },
  });
};
const pngs = (...widths: number[]): Array<[string, Buffer, string]> => widths.map((w) => ['pages', page(w), 'image/png']);
const pdfOf = async (id: string, headers = admin) => {
  const res = await t.app.inject({ method: 'GET', url: url(`/${id}/pdf`), headers });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
};
/** An image uploaded as the phone does before naming it in JSON. */
const upload = async (bytes: Buffer, headers = driver.headers) => {
  const form = multipartForm({}, [['file', bytes, 'image/png']]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/dvirs/images`,
    payload: form.payload,
    headers: { ...form.headers, ...headers },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
};

describe('documents of several pages', () => {
  it('takes the pages as a multipart form and answers one PDF with them in the order taken', async () => {
    const delivery = load.stops[1]!.id;
    const res = await sendForm({ type: 'POD', stopId: delivery }, pngs(110, 220, 330));
    expect(res.statusCode, res.body).toBe(201);
    const doc = loadDocumentSchema.parse(res.json());
    expect(doc).toMatchObject({ type: 'POD', stopId: delivery, pageCount: 3, createdBy: expect.any(String) });
    expect(Date.parse(doc.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const pdf = await pdfOf(doc.id);
    expect(pdfPageCount(pdf)).toBe(3);
    // Reversed or shuffled pages would list these widths in another order.
    expect(pdfImageSizes(pdf).map((s) => s.width)).toEqual([110, 220, 330]);
    // Each photo fills its Letter sheet inside half-inch margins, centred: 330×40 px scaled to 540 pt wide.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 612 792\]/);
  });

  it('takes JSON naming uploaded images in order, and the older single-photo body', async () => {
    const [a, b] = [await upload(page(150)), await upload(page(75))];
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: driver.headers,
      payload: { type: 'BOL', stopId: load.stops[0]!.id, imageIds: [b, a] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = loadDocumentSchema.parse(res.json());
    expect(doc).toMatchObject({ type: 'BOL', pageCount: 2, imageId: b });
    expect(pdfImageSizes(await pdfOf(doc.id)).map((s) => s.width)).toEqual([75, 150]);

    const single = await upload(page(60));
    const old = await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { documentKind: 'LUMPER', imageId: single } });
    expect(old.statusCode, old.body).toBe(201);
    expect(old.json()).toMatchObject({ type: 'LUMPER', documentKind: 'LUMPER', pageCount: 1, imageId: single, stopId: null });
    expect(pdfPageCount(await pdfOf(old.json().id as string))).toBe(1);

    const list = await t.app.inject({ method: 'GET', url: url(), headers: admin });
    expect(list.statusCode).toBe(200);
    expect((list.json() as Array<{ type: string; pageCount: number }>).map((d) => [d.type, d.pageCount])).toEqual([
      ['POD', 3],
      ['BOL', 2],
      ['LUMPER', 1],
    ]);
    // The load's page carries them too.
    const full = loadSchema.parse((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}`, headers: admin })).json());
    expect(full.documents.map((d) => d.pageCount)).toEqual([3, 2, 1]);
  });

  it('is read by the office and the load’s own driver; another driver and another organization get 404', async () => {
    const [doc] = (await t.app.inject({ method: 'GET', url: url(), headers: driver.headers })).json() as Array<{ id: string }>;
    expect(pdfPageCount(await pdfOf(doc!.id, driver.headers))).toBe(3);
    for (const headers of [otherDriver, other]) {
      expectErrorBody((await t.app.inject({ method: 'GET', url: url(), headers })).json(), 404);
      expectErrorBody((await t.app.inject({ method: 'GET', url: url(`/${doc!.id}/pdf`), headers })).json(), 404);
      expect((await sendForm({ type: 'POD' }, pngs(10), headers)).statusCode).toBe(404);
    }
    // Another organization's id under this load's path is unknown here too.
    expectErrorBody((await t.app.inject({ method: 'GET', url: url(`/${load.stops[0]!.id}/pdf`), headers: admin })).json(), 404);
  });

  it('answers bad input with the spec’s error body and stores nothing', async () => {
    const count = async () =>
      rowsOf<{ n: number }>(await t.app.db.execute(`select count(*)::int as n from load_documents where load_id = '${load.id}'` as never))[0]!.n;
    const before = await count();
    const tooMany = Array.from({ length: LOAD_DOCUMENT_MAX_PAGES + 1 }, (_, i) => 10 + i);
    expectFieldErrors((await sendForm({ type: 'POD' }, pngs(...tooMany))).json(), 400, { pages: `A document has at most ${LOAD_DOCUMENT_MAX_PAGES} pages` });
    expectFieldErrors((await sendForm({ type: 'POD' }, [])).json(), 400, { pages: 'A document needs at least one page: send the photos as files' });
    expectFieldErrors((await sendForm({}, pngs(10))).json(), 400, { type: 'Type is a required field' });
    expectFieldErrors((await sendForm({ type: 'INVOICE' }, pngs(10))).json(), 400, { type: 'Type must be one of BOL, POD, LUMPER, SCALE, OTHER' });
    expectFieldErrors((await sendForm({ type: 'POD', stopId: 'nope' }, pngs(10))).json(), 400, { stopId: 'Stop must be a stop id' });
    expectFieldErrors((await sendForm({ type: 'POD', stopId: load.id }, pngs(10))).json(), 400, { stopId: 'Stop must be a stop of this load' });
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expectFieldErrors((await sendForm({ type: 'POD' }, [...pngs(10), ['pages', gif, 'image/gif']])).json(), 400, {
      'pages.1': 'Page 2 must be a JPEG or PNG photo',
    });
    const big = Buffer.concat([page(10), Buffer.alloc(IMAGE_LIMIT + 10)]);
    const tooBig = expectErrorBody((await sendForm({ type: 'POD' }, [...pngs(10), ['pages', big, 'image/png']])).json(), 413);
    expect(tooBig.message).toMatch(/^Page 2 is larger than the upload limit/);
    // JSON: the page list's own limits.
    const ids = Array.from({ length: LOAD_DOCUMENT_MAX_PAGES + 1 }, () => crypto.randomUUID());
    expectFieldErrors((await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { type: 'POD', imageIds: ids } })).json(), 400, {
      imageIds: `A document has at most ${LOAD_DOCUMENT_MAX_PAGES} pages`,
    });
    const one = await upload(page(12));
    expectFieldErrors(
      (await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { type: 'POD', imageIds: [one, one] } })).json(),
      400,
      {
        imageIds: 'A page is named twice',
      },
    );
    expectFieldErrors((await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { type: 'POD', imageIds: [] } })).json(), 400, {
      imageIds: 'A document needs at least one page',
    });
    // Someone else's upload is not theirs to attach (issue 66).
    const admins = await upload(page(14), admin);
    expectFieldErrors(
      (await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { type: 'POD', imageIds: [one, admins] } })).json(),
      400,
      {
        'imageIds.1': 'Pages must be images you uploaded',
      },
    );
    expect(await count()).toBe(before);
  });

  it('stores a document sent again with the same Idempotency-Key once', async () => {
    const list = async () => (await t.app.inject({ method: 'GET', url: url(), headers: admin })).json() as Array<{ id: string }>;
    const before = (await list()).length;
    const key = crypto.randomUUID();
    const first = await sendForm({ type: 'SCALE' }, pngs(20, 30), driver.headers, key);
    const again = await sendForm({ type: 'SCALE' }, pngs(20, 30), driver.headers, key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json().id).toBe(first.json().id);
    const ids = [await upload(page(21)), await upload(page(22))];
    const jsonKey = crypto.randomUUID();
    const j1 = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: { ...driver.headers, 'idempotency-key': jsonKey },
      payload: { type: 'POD', imageIds: ids },
    });
    const j2 = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: { ...driver.headers, 'idempotency-key': jsonKey },
      payload: { type: 'POD', imageIds: ids },
    });
    expect([j1.statusCode, j2.statusCode, j2.json().id]).toEqual([201, 201, j1.json().id]);
    expect((await list()).length).toBe(before + 2);
  });

  it('reads a photo attached before pages existed as a one-page document (migration 0061)', async () => {
    const image = await upload(page(44));
    // A row as the code before issue 70 wrote it: no page rows; then the migration's backfill.
    const [row] = rowsOf<{ id: string }>(
      await t.app.db.execute(
        `insert into load_documents (organization_id, load_id, kind, image_id) values ('${orgId}', '${load.id}', 'OTHER', '${image}') returning id` as never,
      ),
    );
    const sql = fs.readFileSync(path.join(migrationsFolder, '0061_load_document_pages.sql'), 'utf8');
    const backfill = sql.split('--> statement-breakpoint').at(-1)!.trim().replace(/;$/, '');
    expect(backfill).toMatch(/^INSERT INTO "load_document_pages"/);
    await t.app.db.execute(`${backfill} where "id" = '${row!.id}'` as never);
    const doc = ((await t.app.inject({ method: 'GET', url: url(), headers: admin })).json() as Array<{ id: string; pageCount: number }>).find(
      (d) => d.id === row!.id,
    );
    expect(doc?.pageCount).toBe(1);
    expect(pdfImageSizes(await pdfOf(row!.id)).map((s) => s.width)).toEqual([44]);
  });
});

describe('a proof of delivery the customer requires (decision 0289)', () => {
  let customerId: string;
  const loadsUrl = (p = '') => `/api/v1/organizations/${orgId}/loads${p}`;
  const newLoad = async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: loadsUrl(),
      headers: admin,
      payload: {
        customerId,
        stops: [
          { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(now - 6 * H), windowEnd: at(now - 5 * H), serviceMinutes: 30 },
          { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(now - 3 * H), windowEnd: at(now - 2 * H), serviceMinutes: 30 },
        ],
        rate: { lineHaul: 700 },
        driverIds: [driver.id],
        overlapAllowed: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return loadSchema.parse(res.json());
  };
  const event = (l: Load, i: number, body: Record<string, unknown>, headers = driver.headers) =>
    t.app.inject({ method: 'POST', url: loadsUrl(`/${l.id}/stops/${l.stops[i]!.id}/status`), headers, payload: body });
  /** At the delivery: picked up and arrived, as the driver marks them. */
  const atDelivery = async () => {
    const l = await newLoad();
    const now = Date.now();
    for (const [i, ev, ago] of [
      [0, 'ARRIVE', 5],
      [0, 'DEPART', 4],
      [1, 'ARRIVE', 2],
    ] as const) {
      const res = await event(l, i, { event: ev, at: new Date(now - ago * H).toISOString() });
      expect(res.statusCode, res.body).toBe(200);
    }
    return l;
  };

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/customers`,
      headers: admin,
      payload: { name: 'Strict Receiver', requiresPod: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    customerId = (res.json() as { id: string }).id;
  });

  it('refuses the driver’s departure from the delivery until a POD is attached to that stop, saying why', async () => {
    const l = await atDelivery();
    // The driver's app reads it from the load to say so before the tap.
    expect(l.requiresPod).toBe(true);
    const refused = await event(l, 1, { event: 'DEPART' });
    const body = expectErrorBody(refused.json(), 409);
    expect(body.code).toBe('loads.pod_required');
    expect(body.message).toBe('Stop 2 needs a proof of delivery before it is completed (Strict Receiver requires one): photograph it first, or ask the office');
    expect(refused.json().params).toEqual({ stop: 2 });
    // Only the office lets it; a bill of lading, or a POD of another stop, is not it.
    expectErrorBody((await event(l, 1, { event: 'DEPART', podWaived: true })).json(), 403);
    const add = async (type: string, stop: number) => {
      const form = multipartForm({ type, stopId: l.stops[stop]!.id }, pngs(30));
      const res = await t.app.inject({
        method: 'POST',
        url: loadsUrl(`/${l.id}/documents`),
        payload: form.payload,
        headers: { ...form.headers, ...driver.headers },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await add('BOL', 1);
    await add('POD', 0);
    expect((await event(l, 1, { event: 'DEPART' })).statusCode).toBe(409);
    await add('POD', 1);
    const departed = await event(l, 1, { event: 'DEPART' });
    expect(departed.statusCode, departed.body).toBe(200);
    expect(loadSchema.parse(departed.json()).status).toBe('DELIVERED');
  });

  it('lets the office complete it without one, in the status history and the activity log', async () => {
    const l = await atDelivery();
    expectErrorBody((await event(l, 1, { event: 'DEPART' }, admin)).json(), 409);
    const res = await event(l, 1, { event: 'DEPART', podWaived: true }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const after = loadSchema.parse(res.json());
    expect(after.statusHistory.find((h) => h.status === 'DELIVERED')).toMatchObject({
      note: 'Stop 2 completed without the proof of delivery Strict Receiver requires (allowed by the office)',
    });
    const [log] = rowsOf<{ n: number }>(
      await t.app.db.execute(`select count(*)::int as n from activity_log where action = 'POD_WAIVED' and entity_id = '${l.id}'` as never),
    );
    expect(log!.n).toBe(1);
  });

  it('asks the same of a load marked delivered by hand', async () => {
    const l = await atDelivery();
    const status = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: loadsUrl(`/${l.id}/status`), headers: admin, payload: body });
    expect(expectErrorBody((await status({ status: 'DELIVERED' })).json(), 409).code).toBe('loads.pod_required');
    const res = await status({ status: 'DELIVERED', note: 'Receiver closed', podWaived: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(loadSchema.parse(res.json()).statusHistory.find((h) => h.status === 'DELIVERED')!.note).toBe(
      'Receiver closed · Stop 2 completed without the proof of delivery Strict Receiver requires (allowed by the office)',
    );
  });

  it('asks nothing of a customer who does not require it', async () => {
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${orgId}/customers/${customerId}`,
      headers: admin,
      payload: { requiresPod: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const l = await atDelivery();
    expect(l.requiresPod).toBe(false);
    expect((await event(l, 1, { event: 'DEPART' })).statusCode).toBe(200);
  });
});
