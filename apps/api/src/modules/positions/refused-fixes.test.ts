import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { refusedFixPageSchema, type RefusedFix as ListedFix } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { RefusedFixes, type RefusedFix } from './refused-fixes.ts';
import { GPS_WEEK_ROLLOVER_MS } from './refused-fixes-hint.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;
const H = 60 * MIN;
const YEAR = 365.25 * 24 * H;
const DAY = 24 * H;
/**
 * Now, unless a UTC midnight is within 10 minutes: then 00:10 after it. A device's clock notice is
 * keyed by the UTC day its fixes arrived, so a test whose received times straddle midnight raised
 * two notices (a run at 00:00 UTC failed so).
 */
function clearOfMidnight(ms = Date.now()): number {
  const into = ms % DAY;
  if (into >= 10 * MIN && into <= DAY - 10 * MIN) return ms;
  return ms - into + (into < 10 * MIN ? 0 : DAY) + 10 * MIN;
}
const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}`;
let n = 0;
async function device(
  over: Record<string, unknown> = {},
  orgId = a.orgId,
  headers = a.admin,
): Promise<{ id: string; uniqueId: string; name: string; useReceivedTime: boolean; ingestToken: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `${base(orgId)}/gateways`,
    headers,
    payload: { uniqueId: `clock-${Date.now()}-${++n}`, name: `Clock tracker ${n}`, ...over },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}
/** A recorder that writes only when told (no timers), with its failures collected. */
const recorder = (opts: ConstructorParameters<typeof RefusedFixes>[1] = {}) => {
  const errors: string[] = [];
  const r = new RefusedFixes(t.database.db, { flushMs: 60_000, purgeEveryMs: 0, onError: (_err, what) => errors.push(what), ...opts });
  return { r, errors };
};
const refusal = (gatewayId: string, receivedAt: Date, fixTime: Date | null, reason: RefusedFix['reason'], over: Partial<RefusedFix> = {}): RefusedFix => ({
  organizationId: a.orgId,
  gatewayId,
  protocol: 'osmand',
  receivedAt,
  fixTime,
  reason,
  message: `${reason} fix`,
  field: 'timestamp',
  ...over,
});
const stored = async (gatewayId: string) =>
  rowsOf<{ rows: number; fixes: number }>(
    await t.database.db.execute(sql`select count(*)::int as rows, coalesce(sum(count), 0)::int as fixes from refused_fixes where gateway_id = ${gatewayId}`),
  )[0]!;
const listed = async (gatewayId: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `${base()}/gateways/${gatewayId}/refused-fixes${query}`, headers: a.dispatcher });
  expect(res.statusCode).toBe(200);
  return refusedFixPageSchema.parse(res.json());
};
const clockNotices = async (gatewayId: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${base()}/notifications?size=100&kind=DEVICE_CLOCK`, headers: a.admin });
  expect(res.statusCode).toBe(200);
  return (res.json().content as Array<{ title: string; expandedContent: string; expandedButton: { href: string } | null }>).filter((x) =>
    x.expandedButton?.href.endsWith(gatewayId),
  );
};

