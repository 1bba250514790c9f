import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveVehicle, SignInResponse, StreamRevoked } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { roles, users } from '../../db/schema/index.ts';
import type { EventStream } from '../../http/event-stream.ts';
import { bearer, createTestApp, DEMO, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { activityRows } from '../../test/registry.ts';
import { openLiveStream, stateOf, type LiveEvent, type LiveStream } from '../../test/sse-client.ts';
import type { AuthContext } from './auth-context.ts';
import { hashPassword } from './crypto.ts';
import { OpenStreams, type StreamAccessLoader } from './open-streams.ts';

// Streams follow permissions (issue 43): a user's open live map and notifications streams end, with
// a last `revoked` event, within a second of the change that takes their access away, whichever
// instance made the change. Two API instances on one database: A (t.app) makes the changes, B holds
// the streams (on PostgreSQL the change reaches B as a NOTIFY through the server, like any other instance).

let t: TestContext;
let b: FastifyInstance;
let bUrl: string;
let orgId: string;
let admin: SignInResponse;
let serial = 0;

beforeAll(async () => {
  t = await createTestApp();
  b = await buildApp({ config: t.config, database: t.database });
  await b.listen({ port: 0, host: '127.0.0.1' });
  bUrl = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await login(t.app, DEMO.admin);
  orgId = admin.user.organization!.id;
}, 120_000);

afterAll(async () => {
  await b?.close();
  await t?.close();
});

interface Member {
  id: string;
  roleId: string;
  email: string;
  password: string;
  session: SignInResponse;
}

/** A new user of the demo organization with a role of its own holding `permissions`, signed in through B. */
async function member(permissions: string[]): Promise<Member> {
  const n = ++serial;
  const email = `streams${n}.${Date.now()}@demofreight.test`;
  const password = 'Streams#2026';
  const [role] = await t.database.db
    .insert(roles)
    .values({ organizationId: orgId, name: `Streams ${n} ${Date.now()}`, permissions: permissions as never })
    .returning();
  const [user] = await t.database.db
    .insert(users)
    .values({
      organizationId: orgId,
      role: 'USER',
      roleId: role!.id,
      email,
      username: email,
      firstName: 'Stream',
      lastName: `Watcher ${n}`,
      passwordHash: await hashPassword(password),
    })
    .returning();
  return { id: user!.id, roleId: role!.id, email, password, session: await login(b, { email, password }) };
}

const liveUrl = (server: string, org = orgId) => `${server}/api/v1/organizations/${org}/assets/stream`;
const bellUrl = (server: string, org = orgId) => `${server}/api/v1/organizations/${org}/notifications/stream`;

/** The live map's and the bell's streams of `token` on `server`, both past their first event. */
async function openBoth(token: string, server = bUrl, org = orgId): Promise<{ live: LiveStream; bell: LiveStream }> {
  const [live, bell] = await Promise.all([openLiveStream(liveUrl(server, org), token), openLiveStream(bellUrl(server, org), token)]);
  expect([live.status, bell.status]).toEqual([200, 200]);
  await Promise.all([live.next((e) => e.event === 'snapshot'), bell.next((e) => e.event === 'unread')]);
  return { live, bell };
}

const revokedOf = (e: LiveEvent) => e.data as unknown as StreamRevoked;

/** The stream's last event is `revoked` for `reason`, within a second of `since`, and the server ended it. */
async function expectRevoked(stream: LiveStream, since: number, reason: StreamRevoked['reason']): Promise<void> {
  const last = await stream.next((e) => e.event === 'revoked', 5000);
  expect(revokedOf(last).reason).toBe(reason);
  expect(revokedOf(last).message).toBeTruthy();
  expect(last.at - since).toBeLessThan(1000);
  const ended = await stream.ended;
  expect(ended.how).toBe('end');
  expect(stream.events.at(-1)?.event).toBe('revoked');
}

/** A vehicle change as ingest would deliver it, through B's live hub. */
function publishOnB(latitude: number): void {
  const v: LiveVehicle = {
    assetId: '00000000-0000-4000-8000-000000000043',
    unitNumber: 'T43',
    gatewayId: '00000000-0000-4000-8000-000000000044',
    driverId: null,
    driverName: null,
    latitude,
    longitude: -94.58,
    speed: 80,
    course: 90,
    ignition: true,
    fixTime: new Date().toISOString(),
    status: 'MOVING',
    statusSince: null,
    groupIds: [],
  };
  b.liveHub.publish(orgId, [v]);
}

/** Posts through instance A and answers when its answer came. */
async function onA(method: 'POST' | 'PUT', url: string, token: string, payload?: unknown): Promise<{ status: number; at: number; json: () => unknown }> {
  const res = await t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, at: Date.now(), json: () => res.json() };
}

