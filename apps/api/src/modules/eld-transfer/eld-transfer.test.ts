import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile } from '@fleet/eld';
import { eldTransferPageSchema, eldTransferSchema, eldTransferStatusSchema, type EldTransfer } from '@fleet/api-contract';
import { testConfig } from '../../config.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, login, readOutbox, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';
import { makeTestCertificates, type TestCertificates } from '../../test/fmcsa-certs.ts';
import { startFmcsaStandIn, type FmcsaStandIn } from '../../test/fmcsa-stand-in.ts';
import { freePort } from '../../test/server-process.ts';
import { eldWebService } from './eld-web-service.ts';
import { transferReadiness } from './eld-transfer.setup.ts';

// The roadside transfer through HTTP (issue 45): the driver's records sent to the FMCSA stand-in over
// HTTPS with the provider's client certificate, answers recorded and listed, failures recorded, bad
// input refused, other organizations not reached; the e-mail path through the outbox, decrypted and
// verified with openssl.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let certs: TestCertificates;
let standIn: FmcsaStandIn;
/** The demo driver of tractor 101, signed in. */
let driver: { headers: Record<string, string>; driverId: string; userId: string };
let driver2: { headers: Record<string, string>; driverId: string };

beforeAll(async () => {
  certs = makeTestCertificates();
  standIn = await startFmcsaStandIn({ certs });
  t = await createTestApp({
    eldTransfer: {
      ...testConfig().eldTransfer,
      url: standIn.url,
      clientCert: certs.clientCert,
      clientKey: certs.clientKey,
      ca: certs.ca,
      // FMCSA's certificate for the e-mail: the stand-in's own pair plays it here.
      fmcsaCert: certs.serverCert,
      from: 'Demo Freight ELD <eld@demofreight.test>',
    },
  });
  a = await registryActors(t.app);
  const s1 = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' }, '10.45.0.1');
  const s2 = await login(t.app, { email: 'driver2@demofreight.test', password: 'Driver#2026' }, '10.45.0.2');
  driver = { headers: bearer(s1.accessToken), driverId: s1.user.driverId!, userId: s1.user.id };
  driver2 = { headers: bearer(s2.accessToken), driverId: s2.user.driverId! };
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
  if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
});

