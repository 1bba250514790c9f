import type {
  EldTransfer,
  EldTransferFailure,
  EldTransferInput,
  EldTransferStatus,
  EldTransferStatusBody,
  EldValidationMessage,
  Page,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { eldTransferQuery } from '@fleet/api-contract';
import type { EldIdentity, EldTransferConfig } from '../../config.ts';
import { toPage } from '../../http/paging.ts';
import { notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { driverIdOfAccount, eldOutputFile, selfOnly } from '../hos/index.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { PingResult, SubmitResult, ValidationStatus } from './eld-soap.ts';
import { driverWords, EldTransferError, notConfiguredWords, transferFailed, transferNotConfigured } from './eld-transfer.errors.ts';
import { insertTransfer, latestCheck, listTransfers } from './eld-transfer.repository.ts';
import { emailSetup, transferReadiness, webServiceSetup, type Readiness } from './eld-transfer.setup.ts';
import type { EldWebService, EldWebServiceOptions } from './eld-web-service.ts';

// A driver's output file sent to FMCSA at the roadside (49 CFR 395 Appendix A 4.10.1; issue 45,
// decision 0185): today and the 7 days before, lines ending with a bare CR, the officer's comment in
// the header, by the web service or by S/MIME e-mail. Every send is recorded as FMCSA answered it
// (or FAILED with the reason) and written to the activity log.

/** What the e-mail path needs from the S/MIME builder (smime.ts). */
export interface SmimeBuilder {
  build(opts: {
    fileName: string;
    fileText: string;
    subject: string;
    from: string;
    to: string;
    recipientCertPem: string;
    signerCertPem: string;
    signerKeyPem: string;
    text?: string;
  }): Promise<string>;
  subject(opts: { test: boolean; fileName: string; comment: string; registrationId?: string; eldIdentifier?: string }): string;
}

export interface EldTransferDeps {
  config: EldTransferConfig;
  eld: EldIdentity;
  /** The app's mailer: its sendRaw sends the S/MIME message as built (SMTP, or the outbox). */
  mailer: Pick<Mailer, 'sendRaw'>;
  /** The web service's client for a set of options (eldWebService; a test may wrap it). */
  webService: (opts: EldWebServiceOptions) => EldWebService;
  smime: SmimeBuilder;
}

/** `Fleetline <eld@carrier.example>` -> `eld@carrier.example`: the SMTP envelope's sender. */
export const addressOf = (from: string): string => /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();

const upper: Record<ValidationStatus, Exclude<EldTransferStatus, 'SENT' | 'FAILED'>> = {
  Valid: 'VALID',
  Error: 'ERROR',
  Warning: 'WARNING',
  Information: 'INFORMATION',
  NotValidated: 'NOT_VALIDATED',
};

const messagesOf = (r: SubmitResult): EldValidationMessage[] =>
  r.errors.map((e) => ({ line: e.line, start: e.start, end: e.end, type: upper[e.errorType], message: e.message, detail: e.detail }));

interface Outcome {
  status: EldTransferStatus;
  submissionId: string | null;
  errors: EldValidationMessage[];
  failure: EldTransferFailure | null;
  /** The office's words. */
  reason: string | null;
}

/** A send as the driver reads it: what to do in place of the server's words (decision 0242). */
const forTheDriver = (t: EldTransfer): EldTransfer => (t.failure ? { ...t, reason: driverWords(t.failure) } : t);

/** The web service's client for this configuration, or what is missing for it (in the office's words). */
export async function webServiceOf(deps: Pick<EldTransferDeps, 'config' | 'eld' | 'webService'>): Promise<EldWebService | { missing: string[] }> {
  const setup = await webServiceSetup(deps.config);
  if ('missing' in setup) return setup;
  return deps.webService({
    url: deps.config.url,
    credentials: setup.credentials,
    ...(setup.ca ? { ca: setup.ca } : {}),
    identity: { registrationId: deps.eld.registrationId, eldIdentifier: deps.eld.identifier },
  });
}

/** The self-check's Ping of the configured web service; null when the service is not set up here. */
export async function transferPing(deps: Pick<EldTransferDeps, 'config' | 'eld' | 'webService'>): Promise<{ ping: (() => Promise<PingResult>) | null }> {
  const client = await webServiceOf(deps);
  if ('missing' in client) return { ping: null };
  return { ping: () => client.ping() };
}

/** The send's path, ready, or what it lacks here. */
type Path =
  | { kind: 'WEB_SERVICE'; client: EldWebService }
  | { kind: 'EMAIL'; signing: { recipientCertPem: string; signerCertPem: string; signerKeyPem: string } }
  | { kind: 'NOT_SET_UP'; what: string; missing: string[] };

async function pathOf(deps: EldTransferDeps, method: EldTransferInput['method']): Promise<Path> {
  if (method === 'WEB_SERVICE') {
    const client = await webServiceOf(deps);
    return 'missing' in client ? { kind: 'NOT_SET_UP', what: "FMCSA's web service", missing: client.missing } : { kind: 'WEB_SERVICE', client };
  }
  const keys = await emailSetup(deps.config);
  return 'missing' in keys ? { kind: 'NOT_SET_UP', what: 'The e-mail to FMCSA', missing: keys.missing } : { kind: 'EMAIL', signing: keys };
}

/**
 * Sends the driver's output file to FMCSA by `input.method` and records the send. Every attempt is
 * recorded (issue 66, decision 0242): a path that is not set up here is recorded FAILED (NOT_SET_UP)
 * and answers 409 without connecting; a send that fails (no connection, a SOAP fault, the mail server
 * refusing) is recorded FAILED and answers 502. The office (`HOS_READ`) reads what to configure, a
 * caller acting only as the driver reads what to do.
 */
export async function sendEldTransfer(
  { db, orgId, actor, now = Date.now() }: Scope,
  deps: EldTransferDeps,
  ctx: AuthContext,
  driverId: string,
  input: EldTransferInput,
): Promise<EldTransfer> {
  const test = deps.config.test;
  // Acting only as the driver: without the office's read code (as the list decides).
  const forDriver = selfOnly(ctx, 'HOS_READ');
  // As the file holds it (its fields are separated by commas, 4.8.2.1): the submission says the same.
  const comment = input.outputFileComment.replace(/,/g, ';');
  const path = await pathOf(deps, input.method);

  const file = await eldOutputFile({ db, orgId, now }, deps.eld, driverId, { from: input.from, to: input.to, comment }, { lineEnding: '\r' });
  // Named as the download names it (4.8.2.2 and the extension).
  const attachment = `${file.fileName}.csv`;
  let outcome: Outcome;
  try {
    if (path.kind === 'NOT_SET_UP') {
      outcome = { status: 'FAILED', submissionId: null, errors: [], failure: 'NOT_SET_UP', reason: notConfiguredWords(path.what, path.missing) };
    } else if (path.kind === 'WEB_SERVICE') {
      const r = await path.client.submit({ fileBody: file.text, comment, fileName: attachment, test });
      outcome = { status: upper[r.status], submissionId: r.submissionId, errors: messagesOf(r), failure: null, reason: null };
    } else {
      const to = deps.config.fmcsaEmail;
      const subject = deps.smime.subject({ test, fileName: attachment, comment, registrationId: deps.eld.registrationId, eldIdentifier: deps.eld.identifier });
      const raw = await deps.smime.build({
        fileName: attachment,
        fileText: file.text,
        subject,
        from: deps.config.from,
        to,
        ...path.signing,
        ...(comment ? { text: `Output file comment: ${comment}\r\n` } : {}),
      });
      try {
        await deps.mailer.sendRaw({ from: addressOf(deps.config.from), to }, raw);
      } catch (err) {
        throw new EldTransferError(
          'MAIL',
          `The mail server did not take the e-mail to FMCSA (${to}) from ${addressOf(deps.config.from)}: ${(err as Error).message}`,
        );
      }
      outcome = { status: 'SENT', submissionId: null, errors: [], failure: null, reason: null };
    }
  } catch (err) {
    if (!(err instanceof EldTransferError)) throw err;
    outcome = { status: 'FAILED', submissionId: null, errors: [], failure: err.failure, reason: err.message };
  }

  const record = await db.transaction(async (tx) => {
    const stored = await insertTransfer(tx, {
      organizationId: orgId,
      driverId,
      method: input.method,
      test,
      fileName: file.fileName,
      outputFileComment: comment,
      fromDate: file.from,
      toDate: file.to,
      status: outcome.status,
      submissionId: outcome.submissionId,
      errors: outcome.errors,
      reason: outcome.reason,
      failure: outcome.failure,
      createdByUserId: actor.userId,
      createdAt: new Date(now),
    });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'SEND_ELD_TRANSFER',
      entityType: 'DRIVER',
      entityId: driverId,
      after: {
        method: stored.method,
        test: stored.test,
        status: stored.status,
        submissionId: stored.submissionId,
        fileName: stored.fileName,
        from: stored.from,
        to: stored.to,
        outputFileComment: stored.outputFileComment,
        driverName: stored.driverName,
        messages: stored.errors.length,
        reason: stored.reason,
      },
    });
    return stored;
  });
  if (path.kind === 'NOT_SET_UP') throw transferNotConfigured(path.what, path.missing, forDriver);
  if (outcome.failure) throw transferFailed(outcome.failure, outcome.reason ?? '', forDriver);
  return forDriver ? forTheDriver(record) : record;
}

