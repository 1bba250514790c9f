import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roadsideCaSchema, roadsideCaSentSchema } from '@fleet/api-contract';
import { bearer, createTestApp, expectFieldErrors, login, readOutbox, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';
import { lastResetAt } from './roadside-ca.ts';

// The Canadian roadside view (issue 72) through HTTP: the 15 days with their cycle totals, the PDF
// and its e-mail to an officer; who may read them.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const H = 3_600_000;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
type Headers = Record<string, string>;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload: object) => t.app.inject({ method: 'POST', url, headers, payload });

let serial = 0;
/** A Canadian driver (Toronto, cycle 1) invited through the driver form, signed in with the Driver role. */
async function canadianDriver() {
  const email = `ca${Date.now().toString(36)}${++serial}@demofreight.test`;
  const created = await post(
    org('/drivers'),
    a.admin,
    driverBody({ email, invite: true, firstName: 'Émilie', homeTimeZone: 'America/Toronto', ruleset: 'CA_SOUTH_CYCLE_1', licenseState: 'ON' }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const driver = created.json() as { id: string; firstName: string; lastName: string };
  const mail = readOutbox(t.dataDir)
    .filter((m) => m.to === email)
    .at(-1)!;
  const token = /create-new-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  const password = 'Driver#Pass2026';
  expect((await post('/api/v1/auth/create-new-password', {}, { token, password })).statusCode).toBe(204);
  const session = await login(t.app, { email, password }, `10.9.${serial % 250}.1`);
  return { driver, headers: bearer(session.accessToken) };
}

/** 40 h off (a cycle-1 reset, complete 36 h in), then 2 h on duty, 6 h driving, 1 h on duty, 10 h off: ending an hour ago. */
async function withRecords(driverId: string) {
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 60 * H;
  let ms = start;
  const spec: Array<[string, number]> = [
    ['OFF', 40],
    ['ON', 2],
    ['D', 6],
    ['ON', 1],
    ['OFF', 10],
  ];
  const periods = spec.map(([status, hours]) => ({ status, start: new Date(ms).toISOString(), end: new Date((ms += hours * H)).toISOString() }));
  const res = await post(org(`/drivers/${driverId}/hos_log/import`), a.admin, { source: 'Previous ELD', periods });
  expect(res.statusCode, res.body).toBe(201);
  return { resetAt: start + 36 * H };
}

describe('the last cycle reset', () => {
  const p = (status: 'OFF' | 'SB' | 'D' | 'ON', start: number, end: number) => ({ status, start: start * H, end: end * H });

  it('is 36 h into the latest long enough off-duty stretch, sleeper berth counted as off', () => {
    const periods = [p('OFF', 0, 20), p('SB', 20, 40), p('D', 40, 50), p('OFF', 50, 70), p('ON', 70, 72)];
    expect(lastResetAt(periods, 72 * H, 36 * H)).toBe(36 * H);
    // A stretch still running counts once it is long enough, not before.
    expect(lastResetAt([...periods.slice(0, 3), p('OFF', 50, 90)], 90 * H, 36 * H)).toBe(86 * H);
    expect(lastResetAt([...periods.slice(0, 3), p('OFF', 50, 90)], 85 * H, 36 * H)).toBe(36 * H);
  });

  it('is none without a long enough stretch, across a gap in the records or without a restart rule', () => {
    expect(lastResetAt([p('OFF', 0, 30), p('D', 30, 40)], 40 * H, 36 * H)).toBeNull();
    expect(lastResetAt([p('OFF', 0, 20), p('OFF', 21, 40), p('D', 40, 41)], 41 * H, 36 * H)).toBeNull();
    expect(lastResetAt([p('OFF', 0, 80)], 80 * H, 72 * H)).toBe(72 * H);
    expect(lastResetAt([p('OFF', 0, 80)], 80 * H, null)).toBeNull();
  });
});

describe('the Canadian roadside view', () => {
  it('shows the inspected day and the 14 days before it, with the cycle totals at each day end', async () => {
    const me = await canadianDriver();
    const { resetAt } = await withRecords(me.driver.id);
    const before = Date.now();
    const res = await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca`), me.headers);
    expect(res.statusCode, res.body).toBe(200);
    const view = roadsideCaSchema.parse(res.json());
    expect(view).toMatchObject({ ruleset: 'CA_SOUTH_CYCLE_1', timeZone: 'America/Toronto', driver: { id: me.driver.id, lastName: me.driver.lastName } });
    expect(view.days).toHaveLength(15);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Toronto' }).format(new Date(before));
    expect(view.date).toBe(today);
    expect(view.days[0]!.date).toBe(today);
    expect(view.days[14]!.date).toBe(view.from);
    // Consecutive days, newest first.
    for (let i = 1; i < 15; i++) expect(Date.parse(view.days[i - 1]!.date) - Date.parse(view.days[i]!.date)).toBe(24 * H);
    const now = view.days[0]!.cycle;
    expect(now.onDutyMs).toBe(9 * H);
    expect(now.remainingMs).toBe(61 * H);
    expect(now.lastResetAt).toBe(new Date(resetAt).toISOString());
    expect(Math.abs(now.sinceResetMs! - (Date.parse(now.at) - resetAt))).toBe(0);
    expect(Math.abs(Date.parse(now.at) - before)).toBeLessThan(60_000);
    // Days on the records have a log; the older ones none, and no cycle reset in reach.
    expect(view.days.slice(0, 2).every((d) => d.id !== null)).toBe(true);
    expect(view.days[14]).toMatchObject({ id: null, certified: false, cycle: { onDutyMs: 0, lastResetAt: null, sinceResetMs: null } });
    const worked = view.days.filter((d) => d.id).reduce((s, d) => s + d.totals.D + d.totals.ON, 0);
    expect(worked).toBe(9 * H);

    // An earlier day asked for: it is the first of the 15, its cycle totals at its end.
    const earlier = roadsideCaSchema.parse((await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca?date=${view.days[5]!.date}`), me.headers)).json());
    expect(earlier.days[0]!.date).toBe(view.days[5]!.date);
    expect(earlier.days).toHaveLength(15);
    expect(earlier.days[0]!.cycle.onDutyMs).toBe(0);
  });

  it('refuses a day after today or not a date, and another organization or another driver', async () => {
    const me = await canadianDriver();
    const url = (q = '') => org(`/drivers/${me.driver.id}/hos_log/roadside-ca${q}`);
    expectFieldErrors((await get(url('?date=2099-01-01'), me.headers)).json(), 400, { date: 'Date must not be after today' });
    expectFieldErrors((await get(url('?date=monday'), me.headers)).json(), 400, { 'querystring.date': 'Date must be a date like 2026-06-01' });
    expect((await get(url(), a.other)).statusCode).toBe(404);
    expect((await get(url(), (await canadianDriver()).headers)).statusCode).toBe(404);
    expect((await get(url(), await userWithPermissions(t, a.orgId, ['HOS_LIST']))).statusCode).toBe(403);
    // The office reads any of its drivers.
    expect((await get(url(), a.dispatcher)).statusCode).toBe(200);
  });

  it('makes a PDF holding the driver, the 15 days and the cycle totals', async () => {
    const me = await canadianDriver();
    await withRecords(me.driver.id);
    const view = roadsideCaSchema.parse((await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca`), me.headers)).json());
    const res = await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca.pdf`), me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(new RegExp(`filename="daily-log-ca-${me.driver.lastName}-.*-${view.date}\\.pdf"`));
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain(`Émilie ${me.driver.lastName}`);
    for (const d of view.days) expect(text).toContain(d.date);
    expect(text).toContain('Principal place of business');
    expect(text).toContain('Since last cycle reset');
    expect(text).toContain('Canada south, cycle 1');
    // The cycle now: 9 h on duty, 61 h left.
    expect(text).toContain('9:00');
    expect(text).toContain('61:00');
    expect((await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca.pdf`), a.other)).statusCode).toBe(404);
    expect((await get(org(`/drivers/${me.driver.id}/hos_log/roadside-ca.pdf`), a.dispatcher)).statusCode).toBe(200);
  });

  it('sends the PDF by e-mail to the address the officer gives, and logs it', async () => {
    const me = await canadianDriver();
    await withRecords(me.driver.id);
    const url = org(`/drivers/${me.driver.id}/hos_log/roadside-ca/email`);
    const outboxBefore = readOutbox(t.dataDir).length;
    expectFieldErrors((await post(url, me.headers, { email: 'officer' })).json(), 400, { email: 'Email must be a valid email address' });
    expect(readOutbox(t.dataDir)).toHaveLength(outboxBefore);
    const res = await post(url, me.headers, { email: 'Agent@Mto.Example' });
    expect(res.statusCode, res.body).toBe(200);
    const sent = roadsideCaSentSchema.parse(res.json());
    expect(sent).toMatchObject({ sentTo: 'agent@mto.example', fileName: expect.stringMatching(/^daily-log-ca-.*\.pdf$/) });
    const mail = readOutbox(t.dataDir)
      .filter((m) => m.to === 'agent@mto.example')
      .at(-1) as unknown as { subject: string; attachments: Array<{ filename: string; content: string; contentType: string; encoding: string }> };
    expect(mail.subject).toContain(me.driver.lastName);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: sent.fileName, contentType: 'application/pdf', encoding: 'base64' });
    const pdf = Buffer.from(mail.attachments[0]!.content, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(pdf)).toContain(sent.from);
    expect((await activityRows(t.database.db as never, me.driver.id)).map((r) => r.action)).toContain('SEND_ROADSIDE_CA');
    expect((await post(url, a.other, { email: 'agent@mto.example' })).statusCode).toBe(404);
    expect((await post(url, (await canadianDriver()).headers, { email: 'agent@mto.example' })).statusCode).toBe(404);
  });
});

/** The PDF's text, as poppler's pdftotext reads it. */
function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roadside-ca-'));
  const file = path.join(dir, 'log.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