describe("open streams follow their user's access, on every instance", () => {
  it("ends the live map and the notifications streams on B within a second of the user's deactivation through A; no position reaches them after", async () => {
    const u = await member(['ASSET_LIST']);
    const { live, bell } = await openBoth(u.session.accessToken);
    publishOnB(39.1);
    await live.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 39.1));

    const off = await onA('POST', `/organizations/${orgId}/users/${u.id}/deactivate`, admin.accessToken);
    expect(off.status).toBe(200);
    await Promise.all([expectRevoked(live, off.at, 'session'), expectRevoked(bell, off.at, 'session')]);
    publishOnB(39.2);
    // The time passing is the subject: no position reaches the ended stream.
    await new Promise((r) => setTimeout(r, 50));
    expect(live.events.some((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 39.2))).toBe(false);
    expect(b.openStreams.size).toBe(0);
  });

  it("ends the live map stream when ASSET_LIST is taken from the user's role, and keeps the bell, which stops telling HoS changes once HOS_LIST goes too", async () => {
    const u = await member(['ASSET_LIST', 'HOS_LIST']);
    const { live, bell } = await openBoth(u.session.accessToken);
    await t.database.db.execute(sql`select pg_notify('hos_changes', ${orgId})`);
    await bell.next((e) => e.event === 'hos');

    const edit = await onA('PUT', `/organizations/${orgId}/roles/${u.roleId}`, admin.accessToken, {
      name: `Streams narrowed ${Date.now()}`,
      permissions: ['USER_READ'],
    });
    expect(edit.status).toBe(200);
    await expectRevoked(live, edit.at, 'forbidden');
    // The bell needs no permission: it stays open, and follows the permissions it does use.
    await b.openStreams.idle();
    expect(await stateOf(bell)).toBe('open');
    const hosBefore = bell.events.filter((e) => e.event === 'hos').length;
    await t.database.db.execute(sql`select pg_notify('hos_changes', ${orgId})`);
    // The time passing is the subject: no HoS change is told without HOS_LIST.
    await new Promise((r) => setTimeout(r, 600));
    expect(bell.events.filter((e) => e.event === 'hos').length).toBe(hosBefore);
    expect(bell.events.some((e) => e.event === 'revoked')).toBe(false);
    bell.close();
  });

  it('ends the live map stream when the user is moved to a role without ASSET_LIST', async () => {
    const u = await member(['ASSET_LIST']);
    const [narrow] = await t.database.db
      .insert(roles)
      .values({ organizationId: orgId, name: `Streams no map ${Date.now()}`, permissions: ['USER_READ'] as never })
      .returning();
    const { live, bell } = await openBoth(u.session.accessToken);

    const moved = await onA('PUT', `/organizations/${orgId}/users/${u.id}`, admin.accessToken, {
      firstName: 'Stream',
      lastName: 'Moved',
      email: u.email,
      roleId: narrow!.id,
    });
    expect(moved.status).toBe(200);
    await expectRevoked(live, moved.at, 'forbidden');
    expect(await stateOf(bell)).toBe('open');
    bell.close();
  });

  it('ends every stream of an organization suspended by the super administrator (streams and change on one instance)', async () => {
    const other = await registerOrganization(t.app, `Suspended Carrier ${Date.now()}`);
    const otherOrg = other.user.organization!.id;
    const appUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { live, bell } = await openBoth(other.accessToken, appUrl, otherOrg);
    const superAdmin = await login(t.app, DEMO.superAdmin);

    const off = await onA('POST', `/organizations/${otherOrg}/deactivate`, superAdmin.accessToken);
    expect(off.status).toBe(200);
    await Promise.all([expectRevoked(live, off.at, 'session'), expectRevoked(bell, off.at, 'session')]);
  });

  it("keeps the streams of a user whose access did not change, through changes to others, to the role's name and to the user's own profile", async () => {
    const u = await member(['ASSET_LIST']);
    const { live, bell } = await openBoth(u.session.accessToken);
    const dispatcher = await login(t.app, DEMO.dispatcher);

    const renamed = await onA('PUT', `/organizations/${orgId}/users/${dispatcher.user.id}`, admin.accessToken, {
      firstName: dispatcher.user.firstName ?? 'Dispatch',
      lastName: dispatcher.user.lastName ?? 'Er',
      email: dispatcher.user.email,
      position: `Dispatcher ${Date.now()}`,
    });
    expect(renamed.status).toBe(200);
    expect(
      (await onA('PUT', `/organizations/${orgId}/roles/${u.roleId}`, admin.accessToken, { name: `Streams renamed ${Date.now()}`, permissions: ['ASSET_LIST'] }))
        .status,
    ).toBe(200);
    expect(
      (
        await onA('PUT', `/organizations/${orgId}/users/${u.id}`, u.session.accessToken, {
          firstName: 'Stream',
          lastName: 'Renamed',
          email: u.email,
          phone: '+1 312 555 0143',
        })
      ).status,
    ).toBe(200);
    // Every notification delivered and checked on B. The time passing is the subject: nothing is
    // revoked meanwhile (some of these changes notify, some by design do not: no count to wait for).
    await new Promise((r) => setTimeout(r, 500));
    await b.openStreams.idle();
    expect([await stateOf(live), await stateOf(bell)]).toEqual(['open', 'open']);
    publishOnB(39.3);
    await live.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 39.3));
    expect(b.openStreams.size).toBeGreaterThanOrEqual(2);

    // And they were being watched all along.
    const off = await onA('POST', `/organizations/${orgId}/users/${u.id}/deactivate`, admin.accessToken);
    await Promise.all([expectRevoked(live, off.at, 'session'), expectRevoked(bell, off.at, 'session')]);
  });
});

