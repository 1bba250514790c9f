import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Throwaway certificates for the FMCSA stand-in (decision 0185), made with the openssl CLI into a
// directory when a test or the stand-in's command starts: a test CA, the stand-in's server
// certificate (localhost, 127.0.0.1) signed by it, a provider's client certificate signed by it (PEM
// and PKCS #12), and a client certificate from another CA that the stand-in must refuse. Nothing here
// is anybody's real key; nothing is committed.

export interface TestCertificates {
  dir: string;
  /** The test CA's certificate: the stand-in trusts client certificates it signed; the API trusts the stand-in through it (ELD_TRANSFER_CA). */
  ca: string;
  serverCert: string;
  serverKey: string;
  /** The provider's key pair (ELD_CLIENT_CERT, ELD_CLIENT_KEY). */
  clientCert: string;
  clientKey: string;
  /** The same pair as PKCS #12 (ELD_CLIENT_PFX) with its password (ELD_CLIENT_PFX_PASSWORD). */
  clientPfx: string;
  pfxPassword: string;
  /** A client pair signed by another CA: the stand-in refuses it. */
  strangerCert: string;
  strangerKey: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** Makes the certificates in `dir` (a new temporary directory by default), or reuses them when a previous call made them there. */
export function makeTestCertificates(dir: string = fs.mkdtempSync(path.join(os.tmpdir(), 'fmcsa-stand-in-'))): TestCertificates {
  fs.mkdirSync(dir, { recursive: true });
  const at = (name: string) => path.join(dir, name);
  const certs: TestCertificates = {
    dir,
    ca: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    clientPfx: at('client.p12'),
    pfxPassword: 'stand-in-test',
    strangerCert: at('stranger.pem'),
    strangerKey: at('stranger.key'),
  };
  if (
    [certs.ca, certs.serverCert, certs.serverKey, certs.clientCert, certs.clientKey, certs.clientPfx, certs.strangerCert, certs.strangerKey].every((f) =>
      fs.existsSync(f),
    )
  )
    return certs;

  const ca = (name: string, cn: string) =>
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '30',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${cn}`,
    ]);
  /** A key and a certificate signed by `by`, with the extensions of `ext`. */
  const leaf = (name: string, cn: string, by: string, ext: string) => {
    fs.writeFileSync(at(`${name}.ext`), ext);
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${by}.pem`,
      '-CAkey',
      `${by}.key`,
      '-CAcreateserial',
      '-days',
      '30',
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    ]);
  };
  ca('ca', 'Fleetline test FMCSA stand-in CA');
  leaf(
    'server',
    'localhost',
    'ca',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n',
  );
  leaf(
    'client',
    'Fleetline test ELD provider',
    'ca',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth,emailProtection\n',
  );
  openssl(dir, ['pkcs12', '-export', '-inkey', 'client.key', '-in', 'client.pem', '-out', 'client.p12', '-passout', `pass:${certs.pfxPassword}`]);
  ca('other-ca', 'Somebody else CA');
  leaf('stranger', 'Somebody else', 'other-ca', 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n');
  return certs;
}
