import { DEFAULT_MAP_STYLE_URL, startupProgressSchema, webConfigSchema } from '@fleet/api-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

// MAP_STYLE_URL is read when the server starts and handed to the built web app, so a carrier
// changes the base map with a restart, not a rebuild.

describe('MAP_STYLE_URL configuration', () => {
  it('defaults to the keyless OpenFreeMap style', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).mapStyleUrl).toBe(DEFAULT_MAP_STYLE_URL);
    expect(loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: '' }).mapStyleUrl).toBe(DEFAULT_MAP_STYLE_URL);
  });

  it('refuses a URL that is not absolute http(s), naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: '/styles/mine.json' })).toThrow(/MAP_STYLE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: 'ftp://tiles.example.com/style.json' })).toThrow(/MAP_STYLE_URL/);
  });
});

describe('GET /api/v1/web-config', () => {
  let t: TestContext;
  const styleUrl = 'http://tiles.carrier.test:8090/styles/fleet/style.json';
  beforeAll(async () => {
    t = await createTestApp({ mapStyleUrl: styleUrl });
  });
  afterAll(async () => t.close());

  it('answers the style the server was started with, without signing in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/web-config' });
    expect(res.statusCode).toBe(200);
    expect(webConfigSchema.parse(res.json())).toEqual({ mapStyleUrl: styleUrl, osmandPort: t.config.osmandPort || null });
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  it('lets the browser fetch the style and its tiles from a plain-http host (content security policy)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/web-config' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src[^;]*http:\/\/tiles\.carrier\.test:8090/);
    expect(csp).toMatch(/img-src[^;]*http:\/\/tiles\.carrier\.test:8090/);
  });
});

describe('GET /api/v1/startup-progress', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('says how far a first start has seeded the demo data, without signing in, and done once it is', async () => {
    const get = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/startup-progress' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      return startupProgressSchema.parse(res.json());
    };
    expect(await get()).toEqual({ seeding: false, percent: 100, step: null });
    t.app.startup.begin({ organizations: 1, 'demo history': 3 }, () => undefined);
    t.app.startup.at('demo history', 0.5);
    // 1 + 1.5 of 4 shares.
    expect(await get()).toEqual({ seeding: true, percent: 62, step: 'demo history' });
    t.app.startup.done();
    expect(await get()).toEqual({ seeding: false, percent: 100, step: null });
  });
});
