import fs from 'node:fs';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDataCheckValue, lineDataCheckValue, writeEldFile } from '@fleet/eld';
import { driverWeek } from '../../../../packages/eld/src/testing/driver-week.ts';
import { eldWebService } from '../modules/eld-transfer/eld-web-service.ts';
import { EldTransferError } from '../modules/eld-transfer/eld-transfer.errors.ts';
import { makeTestCertificates, type TestCertificates } from './fmcsa-certs.ts';
import { startFmcsaStandIn, type FmcsaStandIn } from './fmcsa-stand-in.ts';
import { validateEldFile } from './fmcsa-validator.ts';

// The FMCSA stand-in itself: its validator finds what FMCSA's finds (and passes a correct file), and
// its server speaks the WSDL's SOAP only to a client certificate of the test CA.

const week = writeEldFile(driverWeek(), { lineEnding: '\r' });
const params = {
  registrationId: driverWeek().header.eld.registrationId,
  eldIdentifier: driverWeek().header.eld.identifier,
  fileName: `${week.fileName}.csv`,
  comment: driverWeek().header.outputFileComment,
};
const names = (body: string, p = params) => validateEldFile(body, p).map((m) => `${m.type} ${m.message} line ${m.line}`);

/** The file with line `n` (1-based) replaced, its line check value and the file's made right again. */
function withLine(body: string, n: number, edit: (fields: string[]) => string[]): string {
  const lines = body.split('\r');
  const fields = lines[n - 1]!.split(',');
  const next = edit(fields.slice(0, -1));
  lines[n - 1] = [...next, lineDataCheckValue(next.join(','))].join(',');
  const checks = lines.filter((l) => /,[0-9A-F]{2}$/.test(l)).map((l) => l.slice(-2));
  lines[lines.length - 2] = fileDataCheckValue(checks);
  return lines.join('\r');
}

describe('the validator', () => {
  it('passes a correct file of 8 days with every kind of record', () => {
    expect(validateEldFile(week.text, params)).toEqual([]);
  });

  it('warns of CR LF line ends (Invalid Line Delimiter) on the first line so ended', () => {
    expect(names(week.text.replace(/\r/g, '\r\n'))).toEqual(['Warning Invalid Line Delimiter line 1']);
  });

  it('finds a date written YYMMDD (Invalid Date), naming the line and the columns of the field', () => {
    const lines = week.text.split('\r');
    const n = lines.indexOf('ELD Event List:') + 2;
    const bad = withLine(week.text, n, (f) => f.map((v, i) => (i === 5 ? `${v.slice(4)}${v.slice(0, 4)}` : v)));
    const found = validateEldFile(bad, params).filter((m) => m.type === 'Error');
    const start = lines[n - 1]!.split(',').slice(0, 5).join(',').length + 2;
    expect(found[0]).toMatchObject({ message: 'Invalid Date', line: n, start, end: start + 5 });
    // Its event check value does not change (the same characters): only the date is wrong.
    expect(found.map((m) => m.message)).toEqual(['Invalid Date']);
  });

  it('finds a wrong line check value and, then, a wrong file check value', () => {
    const lines = week.text.split('\r');
    const n = lines.indexOf('User List:') + 2;
    lines[n - 1] = lines[n - 1]!.replace(/,[0-9A-F]{2}$/, (c) => (c === ',00' ? ',01' : ',00'));
    expect(names(lines.join('\r'))).toEqual([`Error Invalid Check Value line ${n}`, `Error Invalid Check Value line ${lines.length - 1}`]);
  });

  it('finds a field too long, a missing required field and an order number outside its list', () => {
    const lines = week.text.split('\r');
    const header = withLine(week.text, 2, (f) => [f[0]!.padEnd(31, 'x'), '', ...f.slice(2)]);
    expect(names(header)).toEqual(['Error Invalid Field Length line 2', 'Error Missing Required Field line 2']);
    const n = lines.indexOf("Driver's Certification/Recertification Actions:") + 2;
    expect(names(withLine(week.text, n, (f) => [...f.slice(0, 5), '42']))).toEqual([`Error Context Dependent line ${n}`]);
  });

  it('warns when the registration id, the comment or the file name submitted differ from the file (Parameter Mismatch)', () => {
    expect(names(week.text, { ...params, registrationId: 'ZZ99' })).toEqual(['Warning Parameter Mismatch line 8']);
    expect(names(week.text, { ...params, comment: 'another' })).toEqual(['Warning Parameter Mismatch line 8']);
    expect(names(week.text, { ...params, fileName: 'Smith0000000000-000000000.csv' })).toEqual(['Warning Parameter Mismatch line 1']);
  });

  it('finds a missing section', () => {
    const cut = week.text.replace('ELD Login/Logout Report:\r', '');
    expect(names(cut).filter((m) => m.includes('Missing File Line'))).toHaveLength(1);
  });
});

