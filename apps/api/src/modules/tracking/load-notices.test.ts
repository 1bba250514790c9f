import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContactListSchema, loadSchema, WEBHOOK_DATA_SCHEMAS, WEBHOOK_EVENT_INFO, type Load } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { loadStops } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { runLoadNotices, trackingKey, type NoticePassResult } from './index.ts';

// The notices to a load's contacts and load.eta_changed (issue 69, decision 0283), through HTTP and
// the pass the job runs: each notice once, on the same database after a restart of the app too; the
// one-click unsubscribe (its GET changes nothing); the webhook on a move of more than 15 minutes only.

let t: TestContext;
/** The app of the moment: the first, then the one started again on the same database. */
let app: FastifyInstance;
let orgId: string;
let admin: Record<string, string>;
let load: Load;
const H = 3_600_000;
const MIN = 60_000;
const NOW = Date.now();
const at = (ms: number) => new Date(ms).toISOString();
const api = (p: string) => `/api/v1/organizations/${orgId}${p}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

const pass = (now: number): Promise<NoticePassResult> =>
  runLoadNotices({ db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl, key: trackingKey(app.apiTokenKey) }, now);
const mails = (to: string) => readOutbox(t.dataDir).filter((m) => m.to === to);
const subjects = (to: string) => mails(to).map((m) => m.subject.replace(' (Notice Carrier)', '').replace(`Load ${load.number} (PO-9) `, ''));
const etaHooks = async () =>
  (await sql<{ body: string }>(`select body from webhook_events where organization_id = '${orgId}' and type = 'load.eta_changed' order by created_at`)).map(
    (r) => JSON.parse(r.body) as { data: Record<string, unknown> },
  );

async function stopEvent(i: number, event: 'ARRIVE' | 'DEPART', when: number) {
  const res = await app.inject({
    method: 'POST',
    url: api(`/loads/${load.id}/stops/${load.stops[i]!.id}/status`),
    headers: admin,
    payload: { event, at: at(when) },
  });
  expect(res.statusCode, res.body).toBe(200);
}
const setEta = (ms: number) =>
  app.db
    .update(loadStops)
    .set({ eta: new Date(ms) })
    .where(eq(loadStops.id, load.stops[1]!.id));

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  const owner = await registerOrganization(t.app, 'Notice Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const truck = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ntc-1', unitNumber: 'N-1' });
  const res = await t.app.inject({
    method: 'POST',
    url: api('/loads'),
    headers: admin,
    payload: {
      customer: 'Acme Foods',
      poNumber: 'PO-9',
      rate: { lineHaul: 900 },
      driverIds: [truck.driverId],
      assetId: truck.assetId,
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(NOW - 2 * H), windowEnd: at(NOW - H), serviceMinutes: 30 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(NOW + H), windowEnd: at(NOW + 2 * H), serviceMinutes: 30 },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  load = loadSchema.parse(res.json());
  const put = await t.app.inject({
    method: 'PUT',
    url: api(`/loads/${load.id}/contacts`),
    headers: admin,
    payload: {
      contacts: [
        { role: 'CONSIGNEE', name: 'Cora Consignee', email: 'cora@consignee.test', notices: ['LINK', 'ARRIVING', 'ARRIVED', 'DELIVERED', 'LATE'] },
        { role: 'BROKER', name: 'Bo Broker', email: 'bo@broker.test', notices: ['DELIVERED'] },
        { role: 'SHIPPER', name: 'Sid Shipper', email: 'sid@shipper.test', notices: ['LINK', 'LATE'] },
      ],
    },
  });
  expect(put.statusCode, put.body).toBe(200);
  await sql(`insert into webhook_organizations (organization_id) values ('${orgId}') on conflict do nothing`);
  await sql(
    `insert into webhook_subscriptions (organization_id, url, events, secret) values ('${orgId}', 'http://127.0.0.1:9/hooks', '{load.eta_changed}', 'whsec_${Buffer.alloc(32, 7).toString('base64')}')`,
  );
});
afterAll(async () => {
  if (app !== t?.app) await app?.close();
  await t?.close();
});

/** A new organization with a load whose first stop was left 10 minutes ago and one contact who chose the link. */
const started = async (name: string, email: string) => {
  const o = await registerOrganization(app, name);
  const id = o.user.organization!.id;
  const headers = bearer(o.accessToken);
  const v = await createTestVehicle(app.db, id, { uniqueId: `ntc-${name}`, unitNumber: 'X-1' });
  const made = await app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${id}/loads`,
    headers,
    payload: {
      customer: 'Acme Foods',
      rate: { lineHaul: 900 },
      driverIds: [v.driverId],
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(NOW - 2 * H), windowEnd: at(NOW - H), serviceMinutes: 30 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(NOW + H), windowEnd: at(NOW + 2 * H), serviceMinutes: 30 },
      ],
    },
  });
  const l = loadSchema.parse(made.json());
  const put = await app.inject({
    method: 'PUT',
    url: `/api/v1/organizations/${id}/loads/${l.id}/contacts`,
    headers,
    payload: { contacts: [{ role: 'BROKER', name: 'B', email, notices: ['LINK'] }] },
  });
  expect(put.statusCode, put.body).toBe(200);
  for (const [event, when] of [
    ['ARRIVE', NOW - 20 * MIN],
    ['DEPART', NOW - 10 * MIN],
  ] as const) {
    const r = await app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${id}/loads/${l.id}/stops/${l.stops[0]!.id}/status`,
      headers,
      payload: { event, at: at(when) },
    });
    expect(r.statusCode, r.body).toBe(200);
  }
  return { id, headers, load: l };
};

describe('load notices', () => {
  it('tells nothing before the load starts', async () => {
    const r = await pass(NOW);
    expect(r.sent).toBe(0);
    expect(readOutbox(t.dataDir)).toEqual([]);
  });

  it('sends the link at the start, the arrival, and "arriving" an hour out, once each', async () => {
    await stopEvent(0, 'ARRIVE', NOW - 50 * MIN);
    await stopEvent(0, 'DEPART', NOW - 30 * MIN);
    await setEta(NOW + 75 * MIN);
    let r = await pass(NOW);
    expect(r).toMatchObject({ sent: 3, failed: 0 });
    expect(subjects('cora@consignee.test').sort()).toEqual(['arrived at pick-up 1', 'is on its way']);
    expect(subjects('sid@shipper.test')).toEqual(['is on its way']);
    expect(mails('bo@broker.test')).toEqual([]);
    // The e-mail links to the tracking page and unsubscribes in one click (RFC 8058).
    const link = mails('sid@shipper.test')[0]! as unknown as { text: string; headers: Record<string, string> };
    expect(link.text).toMatch(/http:\/\/fleet\.test\/track\/[A-Za-z0-9_-]{43}/);
    expect(link.headers['List-Unsubscribe']).toMatch(/^<http:\/\/fleet\.test\/api\/v1\/public\/unsubscribe\/[A-Za-z0-9_-]{43}>$/);
    expect(link.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const token = link.text.match(/\/track\/([A-Za-z0-9_-]{43})/)![1]!;
    const page = await app.inject({ method: 'GET', url: `/api/v1/public/tracking/${token}`, remoteAddress: '10.71.0.1' });
    expect(page.statusCode, page.body).toBe(200);

    // 15 minutes on, the ETA an hour out: "arriving" once.
    r = await pass(NOW + 15 * MIN);
    expect(r.sent).toBe(1);
    expect(subjects('cora@consignee.test')).toContain('arrives in about 1 hour');
    r = await pass(NOW + 16 * MIN);
    expect(r.sent).toBe(0);
    expect(readOutbox(t.dataDir)).toHaveLength(4);

    const contacts = loadContactListSchema.parse((await app.inject({ method: 'GET', url: api(`/loads/${load.id}/contacts`), headers: admin })).json()).items;
    expect(contacts[0]!.sent.map((s) => [s.kind, s.stopSeq]).sort()).toEqual([
      ['ARRIVED', 0],
      ['ARRIVING', 1],
      ['LINK', null],
    ]);
    // The link the notices send is listed among the load's, once.
    const links = (await app.inject({ method: 'GET', url: api(`/loads/${load.id}/share-links`), headers: admin })).json().items as Array<{ label: string }>;
    expect(links.filter((l) => l.label === 'E-mail notices')).toHaveLength(1);
  });

  it('sends nothing again after a restart of the app on the same database', async () => {
    await t.app.close();
    app = await buildApp({ config: t.config, database: t.database });
    await app.ready();
    const r = await pass(NOW + 17 * MIN);
    expect(r.sent, JSON.stringify(readOutbox(t.dataDir).slice(4))).toBe(0);
    expect(r.taken).toBeGreaterThanOrEqual(4);
    expect(readOutbox(t.dataDir)).toHaveLength(4);
  });

  it('unsubscribes in one click: the GET shows a button and changes nothing, the POST stops the notices', async () => {
    const text = mails('sid@shipper.test')[0]!.text;
    const url = text.match(/http:\/\/fleet\.test(\/api\/v1\/public\/unsubscribe\/[A-Za-z0-9_-]{43})/)![1]!;
    const look = await app.inject({ method: 'GET', url, remoteAddress: '10.71.0.2' });
    expect(look.statusCode).toBe(200);
    expect(look.headers['content-type']).toMatch(/^text\/html/);
    expect(look.body).toContain(`<form method="post" action="${url}">`);
    const before = loadContactListSchema.parse((await app.inject({ method: 'GET', url: api(`/loads/${load.id}/contacts`), headers: admin })).json()).items;
    expect(before.find((c) => c.email === 'sid@shipper.test')!.unsubscribedAt).toBeNull();

    const click = await app.inject({
      method: 'POST',
      url,
      remoteAddress: '10.71.0.2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode, click.body).toBe(200);
    const after = loadContactListSchema.parse((await app.inject({ method: 'GET', url: api(`/loads/${load.id}/contacts`), headers: admin })).json()).items;
    expect(after.find((c) => c.email === 'sid@shipper.test')!.unsubscribedAt).not.toBeNull();
    // A token that names no one answers the same page.
    const unknown = await app.inject({ method: 'POST', url: `/api/v1/public/unsubscribe/${'C'.repeat(43)}`, remoteAddress: '10.71.0.2' });
    expect(unknown.statusCode).toBe(200);
  });

  it('tells "running late" once, again at each further hour, and load.eta_changed only on moves of more than 15 minutes', async () => {
    expect(await etaHooks()).toEqual([]);
    // 10 minutes after the window's end: late; the ETA moved 55 minutes.
    await setEta(NOW + 2 * H + 10 * MIN);
    let r = await pass(NOW + 20 * MIN);
    expect(r).toMatchObject({ sent: 1, etaChanges: 1 });
    expect(subjects('cora@consignee.test')).toContain('is running late');
    // The shipper chose LATE too, but unsubscribed.
    expect(subjects('sid@shipper.test')).toEqual(['is on its way']);
    const [first] = await etaHooks();
    expect(first!.data).toMatchObject({
      loadId: load.id,
      loadNumber: load.number,
      stopId: load.stops[1]!.id,
      seq: 1,
      kind: 'DELIVERY',
      previousEta: at(NOW + 75 * MIN),
      eta: at(NOW + 2 * H + 10 * MIN),
      changeMinutes: 55,
      late: true,
    });

    // 10 more minutes: no webhook, still the same hour late: no notice.
    await setEta(NOW + 2 * H + 20 * MIN);
    r = await pass(NOW + 21 * MIN);
    expect(r).toMatchObject({ sent: 0, etaChanges: 0 });
    // Another 65 minutes (75 from the last announced): both again.
    await setEta(NOW + 3 * H + 25 * MIN);
    r = await pass(NOW + 22 * MIN);
    expect(r).toMatchObject({ sent: 1, etaChanges: 1 });
    expect(subjects('cora@consignee.test').filter((s) => s === 'is running late')).toHaveLength(2);
    expect((await etaHooks()).map((h) => h.data.changeMinutes)).toEqual([55, 75]);
    r = await pass(NOW + 23 * MIN);
    expect(r).toMatchObject({ sent: 0, etaChanges: 0 });
  });

  it('tells the arrival and the delivery once to each contact who chose them', async () => {
    await stopEvent(1, 'ARRIVE', NOW - 2 * MIN);
    await stopEvent(1, 'DEPART', NOW - MIN);
    let r = await pass(NOW);
    expect(r.sent).toBe(3);
    expect(subjects('cora@consignee.test')).toEqual(expect.arrayContaining(['arrived at delivery 2', 'was delivered']));
    expect(subjects('bo@broker.test')).toEqual(['was delivered']);
    r = await pass(NOW + MIN);
    expect(r.sent).toBe(0);
    const all = readOutbox(t.dataDir).map((m) => `${m.to} ${m.subject}`);
    expect(new Set(all).size + 1).toBe(all.length); // only "running late" went twice, at two hours
  });

  it('records a send that fails as FAILED, sends it no more, and goes on with the other organizations', async () => {
    const failing = await started('Failing Mail Carrier', 'bounce@failing.test');
    const fine = await started('Fine Mail Carrier', 'ok@fine.test');
    const sent: string[] = [];
    const mailer = {
      send: async (m: { to: string }) => {
        if (m.to === 'bounce@failing.test') throw new Error('550 mailbox unavailable');
        sent.push(m.to);
      },
      sendRaw: async () => undefined,
    };
    const deps = { db: app.db, mailer, publicUrl: app.config.publicUrl, key: trackingKey(app.apiTokenKey) };
    let r = await runLoadNotices(deps, NOW);
    expect(r).toMatchObject({ failed: 1, failedOrganizations: 0 });
    expect(sent).toContain('ok@fine.test');
    r = await runLoadNotices(deps, NOW + MIN);
    expect(r).toMatchObject({ sent: 0, failed: 0 });
    const rows = await sql<{ status: string; error: string }>(`select status, error from load_notices where organization_id = '${failing.id}'`);
    expect(rows).toEqual([{ status: 'FAILED', error: '550 mailbox unavailable' }]);
    // Nothing was marked sent for the contact: the list says so.
    const contacts = loadContactListSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/v1/organizations/${failing.id}/loads/${failing.load.id}/contacts`, headers: failing.headers })).json(),
    ).items;
    expect(contacts[0]!.sent).toEqual([]);
    expect(fine.load.id).toBeTruthy();
  });
});

