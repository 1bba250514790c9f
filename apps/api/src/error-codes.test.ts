import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, login, type TestContext } from './test/helpers.ts';

// Decision 0257: every 4xx and 5xx carries a code of the contract's catalogue, Fastify's own
// refusals too (a route not found, a body that is not JSON, a content type no parser takes, a body
// over the limit, a route's rate limit). The walk of the whole API document checks every answer it
// gets (openapi-fuzz.test.ts); these are the ones it cannot reach.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
});
afterAll(async () => {
  await t?.close();
});

const json = { 'content-type': 'application/json' };

describe('error codes', () => {
  it("gives Fastify's own refusals a code by what failed", async () => {
    const cases: Array<[InjectOptions, number, string]> = [
      [{ method: 'GET', url: '/api/v1/no-such-route' }, 404, 'common.not_found'],
      // Refused before routing: the error handler never sees it (the API document's walk found it).
      [{ method: 'GET', url: '/api/v1/images/%ED%A0%80' }, 400, 'validation.malformed_url'],
      [{ method: 'POST', url: '/api/v1/auth/authenticate', headers: json, payload: '{"email":' }, 400, 'validation.malformed_body'],
      [{ method: 'POST', url: '/api/v1/auth/authenticate', headers: { 'content-type': 'text/xml' }, payload: '<a/>' }, 415, 'common.unsupported_media_type'],
      [
        { method: 'POST', url: '/api/v1/auth/authenticate', headers: json, payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2_000_000) }) },
        413,
        'common.payload_too_large',
      ],
      [{ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email: 'not an address' } }, 400, 'validation.invalid_body'],
      [{ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers?page=-1`, headers: admin }, 400, 'validation.invalid_query'],
      [{ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers/not-an-id`, headers: admin }, 400, 'validation.invalid_params'],
      [{ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers` }, 401, 'auth.unauthenticated'],
      [{ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers`, headers: bearer('not-a-token') }, 401, 'auth.session_expired'],
      [{ method: 'POST', url: '/api/v1/auth/authenticate', payload: { ...DEMO.admin, password: 'Wrong#2026x' } }, 401, 'auth.invalid_credentials'],
      [{ method: 'GET', url: `/api/v1/organizations/${orgId}/drivers/00000000-0000-4000-8000-000000000000`, headers: admin }, 404, 'common.not_found'],
    ];
    const got = [];
    for (const [request, status] of cases) {
      const res = await t.app.inject({ remoteAddress: '10.57.0.1', ...request });
      got.push([res.statusCode, expectErrorBody(res.json(), res.statusCode).code]);
      expect(res.statusCode, res.body).toBe(status);
    }
    expect(got).toEqual(cases.map(([, status, code]) => [status, code]));
  });

  it("answers a route's rate limit with common.rate_limited", async () => {
    // Sign-up allows 20 a minute from one address; the limit is counted before the body is read.
    let res;
    for (let i = 0; i < 21; i++) res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: {}, remoteAddress: '10.57.0.2' });
    expect(res!.statusCode).toBe(429);
    expect(expectErrorBody(res!.json(), 429).code).toBe('common.rate_limited');
  });

  it('documents the code and its catalogue in the API document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const answer = doc.paths['/api/v1/auth/authenticate'].post.responses['401'].content['application/json'].schema;
    const schema = answer.$ref ? doc.components.schemas[answer.$ref.split('/').at(-1)] : answer;
    expect(schema.required).toContain('code');
    // One list in the document's components, referenced by every error answer.
    expect(schema.properties.code.$ref).toBe('#/components/schemas/ErrorCode');
    expect(doc.components.schemas.ErrorCode.enum).toEqual([...ERROR_CODES]);
  });
});
