import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { NOTIFICATION_KINDS, notificationPageSchema, notificationPreferencesSchema, type NotificationKind } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, readOutbox, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';
import { openLiveStream } from '../../test/sse-client.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { notify } from './notifications.service.ts';
import { runRetentionPurge } from '../../jobs/retention-purge.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = (rest = '', orgId = a.orgId) => `/api/v1/organizations/${orgId}/notifications${rest}`;
const list = async (headers: Record<string, string>, query = '') =>
  notificationPageSchema.parse((await t.app.inject({ method: 'GET', url: url(`?size=100${query}`), headers })).json());
let seq = 0;
const fact = (kind: NotificationKind = 'DEVICE_OFFLINE', over: Record<string, unknown> = {}) => ({
  organizationId: a.orgId,
  kind,
  factKey: `test:${kind}:${++seq}:${Date.now()}`,
  title: `Test ${kind} ${seq}`,
  body: 'Details of the fact',
  link: '/fleet',
  linkLabel: 'Open',
  ...over,
});
const H = 3_600_000;

describe('notify', () => {
  it('fans a fact out once to the users who may receive its kind, in the spec fields', async () => {
    const f = fact('VIOLATION', { subject: { firstName: 'Maria', lastName: 'Lopez' } });
    expect(await notify(t.database.db, f)).toEqual({ created: true, recipients: expect.any(Number) });
    expect(await notify(t.database.db, f)).toEqual({ created: false, recipients: 0 });
    const page = await list(a.admin);
    const mine = page.content.filter((n) => n.title === f.title);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      kind: 'VIOLATION',
      category: 'HoS violation',
      type: 'alert',
      isExpanded: false,
      isClosable: true,
      expandedContent: 'Details of the fact',
      expandedButton: { label: 'Open', href: '/fleet' },
      user: { firstName: 'Maria', lastName: 'Lopez' },
      timeout: 0,
      showOnce: true,
      readAt: null,
    });
    // A user without VIO_LIST never hears of violations.
    const noVio = await userWithPermissions(t, a.orgId, ['GAT_LIST']);
    await notify(t.database.db, fact('VIOLATION'));
    expect((await list(noVio)).content.some((n) => n.kind === 'VIOLATION')).toBe(false);
    // Another organization's users never see it.
    const theirs = notificationPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?size=100', a.otherOrgId), headers: a.other })).json());
    expect(theirs.content.some((n) => n.title === f.title)).toBe(false);
  });

  it('sends a fact about a driver only to users of that driver’s groups (users in no group hear of everything)', async () => {
    const groups = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin })).json().content as Array<{
      id: string;
      name: string;
    }>;
    const west = groups.find((g) => g.name === 'West region')!;
    const d = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/drivers`, headers: a.admin, payload: driverBody() })).json();
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/groups/${west.id}/members`,
      headers: a.admin,
      payload: { members: [{ type: 'DRIVER', id: d.id }] },
    });
    // The demo dispatcher is a member of East region only.
    const f = fact('DRIVE_TIME_LOW', { about: { driverId: d.id } });
    await notify(t.database.db, f);
    expect((await list(a.dispatcher)).content.some((n) => n.title === f.title)).toBe(false);
    expect((await list(a.admin)).content.some((n) => n.title === f.title)).toBe(true);
  });

  it('takes every declared kind, including those issues 16 and 17 send after the merge', async () => {
    for (const kind of ['UNIDENTIFIED_DRIVING', 'EDIT_PROPOSAL_DECIDED', 'IMPORT_FINISHED'] as const) {
      const f = fact(kind);
      expect((await notify(t.database.db, f)).created).toBe(true);
      expect((await list(a.admin, `&kind=${kind}`)).content.map((n) => n.title)).toContain(f.title);
    }
    expect(NOTIFICATION_KINDS).toHaveLength(28);
    // Only the users named (an edit proposal's author).
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: a.dispatcher })).json();
    const f = fact('EDIT_PROPOSAL_DECIDED', { userIds: [me.id] });
    expect((await notify(t.database.db, f)).recipients).toBe(1);
    expect((await list(a.admin)).content.some((n) => n.title === f.title)).toBe(false);
  });
});

