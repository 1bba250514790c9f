import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { XMLBuilder } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import type { TestCertificates } from './fmcsa-certs.ts';
import { validateEldFile, type FileMessage } from './fmcsa-validator.ts';

// A stand-in for FMCSA's ELDSubmissionService (decision 0185), built from its WSDL: HTTPS that
// requires a client certificate signed by the test CA, SOAP 1.2 with WS-Addressing, `Submit` and
// `Ping`. It reads requests with a conforming XML parser of its own (saxes: line ends normalized,
// character references decoded, namespaces checked, the ELDSubmission elements in the WSDL's order),
// validates the file (fmcsa-validator.ts) and answers as FMCSA does: Information with "Test
// Information" and "File Received" for a valid test submission, Valid for a valid one that is not a
// test, Error or Warning with each message's line and columns otherwise. A wrong request is a SOAP
// 1.2 fault, as the real service's (WCF) would be. A test for the API and the browser, not a copy of
// FMCSA's validator: decision 0185 lists what it checks.

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const WSA_NS = 'http://www.w3.org/2005/08/addressing';
export const INFRA_NS = 'http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Infrastructure';
export const MODELS_NS = 'http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Models';
const ACTION = `${INFRA_NS}/IELDSubmissionService`;

/** ELDSubmission's elements, in the WSDL's sequence (Test may be left out). */
const SUBMISSION_FIELDS = ['ELDIdentifier', 'ELDRegistrationId', 'OutputFileBody', 'OutputFileComment', 'OutputFilename', 'Test', 'Version'] as const;

interface Element {
  ns: string;
  local: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/** The request's XML as a tree (namespaces resolved, text as a conforming parser gives it). */
export function readXml(xml: string): Element {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Element[] = [];
  let root: Element | null = null;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) attributes[`${a.uri}|${a.local}`] = a.value;
    const el: Element = { ns: tag.uri, local: tag.local, attributes, children: [], text: '' };
    stack.at(-1)?.children.push(el);
    stack.push(el);
    root ??= el;
  });
  parser.on('text', (t) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('cdata', (t) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (!root) throw new Error('no document element');
  return root;
}

class Fault extends Error {
  constructor(
    readonly code: 'Sender' | 'Receiver',
    readonly subcode: string,
    message: string,
    readonly status = 500,
  ) {
    super(message);
  }
}

const child = (el: Element | undefined, ns: string, local: string) => el?.children.find((c) => c.ns === ns && c.local === local);

export interface SoapRequest {
  operation: 'Submit' | 'Ping';
  action: string;
  to: string;
  messageId: string;
  /** The `data` element's children by name (their text), in the order received. */
  data: Array<[string, string]>;
}

/** A SOAP 1.2 request to the service as the WSDL describes it; a Fault (its reason in words) otherwise. */
export function readSoapRequest(xml: string, contentType: string): SoapRequest {
  if (!/^application\/soap\+xml\b/i.test(contentType))
    throw new Fault('Sender', 'a:InvalidMediaType', `Content type ${JSON.stringify(contentType)}: SOAP 1.2 is application/soap+xml`, 415);
  let env: Element;
  try {
    env = readXml(xml);
  } catch (err) {
    throw new Fault('Sender', 'a:BadXml', `The message is not well-formed XML: ${(err as Error).message}`, 400);
  }
  if (env.ns !== SOAP12_NS || env.local !== 'Envelope')
    throw new Fault('Sender', 's:VersionMismatch', `The document element is {${env.ns}}${env.local}, not a SOAP 1.2 Envelope`);
  const header = child(env, SOAP12_NS, 'Header');
  const body = child(env, SOAP12_NS, 'Body');
  const action = child(header, WSA_NS, 'Action')?.text.trim() ?? '';
  const to = child(header, WSA_NS, 'To')?.text.trim() ?? '';
  const messageId = child(header, WSA_NS, 'MessageID')?.text.trim() ?? '';
  if (!action)
    throw new Fault('Sender', 'a:MessageAddressingHeaderRequired', 'A required header representing a Message Addressing Property is not present: Action');
  if (!messageId)
    throw new Fault('Sender', 'a:MessageAddressingHeaderRequired', 'A required header representing a Message Addressing Property is not present: MessageID');
  if (!to) throw new Fault('Sender', 'a:MessageAddressingHeaderRequired', 'A required header representing a Message Addressing Property is not present: To');
  const typeAction = /action="([^"]*)"/i.exec(contentType)?.[1];
  if (typeAction && typeAction !== action)
    throw new Fault('Sender', 'a:ActionMismatch', `The content type's action ${typeAction} is not the message's ${action}`);
  const op = body?.children[0];
  if (!op || op.ns !== INFRA_NS || (op.local !== 'Submit' && op.local !== 'Ping'))
    throw new Fault('Sender', 'a:DeserializationFailed', `The body's element is not Submit or Ping of ${INFRA_NS}`);
  if (action !== `${ACTION}/${op.local}`)
    throw new Fault('Sender', 'a:ActionNotSupported', `The message with Action '${action}' cannot be processed at the receiver`);
  const data = child(op, INFRA_NS, 'data');
  if (!data) throw new Fault('Sender', 'a:DeserializationFailed', `${op.local} has no data element`);
  const wrong = data.children.find((c) => c.ns !== INFRA_NS);
  if (wrong) throw new Fault('Sender', 'a:DeserializationFailed', `Element {${wrong.ns}}${wrong.local} is not in ${INFRA_NS}`);
  return { operation: op.local, action, to, messageId, data: data.children.map((c) => [c.local, c.text]) };
}

