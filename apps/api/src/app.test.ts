import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { seed } from './seed/seed.ts';
import { bearer, createTestApp, DEMO, expectErrorBody, login, type TestContext } from './test/helpers.ts';

let t: TestContext;
let dist: string;
beforeAll(async () => {
  // A stand-in web build: an index page and a hashed asset with its precompressed twin.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Fleetline</title><div id="root"></div>');
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), js);
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(js));
  t = await createTestApp({ webDist: dist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('configuration', () => {
  it('refuses to start in production without JWT_SECRET, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).not.toThrow();
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DEMO: 'maybe' })).toThrow(/PORT[\s\S]*DEMO|DEMO[\s\S]*PORT/);
  });

  it('turns demo data off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }).demo).toBe(false);
    expect(loadConfig({}).demo).toBe(true);
  });
});

describe('seed', () => {
  it('running it again duplicates nothing', async () => {
    const count = async () =>
      (
        (await t.database.db.execute(
          `select (select count(*) from users)::int as u, (select count(*) from organizations)::int as o, (select count(*) from roles)::int as r` as never,
        )) as unknown as { rows: Array<{ u: number; o: number; r: number }> }
      ).rows[0];
    const before = await count();
    await seed(t.database.db, { ...t.config, demo: true }, () => undefined);
    await seed(t.database.db, { ...t.config, demo: true }, () => undefined);
    expect(await count()).toEqual(before);
  });
});

describe('HTTP behaviour', () => {
  it('sets security headers with a content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('keeps CORS closed unless CORS_ORIGIN is set', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/authenticate',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('compresses large JSON answers with brotli or gzip', async () => {
    const s = await login(t.app, DEMO.admin);
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br', ...bearer(s.accessToken) } });
    expect(res.headers['content-encoding']).toBe('br');
    const gz = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('refuses a body over the limit with 413 in the error body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2_000_000) }),
    });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res.json(), 413);
  });

  it('answers malformed JSON with a 400 error body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 400);
  });

  it('serves the single-page app for client routes and precompressed hashed assets with a long cache', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/settings/organization-settings/vehicles', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('never answers an unknown API path with the web page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/unknown', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });
});

describe('serving on a LAN and behind a proxy', () => {
  it('answers / and HEAD / with the app whatever the Accept header', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode, `Accept: ${accept}`).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
  });

  it('serves client routes to any client but keeps a missing file a 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/map/history?asset=1', headers: { accept: '*/*' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/index-gone.js', headers: { accept: 'text/html' } });
    expect(missing.statusCode).toBe(404);
    expectErrorBody(missing.json(), 404);
  });

  it('says the API runs when the web app is not built', async () => {
    const bare = await createTestApp({ webDist: undefined });
    const res = await bare.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
    await bare.close();
  });

  it('answers the liveness and readiness probes', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: t.database.kind });
    expect((await t.app.inject({ method: 'HEAD', url: '/readyz' })).statusCode).toBe(200);
  });

  it('is not ready while a migration is missing or while it drains', async () => {
    const newest = 'select max(created_at) as m from drizzle.__drizzle_migrations';
    const m = ((await t.database.db.execute(newest as never)) as unknown as { rows: Array<{ m: string }> }).rows[0]!.m;
    await t.database.db.execute(`update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = ${Number(m)}` as never);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(expectErrorBody(res.json(), 503).technicalMessage).toMatch(/migrations/);
    } finally {
      await t.database.db.execute(`update drizzle.__drizzle_migrations set created_at = ${Number(m)} where created_at = ${Number(m) - 1}` as never);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    t.app.draining = true;
    try {
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      t.app.draining = false;
    }
  });

  it('over plain HTTP sends neither upgrade-insecure-requests nor HSTS, whatever the host', async () => {
    for (const host of ['localhost:8080', '192.168.1.20:8080', 'fleet.lan']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { host, 'x-forwarded-proto': 'https' } });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('behind a trusted TLS proxy, or with an https PUBLIC_URL, sends both', async () => {
    const proxied = await createTestApp({ trustProxy: true });
    try {
      const https = await proxied.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const http = await proxied.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
    const published = await createTestApp({ publicUrl: 'https://fleet.example.com' });
    try {
      const res = await published.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeDefined();
    } finally {
      await published.close();
    }
  });
});

describe('500 errors', () => {
  it('hide internals in production mode and show the request id', { timeout: 90_000 }, async () => {
    const prod = await createTestApp({ env: 'production' });
    // Break the database under a running app so sign-in fails unexpectedly.
    await prod.database.db.execute('drop table refresh_tokens cascade' as never);
    const res = await prod.app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: DEMO.admin });
    expect(res.statusCode).toBe(500);
    const body = expectErrorBody(res.json(), 500);
    expect(body.technicalMessage).toMatch(/^Request id /);
    expect(body.technicalMessage).not.toContain('refresh_tokens');
    await prod.close();
  });
});
