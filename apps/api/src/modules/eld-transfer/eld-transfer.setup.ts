import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import tls from 'node:tls';
import type { EldTransferConfig } from '../../config.ts';
import type { ClientCredentials } from './eld-web-service.ts';

// What each FMCSA path needs from the configuration (decision 0185), read from the files when a send
// or check needs it: a certificate renewed on disk takes effect without a restart, and the status
// screen says exactly what is missing ("ELD_FMCSA_CERT is not set", "the file /x named by
// ELD_CLIENT_CERT cannot be read") instead of a send failing later.

export interface Readiness {
  ready: boolean;
  missing: string[];
}

type Read<T> = { value: T; missing: null } | { value: null; missing: string };

async function readFile(variable: string, file: string | undefined): Promise<Read<Buffer>> {
  if (!file) return { value: null, missing: `${variable} is not set` };
  try {
    return { value: await fs.readFile(file), missing: null };
  } catch (err) {
    return { value: null, missing: `the file ${file} named by ${variable} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

/** A PEM certificate file: read and parsed. */
async function readCertificate(variable: string, file: string | undefined): Promise<Read<Buffer>> {
  const read = await readFile(variable, file);
  if (read.value === null) return read;
  try {
    new X509Certificate(read.value);
    return read;
  } catch {
    return { value: null, missing: `the file ${file} named by ${variable} is not a PEM certificate` };
  }
}

async function readKey(variable: string, file: string | undefined): Promise<Read<Buffer>> {
  const read = await readFile(variable, file);
  if (read.value === null) return read;
  try {
    createPrivateKey(read.value);
    return read;
  } catch {
    return { value: null, missing: `the file ${file} named by ${variable} is not an unencrypted PEM private key` };
  }
}

/** The web service's client credentials and extra trust, or what is missing for them. */
export async function webServiceSetup(c: EldTransferConfig): Promise<{ credentials: ClientCredentials; ca: Buffer | undefined } | { missing: string[] }> {
  const missing: string[] = [];
  let credentials: ClientCredentials | null = null;
  if (c.pfx) {
    const pfx = await readFile('ELD_CLIENT_PFX', c.pfx);
    if (pfx.value === null) missing.push(pfx.missing);
    else credentials = { pfx: pfx.value, ...(c.pfxPassword ? { passphrase: c.pfxPassword } : {}) };
  } else if (!c.clientCert && !c.clientKey) {
    missing.push('ELD_CLIENT_CERT and ELD_CLIENT_KEY (or ELD_CLIENT_PFX) are not set');
  } else {
    const [cert, key] = await Promise.all([readCertificate('ELD_CLIENT_CERT', c.clientCert), readKey('ELD_CLIENT_KEY', c.clientKey)]);
    if (cert.value === null) missing.push(cert.missing);
    if (key.value === null) missing.push(key.missing);
    if (cert.value && key.value) credentials = { cert: cert.value, key: key.value };
  }
  let ca: Buffer | undefined;
  if (c.ca) {
    const read = await readCertificate('ELD_TRANSFER_CA', c.ca);
    if (read.value === null) missing.push(read.missing);
    else ca = read.value;
  }
  if (credentials && missing.length === 0) {
    // The pair (or the PKCS #12 file and its password) as TLS will use it: a key of another
    // certificate or a wrong password is named now, not as a failed handshake at the roadside.
    try {
      tls.createSecureContext(credentials);
    } catch (err) {
      const what = 'pfx' in credentials ? 'ELD_CLIENT_PFX (with ELD_CLIENT_PFX_PASSWORD)' : 'ELD_CLIENT_CERT and ELD_CLIENT_KEY';
      missing.push(`the client certificate of ${what} cannot be used: ${(err as Error).message}`);
    }
  }
  return credentials && missing.length === 0 ? { credentials, ca } : { missing };
}

/** FMCSA's certificate and the provider's signing pair (PEM) for the e-mail path, or what is missing. */
export async function emailSetup(
  c: EldTransferConfig,
): Promise<{ recipientCertPem: string; signerCertPem: string; signerKeyPem: string } | { missing: string[] }> {
  const missing: string[] = [];
  const recipient = await readCertificate('ELD_FMCSA_CERT', c.fmcsaCert);
  if (recipient.value === null) missing.push(recipient.missing);
  let signer: { cert: Buffer; key: Buffer } | null = null;
  if (!c.clientCert && !c.clientKey) {
    // The signature is made with the PEM pair; a PKCS #12 file alone serves only the web service.
    missing.push(
      c.pfx
        ? 'the e-mail is signed with ELD_CLIENT_CERT and ELD_CLIENT_KEY (PEM files): ELD_CLIENT_PFX alone cannot sign it'
        : 'ELD_CLIENT_CERT and ELD_CLIENT_KEY are not set',
    );
  } else {
    const [cert, key] = await Promise.all([readCertificate('ELD_CLIENT_CERT', c.clientCert), readKey('ELD_CLIENT_KEY', c.clientKey)]);
    if (cert.value === null) missing.push(cert.missing);
    if (key.value === null) missing.push(key.missing);
    if (cert.value && key.value) signer = { cert: cert.value, key: key.value };
  }
  if (recipient.value === null || signer === null || missing.length) return { missing };
  return { recipientCertPem: recipient.value.toString('utf8'), signerCertPem: signer.cert.toString('utf8'), signerKeyPem: signer.key.toString('utf8') };
}

/** The readiness of both paths, for the status endpoint. */
export async function transferReadiness(c: EldTransferConfig): Promise<{ webService: Readiness; email: Readiness }> {
  const [web, email] = await Promise.all([webServiceSetup(c), emailSetup(c)]);
  const of = (s: object): Readiness => ('missing' in s ? { ready: false, missing: (s as { missing: string[] }).missing } : { ready: true, missing: [] });
  return { webService: of(web), email: of(email) };
}