/** ELDSubmission's fields, checked for the WSDL's order; a Fault otherwise. */
function submissionOf(data: Array<[string, string]>) {
  let at = 0;
  for (const [name] of data) {
    const i = SUBMISSION_FIELDS.indexOf(name as (typeof SUBMISSION_FIELDS)[number]);
    if (i < at)
      throw new Fault(
        'Sender',
        'a:DeserializationFailed',
        `Expecting element '${SUBMISSION_FIELDS[at]}', found '${name}' (the elements of ELDSubmission are a sequence)`,
      );
    at = i + 1;
  }
  const get = (n: string) => data.find(([k]) => k === n)?.[1];
  for (const n of SUBMISSION_FIELDS)
    if (n !== 'Test' && get(n) === undefined) throw new Fault('Sender', 'a:DeserializationFailed', `The element ${n} is missing`);
  const test = get('Test');
  if (test !== undefined && test !== 'true' && test !== 'false')
    throw new Fault('Sender', 'a:DeserializationFailed', `Test ${JSON.stringify(test)} is not a boolean`);
  if (get('Version') !== 'V1') throw new Fault('Sender', 'a:DeserializationFailed', `Version ${JSON.stringify(get('Version'))} is not a FileVersion (V1)`);
  return {
    eldIdentifier: get('ELDIdentifier')!,
    registrationId: get('ELDRegistrationId')!,
    fileBody: get('OutputFileBody')!,
    comment: get('OutputFileComment')!,
    fileName: get('OutputFilename')!,
    test: test === 'true',
  };
}

export type Submission = ReturnType<typeof submissionOf> & {
  messageId: string;
  submissionId: string;
  status: string;
  messages: FileMessage[];
  clientCertificate: string;
};

/** How a Ping answers: Success, another DiagnosticResponseStatus, a SOAP fault, an HTTP 503, or a connection closed without an answer. */
export type PingMode = 'Success' | 'InvalidRegistrationData' | 'ELDDecertified' | 'UnexpectedError' | 'ExpiredCertificate' | 'fault' | 'http503' | 'hangup';

export interface FmcsaStandIn {
  url: string;
  port: number;
  /** Every submission received, oldest first. */
  submissions: Submission[];
  pings: number;
  /** How the next Pings answer (Success by default): the self-check's tests make it fail. */
  pingMode: PingMode;
  /** How the next submissions answer: validated (default), a SOAP fault, an HTTP 503. */
  submitMode: 'answer' | 'fault' | 'http503';
  close(): Promise<void>;
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });

