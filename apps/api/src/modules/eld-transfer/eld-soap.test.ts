import { beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { readSoapRequest, readXml } from '../../test/fmcsa-stand-in.ts';
import { ELD_INFRASTRUCTURE_NS, pingEnvelope, readPingResponse, readSubmitResponse, SOAP12_NS, soapFault, submitEnvelope, WSA_NS } from './eld-soap.ts';
import type { EldTransferError } from './eld-transfer.errors.ts';

// The SOAP messages of FMCSA's ELDSubmissionService: what the client writes, read back by a
// conforming XML parser (the stand-in's, saxes) and by fast-xml-parser; what it reads from answers.

const FILE = 'ELD File Header Segment:\rLine,One,A1\rLine <two> & "three",B2\rEnd of File:\r4F2A\r';
const submission = {
  eldIdentifier: 'FLTLN1',
  registrationId: 'FLT0',
  fileBody: FILE,
  comment: 'Officer 12 & Co',
  fileName: 'Smith2312060126-000000000.csv',
  test: true,
};
const TO = 'https://eldws.fmcsa.dot.gov/ELDSubmissionService.svc';
const CONTENT_TYPE = 'application/soap+xml; charset=utf-8; action="http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Infrastructure/IELDSubmissionService/Submit"';

describe('the Submit message', () => {
  let xml: string;
  beforeAll(async () => {
    xml = await submitEnvelope(submission, TO, 'urn:uuid:6b1e1f4e-1111-4222-8333-944455556666');
  });

  it("writes the file's carriage returns as &#13; and never as themselves", () => {
    expect(xml).not.toMatch(/[\r\n]/);
    expect(xml.match(/&#13;/g)).toHaveLength(5);
    expect(xml).toContain(
      '<OutputFileBody>ELD File Header Segment:&#13;Line,One,A1&#13;Line &lt;two&gt; &amp; &quot;three&quot;,B2&#13;End of File:&#13;4F2A&#13;</OutputFileBody>',
    );
  });

  it('reads back, by a conforming XML parser, as the file byte for byte, carriage returns and all', () => {
    const request = readSoapRequest(xml, CONTENT_TYPE);
    expect(request.operation).toBe('Submit');
    expect(request.data.find(([k]) => k === 'OutputFileBody')?.[1]).toBe(FILE);
    expect(request.data.find(([k]) => k === 'OutputFileComment')?.[1]).toBe('Officer 12 & Co');
    // And by fast-xml-parser, decoding character references, keeping whitespace.
    const parsed = new XMLParser({ removeNSPrefix: true, trimValues: false, parseTagValue: false, htmlEntities: true }).parse(xml);
    expect(parsed.Envelope.Body.Submit.data.OutputFileBody).toBe(FILE);
  });

  it('a carriage return written as itself would arrive as a line feed: why the reference is needed', () => {
    const plain = FILE.replace(/[<>&"]/g, '');
    expect(readXml(`<a xmlns="urn:x">${plain}</a>`).text).toBe(plain.replace(/\r/g, '\n'));
  });

  it("holds ELDSubmission's elements in the WSDL's order, in its namespace, with the WS-Addressing headers", () => {
    const request = readSoapRequest(xml, CONTENT_TYPE);
    expect(request.data.map(([k]) => k)).toEqual([
      'ELDIdentifier',
      'ELDRegistrationId',
      'OutputFileBody',
      'OutputFileComment',
      'OutputFilename',
      'Test',
      'Version',
    ]);
    expect(request.data.map(([k, v]) => (k === 'OutputFileBody' ? [k] : [k, v]))).toEqual([
      ['ELDIdentifier', 'FLTLN1'],
      ['ELDRegistrationId', 'FLT0'],
      ['OutputFileBody'],
      ['OutputFileComment', 'Officer 12 & Co'],
      ['OutputFilename', 'Smith2312060126-000000000.csv'],
      ['Test', 'true'],
      ['Version', 'V1'],
    ]);
    expect(request).toMatchObject({
      action: `${ELD_INFRASTRUCTURE_NS}/IELDSubmissionService/Submit`,
      to: TO,
      messageId: 'urn:uuid:6b1e1f4e-1111-4222-8333-944455556666',
    });
    const env = readXml(xml);
    expect([env.ns, env.local]).toEqual([SOAP12_NS, 'Envelope']);
    expect(env.children[0]!.children.map((h) => [h.ns, h.local])).toEqual([
      [WSA_NS, 'Action'],
      [WSA_NS, 'MessageID'],
      [WSA_NS, 'ReplyTo'],
      [WSA_NS, 'To'],
    ]);
  });

  it('says Test false for a submission that is not a test', async () => {
    expect(await submitEnvelope({ ...submission, test: false }, TO, 'urn:uuid:x')).toContain('<Test>false</Test>');
  });

  it('Ping carries the ELD identifier and registration id as a DiagnosticRequest', async () => {
    const ping = readSoapRequest(
      await pingEnvelope({ eldIdentifier: 'FLTLN1', registrationId: 'FLT0' }, TO, 'urn:uuid:p'),
      CONTENT_TYPE.replace('/Submit', '/Ping'),
    );
    expect(ping.operation).toBe('Ping');
    expect(ping.data).toEqual([
      ['ELDIdentifier', 'FLTLN1'],
      ['ELDRegistrationId', 'FLT0'],
    ]);
  });
});

describe('reading the answers', () => {
  const submitAnswer = (result: string) =>
    `<s:Envelope xmlns:s="${SOAP12_NS}" xmlns:a="${WSA_NS}"><s:Header><a:Action s:mustUnderstand="1">x</a:Action></s:Header><s:Body><SubmitResponse xmlns="${ELD_INFRASTRUCTURE_NS}"><SubmitResult xmlns:b="http://www.fmcsa.dot.gov/schemas/FMCSA.ELD.Models" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">${result}</SubmitResult></SubmitResponse></s:Body></s:Envelope>`;

  it('reads the status, the submission id and each validation message with its line and columns', async () => {
    const r = await readSubmitResponse(
      submitAnswer(
        `<Broadcast i:nil="true"/><ErrorCount>2</ErrorCount><Errors>
          <b:ValidationError><b:Detail>Event Date: "260601" is not a date MMDDYY</b:Detail><b:End>29</b:End><b:ErrorType>Error</b:ErrorType><b:Line>12</b:Line><b:Message>Invalid Date</b:Message><b:Start>24</b:Start></b:ValidationError>
          <b:ValidationError><b:Detail i:nil="true"/><b:End>4</b:End><b:ErrorType>Warning</b:ErrorType><b:Line>2</b:Line><b:Message>Invalid Line Delimiter</b:Message><b:Start>1</b:Start></b:ValidationError>
        </Errors><Status>Error</Status><SubmissionId>62be3cfd-ff04-4e36-8b92-e8010be47d6c</SubmissionId>`,
      ),
    );
    expect(r).toEqual({
      status: 'Error',
      submissionId: '62be3cfd-ff04-4e36-8b92-e8010be47d6c',
      errorCount: 2,
      broadcast: null,
      errors: [
        { detail: 'Event Date: "260601" is not a date MMDDYY', end: 29, errorType: 'Error', line: 12, message: 'Invalid Date', start: 24 },
        { detail: null, end: 4, errorType: 'Warning', line: 2, message: 'Invalid Line Delimiter', start: 1 },
      ],
    });
  });

  it('reads a received test submission as Information with its notices, one message as a list', async () => {
    const r = await readSubmitResponse(
      submitAnswer(
        `<ErrorCount>1</ErrorCount><Errors><b:ValidationError><b:Detail>x</b:Detail><b:End>0</b:End><b:ErrorType>Information</b:ErrorType><b:Line>0</b:Line><b:Message>File Received</b:Message><b:Start>0</b:Start></b:ValidationError></Errors><Status>Information</Status><SubmissionId>00000000-0000-0000-0000-000000000001</SubmissionId>`,
      ),
    );
    expect(r.status).toBe('Information');
    expect(r.errors.map((e) => [e.errorType, e.message])).toEqual([['Information', 'File Received']]);
  });

  it('reads a Ping answer, Boradcast spelt as the WSDL spells it', async () => {
    const xml = `<s:Envelope xmlns:s="${SOAP12_NS}"><s:Body><PingResponse xmlns="${ELD_INFRASTRUCTURE_NS}"><PingResult><Boradcast>Maintenance Sunday</Boradcast><Detail>ok</Detail><Status>Success</Status></PingResult></PingResponse></s:Body></s:Envelope>`;
    expect(await readPingResponse(xml)).toEqual({ status: 'Success', detail: 'ok', broadcast: 'Maintenance Sunday' });
  });

  it('finds a SOAP 1.2 fault and its reason', async () => {
    const fault = `<s:Envelope xmlns:s="${SOAP12_NS}"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value>a:ActionNotSupported</s:Value></s:Subcode></s:Code><s:Reason><s:Text xml:lang="en-US">The message with Action 'x' cannot be processed</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`;
    expect(await soapFault(fault)).toEqual({ code: 's:Sender / a:ActionNotSupported', reason: "The message with Action 'x' cannot be processed" });
    expect(await soapFault(submitAnswer('<Status>Valid</Status>'))).toBeNull();
  });

  it('refuses what is not the answer the WSDL describes, with the reason', async () => {
    const bad = async (xml: string) => {
      try {
        await readSubmitResponse(xml);
      } catch (err) {
        return [(err as EldTransferError).failure, (err as Error).message];
      }
      return null;
    };
    expect(await bad('<html><body>Service Unavailable</body></html>')).toEqual([
      'BAD_RESPONSE',
      "FMCSA's web service answered XML that is not a SOAP envelope",
    ]);
    expect(await bad(submitAnswer('<ErrorCount>0</ErrorCount><Status>Great</Status>'))).toEqual([
      'BAD_RESPONSE',
      'FMCSA\'s web service answered an unknown status "Great"',
    ]);
    expect(await bad(`<s:Envelope xmlns:s="${SOAP12_NS}"><s:Body><PingResponse/></s:Body></s:Envelope>`)).toEqual([
      'BAD_RESPONSE',
      "FMCSA's web service answered without a SubmitResult",
    ]);
  });
});