/**
 * `GET hos_log/eld-transfers`: the organization's sends, newest first, of one driver when asked. A
 * caller without HOS_READ (a driver) sees only their own; naming another driver answers 404.
 */
export async function listEldTransfers({ db, orgId }: ReadScope, ctx: AuthContext, q: z.output<typeof eldTransferQuery>): Promise<Page<EldTransfer>> {
  let driverId = q.driverId ?? null;
  if (selfOnly(ctx, 'HOS_READ')) {
    const own = await driverIdOfAccount(db, orgId, ctx.userId);
    if (driverId && driverId !== own) throw notFound('Driver');
    driverId = own;
  }
  const { rows, total } = await listTransfers(db, orgId, { driverId, page: q.page, size: q.size });
  return toPage(selfOnly(ctx, 'HOS_READ') ? rows.map(forTheDriver) : rows, total, q);
}

/** `GET hos_log/eld-transfer-status`: what each path lacks, and the last self-check. */
export async function eldTransferStatus({ db }: ReadScope, ctx: AuthContext, deps: Pick<EldTransferDeps, 'config'>): Promise<EldTransferStatusBody> {
  const [readiness, last] = await Promise.all([transferReadiness(deps.config), latestCheck(db)]);
  // The server's variable and file names are the office's to read (decision 0242).
  const words = selfOnly(ctx, 'HOS_READ') ? (r: Readiness): Readiness => ({ ready: r.ready, missing: [] }) : (r: Readiness) => r;
  return {
    test: deps.config.test,
    webService: words(readiness.webService),
    email: words(readiness.email),
    lastCheck: last ? { checkedAt: last.checkedAt.toISOString(), status: last.status, detail: last.detail, ok: last.ok } : null,
  };
}