function envelope(action: string, relatesTo: string | null, body: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build({
    's:Envelope': {
      '@_xmlns:s': SOAP12_NS,
      '@_xmlns:a': WSA_NS,
      's:Header': { 'a:Action': { '@_s:mustUnderstand': '1', '#text': action }, ...(relatesTo ? { 'a:RelatesTo': relatesTo } : {}) },
      's:Body': body,
    },
  })}`;
}

function faultXml(f: Fault): string {
  return envelope(`${WSA_NS}/fault`, null, {
    's:Fault': {
      's:Code': { 's:Value': `s:${f.code}`, 's:Subcode': { 's:Value': f.subcode } },
      's:Reason': { 's:Text': { '@_xml:lang': 'en-US', '#text': f.message } },
    },
  });
}

/** The answer to a submission (FMCSA's statuses; every message counts in ErrorCount). */
function submitResult(s: ReturnType<typeof submissionOf>, messages: FileMessage[]): { status: string; list: FileMessage[] } {
  if (messages.some((m) => m.type === 'Error')) return { status: 'Error', list: messages };
  if (messages.some((m) => m.type === 'Warning')) return { status: 'Warning', list: messages };
  if (s.test) {
    return {
      status: 'Information',
      list: [
        {
          type: 'Information',
          line: 0,
          start: 0,
          end: 0,
          message: 'Test Information',
          detail: 'This is a test submission: it is validated and not passed to safety officials',
        },
        { type: 'Information', line: 0, start: 0, end: 0, message: 'File Received', detail: `The file ${s.fileName} was received` },
      ],
    };
  }
  return { status: 'Valid', list: [] };
}

export interface StandInOptions {
  certs: Pick<TestCertificates, 'ca' | 'serverCert' | 'serverKey'>;
  port?: number;
  host?: string;
  /** The registration the service knows: a Ping with another answers InvalidRegistrationData. */
  registration?: { registrationId: string; eldIdentifier: string };
}

/** Starts the stand-in on `port` (0: a free one) and answers its address. */
export async function startFmcsaStandIn(opts: StandInOptions): Promise<FmcsaStandIn> {
  const registration = opts.registration ?? { registrationId: 'FLT0', eldIdentifier: 'FLTLN1' };
  const server = https.createServer({
    key: fs.readFileSync(opts.certs.serverKey),
    cert: fs.readFileSync(opts.certs.serverCert),
    ca: [fs.readFileSync(opts.certs.ca)],
    // The provider's registered certificate is required (the WSDL's HttpsToken RequireClientCertificate).
    requestCert: true,
    rejectUnauthorized: true,
  });
  const sockets = new Set<Duplex>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const state: FmcsaStandIn = {
    url: '',
    port: 0,
    submissions: [],
    pings: 0,
    pingMode: 'Success',
    submitMode: 'answer',
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, xml: string) => {
        res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' });
        res.end(xml);
      };
      try {
        if (req.method !== 'POST') throw new Fault('Sender', 'a:MethodNotAllowed', `${req.method} is not POST`, 405);
        const request = readSoapRequest(Buffer.concat(chunks).toString('utf8'), String(req.headers['content-type'] ?? ''));
        if (request.operation === 'Ping') {
          state.pings++;
          const mode = state.pingMode;
          if (mode === 'hangup') return void req.socket.destroy();
          if (mode === 'http503') {
            res.writeHead(503, { 'content-type': 'text/html' });
            return void res.end('<html><body>Service Unavailable</body></html>');
          }
          if (mode === 'fault') throw new Fault('Receiver', 'a:InternalServiceFault', 'The server was unable to process the request due to an internal error.');
          const get = (n: string) => request.data.find(([k]) => k === n)?.[1];
          const known = get('ELDRegistrationId') === registration.registrationId && get('ELDIdentifier') === registration.eldIdentifier;
          const status = mode === 'Success' && !known ? 'InvalidRegistrationData' : mode;
          return send(
            200,
            envelope(`${ACTION}/PingResponse`, request.messageId, {
              PingResponse: {
                '@_xmlns': INFRA_NS,
                PingResult: {
                  Boradcast: '',
                  Detail: status === 'Success' ? 'The ELD web service is available' : `Diagnostic status ${status}`,
                  Status: status,
                },
              },
            }),
          );
        }
        if (state.submitMode === 'http503') {
          res.writeHead(503, { 'content-type': 'text/html' });
          return void res.end('<html><body>Service Unavailable</body></html>');
        }
        if (state.submitMode === 'fault')
          throw new Fault('Receiver', 'a:InternalServiceFault', 'The server was unable to process the request due to an internal error.');
        const s = submissionOf(request.data);
        const messages = validateEldFile(s.fileBody, s);
        const { status, list } = submitResult(s, messages);
        const submissionId = randomUUID();
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        state.submissions.push({ ...s, messageId: request.messageId, submissionId, status, messages, clientCertificate: String(peer?.subject?.CN ?? '') });
        send(
          200,
          envelope(`${ACTION}/SubmitResponse`, request.messageId, {
            SubmitResponse: {
              '@_xmlns': INFRA_NS,
              SubmitResult: {
                '@_xmlns:b': MODELS_NS,
                ErrorCount: list.length,
                Errors: {
                  'b:ValidationError': list.map((m) => ({
                    'b:Detail': m.detail,
                    'b:End': m.end,
                    'b:ErrorType': m.type,
                    'b:Line': m.line,
                    'b:Message': m.message,
                    'b:Start': m.start,
                  })),
                },
                Status: status,
                SubmissionId: submissionId,
              },
            },
          }),
        );
      } catch (err) {
        const f = err instanceof Fault ? err : new Fault('Receiver', 'a:InternalServiceFault', (err as Error).message);
        send(f.status, faultXml(f));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  state.port = port;
  state.url = `https://localhost:${port}/ELDSubmissionService.svc`;
  return state;
}
