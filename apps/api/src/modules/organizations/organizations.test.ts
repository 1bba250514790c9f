import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract';
import {
  bearer,
  createTestApp,
  DEMO,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  login,
  readOutbox,
  registerOrganization,
  type TestContext,
} from '../../test/helpers.ts';
import { acceptInvitation } from '../../test/members.ts';
import { getOrganizationSettings } from './organizations.repository.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ imageLimit: 64 * 1024 });
});
afterAll(async () => {
  await t?.close();
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

function upload(data: Buffer, token: string) {
  const boundary = '----orglogo' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) } };
}

const ACCOUNT = {
  name: 'Demo Freight LLC',
  dotNumber: '3141592',
  mcNumber: 'MC-271828',
  phone: '+1 312 555 0100',
  addressLine1: '100 W Randolph St',
  city: 'Chicago',
  state: 'il',
  postalCode: '60601',
  country: 'US',
  timeZone: 'America/Chicago',
};

describe('organization account', () => {
  it('reads and edits the account, normalising the MC number and state, and logs the difference', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${a.user.organization?.id}`;
    const before = await t.app.inject({ method: 'GET', url, headers: bearer(a.accessToken) });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ name: 'Demo Freight', status: 'ACTIVE', country: 'US', logo: null });
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(a.accessToken), payload: ACCOUNT });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Demo Freight LLC', dotNumber: '3141592', mcNumber: '271828', state: 'IL', addressLine2: null });
    const log = await t.app.inject({ method: 'GET', url: `${url}/activity-logs?entityType=ORGANIZATION&action=UPDATE`, headers: bearer(a.accessToken) });
    const entry = log.json().content[0];
    expect(entry.changedFields).toEqual(expect.arrayContaining(['name', 'dotNumber', 'mcNumber']));
    const detail = await t.app.inject({ method: 'GET', url: `${url}/activity-logs/${entry.id}`, headers: bearer(a.accessToken) });
    expect(detail.json().changes).toContainEqual({ field: 'name', before: 'Demo Freight', after: 'Demo Freight LLC' });
    // The current user shows the new name at once.
    const me = await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(a.accessToken) }),
      (r) => r.json().organization?.name === 'Demo Freight LLC',
    );
    expect(me.json().organization.name).toBe('Demo Freight LLC');
    await t.app.inject({ method: 'PUT', url, headers: bearer(a.accessToken), payload: { ...ACCOUNT, name: 'Demo Freight' } });
  });

  it('names every bad field and changes nothing', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${a.user.organization?.id}`;
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(a.accessToken),
      payload: { name: '', dotNumber: '12ab', mcNumber: 'MC-x', state: 'Illinois', country: 'MX', timeZone: 'Mars/Base' },
    });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, {
      name: 'Legal name is a required field',
      dotNumber: 'DOT number is not valid.',
      mcNumber: 'MC number is not valid.',
      state: 'State or province must be at most 2 characters',
      country: 'Country is not valid.',
      timeZone: 'Time zone is not valid.',
    });
    const now = await t.app.inject({ method: 'GET', url, headers: bearer(a.accessToken) });
    expect(now.json().name).toBe('Demo Freight');
  });

  it('lets a dispatcher with ORG_READ read but not edit, and hides other organizations (404)', async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const url = `/api/v1/organizations/${d.user.organization?.id}`;
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(d.accessToken) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url, headers: bearer(d.accessToken), payload: ACCOUNT })).statusCode).toBe(403);
    const other = await registerOrganization(t.app, 'Rival Account');
    const foreign = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${other.user.organization?.id}`, headers: bearer(d.accessToken) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Rival');
  });

  it('uploads a logo (served as an image), refuses a non-image (400) and a file over the limit (413), and removes it', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${a.user.organization?.id}/image`;
    const up = await t.app.inject({ method: 'POST', url, ...upload(PNG, a.accessToken) });
    expect(up.statusCode).toBe(200);
    const logo = up.json().logo as string;
    expect((await t.app.inject({ method: 'GET', url: logo })).headers['content-type']).toBe('image/png');
    const org = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.user.organization?.id}`, headers: bearer(a.accessToken) });
    expect(org.json().logo).toBe(logo);
    const text = await t.app.inject({ method: 'POST', url, ...upload(Buffer.from('GIF? no, plain text'), a.accessToken) });
    expect(text.statusCode).toBe(400);
    const big = await t.app.inject({ method: 'POST', url, ...upload(Buffer.concat([PNG, Buffer.alloc(70 * 1024)]), a.accessToken) });
    expect(big.statusCode).toBe(413);
    expectErrorBody(big.json(), 413);
    expect((await t.app.inject({ method: 'DELETE', url, headers: bearer(a.accessToken) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(404);
  });
});

describe('organization settings', () => {
  it('answers defaults to every member until saved, including the telematics thresholds', async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${d.user.organization?.id}/settings`, headers: bearer(d.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...DEFAULT_ORGANIZATION_SETTINGS, darkMode: { isEnabled: true, defaultTheme: 'light' } });
    expect(res.json().telematics).toEqual({ idleMinutes: 5, offlineMinutes: 60, speedLimitKmh: 105 });
  });

  it('saves units, period start, default ruleset, dark mode and thresholds; the feature flag follows', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const body = {
      units: 'METRIC',
      periodStartTime: '06:30',
      defaultRuleset: 'CA_SOUTH_CYCLE_1',
      darkMode: { isEnabled: false, defaultTheme: 'light' },
      telematics: { idleMinutes: 10, offlineMinutes: 120, speedLimitKmh: 90 },
      detention: { freeMinutes: 90 },
      fuelCards: { radiusM: 200, windowMinutes: 20 },
      complianceExpiringDays: 45,
    };
    const res = await t.app.inject({ method: 'PUT', url: `/api/v1/organizations/${orgId}/settings`, headers: bearer(a.accessToken), payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(body);
    expect(await getOrganizationSettings(t.database.db, orgId ?? '')).toEqual(body);
    const flags = await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(a.accessToken) });
    expect(flags.json().featureFlags[0]).toMatchObject({ key: 'darkMode', isEnabled: false });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: { ...body, darkMode: { isEnabled: true, defaultTheme: 'light' } },
    });
  });

  it('refuses an unknown ruleset, a bad time, and an offline threshold not above idle, naming each field', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.user.organization?.id}/settings`,
      headers: bearer(a.accessToken),
      payload: {
        units: 'FURLONGS',
        periodStartTime: '24:00',
        defaultRuleset: 'EU_561',
        darkMode: { isEnabled: true, defaultTheme: 'light' },
        telematics: { idleMinutes: 30, offlineMinutes: 20 },
      },
    });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, {
      units: 'Units is not valid.',
      periodStartTime: '24-hour period start time is not valid.',
      defaultRuleset: 'Default HoS ruleset is not valid.',
    });
  });

  it('keeps the default speed limit for a client that does not send it', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id ?? '';
    const { speedLimitKmh: _omitted, ...older } = DEFAULT_ORGANIZATION_SETTINGS.telematics;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: { ...DEFAULT_ORGANIZATION_SETTINGS, telematics: older },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().telematics.speedLimitKmh).toBe(105);
    expect((await getOrganizationSettings(t.database.db, orgId)).telematics.speedLimitKmh).toBe(105);
  });

  it('keeps the detention free time (default 120 minutes) and refuses a bad one naming the field', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id ?? '';
    const { detention: _omitted, ...older } = DEFAULT_ORGANIZATION_SETTINGS;
    const kept = await t.app.inject({ method: 'PUT', url: `/api/v1/organizations/${orgId}/settings`, headers: bearer(a.accessToken), payload: older });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().detention).toEqual({ freeMinutes: 120 });
    for (const [freeMinutes, message] of [
      [-5, 'Detention free time must be 0 or more minutes'],
      [2000, 'Detention free time must be at most 1440 minutes (a day)'],
      [30.5, 'Detention free time must be whole minutes'],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/organizations/${orgId}/settings`,
        headers: bearer(a.accessToken),
        payload: { ...older, detention: { freeMinutes } },
      });
      expectFieldErrors(res.json(), 400, { 'detention.freeMinutes': message });
    }
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: { ...older, detention: { freeMinutes: 45 } },
    });
    expect(saved.json().detention).toEqual({ freeMinutes: 45 });
    expect((await getOrganizationSettings(t.database.db, orgId)).detention.freeMinutes).toBe(45);
    // Issue 68: the fuel-card checks likewise (defaults 150 m, ±15 min).
    const { fuelCards: _none, ...withoutCards } = DEFAULT_ORGANIZATION_SETTINGS;
    const cardsKept = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: withoutCards,
    });
    expect(cardsKept.json().fuelCards).toEqual({ radiusM: 150, windowMinutes: 15 });
    const badRadius = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: { ...withoutCards, fuelCards: { radiusM: 10, windowMinutes: 15 } },
    });
    expectFieldErrors(badRadius.json(), 400, { 'fuelCards.radiusM': 'Station radius must be at least 25 m' });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${orgId}/settings`,
      headers: bearer(a.accessToken),
      payload: DEFAULT_ORGANIZATION_SETTINGS,
    });
  });

  it('refuses an offline threshold shorter than the idle one', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.user.organization?.id}/settings`,
      headers: bearer(a.accessToken),
      payload: { ...DEFAULT_ORGANIZATION_SETTINGS, telematics: { idleMinutes: 30, offlineMinutes: 20 } },
    });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, { 'telematics.offlineMinutes': 'Offline time must be longer than the idle time' });
  });
});