describe('notifications API', () => {
  it('lists with filters and paging, marks read, clears, and logs each change', async () => {
    const f1 = fact('DEVICE_OFFLINE');
    const f2 = fact('DEVICE_OFFLINE');
    await notify(t.database.db, f1);
    await notify(t.database.db, f2);
    const before = await list(a.admin, '&status=unread');
    expect(before.unread).toBe(before.totalElements);
    const n1 = before.content.find((n) => n.title === f1.title)!;
    const count = (await t.app.inject({ method: 'GET', url: url('/unread-count'), headers: a.admin })).json();
    expect(count.unread).toBe(before.unread);
    const read = await t.app.inject({ method: 'POST', url: url('/read'), headers: a.admin, payload: { ids: [n1.id] } });
    expect(read.json()).toEqual({ changed: 1, unread: before.unread - 1 });
    const after = await list(a.admin, '&status=read');
    expect(after.content.find((n) => n.id === n1.id)).toMatchObject({ type: 'viewed', readAt: expect.any(String) });
    const paged = await t.app.inject({ method: 'GET', url: url('?size=1&page=1'), headers: a.admin });
    expect(paged.json()).toMatchObject({ size: 1, page: 1, content: [expect.any(Object)] });
    const cleared = await t.app.inject({ method: 'POST', url: url('/clear'), headers: a.admin, payload: { ids: [n1.id] } });
    expect(cleared.json().changed).toBe(1);
    expect((await list(a.admin)).content.some((n) => n.id === n1.id)).toBe(false);
    const all = await t.app.inject({ method: 'POST', url: url('/read'), headers: a.admin, payload: { all: true } });
    expect(all.json().unread).toBe(0);
    const log = rowsOf<{ action: string }>(
      await t.database.db.execute(sql`select action from activity_log where action in ('READ_NOTIFICATIONS', 'CLEAR_NOTIFICATIONS') order by id`),
    );
    expect(log.map((r) => r.action)).toEqual(['READ_NOTIFICATIONS', 'CLEAR_NOTIFICATIONS', 'READ_NOTIFICATIONS']);
    // Someone else's notification cannot be touched by id.
    const theirs = (await list(a.dispatcher)).content[0];
    if (theirs) expect((await t.app.inject({ method: 'POST', url: url('/read'), headers: a.admin, payload: { ids: [theirs.id] } })).json().changed).toBe(0);
  });

  it('answers 401 signed out, 404 for another organization, 400 naming the field', async () => {
    expect((await t.app.inject({ method: 'GET', url: url() })).statusCode).toBe(401);
    const foreign = await t.app.inject({ method: 'GET', url: url('', a.otherOrgId), headers: a.admin });
    expect(foreign.statusCode).toBe(404);
    expectErrorBody(foreign.json(), 404);
    expect((await t.app.inject({ method: 'POST', url: url('/read', a.otherOrgId), headers: a.admin, payload: { all: true } })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: url('/read'), headers: a.admin, payload: {} });
    expectFieldErrors(bad.json(), 400, { ids: 'Give the ids, or all: true' });
    const badKind = await t.app.inject({ method: 'GET', url: url('?kind=NOPE'), headers: a.admin });
    expect(badKind.statusCode).toBe(400);
    expect(expectErrorBody(badKind.json(), 400).technicalMessage).toContain('kind');
    const badRange = await t.app.inject({ method: 'GET', url: url('?from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z'), headers: a.admin });
    expectFieldErrors(badRange.json(), 400, { to: 'To must be after From' });
    const badPrefs = await t.app.inject({
      method: 'PUT',
      url: url('/preferences'),
      headers: a.admin,
      payload: { kinds: { NOPE: { inApp: true, email: true } } },
    });
    expect(badPrefs.statusCode).toBe(400);
  });

  it('keeps each user’s choice per kind: off in the app means no bell, e-mail goes to the outbox', async () => {
    const u = await userWithPermissions(t, a.orgId, ['GAT_LIST', 'VIO_LIST']);
    const prefs = notificationPreferencesSchema.parse((await t.app.inject({ method: 'GET', url: url('/preferences'), headers: u })).json());
    expect(prefs.kinds.find((k) => k.kind === 'DEVICE_OFFLINE')).toMatchObject({ allowed: true, inApp: true, email: false });
    expect(prefs.kinds.find((k) => k.kind === 'RETENTION_PURGE')).toMatchObject({ allowed: false });
    const put = await t.app.inject({
      method: 'PUT',
      url: url('/preferences'),
      headers: u,
      payload: { kinds: { DEVICE_OFFLINE: { inApp: false, email: true } } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().kinds.find((k: { kind: string }) => k.kind === 'DEVICE_OFFLINE')).toMatchObject({ inApp: false, email: true });
    const f = fact('DEVICE_OFFLINE', { title: 'Device demo-x has been offline for 30 hours' });
    await notify(t.database.db, f);
    expect((await list(u)).content.some((n) => n.title === f.title)).toBe(false);
    await t.app.notificationHub.mailIdle();
    t.app.notificationHub.mail();
    await t.app.notificationHub.mailIdle();
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: u })).json();
    const mail = readOutbox(t.dataDir).find((m) => m.to === me.email);
    expect(mail?.subject).toBe(`Fleetline: ${f.title}`);
    expect(mail?.text).toContain('http://fleet.test/fleet');
    const logged = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from activity_log where action = 'UPDATE_NOTIFICATION_PREFERENCES' and entity_id = ${me.id}`),
    );
    expect(logged[0]?.n).toBe(1);
  });

  it('pushes a new notification and the unread count over the stream (ticket, then SSE)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    const token = a.admin.authorization!.slice(7);
    const stream = await openLiveStream(`http://127.0.0.1:${addr.port}${url('/stream')}`, token);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'unread');
    const f = fact('DEVICE_OFFLINE');
    await notify(t.database.db, f);
    const e = await stream.next((x) => x.event === 'notification');
    expect((e.data as unknown as { notification: { title: string }; unread: number }).notification.title).toBe(f.title);
    stream.close();
    const ticket = await t.app.inject({ method: 'POST', url: url('/stream/ticket'), headers: a.admin });
    expect(ticket.json().ticket).toEqual(expect.any(String));
    expect((await t.app.inject({ method: 'POST', url: url('/stream/ticket', a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
  });
});

describe('duty-status changes on the stream', () => {
  it('tells HoS readers of the organization, once per burst, that drivers’ records changed; nobody else', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    const open = (headers: Record<string, string>, orgId = a.orgId) =>
      openLiveStream(`http://127.0.0.1:${addr.port}${url('/stream', orgId)}`, headers.authorization!.slice(7));
    const limited = await userWithPermissions(t, a.orgId, ['VEHICLE_LIST']);
    const [office, outsider, otherOrg] = await Promise.all([open(a.admin), open(limited), open(a.other, a.otherOrgId)]);
    await Promise.all([office, outsider, otherOrg].map((s) => s.next((e) => e.event === 'unread')));
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `hos-push-${Date.now()}` });
    const start = Date.now() - 5 * H;
    const periods = [
      { status: 'ON', start: new Date(start).toISOString(), end: new Date(start + H).toISOString() },
      { status: 'D', start: new Date(start + H).toISOString(), end: new Date(start + 3 * H).toISOString() },
      { status: 'OFF', start: new Date(start + 3 * H).toISOString(), end: new Date(start + 4 * H).toISOString() },
    ];
    const sent = Date.now();
    const imp = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers/${v.driverId}/hos_log/import`,
      headers: a.admin,
      payload: { source: 'Test ELD', periods },
    });
    expect(imp.statusCode, imp.body).toBe(201);
    const told = await office.next((e) => e.event === 'hos', 5_000);
    expect(told.at - sent).toBeLessThan(1_000);
    expect(Date.parse((told.data as unknown as { at: string }).at)).toBeGreaterThanOrEqual(sent);
    // Another change later is told again (the first was told: its coalescing window has closed).
    const more = [{ status: 'ON', start: new Date(start + 4 * H).toISOString(), end: new Date(start + 4.5 * H).toISOString() }];
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers/${v.driverId}/hos_log/import`,
      headers: a.admin,
      payload: { source: 'Test ELD', periods: more },
    });
    expect(again.statusCode, again.body).toBe(201);
    await office.next((e) => e.event === 'hos' && e !== told, 5_000);
    // The time passing is the subject: no third event follows, to anyone.
    await new Promise((r) => setTimeout(r, 600));
    // The import's several statements were told once, not once each.
    expect(office.events.filter((e) => e.event === 'hos')).toHaveLength(2);
    expect(outsider.events.filter((e) => e.event === 'hos')).toHaveLength(0);
    expect(otherOrg.events.filter((e) => e.event === 'hos')).toHaveLength(0);
    for (const s of [office, outsider, otherOrg]) s.close();
  });
});