const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const sendUrl = (driverId: string, orgId = a.orgId) => org(`/drivers/${driverId}/hos_log/eld-transfer`, orgId);
const send = (driverId: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: sendUrl(driverId), headers, payload: payload as object });
const list = async (headers: Record<string, string>, q = '') => {
  const res = await t.app.inject({ method: 'GET', url: org(`/hos_log/eld-transfers${q}`), headers });
  expect(res.statusCode, res.body).toBe(200);
  return eldTransferPageSchema.parse(res.json());
};
const count = async (table: string) =>
  Number(((await t.database.db.execute(`select count(*)::int as n from ${table}` as never)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

describe('sending by web service', () => {
  it('sends the driver their 8 days with the officer comment: received by FMCSA (test), as the stand-in answered', async () => {
    const res = await send(driver.driverId, driver.headers, { method: 'WEB_SERVICE', outputFileComment: 'ROADSIDE 7-A' });
    expect(res.statusCode, res.body).toBe(200);
    const body = eldTransferSchema.parse(res.json());
    const got = standIn.submissions.at(-1)!;
    expect(body).toMatchObject({
      method: 'WEB_SERVICE',
      test: true,
      status: 'INFORMATION',
      submissionId: got.submissionId,
      outputFileComment: 'ROADSIDE 7-A',
      driverId: driver.driverId,
      reason: null,
    });
    expect(body.errors.map((e) => [e.type, e.message])).toEqual([
      ['INFORMATION', 'Test Information'],
      ['INFORMATION', 'File Received'],
    ]);
    expect(body.fileName).toMatch(/^.{25}$/);
    // The submission: the provider's certificate, a test, the comment, the file named as 4.8.2.2 says.
    expect(got).toMatchObject({
      registrationId: 'FLT0',
      eldIdentifier: 'FLTLN1',
      comment: 'ROADSIDE 7-A',
      fileName: `${body.fileName}.csv`,
      test: true,
      clientCertificate: 'Fleetline test ELD provider',
    });
    // The file: lines ending with a CR alone, the comment in its header, today and the 7 days before, dates MMDDYY.
    expect(got.fileBody).not.toContain('\n');
    expect(got.fileBody.endsWith('\r')).toBe(true);
    const file = parseEldFile(got.fileBody);
    expect(file.header.outputFileComment).toBe('ROADSIDE 7-A');
    const today = body.to;
    expect(Date.parse(`${today}T00:00:00Z`) - Date.parse(`${body.from}T00:00:00Z`)).toBe(7 * 86_400_000);
    const currentDate = got.fileBody.split('\r')[6]!.split(',')[0];
    expect(currentDate).toBe(`${today.slice(5, 7)}${today.slice(8, 10)}${today.slice(2, 4)}`);
    expect(got.messages).toEqual([]);
    // Recorded, listed, in the activity log.
    expect((await list(driver.headers)).content[0]).toEqual(body);
    expect((await activityRows(t.database.db as never, driver.driverId)).map((r) => r.action)).toContain('SEND_ELD_TRANSFER');
  });

  it('the office sends for a driver with HOS_EDIT; from and to choose the days', async () => {
    const res = await send(driver2.driverId, a.admin, { method: 'WEB_SERVICE', outputFileComment: '', from: '2026-01-01', to: '2026-01-03' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'INFORMATION', from: '2026-01-01', to: '2026-01-03', outputFileComment: '', sentBy: expect.any(String) });
    expect(standIn.submissions.at(-1)!.comment).toBe('');
    // A comma cannot stand in a field of the file: the file and the submission say ';' alike.
    const comma = await send(driver2.driverId, a.admin, { method: 'WEB_SERVICE', outputFileComment: ' LOT 4, BAY 2 ' });
    expect(comma.json()).toMatchObject({ status: 'INFORMATION', outputFileComment: 'LOT 4; BAY 2' });
    expect(standIn.submissions.at(-1)).toMatchObject({ comment: 'LOT 4; BAY 2', messages: [] });
  });

  it("a send is a submission on the driver's behalf: HOS_EDIT or the driver's HOS_SELF_WRITE, never a read code alone (issue 66)", async () => {
    const [before, sent] = [await count('eld_transfers'), standIn.submissions.length];
    const body = { method: 'WEB_SERVICE', outputFileComment: 'READ ONLY' };
    // The dispatcher reads every log (HOS_READ) but edits none; a driver role without the write code.
    const readers = [a.dispatcher, await userWithPermissions(t, a.orgId, ['HOS_LIST', 'HOS_READ']), await userWithPermissions(t, a.orgId, ['HOS_SELF_READ'])];
    for (const headers of readers) expectErrorBody((await send(driver2.driverId, headers, body)).json(), 403);
    expect([await count('eld_transfers'), standIn.submissions.length]).toEqual([before, sent]);
    // The office's write code reaches any driver of the organization; the driver's reaches their own only.
    const editor = await userWithPermissions(t, a.orgId, ['HOS_LIST', 'HOS_READ', 'HOS_EDIT']);
    expect((await send(driver2.driverId, editor, { ...body, outputFileComment: 'EDITOR' })).statusCode).toBe(200);
    expect((await send(driver2.driverId, driver.headers, body)).statusCode).toBe(404);
  });

  it('a file FMCSA finds broken comes back ERROR with each message and its line', async () => {
    const real = t.app.eldTransfer.webService;
    // The file as an older ELD wrote it: dates YYMMDD.
    t.app.eldTransfer.webService = (opts) => {
      const c = eldWebService(opts);
      return { ...c, submit: (s) => c.submit({ ...s, fileBody: s.fileBody.replace(/^(\d{2})(\d{2})(\d{2}),(\d{6}),/m, '$3$1$2,$4,') }) };
    };
    try {
      const res = await send(driver.driverId, driver.headers, { method: 'WEB_SERVICE', outputFileComment: 'X1' });
      expect(res.statusCode, res.body).toBe(200);
      const body = eldTransferSchema.parse(res.json());
      expect(body.status).toBe('ERROR');
      expect(body.errors).toContainEqual(expect.objectContaining({ type: 'ERROR', message: 'Invalid Date', line: 7, start: 1, end: 6 }));
      expect((await list(driver.headers)).content[0]).toMatchObject({ id: body.id, status: 'ERROR' });
    } finally {
      t.app.eldTransfer.webService = real;
    }
  });

  it('a service that cannot be reached answers 502 with the reason, and the send is recorded FAILED', async () => {
    const config = t.app.eldTransfer.config;
    const url = config.url;
    config.url = `https://127.0.0.1:${await freePort()}/ELDSubmissionService.svc`;
    try {
      // The office reads the reason; the driver reads what to do.
      const res = await send(driver.driverId, a.admin, { method: 'WEB_SERVICE', outputFileComment: 'NO LINE' });
      const err = expectErrorBody(res.json(), 502);
      expect(err.message).toMatch(/FMCSA's web service \(127\.0\.0\.1:\d+\) could not be reached/);
      expect(err.technicalMessage).toContain('CONNECTION');
      const [last] = (await list(a.admin, `?driverId=${driver.driverId}`)).content;
      expect(last).toMatchObject({ status: 'FAILED', failure: 'CONNECTION', outputFileComment: 'NO LINE', submissionId: null, reason: err.message });
      const mine = expectErrorBody((await send(driver.driverId, driver.headers, { method: 'WEB_SERVICE', outputFileComment: 'NO LINE 2' })).json(), 502);
      expect(mine.message).toBe(
        'FMCSA could not take the file just now. Try again, or show the officer your logs on this screen or the downloaded ELD file, and tell your office if it keeps failing.',
      );
      expect(`${mine.message} ${mine.technicalMessage}`).not.toContain('127.0.0.1');
      expect((await list(driver.headers)).content[0]).toMatchObject({
        status: 'FAILED',
        failure: 'CONNECTION',
        outputFileComment: 'NO LINE 2',
        reason: mine.message,
      });
    } finally {
      config.url = url;
    }
    // A SOAP fault is a failure too.
    standIn.submitMode = 'fault';
    try {
      const res = await send(driver.driverId, a.admin, { method: 'WEB_SERVICE', outputFileComment: 'FAULT' });
      expect(expectErrorBody(res.json(), 502).message).toBe(
        "FMCSA's web service refused the Submit: The server was unable to process the request due to an internal error. (s:Receiver / a:InternalServiceFault)",
      );
      expect((await list(driver.headers)).content[0]).toMatchObject({ status: 'FAILED', failure: 'SOAP_FAULT', outputFileComment: 'FAULT' });
    } finally {
      standIn.submitMode = 'answer';
    }
  });

  it('refuses a bad body with a 400 naming the field, and sends and records nothing', async () => {
    const [before, sent] = [await count('eld_transfers'), standIn.submissions.length];
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ method: 'WEB_SERVICE', outputFileComment: 'x'.repeat(61) }, { outputFileComment: 'Output file comment must be at most 60 characters' }],
      [{ method: 'WEB_SERVICE', outputFileComment: 'Café 12' }, { outputFileComment: 'Output file comment may hold only printable ASCII characters' }],
      [{ method: 'FAX', outputFileComment: 'A' }, { method: 'Transfer method must be WEB_SERVICE or EMAIL' }],
      [{ method: 'WEB_SERVICE' }, { outputFileComment: 'Output file comment is a required field' }],
      [{ method: 'WEB_SERVICE', outputFileComment: 'A', from: '06/01/2026' }, { from: 'From must be a date like 2026-06-01' }],
    ];
    for (const [payload, fields] of cases) expectFieldErrors((await send(driver.driverId, driver.headers, payload)).json(), 400, fields);
    expectFieldErrors(
      (await send(driver.driverId, driver.headers, { method: 'WEB_SERVICE', outputFileComment: 'A', from: '2026-06-10', to: '2026-06-01' })).json(),
      400,
      { to: 'To must not be before From' },
    );
    expect([await count('eld_transfers'), standIn.submissions.length]).toEqual([before, sent]);
  });

  it("answers 404 for another organization's driver and organization, and for another driver's records to a driver", async () => {
    const theirs = await t.app.inject({ method: 'POST', url: org('/drivers', a.otherOrgId), headers: a.other, payload: driverBody() });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const body = { method: 'WEB_SERVICE', outputFileComment: 'A' };
    expect((await send(theirs.json().id, a.admin, body)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: sendUrl(driver.driverId), headers: a.other, payload: body })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfers'), headers: a.other })).statusCode).toBe(404);
    // A driver reaches only their own records.
    expect((await send(driver2.driverId, driver.headers, body)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: sendUrl(driver.driverId) })).statusCode).toBe(401);
  });
});

