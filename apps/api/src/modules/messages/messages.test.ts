import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { conversationPageSchema, messagePageSchema, driverMessageSchema, MESSAGE_LATE_MAX_DAYS, type DriverMessage } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { invitedDriver, memberWithRole } from '../../test/members.ts';
import { openLiveStream } from '../../test/sse-client.ts';

// Messages between a driver and dispatch through HTTP on the real database (issue 44): the driver's
// reach (their own conversation only), the office's inbox, idempotent resends by clientId, read
// marks each way, photos, another organization's driver or load (404), and the live stream.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let dispatcher: Record<string, string>;
let viewer: Record<string, string>;
let driver: Awaited<ReturnType<typeof invitedDriver>>;
let second: Awaited<ReturnType<typeof invitedDriver>>;
let other: { orgId: string; headers: Record<string, string>; driverId: string; loadId: string };
let loadId: string;
const url = (path = '', org = orgId) => `/api/v1/organizations/${org}/messages${path}`;
const H = 3_600_000;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);
async function upload(headers: Record<string, string>, org = orgId) {
  const boundary = '----msgtest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: url('/images', org),
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
  });
}

function loadBody(driverIds: string[]) {
  const now = Date.now();
  return {
    customer: 'Acme Foods',
    stops: [
      {
        kind: 'PICKUP',
        latitude: 39.1,
        longitude: -94.58,
        windowStart: new Date(now + H).toISOString(),
        windowEnd: new Date(now + 2 * H).toISOString(),
        serviceMinutes: 30,
      },
      {
        kind: 'DELIVERY',
        latitude: 38.63,
        longitude: -90.2,
        windowStart: new Date(now + 6 * H).toISOString(),
        windowEnd: new Date(now + 8 * H).toISOString(),
        serviceMinutes: 30,
      },
    ],
    rate: { lineHaul: 900, fuelSurcharge: 0, accessorials: [] },
    driverIds,
  };
}

async function send(headers: Record<string, string>, body: Record<string, unknown>, status = 201): Promise<DriverMessage> {
  const res = await t.app.inject({ method: 'POST', url: url(), headers, payload: body });
  expect(res.statusCode, res.body).toBe(status);
  return driverMessageSchema.parse(res.json());
}

async function list(headers: Record<string, string>, query = '') {
  const res = await t.app.inject({ method: 'GET', url: url(`?${query}`), headers });
  expect(res.statusCode, res.body).toBe(200);
  return messagePageSchema.parse(res.json());
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Messages Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  dispatcher = bearer((await memberWithRole(t.app, t.dataDir, owner, ['MESSAGE_LIST', 'MESSAGE_SEND', 'DRIVER_LIST'])).session.accessToken);
  viewer = bearer((await memberWithRole(t.app, t.dataDir, owner, ['MESSAGE_LIST'])).session.accessToken);
  driver = await invitedDriver(t.app, t.dataDir, orgId, admin);
  second = await invitedDriver(t.app, t.dataDir, orgId, admin);
  const load = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/loads`, headers: admin, payload: loadBody([driver.driver.id]) });
  expect(load.statusCode, load.body).toBe(201);
  loadId = load.json().id;
  const o = await registerOrganization(t.app, 'Other Messages Carrier');
  const oAdmin = bearer(o.accessToken);
  const oDriver = await invitedDriver(t.app, t.dataDir, o.user.organization!.id, oAdmin);
  const oLoad = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${o.user.organization!.id}/loads`,
    headers: oAdmin,
    payload: loadBody([oDriver.driver.id]),
  });
  other = { orgId: o.user.organization!.id, headers: oAdmin, driverId: oDriver.driver.id, loadId: oLoad.json().id };
});
afterAll(async () => {
  await t?.close();
});