describe('refused fixes', () => {
  it('folds a flood of refusals into one row per device, reason and minute, written in the background', async () => {
    const g = await device();
    const { r, errors } = recorder();
    const start = Math.floor((Date.now() - 30 * MIN) / MIN) * MIN;
    // A tracker two years behind, refused 3,000 times over three minutes, in two flushes.
    for (let i = 0; i < 3000; i++) {
      const at = new Date(start + i * 60);
      r.note(refusal(g.id, at, new Date(at.getTime() - 2 * YEAR), 'tooOld'));
      if (i === 1500) await r.flush();
    }
    await r.flush();
    expect(await stored(g.id)).toEqual({ rows: 3, fixes: 3000 });
    expect(r.stats).toMatchObject({ noted: 3000, dropped: 0, failed: 0 });
    // The newest one's times are kept: the list's row of the last minute shows its last fix.
    const page = await listed(g.id);
    expect(page.totalElements).toBe(3);
    expect(page.content[0]).toMatchObject({ receivedAt: new Date(start + 2999 * 60).toISOString(), count: 1000, reason: 'tooOld', protocol: 'osmand' });
    expect(page.content.map((x) => x.count).sort()).toEqual([1000, 1000, 1000]);
    expect(errors).toEqual([]);
    await r.close();
  });

  it('lists the last day newest first with the clock offset and a hint per reason, paged; 404 for another organization', async () => {
    const g = await device();
    const { r } = recorder();
    const at = (minAgo: number) => new Date(Math.floor(Date.now() / MIN) * MIN - minAgo * MIN);
    r.note(refusal(g.id, at(50), new Date(at(50).getTime() - 2 * YEAR), 'tooOld'));
    r.note(refusal(g.id, at(40), new Date(at(40).getTime() - GPS_WEEK_ROLLOVER_MS + 3 * H), 'tooOld'));
    r.note(refusal(g.id, at(30), new Date(at(30).getTime() + 2 * H), 'inFuture'));
    r.note(refusal(g.id, at(20), at(20), 'speed', { field: 'speed', message: 'speed -5 must be a number of 0 or more' }));
    r.note(refusal(g.id, at(10), null, 'badTime'));
    // Older than a day: not listed, even before the purge removes it.
    r.note(refusal(g.id, at(25 * 60), new Date(at(25 * 60).getTime() + 2 * H), 'inFuture'));
    await r.close();

    const page = await listed(g.id);
    expect(page.totalElements).toBe(5);
    const [badTime, speed, fast, rollover, behind] = page.content as [ListedFix, ListedFix, ListedFix, ListedFix, ListedFix];
    expect(badTime).toMatchObject({ reason: 'badTime', fixTime: null, offsetMs: null, offset: null, hint: expect.stringContaining('not a time') });
    expect(speed).toMatchObject({
      reason: 'speed',
      field: 'speed',
      offsetMs: 0,
      offset: null,
      hint: expect.stringContaining('impossible speed'),
      message: 'speed -5 must be a number of 0 or more',
    });
    expect(fast).toMatchObject({
      reason: 'inFuture',
      offsetMs: 2 * H,
      offset: '2 hours fast',
      hint: expect.stringContaining("clock 2 hours fast: check the phone's or tracker's time zone / time setting"),
    });
    expect(fast.hint).toContain("'use the time received'");
    expect(rollover).toMatchObject({
      offset: '19.6 years behind',
      hint: expect.stringContaining("check the tracker's GPS week-number setting (week rollover)"),
    });
    expect(behind).toMatchObject({ offset: '2 years behind', hint: expect.stringContaining("clock 2 years behind: check the tracker's GPS week setting") });
    expect(behind.fixTime).toBe(new Date(new Date(behind.receivedAt).getTime() - 2 * YEAR).toISOString());

    const second = await listed(g.id, '?page=1&size=2');
    expect(second).toMatchObject({ page: 1, size: 2, totalElements: 5, totalPages: 3 });
    expect(second.content.map((x) => x.reason)).toEqual(['inFuture', 'tooOld']);
    expect((await listed(g.id, '?sort=reason,asc')).content.map((x) => x.reason)).toEqual(['badTime', 'inFuture', 'speed', 'tooOld', 'tooOld']);
    const badSort = await t.app.inject({ method: 'GET', url: `${base()}/gateways/${g.id}/refused-fixes?sort=message,asc`, headers: a.admin });
    expectFieldErrors(badSort.json(), 400, { sort: 'sort must be one of receivedAt, reason, count' });

    // Another organization's device, through this organization, and this device through another.
    const theirs = await device({}, a.otherOrgId, a.other);
    expectErrorBody((await t.app.inject({ method: 'GET', url: `${base()}/gateways/${theirs.id}/refused-fixes`, headers: a.admin })).json(), 404);
    expectErrorBody((await t.app.inject({ method: 'GET', url: `${base(a.otherOrgId)}/gateways/${g.id}/refused-fixes`, headers: a.other })).json(), 404);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/gateways/${g.id}/refused-fixes` })).statusCode).toBe(401);
  });

  it('purges rows older than a day', async () => {
    const g = await device();
    const { r } = recorder();
    const now = Date.now();
    r.note(refusal(g.id, new Date(now - 25 * H), new Date(now - 25 * H - 2 * YEAR), 'tooOld'));
    r.note(refusal(g.id, new Date(now - 23 * H), new Date(now - 23 * H - 2 * YEAR), 'tooOld'));
    await r.flush();
    expect(await stored(g.id)).toEqual({ rows: 2, fixes: 2 });
    await r.purge();
    expect(await stored(g.id)).toEqual({ rows: 1, fixes: 1 });
    await r.close();
  });

  it('never throws at ingest: a failed write is reported and counted, a full memory drops and counts', async () => {
    const g = await device();
    const { r, errors } = recorder({ maxPending: 2 });
    const at = new Date();
    // An organization that does not exist fails the statement (its foreign key).
    expect(() => r.note(refusal(g.id, at, at, 'speed', { organizationId: '00000000-0000-4000-8000-000000000000' }))).not.toThrow();
    r.note(refusal(g.id, at, at, 'course', { message: 'NUL \u0000 and a lone \ud800 surrogate' }));
    r.note(refusal(g.id, at, at, 'altitude'));
    expect(r.stats.dropped).toBe(1);
    await r.flush();
    expect(errors).toEqual(['refused fixes write']);
    // Only the failing organization's row is lost: the write is tried again per organization.
    expect(r.stats.failed).toBe(1);
    // The next flush writes again, device text made storable.
    r.note(refusal(g.id, at, at, 'course', { message: 'NUL \u0000 and a lone \ud800 surrogate' }));
    await r.close();
    expect((await listed(g.id)).content).toEqual([expect.objectContaining({ reason: 'course', message: 'NUL \ufffd and a lone \ufffd surrogate' })]);
  });

  it('flags a device refused for its time in notifications once a day, with the hint and a link to its page', async () => {
    const g = await device();
    const other = recorder();
    const { r } = recorder();
    const now = clearOfMidnight();
    for (let i = 0; i < 50; i++) r.note(refusal(g.id, new Date(now - i * 1000), new Date(now - i * 1000 + 2 * H), 'inFuture'));
    await r.flush();
    for (let i = 0; i < 50; i++) r.note(refusal(g.id, new Date(now + i), new Date(now + i + 2 * H), 'inFuture'));
    await r.flush();
    // Another instance (or a restart) does not notify it again that day.
    other.r.note(refusal(g.id, new Date(now), new Date(now + 2 * H), 'inFuture'));
    await other.r.close();
    await r.close();
    const notices = await clockNotices(g.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      title: `Device ${g.name}: clock 2 hours fast`,
      expandedButton: { href: `/settings/organization-settings/devices/${g.id}` },
    });
    expect(notices[0]!.expandedContent).toContain("check the phone's or tracker's time zone / time setting");
    expect(r.stats.notices + other.r.stats.notices).toBe(1);
    // A refusal that is not about time flags nothing, nor an imported history file's old fixes.
    const h = await device();
    const s = recorder();
    s.r.note(refusal(h.id, new Date(), new Date(), 'speed'));
    s.r.note(refusal(h.id, new Date(), new Date(Date.now() - 2 * YEAR), 'tooOld', { protocol: 'import' }));
    await s.r.close();
    expect(await stored(h.id)).toEqual({ rows: 2, fixes: 2 });
    expect(await clockNotices(h.id)).toEqual([]);
  });

  it('flags stored fixes that keep the same offset far from the time received, not a buffer being emptied', async () => {
    const slow = await device();
    const buffered = await device();
    const { r } = recorder();
    const now = clearOfMidnight();
    // A clock 2 hours slow, reporting every 90 s for 6 minutes.
    for (let i = 0; i < 5; i++)
      r.observe({ organizationId: a.orgId, gatewayId: slow.id, receivedAt: new Date(now + i * 90_000), fixTime: new Date(now + i * 90_000 - 2 * H) });
    // A tracker emptying 3 hours of buffer over 6 minutes: its offsets shrink by 30 minutes a minute.
    for (let i = 0; i < 12; i++) {
      const received = now + i * 30_000;
      r.observe({ organizationId: a.orgId, gatewayId: buffered.id, receivedAt: new Date(received), fixTime: new Date(received - 3 * H + i * 15 * MIN) });
    }
    await r.close();
    const notices = await clockNotices(slow.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: `Device ${slow.name}: clock 2 hours behind` });
    expect(notices[0]!.expandedContent).toContain('stored at the device');
    expect(await clockNotices(buffered.id)).toEqual([]);
  });
});

describe('use the time received', () => {
  it('round-trips through the device contract and reaches ingest at once on an edit', async () => {
    const g = await device({ useReceivedTime: true });
    expect(g.useReceivedTime).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/gateways/${g.id}`, headers: a.dispatcher })).json()).toMatchObject({ useReceivedTime: true });
    expect(await t.app.ingest.directory.byUniqueId(g.uniqueId)).toMatchObject({ id: g.id, useReceivedTime: true });
    // Left out of an edit: unchanged.
    const kept = await t.app.inject({ method: 'PUT', url: `${base()}/gateways/${g.id}`, headers: a.admin, payload: { uniqueId: g.uniqueId, name: g.name } });
    expect(kept.json()).toMatchObject({ useReceivedTime: true });
    const off = await t.app.inject({
      method: 'PUT',
      url: `${base()}/gateways/${g.id}`,
      headers: a.admin,
      payload: { uniqueId: g.uniqueId, name: g.name, useReceivedTime: false },
    });
    expect(off.json()).toMatchObject({ useReceivedTime: false });
    expect(await t.app.ingest.directory.byUniqueId(g.uniqueId)).toMatchObject({ useReceivedTime: false });
    expect((await device()).useReceivedTime).toBe(false);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `${base()}/gateways/${g.id}`,
      headers: a.admin,
      payload: { uniqueId: g.uniqueId, name: g.name, useReceivedTime: 'yes' },
    });
    expectFieldErrors(bad.json(), 400, { useReceivedTime: 'Use the time received must be true or false' });
  });
});