describe('the list', () => {
  it('pages newest first, filters by driver; a driver sees only their own', async () => {
    const all = await list(a.admin, '?size=500');
    expect(all.totalElements).toBeGreaterThanOrEqual(5);
    const times = all.content.map((x) => x.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const page = await list(a.admin, '?size=2&page=1');
    expect(page).toMatchObject({ page: 1, size: 2, totalElements: all.totalElements, totalPages: Math.ceil(all.totalElements / 2) });
    expect(page.content.map((x) => x.id)).toEqual(all.content.slice(2, 4).map((x) => x.id));
    const second = await list(a.admin, `?driverId=${driver2.driverId}`);
    expect(second.content.length).toBeGreaterThan(0);
    expect(second.content.every((x: EldTransfer) => x.driverId === driver2.driverId)).toBe(true);
    const own = await list(driver.headers);
    expect(own.content.every((x) => x.driverId === driver.driverId)).toBe(true);
    expect(own.totalElements).toBe(all.content.filter((x) => x.driverId === driver.driverId).length);
    expect((await t.app.inject({ method: 'GET', url: org(`/hos_log/eld-transfers?driverId=${driver2.driverId}`), headers: driver.headers })).statusCode).toBe(
      404,
    );
    expectFieldErrors((await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfers?driverId=x'), headers: a.admin })).json(), 400, {
      'querystring.driverId': 'driverId must be a driver id',
    });
  });
});

describe('sending by e-mail', () => {
  it('sends the file S/MIME to FMCSA: TEST in the subject, decrypted and verified by openssl, the attachment the file', async () => {
    const res = await send(driver.driverId, driver.headers, { method: 'EMAIL', outputFileComment: 'MAIL 12' });
    expect(res.statusCode, res.body).toBe(200);
    const body = eldTransferSchema.parse(res.json());
    expect(body).toMatchObject({ method: 'EMAIL', status: 'SENT', test: true, submissionId: null, errors: [] });
    const mail = readOutbox(t.dataDir)
      .filter((m) => m.to === 'fmcsaeldsub@dot.gov')
      .at(-1) as unknown as { subject: string; from: string; raw: string };
    expect(mail.subject).toMatch(/^TEST/);
    expect(mail.subject).toContain(`${body.fileName}.csv`);
    expect(mail.from).toBe('eld@demofreight.test');
    const dir = fs.mkdtempSync(path.join(certs.dir, 'mail-'));
    fs.writeFileSync(path.join(dir, 'message.eml'), mail.raw, 'latin1');
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    run(['cms', '-decrypt', '-in', 'message.eml', '-recip', certs.serverCert, '-inkey', certs.serverKey, '-out', 'signed.eml']);
    run(['cms', '-verify', '-in', 'signed.eml', '-CAfile', certs.ca, '-purpose', 'any', '-out', 'content.eml']);
    const content = fs.readFileSync(path.join(dir, 'content.eml'), 'latin1');
    const part = content.split(/\r?\n--/).find((p) => p.includes(`${body.fileName}.csv`))!;
    const base64 = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('')
      .replace(/[\r\n]|--$/g, '');
    const file = Buffer.from(base64, 'base64').toString('latin1');
    expect(file).not.toContain('\n');
    expect(parseEldFile(file).header.outputFileComment).toBe('MAIL 12');
  });
});

describe('the status of the transfer', () => {
  it('says both paths are ready here, test mode, and no check yet; drivers read it too', async () => {
    for (const headers of [a.admin, driver.headers]) {
      const res = await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfer-status'), headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(eldTransferStatusSchema.parse(res.json())).toEqual({
        test: true,
        webService: { ready: true, missing: [] },
        email: { ready: true, missing: [] },
        lastCheck: null,
      });
    }
    expect((await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfer-status'), headers: a.other })).statusCode).toBe(404);
  });

  it('names exactly what is missing', async () => {
    const none = testConfig().eldTransfer;
    expect(await transferReadiness(none)).toEqual({
      webService: { ready: false, missing: ['ELD_CLIENT_CERT and ELD_CLIENT_KEY (or ELD_CLIENT_PFX) are not set'] },
      email: { ready: false, missing: ['ELD_FMCSA_CERT is not set', 'ELD_CLIENT_CERT and ELD_CLIENT_KEY are not set'] },
    });
    const gone = path.join(certs.dir, 'nothing.pem');
    const broken = await transferReadiness({ ...none, clientCert: gone, clientKey: certs.clientKey, fmcsaCert: certs.clientKey });
    expect(broken.webService.missing).toEqual([`the file ${gone} named by ELD_CLIENT_CERT cannot be read (ENOENT)`]);
    expect(broken.email.missing).toEqual([
      `the file ${certs.clientKey} named by ELD_FMCSA_CERT is not a PEM certificate`,
      `the file ${gone} named by ELD_CLIENT_CERT cannot be read (ENOENT)`,
    ]);
    expect((await transferReadiness({ ...none, clientCert: certs.clientCert, clientKey: certs.serverKey })).webService.missing[0]).toMatch(
      /^the client certificate of ELD_CLIENT_CERT and ELD_CLIENT_KEY cannot be used: /,
    );
    expect((await transferReadiness({ ...none, pfx: certs.clientPfx, pfxPassword: 'wrong' })).webService.missing[0]).toMatch(
      /^the client certificate of ELD_CLIENT_PFX \(with ELD_CLIENT_PFX_PASSWORD\) cannot be used: /,
    );
    expect(await transferReadiness({ ...none, pfx: certs.clientPfx, pfxPassword: certs.pfxPassword })).toMatchObject({
      webService: { ready: true, missing: [] },
    });
  });

  it('a path that is not set up answers 409 and records the attempt: the office reads what to configure, the driver what to do (issue 66)', async () => {
    const config = t.app.eldTransfer.config;
    const saved = { ...config };
    Object.assign(config, { clientCert: undefined, clientKey: undefined, fmcsaCert: undefined });
    try {
      const [before, sent] = [await count('eld_transfers'), standIn.submissions.length];
      const driverWords =
        'Sending to FMCSA is not set up for your carrier yet. Show the officer your logs on this screen or the downloaded ELD file, and tell your office.';
      // The driver at the roadside: plain words, no server variable or file name anywhere.
      const web = await send(driver.driverId, driver.headers, { method: 'WEB_SERVICE', outputFileComment: 'ROADSIDE 9' });
      expect(web.statusCode).toBe(409);
      expect(expectErrorBody(web.json(), 409).message).toBe(driverWords);
      expect(web.body).not.toMatch(/ELD_|\.pem/);
      const own = await list(driver.headers);
      expect(own.content[0]).toMatchObject({
        method: 'WEB_SERVICE',
        status: 'FAILED',
        failure: 'NOT_SET_UP',
        outputFileComment: 'ROADSIDE 9',
        submissionId: null,
        reason: driverWords,
      });
      expect(JSON.stringify(own)).not.toContain('ELD_');
      const status = await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfer-status'), headers: driver.headers });
      expect(eldTransferStatusSchema.parse(status.json())).toMatchObject({ webService: { ready: false, missing: [] }, email: { ready: false, missing: [] } });
      // The office: the same record, naming what to configure; its own send says so too.
      const theirs = (await list(a.admin, `?driverId=${driver.driverId}`)).content[0]!;
      expect(theirs).toMatchObject({
        id: own.content[0]!.id,
        failure: 'NOT_SET_UP',
        reason: "FMCSA's web service is not set up on this server: ELD_CLIENT_CERT and ELD_CLIENT_KEY (or ELD_CLIENT_PFX) are not set",
      });
      const mail = expectErrorBody((await send(driver.driverId, a.admin, { method: 'EMAIL', outputFileComment: 'A' })).json(), 409);
      expect(mail.message).toContain('ELD_FMCSA_CERT is not set');
      expect((await list(a.admin, `?driverId=${driver.driverId}`)).content[0]).toMatchObject({
        method: 'EMAIL',
        status: 'FAILED',
        failure: 'NOT_SET_UP',
        reason: mail.message,
      });
      const officeStatus = eldTransferStatusSchema.parse(
        (await t.app.inject({ method: 'GET', url: org('/hos_log/eld-transfer-status'), headers: a.admin })).json(),
      );
      expect(officeStatus.email.missing).toContain('ELD_FMCSA_CERT is not set');
      // Both attempts recorded (and in the activity log), nothing reached FMCSA.
      expect([await count('eld_transfers'), standIn.submissions.length]).toEqual([before + 2, sent]);
    } finally {
      Object.assign(config, saved);
    }
  });
});
