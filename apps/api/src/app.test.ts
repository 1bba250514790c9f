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
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/auth/authenticate', headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' } });
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
