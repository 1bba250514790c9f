import type { X2jOptions, XMLBuilder, XMLParser, XmlBuilderOptions } from 'fast-xml-parser';
import { EldTransferError } from './eld-transfer.errors.ts';

// The messages of FMCSA's ELDSubmissionService (its WSDL; reference/fmcsa/README.md): SOAP 1.2,
// document/literal, WS-Addressing 1.0, built and read with fast-xml-parser (decision 0185). Pure:
// the transport (eld-web-service.ts) posts what this builds and hands back what it reads. The library
// is imported with the first message, not at start (decision 0161): a roadside transfer is rare.
//
// The output file's lines end with a bare CR. An XML reader turns every CR and CR LF of the document
// into LF (XML 1.0 2.11), so a CR written as itself would reach FMCSA's validator as LF ("Invalid Line
// Delimiter"): the builder writes each CR as the character reference &#13;, which survives.

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const WSA_NS = 'http://www.w3.org/2005/08/addressing';
export const ELD_INFRASTRUCTURE_NS = 'http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Infrastructure';
export const ELD_MODELS_NS = 'http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Models';
const ACTION_BASE = `${ELD_INFRASTRUCTURE_NS}/IELDSubmissionService`;
export const SOAP_ACTIONS = { Submit: `${ACTION_BASE}/Submit`, Ping: `${ACTION_BASE}/Ping` } as const;
export type SoapOperation = keyof typeof SOAP_ACTIONS;

/** The validation statuses of the WSDL's ValidationStatus. */
export const VALIDATION_STATUSES = ['Valid', 'Error', 'Warning', 'Information', 'NotValidated'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/** What `Submit` carries (ELDSubmission, its elements in the WSDL's order). */
export interface EldSubmission {
  eldIdentifier: string;
  registrationId: string;
  /** The whole output file, lines ending with CR. */
  fileBody: string;
  /** The officer's output file comment. */
  comment: string;
  fileName: string;
  /** A test submission: validated, not passed to inspectors. */
  test: boolean;
}

export interface ValidationMessage {
  detail: string | null;
  end: number;
  errorType: ValidationStatus;
  line: number;
  message: string;
  start: number;
}

/** SubmitResult (ELDSubmissionResponse) as it came. */
export interface SubmitResult {
  status: ValidationStatus;
  submissionId: string | null;
  /** Every message counts, Information ones too. */
  errorCount: number;
  broadcast: string | null;
  errors: ValidationMessage[];
}

/** PingResult (DiagnosticResponse); `Boradcast` is spelt so in the WSDL. */
export interface PingResult {
  /** Success, InvalidRegistrationData, ELDDecertified, UnexpectedError or ExpiredCertificate. */
  status: string;
  detail: string | null;
  broadcast: string | null;
}

/** The XML builder's entity table: XML's own escapes, and CR as a character reference (see the header). */
const ENTITIES = [
  { regex: /&/g, val: '&amp;' },
  { regex: /</g, val: '&lt;' },
  { regex: />/g, val: '&gt;' },
  { regex: /"/g, val: '&quot;' },
  { regex: /\r/g, val: '&#13;' },
];
// `entities` is an option the builder reads (fast-xml-builder's defaultOptions) that its typings omit.
const builderOptions: XmlBuilderOptions & { entities: typeof ENTITIES } = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: false,
  entities: ENTITIES,
};
// Answers are read without prefixes (a service may name its namespaces as it likes), every value as
// text (a submission id of digits stays a string), numeric character references decoded.
const parserOptions: X2jOptions = {
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => name === 'ValidationError' || name === 'Text',
};

let tools: Promise<{ builder: XMLBuilder; parser: XMLParser }> | null = null;
const xmlTools = () =>
  (tools ??= import('fast-xml-parser').then((m) => ({ builder: new m.XMLBuilder(builderOptions), parser: new m.XMLParser(parserOptions) })));

/** An envelope with the WS-Addressing headers: the action, a new message id, the endpoint. */
async function envelope(operation: SoapOperation, to: string, messageId: string, body: Record<string, unknown>): Promise<string> {
  const { builder } = await xmlTools();
  const xml = builder.build({
    's:Envelope': {
      '@_xmlns:s': SOAP12_NS,
      '@_xmlns:wsa': WSA_NS,
      's:Header': {
        'wsa:Action': { '@_s:mustUnderstand': '1', '#text': SOAP_ACTIONS[operation] },
        'wsa:MessageID': messageId,
        'wsa:ReplyTo': { 'wsa:Address': `${WSA_NS}/anonymous` },
        'wsa:To': { '@_s:mustUnderstand': '1', '#text': to },
      },
      's:Body': body,
    },
  }) as string;
  return `<?xml version="1.0" encoding="utf-8"?>${xml}`;
}

/** `Submit` of an output file, elements in the WSDL's order (a sequence: the order is part of the contract). */
export function submitEnvelope(s: EldSubmission, to: string, messageId: string): Promise<string> {
  return envelope('Submit', to, messageId, {
    Submit: {
      '@_xmlns': ELD_INFRASTRUCTURE_NS,
      data: {
        ELDIdentifier: s.eldIdentifier,
        ELDRegistrationId: s.registrationId,
        OutputFileBody: s.fileBody,
        OutputFileComment: s.comment,
        OutputFilename: s.fileName,
        Test: s.test ? 'true' : 'false',
        Version: 'V1',
      },
    },
  });
}

/** `Ping` (DiagnosticRequest): the self-check of the transfer mechanism. */
export function pingEnvelope(identity: { eldIdentifier: string; registrationId: string }, to: string, messageId: string): Promise<string> {
  return envelope('Ping', to, messageId, {
    Ping: { '@_xmlns': ELD_INFRASTRUCTURE_NS, data: { ELDIdentifier: identity.eldIdentifier, ELDRegistrationId: identity.registrationId } },
  });
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : isNode(v) && typeof v['#text'] === 'string' ? v['#text'] : null);
const int = (v: unknown): number => {
  const n = Number(text(v));
  return Number.isInteger(n) ? n : 0;
};

async function bodyOf(xml: string): Promise<Node> {
  const { parser } = await xmlTools();
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new EldTransferError('BAD_RESPONSE', `FMCSA's web service answered something that is not XML (${(err as Error).message})`);
  }
  const body = isNode(doc) && isNode(doc.Envelope) ? doc.Envelope.Body : undefined;
  if (!isNode(body)) throw new EldTransferError('BAD_RESPONSE', "FMCSA's web service answered XML that is not a SOAP envelope");
  return body;
}