describe('a rotated server secret', () => {
  it('e-mails a link and an unsubscribe that work under the new key', async () => {
    const org = await started('Rotated Key Carrier', 'rotated@key.test');
    const outbox: Array<{ to: string; text: string }> = [];
    const mailer = { send: async (m: { to: string; text: string }) => void outbox.push(m), sendRaw: async () => undefined };
    const pass = (key: Buffer) => runLoadNotices({ db: app.db, mailer, publicUrl: app.config.publicUrl, key }, NOW);
    // The contacts were saved under the app's key; the pass runs under another (JWT_SECRET changed).
    expect((await pass(trackingKey(Buffer.alloc(32, 9)))).sent).toBe(1);
    const text = outbox[0]!.text;
    const track = text.match(/\/track\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await app.inject({ method: 'GET', url: `/api/v1/public/tracking/${track}`, remoteAddress: '10.71.1.1' })).statusCode).toBe(200);
    const unsubscribe = text.match(/http:\/\/fleet\.test(\/api\/v1\/public\/unsubscribe\/[A-Za-z0-9_-]{43})/)![1]!;
    expect((await app.inject({ method: 'POST', url: unsubscribe, remoteAddress: '10.71.1.1' })).statusCode).toBe(200);
    const contacts = loadContactListSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/v1/organizations/${org.id}/loads/${org.load.id}/contacts`, headers: org.headers })).json(),
    ).items;
    expect(contacts[0]!.unsubscribedAt).not.toBeNull();
  });
});

describe('the API document', () => {
  it('has the tracking routes and load.eta_changed with an example its schema takes; the public routes take no credential', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { example: { type: string } }> } } }>;
    };
    for (const path of [
      '/api/v1/organizations/{orgId}/loads/{loadId}/share-links',
      '/api/v1/organizations/{orgId}/loads/{loadId}/share-links/{linkId}',
      '/api/v1/organizations/{orgId}/assets/{assetId}/share-links',
      '/api/v1/organizations/{orgId}/share-links/{linkId}',
      '/api/v1/organizations/{orgId}/loads/{loadId}/contacts',
    ])
      for (const op of Object.values(doc.paths[path] ?? {})) expect(op.security, path).toEqual([{ bearer: [] }, { apiToken: [] }]);
    expect(doc.paths['/api/v1/public/tracking/{token}']?.get?.security).toEqual([]);
    expect(doc.paths['/api/v1/public/unsubscribe/{token}']?.post?.security).toEqual([]);
    expect(doc.webhooks['load.eta_changed']!.post.requestBody.content['application/json']!.example.type).toBe('load.eta_changed');
    expect(WEBHOOK_DATA_SCHEMAS['load.eta_changed'].safeParse(WEBHOOK_EVENT_INFO['load.eta_changed'].example).success).toBe(true);
  });
});
