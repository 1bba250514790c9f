import { randomUUID } from 'node:crypto';
import https from 'node:https';
import tls from 'node:tls';
import { EldTransferError } from './eld-transfer.errors.ts';
import {
  pingEnvelope,
  readPingResponse,
  readSubmitResponse,
  SOAP_ACTIONS,
  soapFault,
  submitEnvelope,
  type EldSubmission,
  type PingResult,
  type SoapOperation,
  type SubmitResult,
} from './eld-soap.ts';

// The SOAP client of FMCSA's ELDSubmissionService (4.10.1.1, decision 0185): HTTPS with the provider's
// client certificate (the registered key pair), one POST per operation, no redirects, no retries (a
// submission sent twice is two submissions), a deadline. Every way it can fail is an EldTransferError
// with the reason in words.

/** The provider's key pair: PEM certificate and key, or a PKCS #12 file and its password. */
export type ClientCredentials = { cert: Buffer; key: Buffer } | { pfx: Buffer; passphrase?: string };

export interface EldWebServiceOptions {
  url: string;
  credentials: ClientCredentials;
  /** Extra certificate authorities trusted for the service (a stand-in's), besides Node's own. */
  ca?: Buffer;
  identity: { registrationId: string; eldIdentifier: string };
  /** The whole exchange's deadline; default 60 s. */
  timeoutMs?: number;
}

export interface EldWebService {
  submit(s: Omit<EldSubmission, 'registrationId' | 'eldIdentifier'>): Promise<SubmitResult>;
  ping(): Promise<PingResult>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Longest answer read: a file with an error on each of its lines is well under this. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The client of the service at `opts.url`. */
export function eldWebService(opts: EldWebServiceOptions): EldWebService {
  const call = async (operation: SoapOperation, body: string) => {
    const answer = await postSoap(opts, operation, body);
    const fault = await soapFault(answer.body);
    if (fault) throw new EldTransferError('SOAP_FAULT', `FMCSA's web service refused the ${operation}: ${fault.reason}${fault.code ? ` (${fault.code})` : ''}`);
    if (answer.status < 200 || answer.status > 299)
      throw new EldTransferError('HTTP_STATUS', `FMCSA's web service answered HTTP ${answer.status} to the ${operation}`);
    return answer.body;
  };
  return {
    async submit(s) {
      const xml = await submitEnvelope(
        { ...s, registrationId: opts.identity.registrationId, eldIdentifier: opts.identity.eldIdentifier },
        opts.url,
        `urn:uuid:${randomUUID()}`,
      );
      return readSubmitResponse(await call('Submit', xml));
    },
    async ping() {
      return readPingResponse(await call('Ping', await pingEnvelope(opts.identity, opts.url, `urn:uuid:${randomUUID()}`)));
    },
  };
}

/** Node's error codes of a TLS handshake that failed on a certificate (ours refused, theirs not trusted). */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL_)/;

function failureOf(err: NodeJS.ErrnoException, url: URL): EldTransferError {
  const code = err.code ?? '';
  const where = url.host;
  if (TLS_CODE.test(code)) return new EldTransferError('TLS', `The secure connection to FMCSA's web service (${where}) failed: ${err.message}`);
  if (code === 'ECONNRESET')
    return new EldTransferError(
      'CONNECTION',
      `FMCSA's web service (${where}) closed the connection (a client certificate it does not accept is one cause): ${err.message}`,
    );
  return new EldTransferError(
    'CONNECTION',
    `FMCSA's web service (${where}) could not be reached: ${err.message}${code && !err.message.includes(code) ? ` (${code})` : ''}`,
  );
}

function postSoap(opts: EldWebServiceOptions, operation: SoapOperation, xml: string): Promise<{ status: number; body: string }> {
  const url = new URL(opts.url);
  const payload = Buffer.from(xml, 'utf8');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer: { deadline?: NodeJS.Timeout } = {};
    const done = (err: EldTransferError | null, value?: { status: number; body: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer.deadline);
      if (err) reject(err);
      else resolve(value!);
    };
    let req: ReturnType<typeof https.request>;
    try {
      req = https.request(url, {
        method: 'POST',
        // A connection of its own: no pooled socket outlives the exchange.
        agent: false,
        headers: {
          // SOAP 1.2 carries the action in the content type (its SOAPAction header is 1.1's).
          'content-type': `application/soap+xml; charset=utf-8; action="${SOAP_ACTIONS[operation]}"`,
          'content-length': payload.length,
          accept: 'application/soap+xml, text/xml',
        },
        ...opts.credentials,
        // Node's roots stay trusted: `ca` alone would replace them.
        ...(opts.ca ? { ca: [...tls.rootCertificates, opts.ca.toString('utf8')] } : {}),
      });
    } catch (err) {
      // The key pair (or PKCS #12 file) cannot make a TLS context: a wrong password, a key of another certificate.
      return done(new EldTransferError('TLS', `The client certificate cannot be used for FMCSA's web service: ${(err as Error).message}`));
    }
    timer.deadline = setTimeout(() => {
      done(new EldTransferError('TIMEOUT', `FMCSA's web service (${url.host}) did not answer the ${operation} within ${Math.round(timeoutMs / 1000)} s`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done(failureOf(err, url)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) {
          done(new EldTransferError('BAD_RESPONSE', `FMCSA's web service answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`));
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => done(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err: NodeJS.ErrnoException) => done(failureOf(err, url)));
    });
    req.end(payload);
  });
}