describe('the server', () => {
  let certs: TestCertificates;
  let standIn: FmcsaStandIn;
  beforeAll(async () => {
    certs = makeTestCertificates();
    standIn = await startFmcsaStandIn({ certs, registration: { registrationId: params.registrationId, eldIdentifier: params.eldIdentifier } });
  });
  afterAll(async () => {
    await standIn?.close();
    if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
  });

  const client = (over: Partial<Parameters<typeof eldWebService>[0]> = {}) =>
    eldWebService({
      url: standIn.url,
      credentials: { cert: fs.readFileSync(certs.clientCert), key: fs.readFileSync(certs.clientKey) },
      ca: fs.readFileSync(certs.ca),
      identity: { registrationId: params.registrationId, eldIdentifier: params.eldIdentifier },
      timeoutMs: 10_000,
      ...over,
    });
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err instanceof EldTransferError ? err.failure : `not an EldTransferError: ${(err as Error).message}`;
    }
    return 'no failure';
  };

  it('receives a test submission through the client: Information, Test Information and File Received, the file as sent', async () => {
    const r = await client().submit({ fileBody: week.text, comment: params.comment, fileName: params.fileName, test: true });
    expect(r.status).toBe('Information');
    expect(r.errors.map((e) => e.message)).toEqual(['Test Information', 'File Received']);
    expect(r.errorCount).toBe(2);
    const got = standIn.submissions.at(-1)!;
    expect(got.submissionId).toBe(r.submissionId);
    expect(got.fileBody).toBe(week.text);
    expect(got.clientCertificate).toBe('Fleetline test ELD provider');
    const valid = await client().submit({ fileBody: week.text, comment: params.comment, fileName: params.fileName, test: false });
    expect([valid.status, valid.errors]).toEqual(['Valid', []]);
  });

  it('takes the PKCS #12 file of the same pair', async () => {
    const pfx = client({ credentials: { pfx: fs.readFileSync(certs.clientPfx), passphrase: certs.pfxPassword } });
    expect((await pfx.ping()).status).toBe('Success');
  });

  it('answers the errors of a broken file with their lines', async () => {
    const r = await client().submit({ fileBody: week.text.replace(/\r/g, '\r\n'), comment: params.comment, fileName: params.fileName, test: true });
    expect(r.status).toBe('Warning');
    expect(r.errors).toEqual([expect.objectContaining({ errorType: 'Warning', message: 'Invalid Line Delimiter', line: 1 })]);
  });

  it('refuses a client without a certificate, or with one the test CA did not sign, at the handshake', async () => {
    const bare = await new Promise<string>((resolve) => {
      const req = https.request(standIn.url, { method: 'POST', ca: fs.readFileSync(certs.ca), agent: false }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(`refused: ${err.code}`));
      req.end('<x/>');
    });
    expect(bare).toMatch(/^refused: /);
    const stranger = client({ credentials: { cert: fs.readFileSync(certs.strangerCert), key: fs.readFileSync(certs.strangerKey) } });
    expect(['TLS', 'CONNECTION']).toContain(await failure(stranger.ping()));
    // And a client that does not trust the stand-in's CA refuses it.
    expect(await failure(client({ ca: undefined }).ping())).toBe('TLS');
  });

  it('answers a Ping of another registration InvalidRegistrationData, and fails Pings when told to', async () => {
    expect((await client({ identity: { registrationId: 'ZZ99', eldIdentifier: 'OTHER1' } }).ping()).status).toBe('InvalidRegistrationData');
    try {
      standIn.pingMode = 'UnexpectedError';
      expect((await client().ping()).status).toBe('UnexpectedError');
      standIn.pingMode = 'fault';
      expect(await failure(client().ping())).toBe('SOAP_FAULT');
      standIn.pingMode = 'http503';
      expect(await failure(client().ping())).toBe('HTTP_STATUS');
      standIn.pingMode = 'hangup';
      expect(await failure(client().ping())).toBe('CONNECTION');
    } finally {
      standIn.pingMode = 'Success';
    }
  });

  it('a connection refused is a CONNECTION failure naming the host', async () => {
    const closed = client({ url: 'https://127.0.0.1:1/ELDSubmissionService.svc' });
    const err = await closed.ping().catch((e: unknown) => e as EldTransferError);
    expect(err).toBeInstanceOf(EldTransferError);
    expect((err as EldTransferError).failure).toBe('CONNECTION');
    expect((err as Error).message).toContain('127.0.0.1:1');
  });
});
