import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWebhookPools, postWebhook, RequestCutter, RESPONSE_LIMIT, webhookHeaders } from './webhook-target.ts';

// The one HTTP request of a webhook attempt (issue 48): what counts as delivered, what is kept of a
// failure, and what bounds the wait, against a real receiver on loopback.

const hits: string[] = [];
let base = '';
const server = http.createServer((req, res) => {
  hits.push(req.url!);
  req.resume();
  req.on('end', () => {
    if (req.url === '/big-ok') return res.writeHead(200).end('x'.repeat(100_000));
    if (req.url === '/big-fail') return res.writeHead(500).end(`boom ${'y'.repeat(10_000)}`);
    if (req.url === '/redirect') return res.writeHead(302, { location: `${base}/elsewhere` }).end();
    if (req.url === '/busy') return res.writeHead(503, { 'retry-after': '7' }).end('busy');
    if (req.url === '/silent') return; // never answers
    res.writeHead(204).end();
  });
});
const rules = { allowHttp: true, allowPrivate: true, timeoutMs: 2000 };
const headers = webhookHeaders('msg_1', 1, 'v1,x');

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeWebhookPools();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('postWebhook', () => {
  it('counts a 2xx as delivered, however long its body (read up to the limit, then the connection closed)', async () => {
    expect(await postWebhook(`${base}/ok`, headers, '{}', rules)).toMatchObject({ status: 204, error: null });
    expect(await postWebhook(`${base}/big-ok`, headers, '{}', rules)).toMatchObject({ status: 200, error: null });
    // The pool still works after the cut connection.
    expect(await postWebhook(`${base}/ok`, headers, '{}', rules)).toMatchObject({ status: 204, error: null });
  });

  it('keeps the first bytes of a failure, and Retry-After', async () => {
    const r = await postWebhook(`${base}/big-fail`, headers, '{}', rules);
    expect(r.status).toBe(500);
    expect(r.error).toMatch(/^HTTP 500: boom y+$/);
    expect(r.error!.length).toBeLessThanOrEqual(500 + 'HTTP 500: '.length);
    expect(RESPONSE_LIMIT).toBeGreaterThan(500);
    expect(await postWebhook(`${base}/busy`, headers, '{}', rules)).toMatchObject({ status: 503, error: 'HTTP 503: busy', retryAfterS: 7 });
  });

  it('does not follow a redirect', async () => {
    hits.length = 0;
    const r = await postWebhook(`${base}/redirect`, headers, '{}', rules);
    expect(r).toMatchObject({ status: 302 });
    expect(r.error).toContain('redirects are not followed');
    expect(hits).toEqual(['/redirect']);
  });

  it('gives up on a silent receiver after the timeout, and when the sender cuts its round', async () => {
    const t0 = performance.now();
    const timedOut = await postWebhook(`${base}/silent`, headers, '{}', { ...rules, timeoutMs: 300 });
    expect(timedOut).toMatchObject({ status: null, error: 'No complete answer within 0.3 s' });
    expect(performance.now() - t0).toBeLessThan(2000);

    const cutter = new RequestCutter();
    const pending = postWebhook(`${base}/silent`, headers, '{}', { ...rules, cutter });
    setTimeout(() => cutter.cut(), 100);
    expect(await pending).toMatchObject({ status: null, error: 'No complete answer within 2 s' });
    // A request started after the cut is not sent at all. (Its own path: the cut /silent request
    // may reach the receiver only now, on a loaded machine.) One sent after it, uncut, has arrived
    // by the time it is answered.
    hits.length = 0;
    expect(await postWebhook(`${base}/after-cut`, headers, '{}', { ...rules, cutter })).toMatchObject({ status: null });
    expect(await postWebhook(`${base}/ok`, headers, '{}', rules)).toMatchObject({ status: 204 });
    expect(hits).toContain('/ok');
    expect(hits).not.toContain('/after-cut');
  });

  it('refuses a private address unless the operator allows it', async () => {
    const r = await postWebhook(`${base}/ok`, headers, '{}', { ...rules, allowPrivate: false });
    expect(r).toMatchObject({ status: null, error: 'URL must not point at a private, loopback or link-local address' });
  });
});