describe('log out everywhere', () => {
  it('revokes every session of the caller: refresh tokens, access tokens, unused stream tickets and open streams on B, within a second', async () => {
    const u = await member(['ASSET_LIST']);
    const second = await login(b, { email: u.email, password: u.password });
    // As the browser opens the map: a single-use ticket, no Authorization header.
    const ticket = async () =>
      (await b.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/assets/stream/ticket`, headers: bearer(u.session.accessToken) })).json()
        .ticket as string;
    const live = await openLiveStream(`${liveUrl(bUrl)}?ticket=${await ticket()}`, '');
    expect(live.status).toBe(200);
    await live.next((e) => e.event === 'snapshot');
    const bell = await openLiveStream(bellUrl(bUrl), second.accessToken);
    await bell.next((e) => e.event === 'unread');
    const unused = await ticket();

    const out = await onA('POST', '/auth/logout-everywhere', u.session.accessToken);
    expect(out.status).toBe(204);
    await Promise.all([expectRevoked(live, out.at, 'session'), expectRevoked(bell, out.at, 'session')]);

    for (const token of [u.session.accessToken, second.accessToken]) {
      const me = await b.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) });
      expect(me.statusCode).toBe(401);
      expect(me.json().technicalMessage).toBe('Credential issued before the sessions were ended');
    }
    for (const token of [u.session.refreshToken, second.refreshToken]) {
      expect((await b.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(token) })).statusCode).toBe(401);
    }
    expect((await openLiveStream(`${liveUrl(bUrl)}?ticket=${unused}`, '')).status).toBe(401);
    expect((await activityRows(t.database.db, u.id)).map((r) => r.action)).toContain('LOGOUT_EVERYWHERE');

    // Signing in again starts afresh.
    const again = await login(b, { email: u.email, password: u.password });
    const fresh = await openLiveStream(liveUrl(bUrl), again.accessToken);
    expect(fresh.status).toBe(200);
    fresh.close();
  });

  it('needs a signed-in caller', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout-everywhere' })).statusCode).toBe(401);
  });

  it('a password change ends the streams on B too; the session it answers opens them again', async () => {
    const u = await member(['ASSET_LIST']);
    const { live, bell } = await openBoth(u.session.accessToken);
    const changed = await onA('PUT', `/organizations/${orgId}/users/${u.id}/changePassword`, u.session.accessToken, {
      currentPassword: u.password,
      newPassword: 'Changed#2026',
    });
    expect(changed.status).toBe(200);
    await Promise.all([expectRevoked(live, changed.at, 'session'), expectRevoked(bell, changed.at, 'session')]);
    const renewed = changed.json() as { accessToken: string };
    const again = await openBoth(renewed.accessToken);
    again.live.close();
    again.bell.close();
  });
});

describe('a stream lives no longer than its credential (issue 66)', () => {
  const ticketFor = async (stream: 'assets' | 'notifications', token: string) => {
    const res = await b.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/${stream}/stream/ticket`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().ticket as string;
  };
  const createToken = async (permissions: string[], by = admin.accessToken) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/api-tokens`,
      headers: bearer(by),
      payload: { name: `Stream token ${++serial}`, permissions },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; token: string };
  };

  it('a ticket opens only the stream it was asked for', async () => {
    const u = await member(['ASSET_LIST']);
    const bellWithMapTicket = await openLiveStream(`${bellUrl(bUrl)}?ticket=${await ticketFor('assets', u.session.accessToken)}`, '');
    expect(bellWithMapTicket.status).toBe(401);
    const mapWithBellTicket = await openLiveStream(`${liveUrl(bUrl)}?ticket=${await ticketFor('notifications', u.session.accessToken)}`, '');
    expect(mapWithBellTicket.status).toBe(401);
    const right = await openLiveStream(`${liveUrl(bUrl)}?ticket=${await ticketFor('assets', u.session.accessToken)}`, '');
    expect(right.status).toBe(200);
    right.close();
  });

  it("an API token's live map stream on B ends with `revoked` when the token is revoked through A; no position reaches it after", async () => {
    const token = await createToken(['ASSET_LIST']);
    const live = await openLiveStream(liveUrl(bUrl), token.token);
    expect(live.status).toBe(200);
    await live.next((e) => e.event === 'snapshot');
    publishOnB(41.1);
    await live.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 41.1));

    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/organizations/${orgId}/api-tokens/${token.id}`, headers: bearer(admin.accessToken) });
    expect(res.statusCode).toBe(204);
    await expectRevoked(live, Date.now(), 'token');
    publishOnB(41.2);
    // The time passing is the subject: no position reaches the ended stream.
    await new Promise((r) => setTimeout(r, 50));
    expect(live.events.some((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === 41.2))).toBe(false);
    expect((await openLiveStream(liveUrl(bUrl), token.token)).status).toBe(401);
  });

  it("an API token's live map stream ends with `revoked` when the token expires, with nothing else changing", async () => {
    const expiresAt = Date.now() + 3000;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/api-tokens`,
      headers: bearer(admin.accessToken),
      payload: { name: `Stream token ${++serial} expiring`, permissions: ['ASSET_LIST'], expiresAt: new Date(expiresAt).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const live = await openLiveStream(liveUrl(bUrl), (res.json() as { token: string }).token);
    expect(live.status).toBe(200);
    await live.next((e) => e.event === 'snapshot');
    // Expiry is the subject: the stream's end is timed from it.
    const last = await live.next((e) => e.event === 'revoked', 10_000);
    expect(revokedOf(last).reason).toBe('token');
    expect(last.at - expiresAt).toBeGreaterThanOrEqual(-50);
    expect(last.at - expiresAt).toBeLessThan(1000);
    expect((await live.ended).how).toBe('end');
  });

  it("an API token's stream ends when its creator loses the stream's code", async () => {
    const creator = await member(['API_TOKEN_MANAGE', 'ASSET_LIST']);
    const token = await createToken(['ASSET_LIST'], creator.session.accessToken);
    const live = await openLiveStream(liveUrl(bUrl), token.token);
    expect(live.status).toBe(200);
    await live.next((e) => e.event === 'snapshot');
    const changed = await onA('PUT', `/organizations/${orgId}/roles/${creator.roleId}`, admin.accessToken, {
      name: `Creator ${serial} narrowed`,
      permissions: ['API_TOKEN_MANAGE'],
    });
    expect(changed.status).toBe(200);
    await expectRevoked(live, changed.at, 'forbidden');
  });

  it('signing one session out ends the streams it opened (by ticket and by header) within a second, not those of another session', async () => {
    const u = await member(['ASSET_LIST']);
    const other = await login(b, { email: u.email, password: u.password });
    const live = await openLiveStream(`${liveUrl(bUrl)}?ticket=${await ticketFor('assets', u.session.accessToken)}`, '');
    expect(live.status).toBe(200);
    await live.next((e) => e.event === 'snapshot');
    const bell = await openLiveStream(bellUrl(bUrl), u.session.accessToken);
    await bell.next((e) => e.event === 'unread');
    const kept = await openBoth(other.accessToken);

    const out = await onA('POST', '/auth/logout', u.session.accessToken, { refreshToken: u.session.refreshToken });
    expect(out.status).toBe(204);
    await Promise.all([expectRevoked(live, out.at, 'session'), expectRevoked(bell, out.at, 'session')]);
    expect([await stateOf(kept.live), await stateOf(kept.bell)]).toEqual(['open', 'open']);

    // The signed-out session's access token lives on for minutes, but opens no stream that stays.
    const late = await openLiveStream(liveUrl(bUrl), u.session.accessToken);
    const last = await late.next((e) => e.event === 'revoked', 5000);
    expect(revokedOf(last).reason).toBe('session');
    kept.live.close();
    kept.bell.close();
  });
});

describe('OpenStreams', () => {
  const ctxOf = (userId: string, over: Partial<AuthContext> = {}): AuthContext => ({
    userId,
    email: `${userId}@x.test`,
    role: 'USER',
    orgId: 'org-1',
    permissions: new Set(['ASSET_LIST']),
    isSuperAdmin: false,
    sessionEpoch: 0,
    ...over,
  });
  const request = (ctx: AuthContext, seenChanges: number) =>
    ({
      auth: ctx,
      credential: { epoch: 0, session: null, tokenId: null, seenChanges },
      params: { orgId: 'org-1' },
      routeOptions: { config: { permissions: ['ASSET_LIST'] } },
    }) as unknown as FastifyRequest;
  const loaders = (users: StreamAccessLoader['users']): StreamAccessLoader => ({ users, tokens: async () => new Map(), endedSessions: async () => new Set() });
  const fakeStream = () => {
    const sent: string[] = [];
    let ended = false;
    const stream: EventStream = { send: (event) => sent.push(event), end: () => (ended = true), onClose: () => undefined };
    return { stream, sent, ended: () => ended };
  };

  it('checks a stream at once when an auth change arrived while the request that opens it was being checked', async () => {
    let changes = 5;
    const loads: string[][] = [];
    const streams = new OpenStreams(
      loaders(async (ids) => {
        loads.push(ids);
        return new Map();
      }),
      () => changes,
      () => undefined,
    );
    const fresh = fakeStream();
    streams.guard(request(ctxOf('u1'), 5))(fresh.stream);
    await streams.idle();
    expect(loads).toEqual([]);
    const raced = fakeStream();
    changes = 6;
    streams.guard(request(ctxOf('u2'), 5))(raced.stream);
    await streams.idle();
    expect(loads).toEqual([['u2']]);
    expect(raced.sent).toEqual(['revoked']);
    expect(raced.ended()).toBe(true);
    expect(fresh.ended()).toBe(false);
  });

  it('ends the streams without `revoked` when their users cannot be checked, so the clients reconnect and are checked then', async () => {
    const errors: unknown[] = [];
    const streams = new OpenStreams(
      loaders(async () => {
        throw new Error('database unreachable');
      }),
      () => 0,
      (err) => errors.push(err),
    );
    const s = fakeStream();
    streams.guard(request(ctxOf('u1'), 0))(s.stream);
    streams.changed('*');
    await streams.idle();
    expect(s.sent).toEqual([]);
    expect(s.ended()).toBe(true);
    expect(errors).toHaveLength(1);
    expect(streams.size).toBe(0);
  });

  it('checks only the user named, and everyone on `*`, in one query', async () => {
    const loads: string[][] = [];
    const streams = new OpenStreams(
      loaders(async (ids) => {
        loads.push([...ids].sort());
        return new Map(ids.map((id) => [id, ctxOf(id)]));
      }),
      () => 0,
      () => undefined,
    );
    for (const id of ['u1', 'u2']) streams.guard(request(ctxOf(id), 0))(fakeStream().stream);
    streams.changed('someone-else');
    streams.changed('u1');
    await streams.idle();
    streams.changed('*');
    await streams.idle();
    expect(loads).toEqual([['u1'], ['u1', 'u2']]);
    expect(streams.size).toBe(2);
  });
});