describe('messages between a driver and dispatch', () => {
  it('a dispatcher writes about a load with a photo; the driver reads it and answers; each sees the other read mark', async () => {
    const photo = await upload(dispatcher);
    expect(photo.statusCode, photo.body).toBe(201);
    const toDriver = await send(dispatcher, { driverId: driver.driver.id, loadId, body: 'Dock 4 at the pick-up, please', imageIds: [photo.json().id] });
    expect(toDriver).toMatchObject({ side: 'OFFICE', driverId: driver.driver.id, loadId, readAt: null, body: 'Dock 4 at the pick-up, please' });
    expect(toDriver.loadRef).toMatch(/^L-\d+$/);
    expect(toDriver.imageUrls[0]).toMatch(/^\/api\/v1\/images\/[0-9a-f-]{36}\?exp=\d+&sig=/);
    // The signed link serves the photo without a token.
    const img = await t.app.inject({ method: 'GET', url: toDriver.imageUrls[0]! });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');

    // The driver's own conversation, without naming it; unread 1.
    const mine = await list(driver.headers);
    expect(mine.driverId).toBe(driver.driver.id);
    expect(mine.unread).toBe(1);
    expect(mine.content.map((m) => m.id)).toEqual([toDriver.id]);
    expect((await t.app.inject({ method: 'GET', url: url('/unread-count'), headers: driver.headers })).json()).toEqual({ unread: 1 });
    const read = await t.app.inject({
      method: 'POST',
      url: url('/read'),
      headers: driver.headers,
      payload: { driverId: driver.driver.id, upTo: toDriver.sentAt },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ updated: 1, unread: 0 });

    const answer = await send(driver.headers, { driverId: driver.driver.id, loadId, body: 'OK, there in 20' });
    expect(answer.side).toBe('DRIVER');
    expect(answer.sender?.id).toBeTruthy();
    // The office sees the driver read its message, and one unread from the driver.
    const office = await list(dispatcher, `driverId=${driver.driver.id}`);
    expect(office.content.map((m) => m.body)).toEqual(['OK, there in 20', 'Dock 4 at the pick-up, please']);
    expect(office.content[1]!.readAt).not.toBeNull();
    expect(office.unread).toBe(1);
    const inbox = conversationPageSchema.parse((await t.app.inject({ method: 'GET', url: url('/conversations'), headers: dispatcher })).json());
    expect(inbox.content[0]).toMatchObject({ driver: { id: driver.driver.id }, unread: 1, last: { id: answer.id } });
    expect(inbox.unread).toBe(1);
    // A viewer with MESSAGE_LIST alone reads and marks read, but cannot write.
    expect((await t.app.inject({ method: 'POST', url: url(), headers: viewer, payload: { driverId: driver.driver.id, body: 'hi' } })).statusCode).toBe(403);
    const officeRead = await t.app.inject({ method: 'POST', url: url('/read'), headers: viewer, payload: { driverId: driver.driver.id, upTo: answer.sentAt } });
    expect(officeRead.json()).toEqual({ updated: 1, unread: 0 });
    expect((await list(driver.headers)).content[0]!.readAt).not.toBeNull();
    // The load's part of the conversation.
    expect((await list(dispatcher, `loadId=${loadId}`)).content).toHaveLength(2);
  });

  it('a resend with the same clientId stores nothing new and answers the first message', async () => {
    const body = { driverId: driver.driver.id, body: 'Running late, traffic on I-70', clientId: 'phone-0001-abcdef' };
    const first = await send(driver.headers, body, 201);
    const again = await send(driver.headers, body, 200);
    expect(again.id).toBe(first.id);
    expect((await list(dispatcher, `driverId=${driver.driver.id}`)).content.filter((m) => m.body === body.body)).toHaveLength(1);
  });

  it("a driver reaches only their own conversation and loads; another organization's driver or load is a 404", async () => {
    expect((await t.app.inject({ method: 'POST', url: url(), headers: driver.headers, payload: { driverId: second.driver.id, body: 'hi' } })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: url(`?driverId=${second.driver.id}`), headers: driver.headers })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: url(), headers: second.headers, payload: { driverId: second.driver.id, loadId, body: 'not my load' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url('/conversations'), headers: driver.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: url(), headers: dispatcher, payload: { driverId: other.driverId, body: 'hi' } })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: url(), headers: dispatcher, payload: { driverId: driver.driver.id, loadId: other.loadId, body: 'hi' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: url('/read'), headers: dispatcher, payload: { driverId: other.driverId, upTo: new Date().toISOString() } }))
        .statusCode,
    ).toBe(404);
    // The other organization's photo is not ours to attach.
    const theirs = await upload(other.headers, other.orgId);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: dispatcher,
      payload: { driverId: driver.driver.id, body: 'look', imageIds: [theirs.json().id] },
    });
    expectFieldErrors(res.json(), 400, { 'imageIds.0': 'Photos must be images uploaded to this organization' });
    // And the other organization sees none of ours.
    const oInbox = conversationPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url('/conversations', other.orgId), headers: other.headers })).json(),
    );
    expect(oInbox.content).toEqual([]);
  });

  it('bad input is a 400 naming the field and stores nothing', async () => {
    const before = (await list(dispatcher, `driverId=${driver.driver.id}&size=100`)).content.length;
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ driverId: driver.driver.id, body: '   ' }, { body: 'Message is a required field' }],
      [{ driverId: driver.driver.id, body: 'x'.repeat(2001) }, { body: 'Message must be at most 2000 characters' }],
      [{ driverId: 'nope', body: 'hi' }, { driverId: 'Driver must be a driver id' }],
      [{ driverId: driver.driver.id, body: 'a\u0000b' }, {}],
      [{ driverId: driver.driver.id, body: 'hi', clientId: 'bad id!' }, { clientId: 'Client id must be 8 to 64 letters, digits, "-" or "_"' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await t.app.inject({ method: 'POST', url: url(), headers: dispatcher, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (Object.keys(fields).length) expectFieldErrors(res.json(), 400, fields);
      else expectErrorBody(res.json(), 400);
    }
    const badRead = await t.app.inject({
      method: 'POST',
      url: url('/read'),
      headers: dispatcher,
      payload: { driverId: driver.driver.id, upTo: '0050-01-01T00:00:00Z' },
    });
    expect(badRead.statusCode).toBe(400);
    expect((await list(dispatcher, `driverId=${driver.driver.id}&size=100`)).content.length).toBe(before);
  });

  it('a message a phone kept without signal is stored at the time it was written, once, and the office sees it arrived late', async () => {
    // Issue 66: written at 10:27:56, the signal back at 10:31:27: it shows at 10:27:56, before what
    // the office wrote meanwhile, and says when it reached the server.
    const writtenAt = new Date(Date.now() - 3.5 * 60_000).toISOString();
    const question = await send(dispatcher, { driverId: second.driver.id, body: 'Where are you now?' });
    const late = { driverId: second.driver.id, body: 'Leaving the yard, no signal here', clientId: 'phone-late-0001', recordedAt: writtenAt };
    const stored = await send(second.headers, late, 201);
    expect(stored.sentAt).toBe(writtenAt);
    expect(Date.parse(stored.receivedAt) - Date.parse(writtenAt)).toBeGreaterThanOrEqual(3.5 * 60_000 - 1_000);
    // The queue replayed (the answer was lost): the same message, stored once, at the same time.
    const again = await send(second.headers, late, 200);
    expect(again).toMatchObject({ id: stored.id, sentAt: writtenAt, receivedAt: stored.receivedAt });
    const office = await list(dispatcher, `driverId=${second.driver.id}&size=100`);
    expect(office.content.filter((m) => m.clientId === late.clientId)).toHaveLength(1);
    // Newest first: the office's question, then the driver's message written before it.
    const order = office.content.map((m) => m.id);
    expect(order.indexOf(question.id)).toBeLessThan(order.indexOf(stored.id));
    expect((await list(second.headers)).content.find((m) => m.id === stored.id)?.sentAt).toBe(writtenAt);
    // A message that arrives within a minute of being written is stored at the server's time (a
    // phone's clock a few seconds off must not put an answer before its question).
    const prompt = await send(second.headers, {
      driverId: second.driver.id,
      body: 'On my way',
      clientId: 'phone-late-0002',
      recordedAt: new Date(Date.now() - 20_000).toISOString(),
    });
    expect(prompt.sentAt).toBe(prompt.receivedAt);
    // And a clock a little ahead (under a minute) is taken as now.
    const ahead = await send(second.headers, {
      driverId: second.driver.id,
      body: 'Clock ahead',
      clientId: 'phone-late-0003',
      recordedAt: new Date(Date.now() + 30_000).toISOString(),
    });
    expect(ahead.sentAt).toBe(ahead.receivedAt);
  });

  it('a written time in the future, too old, or from the office is a 400 naming recordedAt and stores nothing', async () => {
    const before = (await list(dispatcher, `driverId=${driver.driver.id}&size=100`)).content.length;
    // With the code the phone words the refusal by in the driver's language (decision 0257).
    const cases: Array<[Record<string, string>, Record<string, unknown>, string, string, Record<string, unknown>?]> = [
      [
        driver.headers,
        { recordedAt: new Date(Date.now() + 5 * 60_000).toISOString() },
        "Recorded at cannot be in the future: check the phone's date and time",
        'sync.recorded_in_future',
      ],
      [
        driver.headers,
        { recordedAt: new Date(Date.now() - (MESSAGE_LATE_MAX_DAYS + 1) * 86_400_000).toISOString() },
        `Recorded at cannot be more than ${MESSAGE_LATE_MAX_DAYS} days ago: check the phone's date and time`,
        'sync.recorded_too_old',
        { days: MESSAGE_LATE_MAX_DAYS },
      ],
      [driver.headers, { recordedAt: 'yesterday' }, 'Recorded at must be an instant like 2026-06-01T06:00:00-05:00', 'validation.invalid_body'],
      [
        dispatcher,
        { recordedAt: new Date(Date.now() - 10 * 60_000).toISOString() },
        "Recorded at is for a driver's phone sending a message late: leave it out",
        'validation.invalid_field',
      ],
    ];
    for (const [headers, extra, words, code, params] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: url(),
        headers,
        payload: { driverId: driver.driver.id, body: 'Late?', clientId: `bad-late-${Math.random().toString(36).slice(2, 10)}`, ...extra },
      });
      expect(expectFieldErrors(res.json(), 400, { recordedAt: words }).code).toBe(code);
      expect((res.json() as { params?: unknown }).params).toEqual(params);
    }
    expect((await list(dispatcher, `driverId=${driver.driver.id}&size=100`)).content.length).toBe(before);
  });

  it('a resend of a message stored just inside the bound answers it after the bound has passed', async () => {
    const body = {
      driverId: second.driver.id,
      body: 'Written a month ago',
      clientId: 'phone-late-0004',
      recordedAt: new Date(Date.now() - MESSAGE_LATE_MAX_DAYS * 86_400_000 + 60_000).toISOString(),
    };
    const first = await send(second.headers, body, 201);
    expect(first.sentAt).toBe(body.recordedAt);
    // Two minutes on, the same record is older than the bound: it was taken, so it is answered, not refused.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 });
    try {
      const again = await send(second.headers, body, 200);
      expect(again.id).toBe(first.id);
      const fresh = await t.app.inject({ method: 'POST', url: url(), headers: second.headers, payload: { ...body, clientId: 'phone-late-0005' } });
      expect(fresh.statusCode).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  it('pages older messages with `before`', async () => {
    for (let i = 0; i < 5; i++) await send(dispatcher, { driverId: second.driver.id, body: `update ${i}` });
    const page1 = await list(dispatcher, `driverId=${second.driver.id}&size=2`);
    expect(page1.content.map((m) => m.body)).toEqual(['update 4', 'update 3']);
    expect(page1.nextBefore).toBe(page1.content[1]!.sentAt);
    const page2 = await list(dispatcher, `driverId=${second.driver.id}&size=2&before=${encodeURIComponent(page1.nextBefore!)}`);
    expect(page2.content.map((m) => m.body)).toEqual(['update 2', 'update 1']);
  });

  it('new messages and read marks reach the other side live, with a notification', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const open = (headers: Record<string, string>) =>
      openLiveStream(`http://127.0.0.1:${port}/api/v1/organizations/${orgId}/notifications/stream`, headers.authorization!.slice(7));
    const [officeStream, driverStream, secondStream] = await Promise.all([open(dispatcher), open(driver.headers), open(second.headers)]);
    await Promise.all([officeStream, driverStream, secondStream].map((s) => s.next((e) => e.event === 'unread')));
    const m = await send(dispatcher, { driverId: driver.driver.id, body: 'New pick-up time: 14:00' });
    const told = await driverStream.next((e) => e.event === 'conversation', 5_000);
    expect(told.data).toEqual({ driverId: driver.driver.id });
    const note = await driverStream.next((e) => e.event === 'notification', 5_000);
    expect((note.data as unknown as { notification: { title: string } }).notification.title).toMatch(/^Message from /);
    await officeStream.next((e) => e.event === 'conversation', 5_000);
    // The driver reads it: the office is told (the read mark), the other driver never hears of it.
    const before = officeStream.events.filter((e) => e.event === 'conversation').length;
    await t.app.inject({ method: 'POST', url: url('/read'), headers: driver.headers, payload: { driverId: driver.driver.id, upTo: m.sentAt } });
    await officeStream.next(() => officeStream.events.filter((e) => e.event === 'conversation').length > before, 5_000);
    // The time passing is the subject: nothing reaches the other driver meanwhile.
    await new Promise((r) => setTimeout(r, 300));
    expect(secondStream.events.filter((e) => e.event === 'conversation')).toHaveLength(0);
    for (const s of [officeStream, driverStream, secondStream]) s.close();
  });
});
