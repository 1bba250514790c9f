import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { driverLogin, officeApi } from './driver-helpers.ts';
import { layoutSettled, signIn } from './helpers.ts';

// Issue 70 as people use it: at a delivery whose customer requires a proof of delivery, the driver
// photographs a two-page POD on the phone with no signal (a third page taken and removed), then taps
// Departed; both wait in the outbox. The signal returns: the paper is sent once (its first answer is
// lost on the way, the phone sends it again), then the departure, which the POD now lets through.
// The office opens the PDF from the load's page; the customer's tracking link shows it.

const PHONE = { width: 375, height: 812 };
const H = 3_600_000;
if (process.env.E2E_SHOTS_DIR) fs.mkdirSync(process.env.E2E_SHOTS_DIR, { recursive: true });

/** A PNG of one colour (a page told apart by its colour and size in the PDF). */
function pngOf(width: number, height: number, rgb: [number, number, number]): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    let c = 0xffffffff;
    for (const x of body) c = table[(c ^ x) & 0xff]! ^ (c >>> 8);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE((c ^ 0xffffffff) >>> 0, body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Where the pictures go besides the test's output folder (E2E_SHOTS_DIR), to look at after a run. */
function keep(file: string) {
  if (process.env.E2E_SHOTS_DIR) fs.copyFileSync(file, path.join(process.env.E2E_SHOTS_DIR, path.basename(file)));
}

/** The screen (or `target` on it) light and dark, 1280 and 375 px wide, when E2E_SHOTS or E2E_SHOTS_DIR asks. */
async function shots(page: Page, name: string, target?: Locator) {
  if (!process.env.E2E_SHOTS && !process.env.E2E_SHOTS_DIR) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((v) => {
      localStorage.setItem('fleet.colorScheme', v);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await layoutSettled(page);
      const file = test.info().outputPath(`${name}-${scheme}-${width}.png`);
      if (target) await target.screenshot({ path: file });
      else await page.screenshot({ path: file, fullPage: true });
      keep(file);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

test.use({ serviceWorkers: 'allow', viewport: PHONE, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

test('a two-page proof of delivery taken offline is sent once, lets the delivery complete, and opens as a PDF', async ({ page, request, browser, baseURL }) => {
  test.setTimeout(180_000);
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const customer = await request.post(`${office.org}/customers`, {
    headers: office.headers,
    data: { name: `POD Required ${Date.now().toString(36)}`, requiresPod: true },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const now = Date.now();
  const at = (ms: number) => new Date(ms).toISOString();
  const made = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customerId: ((await customer.json()) as { id: string }).id,
      poNumber: 'PO-7070',
      stops: [
        {
          kind: 'PICKUP',
          latitude: 41.85,
          longitude: -87.65,
          address: 'Chicago, IL',
          windowStart: at(now - 6 * H),
          windowEnd: at(now - 5 * H),
          serviceMinutes: 30,
        },
        {
          kind: 'DELIVERY',
          latitude: 39.77,
          longitude: -86.16,
          address: 'Indianapolis, IN',
          windowStart: at(now - H),
          windowEnd: at(now + H),
          serviceMinutes: 30,
        },
      ],
      rate: { lineHaul: 900 },
      driverIds: [account.driver.id],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const load = (await made.json()) as { id: string; number: string; stops: Array<{ id: string }> };
  // Picked up, and at the delivery (the dispatcher marked them).
  for (const [i, event, ago] of [
    [0, 'ARRIVE', 5],
    [0, 'DEPART', 4],
    [1, 'ARRIVE', 0.5],
  ] as const) {
    const r = await request.post(`${office.org}/loads/${load.id}/stops/${load.stops[i]!.id}/status`, {
      headers: office.headers,
      data: { event, at: at(now - ago * H) },
    });
    expect(r.status(), await r.text()).toBe(200);
  }

  await driverLogin(page, account);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  });
  const card = page.getByTestId('driver-loads');
  await expect(card).toContainText(load.number);
  await expect(card.getByTestId('pod-needed')).toHaveText('Proof of delivery required: photograph it before you depart');

  // No signal at the dock.
  await page.context().setOffline(true);
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toBeVisible();
  await card.getByRole('button', { name: 'Add a document at stop 2' }).click();
  const capture = page.getByTestId('document-capture');
  await expect(capture.getByLabel('Document')).toHaveValue('POD');
  const input = capture.locator('input[type="file"]');
  await input.setInputFiles({ name: 'page-1.png', mimeType: 'image/png', buffer: pngOf(600, 800, [200, 40, 40]) });
  await expect(capture.getByRole('img', { name: 'Page 1' })).toBeVisible();
  await input.setInputFiles({ name: 'page-2.png', mimeType: 'image/png', buffer: pngOf(800, 500, [40, 80, 200]) });
  await input.setInputFiles({ name: 'blurred.png', mimeType: 'image/png', buffer: pngOf(500, 500, [40, 160, 60]) });
  await expect(capture.getByTestId('document-page')).toHaveCount(3);
  // The third came out blurred: removed.
  await capture.getByRole('button', { name: 'Remove page 3' }).click();
  await expect(capture.getByTestId('document-page')).toHaveCount(2);
  await shots(page, 'pod-capture', card);

  // Counted: what the phone sends once the signal returns.
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/(documents|dvirs\/images|status)$/.test(new URL(r.url()).pathname))
      posts.push(new URL(r.url()).pathname.split('/').at(-1)!);
  });
  await capture.getByRole('button', { name: 'Send 2 pages' }).click();
  await expect(capture).toHaveCount(0);
  await expect(card.getByTestId('stop-paper-waiting')).toHaveText('Proof of delivery · 2 pages · waiting to be sent');
  await expect(card.getByTestId('pod-needed')).toHaveCount(0);
  await card.getByRole('button', { name: 'Departed stop 2' }).click();
  await expect(banner).toContainText('Offline: 2 records waiting');
  // Kept in IndexedDB: the paper with its two pages, and the departure after it.
  const kept = await page.evaluate(
    () =>
      new Promise<Array<{ kind: string; uploads: number }>>((resolve, reject) => {
        const open = indexedDB.open('fleetline-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('records').objectStore('records').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as Array<{ kind: string; seq: number; uploads: unknown[] }>)
                .sort((a, b) => a.seq - b.seq)
                .map((r) => ({ kind: r.kind, uploads: r.uploads.length })),
            );
        };
      }),
  );
  expect(kept).toEqual([
    { kind: 'DOCUMENT', uploads: 2 },
    { kind: 'STOP', uploads: 0 },
  ]);
  await shots(page, 'pod-waiting', card);

  // The signal returns; the paper's first answer is lost on the way, so the phone sends it again.
  let lost = 0;
  await page.route('**/documents', async (route) => {
    if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
    lost++;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.context().setOffline(false);
  await expect(banner).toContainText('Sent: 2 records', { timeout: 60_000 });
  expect(lost).toBe(1);
  // Two pages up once each, the paper twice (the resend), the departure once.
  expect(posts.filter((p) => p === 'images')).toHaveLength(2);
  expect(posts.filter((p) => p === 'documents')).toHaveLength(2);
  expect(posts.filter((p) => p === 'status')).toHaveLength(1);
  // Stored once; the departure passed the POD the customer requires: delivered.
  const docs = (await (await request.get(`${office.org}/loads/${load.id}/documents`, { headers: office.headers })).json()) as Array<{
    id: string;
    type: string;
    pageCount: number;
    stopId: string;
  }>;
  expect(docs.map((d) => [d.type, d.pageCount, d.stopId])).toEqual([['POD', 2, load.stops[1]!.id]]);
  const after = (await (await request.get(`${office.org}/loads/${load.id}`, { headers: office.headers })).json()) as { status: string };
  expect(after.status).toBe('DELIVERED');

  // The office opens the PDF from the load's page.
  const officeContext = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 900 },
    timezoneId: 'America/Chicago',
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
  });
  const officePage = await officeContext.newPage();
  await signIn(officePage, 'admin');
  await officePage.goto(`/dispatch/loads/${load.id}`);
  const documents = officePage.getByTestId('load-documents');
  await expect(documents.getByTestId('load-document')).toHaveCount(1);
  await expect(documents).toContainText('Proof of delivery · 2 pages');
  await expect(documents).toContainText(`Dana ${account.driver.lastName}`);
  // The tab shows the PDF (a browser with a PDF viewer), or saves it (the headless shell has none).
  const downloads: string[] = [];
  officeContext.on('page', (p) => p.on('download', (d) => downloads.push(d.suggestedFilename())));
  const [popup, pdf] = await Promise.all([
    officePage.waitForEvent('popup'),
    officePage.waitForResponse((r) => r.url().endsWith(`/documents/${docs[0]!.id}/pdf`)),
    documents.getByRole('button', { name: 'Open the proof of delivery (2 pages) as a PDF' }).click(),
  ]);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  // The browser's copy of the body is not kept for Playwright (the tab read it as a Blob): the same PDF read again, of the same length.
  const bytes = await (await request.get(`${office.org}/loads/${load.id}/documents/${docs[0]!.id}/pdf`, { headers: office.headers })).body();
  expect(Number(pdf.headers()['content-length'])).toBe(bytes.length);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect((bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(2);
  // The pages in the order taken: the tall red page, then the wide blue one (JPEGs of their size).
  expect([...bytes.toString('latin1').matchAll(/\/Width (\d+)\s*\/Height (\d+)/g)].map((m) => `${m[1]}x${m[2]}`)).toEqual(['600x800', '800x500']);
  const file = test.info().outputPath('pod.pdf');
  fs.writeFileSync(file, bytes);
  keep(file);
  await expect.poll(() => (popup.url().startsWith('blob:') ? 'shown' : downloads.length ? 'saved' : 'nothing')).not.toBe('nothing');
  await popup.close();
  await shots(officePage, 'pod-office', documents);
  await shots(officePage, 'pod-office-page');

  // The customer's tracking link shows it, now that the load is delivered.
  const link = await request.post(`${office.org}/loads/${load.id}/share-links`, { headers: office.headers, data: {} });
  expect(link.status(), await link.text()).toBe(201);
  const trackUrl = new URL(((await link.json()) as { url: string }).url);
  const customerContext = await browser.newContext({
    baseURL,
    viewport: PHONE,
    timezoneId: 'America/New_York',
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
  });
  const customerPage = await customerContext.newPage();
  await customerPage.goto(trackUrl.pathname);
  const pod = customerPage.getByTestId('track-pod');
  await expect(pod).toContainText('Proof of delivery');
  const open = pod.getByRole('link', { name: 'Open the PDF (2 pages)' });
  const href = (await open.getAttribute('href'))!;
  const fromLink = await request.get(href);
  expect(fromLink.status()).toBe(200);
  expect((await fromLink.body()).subarray(0, 5).toString()).toBe('%PDF-');
  for (const scheme of ['light', 'dark'] as const) {
    if (!process.env.E2E_SHOTS && !process.env.E2E_SHOTS_DIR) break;
    await customerPage.emulateMedia({ colorScheme: scheme });
    await layoutSettled(customerPage);
    const shot = test.info().outputPath(`pod-track-${scheme}-375.png`);
    await customerPage.screenshot({ path: shot, fullPage: true });
    keep(shot);
  }
  await customerContext.close();
  await officeContext.close();
});