/** A SOAP 1.2 fault in an answer, in words (its reason text and code); null when the answer holds none. */
export async function soapFault(xml: string): Promise<{ code: string; reason: string } | null> {
  let body: Node;
  try {
    body = await bodyOf(xml);
  } catch {
    return null;
  }
  const fault = body.Fault;
  if (!isNode(fault)) return null;
  const code = isNode(fault.Code) ? (text(fault.Code.Value) ?? '') : '';
  const subcode = isNode(fault.Code) && isNode(fault.Code.Subcode) ? text(fault.Code.Subcode.Value) : null;
  const reasons = isNode(fault.Reason) && Array.isArray(fault.Reason.Text) ? fault.Reason.Text.map(text).filter((t): t is string => !!t) : [];
  return { code: [code, subcode].filter(Boolean).join(' / '), reason: reasons[0] ?? 'no reason given' };
}

async function resultOf(xml: string, operation: SoapOperation): Promise<Node> {
  const body = await bodyOf(xml);
  const response = body[`${operation}Response`];
  const result = isNode(response) ? response[`${operation}Result`] : undefined;
  if (!isNode(result)) throw new EldTransferError('BAD_RESPONSE', `FMCSA's web service answered without a ${operation}Result`);
  return result;
}

const statusOf = (v: unknown, what: string): ValidationStatus => {
  const s = text(v);
  if (s && (VALIDATION_STATUSES as readonly string[]).includes(s)) return s as ValidationStatus;
  throw new EldTransferError('BAD_RESPONSE', `FMCSA's web service answered an unknown ${what} ${JSON.stringify(s)}`);
};

/** SubmitResult read from `Submit`'s answer; a fault or another answer throws EldTransferError. */
export async function readSubmitResponse(xml: string): Promise<SubmitResult> {
  const r = await resultOf(xml, 'Submit');
  const list = isNode(r.Errors) && Array.isArray(r.Errors.ValidationError) ? r.Errors.ValidationError : [];
  return {
    status: statusOf(r.Status, 'status'),
    submissionId: text(r.SubmissionId) || null,
    errorCount: int(r.ErrorCount),
    broadcast: text(r.Broadcast) || null,
    errors: list.filter(isNode).map((e) => ({
      detail: text(e.Detail) || null,
      end: int(e.End),
      errorType: statusOf(e.ErrorType, 'message type'),
      line: int(e.Line),
      message: text(e.Message) ?? '',
      start: int(e.Start),
    })),
  };
}

/** PingResult read from `Ping`'s answer. */
export async function readPingResponse(xml: string): Promise<PingResult> {
  const r = await resultOf(xml, 'Ping');
  const status = text(r.Status);
  if (!status) throw new EldTransferError('BAD_RESPONSE', "FMCSA's web service answered a Ping without a status");
  return { status, detail: text(r.Detail) || null, broadcast: text(r.Boradcast) || null };
}