describe('one organization refused for a time the database cannot hold', () => {
  const osmand = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/ingest/osmand?${query}` });
  const listedIn = async (orgId: string, headers: Record<string, string>, gatewayId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${base(orgId)}/gateways/${gatewayId}/refused-fixes`, headers });
    expect(res.statusCode).toBe(200);
    return refusedFixPageSchema.parse(res.json()).content;
  };

  it.each([
    ['year 0000', '0000-06-01T00:00:00Z', '0000-06-01T00:00:00.000Z'],
    ['year +10000', '+010000-01-01T00:00:00Z', '+010000-01-01T00:00:00.000Z'],
  ])("a fix dated %s is refused as badTime with its time as text, and loses no other organization's refusals", async (_what, sent, text) => {
    const ours = [await device(), await device(), await device()];
    const theirs = await device({}, a.otherOrgId, a.other);
    const now = Math.floor(Date.now() / 1000);
    await t.app.ingest.refusedFixes?.flush();
    // Three refusals here and the impossible date there, in one flush.
    for (const [i, g] of ours.entries()) expect((await osmand(`id=${g.uniqueId}&timestamp=${now - 60}&lat=60&lon=30&speed=-${i + 1}`)).statusCode).toBe(200);
    expect((await osmand(`id=${theirs.uniqueId}&timestamp=${encodeURIComponent(sent)}&lat=60&lon=30`)).statusCode).toBe(200);
    await t.app.ingest.refusedFixes?.flush();
    const lists = await Promise.all(ours.map((g) => listedIn(a.orgId, a.dispatcher, g.id)));
    expect(lists.filter((l) => l.length === 1 && l[0]!.reason === 'speed')).toHaveLength(3);
    const [bad] = await listedIn(a.otherOrgId, a.other, theirs.id);
    expect(bad).toMatchObject({
      reason: 'badTime',
      field: 'timestamp',
      fixTime: null,
      fixTimeText: text,
      offsetMs: null,
      message: expect.stringContaining('years 1900 to 9999'),
    });
  });

  it("a write one organization's row fails is tried again per organization: the others' rows are all written", async () => {
    const ours = [await device(), await device(), await device()];
    const theirs = await device({}, a.otherOrgId, a.other);
    const { r, errors } = recorder();
    const at = new Date();
    for (const g of ours) r.note(refusal(g.id, at, at, 'speed'));
    r.note(refusal(theirs.id, at, at, 'course', { organizationId: a.otherOrgId }));
    // An organization deleted while its refusal waited in memory: its row fails the statement (foreign key).
    r.note(refusal(theirs.id, at, at, 'altitude', { organizationId: '00000000-0000-4000-8000-000000000000' }));
    await r.close();
    const lists = await Promise.all(ours.map((g) => listedIn(a.orgId, a.dispatcher, g.id)));
    expect(lists.filter((l) => l.length === 1 && l[0]!.reason === 'speed')).toHaveLength(3);
    expect((await listedIn(a.otherOrgId, a.other, theirs.id)).map((x) => x.reason)).toEqual(['course']);
    expect(r.stats).toMatchObject({ noted: 5, written: 4, failed: 1 });
    expect(errors).toEqual(['refused fixes write']);
  });

  it('the batch and OsmAnd JSON keep a time that is not one as text; a stored time has none', async () => {
    const g = await device();
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/osmand',
      headers: { 'content-type': 'application/json' },
      payload: { device_id: g.uniqueId, location: { timestamp: 'last tuesday', coords: { latitude: 60, longitude: 30 } } },
    });
    expect(json.statusCode).toBe(200);
    await t.app.ingest.refusedFixes?.flush();
    expect((await listedIn(a.orgId, a.dispatcher, g.id))[0]).toMatchObject({ reason: 'badTime', fixTime: null, fixTimeText: 'last tuesday' });
    const b = await device();
    const batch = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: { authorization: `Bearer ${b.ingestToken}` },
      payload: {
        positions: [
          { fixTime: '0000-01-01T00:00:00Z', latitude: 60, longitude: 30 },
          { fixTime: 'soon', latitude: 60, longitude: 30 },
        ],
      },
    });
    expect(batch.json()).toMatchObject({ accepted: 0, rejected: [{ index: 0, message: expect.stringContaining('fixTime') }, { index: 1 }] });
    await t.app.ingest.refusedFixes?.flush();
    // One row a device, reason and minute: the newest one's time is the one kept.
    expect((await listedIn(a.orgId, a.dispatcher, b.id))[0]).toMatchObject({ reason: 'badTime', count: 2, fixTime: null, fixTimeText: 'soon' });
    const h = await device();
    const old = new Date(Date.now() - 2 * YEAR);
    await osmand(`id=${h.uniqueId}&timestamp=${Math.floor(old.getTime() / 1000)}&lat=60&lon=30`);
    await t.app.ingest.refusedFixes?.flush();
    expect((await listedIn(a.orgId, a.dispatcher, h.id))[0]).toMatchObject({
      reason: 'tooOld',
      fixTime: new Date(Math.floor(old.getTime() / 1000) * 1000).toISOString(),
      fixTimeText: null,
    });
  });
});