describe('super administration', () => {
  it('creates an organization with an invited first admin who sets a password from the e-mail; logged with the super admin as actor', async () => {
    const sa = await login(t.app, DEMO.superAdmin);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organizations',
      headers: bearer(sa.accessToken),
      payload: {
        name: 'Prairie Haulers',
        dotNumber: '1234567',
        timeZone: 'America/Denver',
        admin: { email: 'Boss@Prairie.test', firstName: 'Pat', lastName: 'Prairie' },
      },
    });
    expect(res.statusCode).toBe(201);
    const { organization, adminUserId } = res.json();
    expect(organization).toMatchObject({ name: 'Prairie Haulers', dotNumber: '1234567', timeZone: 'America/Denver', status: 'ACTIVE' });
    const mail = readOutbox(t.dataDir).find((m) => m.to === 'boss@prairie.test');
    expect(mail?.subject).toBe('You are invited to Prairie Haulers on Fleetline');
    const admin = await acceptInvitation(t.app, t.dataDir, 'boss@prairie.test');
    expect(admin.user).toMatchObject({ id: adminUserId, role: 'ADMIN', organization: { id: organization.id, name: 'Prairie Haulers' } });
    // The super administrator acts on it (take control) and appears as the actor.
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${organization.id}`,
      headers: bearer(sa.accessToken),
      payload: { name: 'Prairie Haulers Inc', dotNumber: '1234567', timeZone: 'America/Denver' },
    });
    expect(rename.statusCode).toBe(200);
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${organization.id}/activity-logs?size=50`,
      headers: bearer(admin.accessToken),
    });
    const rows = log.json().content as Array<{ action: string; entityType: string; actor: { email: string; role: string } }>;
    expect(rows.find((r) => r.entityType === 'ORGANIZATION' && r.action === 'UPDATE')?.actor).toMatchObject({
      email: DEMO.superAdmin.email,
      role: 'SUPER_ADMIN',
    });
    expect(rows.find((r) => r.entityType === 'ORGANIZATION' && r.action === 'CREATE')?.actor.email).toBe(DEMO.superAdmin.email);
  });

  it('refuses a new organization whose admin e-mail is taken (409) or with missing fields (400)', async () => {
    const sa = await login(t.app, DEMO.superAdmin);
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organizations',
      headers: bearer(sa.accessToken),
      payload: { name: 'Dup', timeZone: 'America/Chicago', admin: { email: DEMO.admin.email, firstName: 'A', lastName: 'B' } },
    });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { 'admin.email': 'An account with this email already exists' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organizations',
      headers: bearer(sa.accessToken),
      payload: { name: 'X', admin: { email: 'no' } },
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, {
      'admin.email': 'Admin email must be a valid email address',
      'admin.firstName': 'Admin first name is a required field',
      timeZone: 'Time zone is a required field',
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/organizations?search=dup', headers: bearer(sa.accessToken) });
    expect(list.json().totalElements).toBe(0);
  });

  it('lists organizations with search, status filter, user counts and paging', async () => {
    const sa = await login(t.app, DEMO.superAdmin);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organizations?search=demo', headers: bearer(sa.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toHaveLength(1);
    // The admin, the dispatcher and the three demo drivers' sign-ins.
    expect(res.json().content[0]).toMatchObject({ name: 'Demo Freight', status: 'ACTIVE', userCount: 5, activeUserCount: 5 });
    const paged = await t.app.inject({ method: 'GET', url: '/api/v1/organizations?size=1&page=1', headers: bearer(sa.accessToken) });
    expect(paged.json()).toMatchObject({ page: 1, size: 1 });
    expect(paged.json().totalElements).toBeGreaterThanOrEqual(2);
    const byDot = await t.app.inject({ method: 'GET', url: '/api/v1/organizations?search=1234567', headers: bearer(sa.accessToken) });
    expect(byDot.json().content.map((o: { name: string }) => o.name)).toContain('Prairie Haulers Inc');
    const inactive = await t.app.inject({ method: 'GET', url: '/api/v1/organizations?status=INACTIVE', headers: bearer(sa.accessToken) });
    expect(inactive.json().content.every((o: { status: string }) => o.status === 'INACTIVE')).toBe(true);
    const admin = await login(t.app, DEMO.admin);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: bearer(admin.accessToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/organizations', headers: bearer(admin.accessToken), payload: {} })).statusCode).toBe(403);
  });

  it('deactivates an organization: its users lose access at once and cannot sign in, data is kept; reactivation restores', async () => {
    const sa = await login(t.app, DEMO.superAdmin);
    const owner = await registerOrganization(t.app, 'Closing Carrier');
    const orgId = owner.user.organization?.id;
    const orgUrl = `/api/v1/organizations/${orgId}`;
    expect((await t.app.inject({ method: 'GET', url: orgUrl, headers: bearer(owner.accessToken) })).statusCode).toBe(200);
    const off = await t.app.inject({ method: 'POST', url: `${orgUrl}/deactivate`, headers: bearer(sa.accessToken) });
    expect(off.statusCode).toBe(200);
    expect(off.json().status).toBe('INACTIVE');
    const refused = await eventually(
      () => t.app.inject({ method: 'GET', url: orgUrl, headers: bearer(owner.accessToken) }),
      (r) => r.statusCode === 401,
    );
    expect(refused.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(owner.refreshToken) })).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/authenticate',
      payload: { email: owner.user.email, password: owner.password },
      remoteAddress: '10.60.0.1',
    });
    expect(signIn.statusCode).toBe(401);
    // The super administrator still sees it, with its data.
    const kept = await t.app.inject({ method: 'GET', url: `${orgUrl}/users`, headers: bearer(sa.accessToken) });
    expect(kept.json().totalElements).toBe(1);
    const on = await t.app.inject({ method: 'POST', url: `${orgUrl}/activate`, headers: bearer(sa.accessToken) });
    expect(on.json().status).toBe('ACTIVE');
    expect((await login(t.app, { email: owner.user.email, password: owner.password }, '10.60.0.2')).user.id).toBe(owner.user.id);
    const log = await t.app.inject({ method: 'GET', url: `${orgUrl}/activity-logs?entityType=ORGANIZATION`, headers: bearer(sa.accessToken) });
    const actions = (log.json().content as Array<{ action: string; actor: { role: string } }>)
      .filter((e) => e.actor.role === 'SUPER_ADMIN')
      .map((e) => e.action);
    expect(actions).toEqual(['ACTIVATE', 'DEACTIVATE']);
    // Only a super administrator may do it.
    expect((await t.app.inject({ method: 'POST', url: `${orgUrl}/deactivate`, headers: bearer(owner.accessToken) })).statusCode).toBe(403);
  });

  it('takes control: every organization endpoint works for the super administrator on any organization', async () => {
    const sa = await login(t.app, DEMO.superAdmin);
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const base = `/api/v1/organizations/${orgId}`;
    for (const url of [
      base,
      `${base}/settings`,
      `${base}/users`,
      `${base}/roles`,
      `${base}/activity-logs`,
      `${base}/activity-logs/filters`,
      `${base}/activity-logs/users/${a.user.id}`,
      `${base}/data-retention`,
      `${base}/users/${a.user.id}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(sa.accessToken) });
      expect(res.statusCode, url).toBe(200);
    }
    const role = await t.app.inject({
      method: 'POST',
      url: `${base}/roles`,
      headers: bearer(sa.accessToken),
      payload: { name: 'Made by support', permissions: ['ORG_READ'] },
    });
    expect(role.statusCode).toBe(201);
    const log = await t.app.inject({ method: 'GET', url: `${base}/activity-logs?entityId=${role.json().id}`, headers: bearer(a.accessToken) });
    expect(log.json().content[0].actor).toMatchObject({ email: DEMO.superAdmin.email, role: 'SUPER_ADMIN', name: 'Super Admin' });
  });
});

describe('OpenAPI document', () => {
  it('lists every organization administration endpoint with its request and response schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const p = (path: string) => doc.paths[`/api/v1${path}`];
    const withBody = [
      ['post', '/organizations'],
      ['put', '/organizations/{orgId}'],
      ['put', '/organizations/{orgId}/settings'],
      ['post', '/organizations/{orgId}/users'],
      ['put', '/organizations/{orgId}/users/{userId}'],
      ['post', '/organizations/{orgId}/roles'],
      ['put', '/organizations/{orgId}/roles/{roleId}'],
      ['put', '/organizations/{orgId}/data-retention'],
    ] as const;
    for (const [method, path] of withBody) expect(p(path)?.[method]?.requestBody, `${method} ${path}`).toBeTruthy();
    const reads = [
      '/organizations',
      '/organizations/{orgId}',
      '/organizations/{orgId}/settings',
      '/organizations/{orgId}/users',
      '/organizations/{orgId}/roles',
      '/organizations/{orgId}/roles/{roleId}',
      '/permissions',
      '/organizations/{orgId}/activity-logs',
      '/organizations/{orgId}/activity-logs/filters',
      '/organizations/{orgId}/activity-logs/users/{userId}',
      '/organizations/{orgId}/activity-logs/{id}',
      '/organizations/{orgId}/data-retention',
    ];
    for (const path of reads) expect(p(path)?.get?.responses?.['200']?.content?.['application/json']?.schema, path).toBeTruthy();
    for (const path of [
      '/organizations/{orgId}/deactivate',
      '/organizations/{orgId}/activate',
      '/organizations/{orgId}/image',
      '/organizations/{orgId}/users/{userId}/deactivate',
      '/organizations/{orgId}/users/{userId}/activate',
      '/organizations/{orgId}/users/{userId}/password-reset',
    ]) {
      expect(p(path)?.post, path).toBeTruthy();
    }
    expect(p('/organizations/{orgId}/roles/{roleId}').delete).toBeTruthy();
    expect(p('/organizations/{orgId}/activity-logs/{id}').delete).toBeUndefined();
  });
});
