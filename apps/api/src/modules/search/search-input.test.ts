import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEMO, expectFieldErrors, login, type TestContext } from '../../test/helpers.ts';

// Issue 28: search text with a NUL byte or another control character is a 400 naming the field,
// on the search box and on every list's `search`, never a 500 from the database.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let superAdmin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
  superAdmin = bearer((await login(t.app, DEMO.superAdmin)).accessToken);
});
afterAll(async () => {
  await t?.close();
});

const LISTS = [
  'assets?type=VEHICLE',
  'assets?type=TRAILER',
  'drivers',
  'gateways',
  'users',
  'roles',
  'groups',
  'activity-logs',
  'notifications',
  'hos_log',
  'availability',
  'ifta/fuel-purchases',
  'drivers/export',
  'assets/export',
];
// NUL, a bell in the middle, a line feed, DEL and a C1 control (NEL).
const BAD = ['truck\u0000117', 'a\u0007b', 'a\nb', 'a\u007fb', 'a\u0085b'];
// A NUL is refused in every text of every request (issue 43), before the field's own rule.
const words = (field: string, text: string) =>
  text.includes('\u0000') ? `${field} must not contain the NUL character` : `${field} must not contain control characters`;

const listUrl = (path: string, search: string) => `/api/v1/organizations/${orgId}/${path}${path.includes('?') ? '&' : '?'}search=${encodeURIComponent(search)}`;

describe('search text with control characters', () => {
  it('is a 400 naming search on every list, whatever the character', async () => {
    for (const path of LISTS) {
      for (const text of BAD) {
        const res = await t.app.inject({ method: 'GET', url: listUrl(path, text), headers: admin });
        expect(res.statusCode, `${path} ${JSON.stringify(text)}: ${res.body}`).toBe(400);
        expectFieldErrors(res.json(), 400, { 'querystring.search': words('search', text) });
      }
    }
  });

  it('is a 400 naming search on the organizations list of the super administrator', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations?search=${encodeURIComponent('demo\u0000')}`, headers: superAdmin });
    expectFieldErrors(res.json(), 400, { 'querystring.search': words('search', 'demo\u0000') });
  });

  it('is a 400 naming the field on the activity log’s text filters', async () => {
    for (const field of ['action', 'entityType', 'entityId']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${orgId}/activity-logs?${field}=${encodeURIComponent('x\u0000y')}`,
        headers: admin,
      });
      expectFieldErrors(res.json(), 400, { [`querystring.${field}`]: words(field, 'x\u0000y') });
    }
  });

  it('is a 400 naming q on the search box', async () => {
    for (const text of BAD) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/search?q=${encodeURIComponent(text)}`, headers: admin });
      expect(res.statusCode, res.body).toBe(400);
      expectFieldErrors(res.json(), 400, { 'querystring.q': words('q', text) });
    }
  });

  it('still finds records when the text only ends in spaces, tabs or line breaks (they are trimmed)', async () => {
    const list = await t.app.inject({ method: 'GET', url: listUrl('assets?type=VEHICLE', ' 101\t\r\n'), headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((a: { unitNumber: string }) => a.unitNumber)).toContain('101');
    const box = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/search?q=${encodeURIComponent('101\n')}`, headers: admin });
    expect(box.statusCode, box.body).toBe(200);
  });
});