describe('what sends notifications', () => {
  it('a violation produced by a drive: the fleet watch notifies it once, with a drive-time warning before it', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `watch-${Date.now()}` });
    const now = Date.now();
    // On duty, then 10 h 57 min of driving, ending 12 minutes ago; on duty since.
    const start = now - 13 * H;
    const periods = [
      { status: 'ON', start: new Date(start).toISOString(), end: new Date(start + H).toISOString() },
      { status: 'D', start: new Date(start + H).toISOString(), end: new Date(start + H + 10.95 * H).toISOString() },
      { status: 'ON', start: new Date(start + H + 10.95 * H).toISOString(), end: new Date(now - 11 * 60_000).toISOString() },
    ];
    const imp = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers/${v.driverId}/hos_log/import`,
      headers: a.admin,
      payload: { source: 'Test ELD', periods },
    });
    expect(imp.statusCode, imp.body).toBe(201);
    await t.app.fleetWatch.check(a.orgId, { clock: false });
    const low = (await list(a.admin, '&kind=DRIVE_TIME_LOW')).content.filter((n) => n.title.startsWith('Dana Driver watch-'));
    expect(low).toHaveLength(1);
    // The truck drives for ten minutes: automatic duty status writes Driving, the 11-hour limit passes.
    const positions = Array.from({ length: 11 }, (_, i) => ({
      fixTime: new Date(now - (10 - i) * 60_000).toISOString(),
      latitude: 41.8,
      longitude: -87.6 + i * 0.015,
      speed: 80,
      ignition: true,
    }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: { authorization: `Bearer ${v.token}` },
      payload: { positions },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.autoDuty.idle();
    await t.app.fleetWatch.idle();
    const violations = (await list(a.admin, '&kind=VIOLATION')).content.filter((n) => n.user?.lastName === `Driver ${v.uniqueId}`);
    expect(violations.map((n) => n.title)).toContain(`Dana Driver ${v.uniqueId} broke the driving limit`);
    expect(violations[0]!.expandedButton!.href).toMatch(/^\/hos\/logs\/[0-9a-f-]{36}$/);
    // Its start is the driver's home-terminal time, with its zone (decision 0140).
    expect(violations[0]!.expandedContent).toMatch(/ from [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M C[SD]T \(home terminal\), log day \d{4}-\d{2}-\d{2}\.$/);
    // Checking again (the clock, another instance) notifies nothing new.
    expect(await t.app.fleetWatch.check(a.orgId, { clock: false })).toBe(0);
  });

  it('devices silent for a day, once per silence, on the clock', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `quiet-${Date.now()}` });
    await t.database.db.execute(sql`update gateways set last_seen_at = now() - interval '30 hours' where id = ${v.gatewayId}`);
    expect(await t.app.fleetWatch.tick()).toBe(true);
    expect(await t.app.fleetWatch.tick()).toBe(true);
    const offline = (await list(a.admin, '&kind=DEVICE_OFFLINE')).content.filter((n) => n.title.startsWith(`Device Device ${v.uniqueId}`));
    expect(offline).toHaveLength(1);
    expect(offline[0]!.expandedButton!.href).toBe(`/settings/organization-settings/devices/${v.gatewayId}`);
  });

  it('a notification carries the time of its fact, not the time the server noticed it (issue 46)', async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `silent-${Date.now()}` });
    const [g] = rowsOf<{ seen: string | Date }>(
      await t.database.db.execute(
        sql`update gateways set last_seen_at = date_trunc('second', now()) - interval '40 hours' where id = ${v.gatewayId} returning last_seen_at as seen`,
      ),
    );
    const seen = new Date(g!.seen).toISOString();
    expect(await t.app.fleetWatch.tick()).toBe(true);
    const [n] = (await list(a.admin, '&kind=DEVICE_OFFLINE')).content.filter((x) => x.title.startsWith(`Device Device ${v.uniqueId}`));
    // The silence began 40 hours ago, at the device's last report; the server noticed it just now.
    expect(n!.occurredAt).toBe(seen);
    expect(Date.parse(n!.receivedDate)).toBeGreaterThan(Date.parse(seen) + 39 * H);
    // A fact without a time of its own: when it was recorded.
    const f = fact('IMPORT_FINISHED');
    await notify(t.database.db, f);
    const [m] = (await list(a.admin)).content.filter((x) => x.title === f.title);
    expect(m!.occurredAt).toBe(m!.receivedDate);
    // One with its own time keeps it.
    const at = new Date(Date.now() - 5 * H);
    const g2 = fact('DEVICE_OFFLINE', { occurredAt: at });
    await notify(t.database.db, g2);
    expect((await list(a.admin)).content.find((x) => x.title === g2.title)!.occurredAt).toBe(at.toISOString());
  });

  it('a registry CSV import tells the importer; a retention purge tells who may read retention', async () => {
    const base = `/api/v1/organizations/${a.orgId}/imports/drivers`;
    const template = (await t.app.inject({ method: 'GET', url: `${base}/template`, headers: a.admin })).body;
    const res = await t.app.inject({ method: 'POST', url: base, headers: a.admin, payload: { csv: template } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await list(a.admin, '&kind=IMPORT_FINISHED')).content.map((n) => n.title)).toContain('Import finished: 1 driver added');
    expect((await list(a.dispatcher, '&kind=IMPORT_FINISHED')).content.some((n) => n.title === 'Import finished: 1 driver added')).toBe(false);
    // Old positions past a short retention period, then the purge.
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/data-retention`,
      headers: a.admin,
      payload: { policies: [{ kind: 'POSITIONS', retentionDays: 180 }] },
    });
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `old-${Date.now()}` });
    await t.database.db.execute(
      sql`insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, protocol) values (${a.orgId}, ${v.gatewayId}, ${v.assetId}, now() - interval '400 days', 41, -87, 'osmand')`,
    );
    const r = await runRetentionPurge(t.database);
    expect(r.ran).toBe(true);
    const purge = (await list(a.admin, '&kind=RETENTION_PURGE')).content;
    expect(purge[0]?.title).toMatch(/^Old data removed: \d+ records/);
    expect((await list(a.dispatcher, '&kind=RETENTION_PURGE')).content).toHaveLength(0);
  });
});
