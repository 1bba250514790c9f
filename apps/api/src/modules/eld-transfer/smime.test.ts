import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEldSmimeMail, eldMailSubject } from './smime.ts';

// The S/MIME e-mail to FMCSA checked with a tool we did not write: OpenSSL decrypts it with a test key
// pair standing in for FMCSA's, verifies the provider's signature, and the attachment is compared byte
// for byte with the file.

const FILE = 'ELD File Header Segment:\rline2,foo\rUser List:\r1,D,SMITH,JOHN\rEnd of File:\r';
const FILE_NAME = 'SMITH12345678-010226-ABCDEFGHIJ.csv';

let dir: string;
const file = (name: string) => path.join(dir, name);
const pem = (name: string) => fs.readFileSync(file(name), 'utf8');

/** Runs openssl; the exit status and stderr, for the checks that expect a refusal. */
function openssl(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function mustOpenssl(args: string[]): string {
  const r = openssl(args);
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** The body parts of a multipart entity (headers and body of each, CRLF kept), by its boundary parameter. */
function partsOf(entity: string): Array<{ headers: string; body: string }> {
  const [head = '', ...rest] = entity.split('\r\n\r\n');
  const boundary = head.replace(/\r\n[ \t]+/g, ' ').match(/boundary="?([^";\r\n]+)"?/i)?.[1];
  if (!boundary) throw new Error(`not a multipart entity: ${head}`);
  const body = rest.join('\r\n\r\n');
  const chunks = body.split(`--${boundary}`);
  // Before the first delimiter: the preamble; after the close delimiter ("--" + epilogue): dropped.
  return chunks.slice(1, -1).map((chunk) => {
    const part = chunk.replace(/^\r\n/, '').replace(/\r\n$/, '');
    const at = part.indexOf('\r\n\r\n');
    return { headers: part.slice(0, at).replace(/\r\n[ \t]+/g, ' '), body: part.slice(at + 4) };
  });
}

let raw: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-smime-'));
  for (const [name, cn] of [
    ['fmcsa', 'FMCSA ELD test'],
    ['provider', 'ELD provider test'],
    ['other', 'Someone else'],
  ] as const) {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${cn}`],
      { cwd: dir, stdio: 'ignore' },
    );
  }
  raw = await buildEldSmimeMail({
    fileName: FILE_NAME,
    fileText: FILE,
    subject: eldMailSubject({ test: true, fileName: FILE_NAME, comment: 'ROUTE-42' }),
    from: 'eld@fleet.example',
    to: 'fmcsa-test@example.gov',
    recipientCertPem: pem('fmcsa.crt'),
    signerCertPem: pem('provider.crt'),
    signerKeyPem: pem('provider.key'),
    date: new Date('2026-02-01T12:34:56Z'),
    text: 'Output file comment: ROUTE-42\r\n',
  });
  fs.writeFileSync(file('message.eml'), raw, 'latin1');
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('buildEldSmimeMail', () => {
  it('is a 7-bit RFC 5322 message with the mail headers and an S/MIME enveloped-data body', () => {
    const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    expect(head).toMatch(/^From: eld@fleet\.example$/m);
    expect(head).toMatch(/^To: fmcsa-test@example\.gov$/m);
    expect(head).toMatch(/^Subject: TEST: ELD records - SMITH12345678-010226-ABCDEFGHIJ\.csv - ROUTE-42$/m);
    expect(head).toMatch(/^Date: Sun, 01 Feb 2026 12:34:56 \+0000$/m);
    expect(head).toMatch(/^Message-ID: <[0-9a-f-]{36}@fleet\.example>$/m);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(head).toMatch(/^Content-Type: application\/pkcs7-mime; smime-type=enveloped-data; name=smime\.p7m$/m);
    expect(head).toMatch(/^Content-Transfer-Encoding: base64$/m);
    expect(raw.split('\r\n').every((line) => line.length <= 998)).toBe(true);
    expect(/^[\t\r\n\x20-\x7e]*$/.test(raw)).toBe(true);
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    // Nothing of the file in the clear.
    expect(raw).not.toContain('ELD File Header Segment');
    expect(raw).not.toContain(Buffer.from(FILE).toString('base64').slice(0, 20));
  });

  it('is encrypted with AES-256-CBC to the recipient certificate', () => {
    const printed = mustOpenssl(['cms', '-cmsout', '-print', '-in', 'message.eml']);
    expect(printed).toMatch(/contentType: pkcs7-envelopedData/);
    expect(printed).toMatch(/contentEncryptionAlgorithm:\s*\n\s*algorithm: aes-256-cbc \(2\.16\.840\.1\.101\.3\.4\.1\.42\)/);
    expect(printed).toMatch(/CN=FMCSA ELD test/);
  });

  it('decrypts with the recipient key, verifies with the provider certificate, and carries the file byte for byte', () => {
    mustOpenssl(['cms', '-decrypt', '-recip', 'fmcsa.crt', '-inkey', 'fmcsa.key', '-in', 'message.eml', '-out', 'signed.eml']);
    const signed = fs.readFileSync(file('signed.eml'), 'latin1');
    expect(signed).toMatch(/^Content-Type: multipart\/signed; protocol="application\/pkcs7-signature";\s+micalg=sha-256;/);

    // The signature: SHA-256 by the provider's certificate, checked against it as the only trust anchor.
    const signature = partsOf(signed)[1]!;
    expect(signature.headers).toMatch(/Content-Type: application\/pkcs7-signature; name=smime\.p7s/);
    fs.writeFileSync(file('smime.p7s'), Buffer.from(signature.body, 'base64'));
    const printed = mustOpenssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'smime.p7s']);
    expect(printed).toMatch(/digestAlgorithm:\s*\n\s*algorithm: sha256/);
    expect(printed).toMatch(/CN=ELD provider test/);
    const verify = openssl(['cms', '-verify', '-CAfile', 'provider.crt', '-in', 'signed.eml', '-out', 'inner.eml']);
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stderr).toContain('Verification successful');

    // The signed entity: the text part and the file.
    const inner = fs.readFileSync(file('inner.eml'), 'latin1');
    expect(inner).toMatch(/^Content-Type: multipart\/mixed;/);
    const [text, attachment, ...more] = partsOf(inner);
    expect(more).toEqual([]);
    expect(text!.headers).toMatch(/Content-Type: text\/plain/);
    expect(text!.body).toBe('Output file comment: ROUTE-42\r\n');
    expect(attachment!.headers).toMatch(/Content-Type: application\/octet-stream; name=SMITH12345678-010226-ABCDEFGHIJ\.csv/);
    expect(attachment!.headers).toMatch(/Content-Disposition: attachment; filename=SMITH12345678-010226-ABCDEFGHIJ\.csv/);
    expect(attachment!.headers).toMatch(/Content-Transfer-Encoding: base64/);
    const bytes = Buffer.from(attachment!.body.replace(/\r\n/g, ''), 'base64');
    expect(bytes.equals(Buffer.from(FILE, 'latin1'))).toBe(true);
    expect(bytes.includes(0x0a)).toBe(false);
  });

  it('cannot be decrypted with another key', () => {
    const named = openssl(['cms', '-decrypt', '-recip', 'other.crt', '-inkey', 'other.key', '-in', 'message.eml', '-out', 'other-named.eml']);
    expect(named.status).not.toBe(0);
    // Without naming the recipient OpenSSL tries the key on every recipient and, against padding
    // oracles, decrypts with a random key when it does not fit: it fails, or yields noise.
    const any = openssl(['cms', '-decrypt', '-inkey', 'other.key', '-in', 'message.eml', '-out', 'other-any.eml']);
    const out = fs.existsSync(file('other-any.eml')) ? fs.readFileSync(file('other-any.eml'), 'latin1') : '';
    expect(any.status !== 0 || !out.includes('multipart/signed')).toBe(true);
  });

  it('fails verification when the signed part is changed, or against another certificate', () => {
    const signed = fs.readFileSync(file('signed.eml'), 'latin1');
    const fileBase64 = Buffer.from(FILE).toString('base64');
    // One character of the attachment, and the text beside it.
    const tamperedFile = signed.replace(fileBase64.slice(0, 8), `${fileBase64.slice(0, 7)}${fileBase64[7] === 'A' ? 'B' : 'A'}`);
    const tamperedText = signed.replace('ROUTE-42', 'ROUTE-43');
    expect(tamperedFile).not.toBe(signed);
    expect(tamperedText).not.toBe(signed);
    for (const [name, text] of [
      ['tampered-file.eml', tamperedFile],
      ['tampered-text.eml', tamperedText],
    ] as const) {
      fs.writeFileSync(file(name), text, 'latin1');
      const r = openssl(['cms', '-verify', '-CAfile', 'provider.crt', '-in', name, '-out', `${name}.out`]);
      expect(r.status, name).not.toBe(0);
      expect(r.stderr).toMatch(/digest failure|content verify error/i);
    }
    const stranger = openssl(['cms', '-verify', '-CAfile', 'other.crt', '-in', 'signed.eml', '-out', 'stranger.out']);
    expect(stranger.status).not.toBe(0);
  });

  it('refuses a signing key that is not the certificate’s', async () => {
    await expect(
      buildEldSmimeMail({
        fileName: FILE_NAME,
        fileText: FILE,
        subject: 'x',
        from: 'eld@fleet.example',
        to: 'fmcsa-test@example.gov',
        recipientCertPem: pem('fmcsa.crt'),
        signerCertPem: pem('provider.crt'),
        signerKeyPem: pem('other.key'),
      }),
    ).rejects.toThrow(/does not belong/);
  });
});

describe('eldMailSubject', () => {
  it('starts with TEST in test mode only', () => {
    expect(eldMailSubject({ test: true, fileName: 'F.csv', comment: 'R1' })).toBe('TEST: ELD records - F.csv - R1');
    expect(eldMailSubject({ test: false, fileName: 'F.csv', comment: 'R1' })).toBe('ELD records - F.csv - R1');
  });

  it('names the ELD when it is given, and keeps the subject one line', () => {
    expect(eldMailSubject({ test: true, fileName: 'F.csv', comment: '', registrationId: 'AB12', eldIdentifier: 'XY3456' })).toBe(
      'TEST: ELD records from AB12:XY3456 - F.csv',
    );
    expect(eldMailSubject({ test: false, fileName: 'F.csv', comment: ' a\r\nBcc: x@y\tz ' })).toBe('ELD records - F.csv - a Bcc: x@y z');
  });
});
