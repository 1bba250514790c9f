import { DEFAULT_MAP_STYLE_URL, webConfigSchema } from '@fleet/api-contract';
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
