import { z } from 'zod';
import { dayField, ELD_YEARS } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';

// The ELD hands its records to an officer through FMCSA (49 CFR 395 Appendix A 4.10.1, issue 45,
// decision 0185): the web service (SOAP) or an encrypted e-mail, each send recorded with its outcome;
// and the weekly self-check of the transfer mechanism (4.6.1.7).

defineLabels({ method: 'Transfer method', outputFileComment: 'Output file comment' });

export const ELD_TRANSFER_METHODS = ['WEB_SERVICE', 'EMAIL'] as const;
export type EldTransferMethod = (typeof ELD_TRANSFER_METHODS)[number];

/**
 * A send's outcome: the web service's validation status (Valid, Error, Warning, Information,
 * NotValidated, upper-cased), SENT for an e-mail handed to the mail server (FMCSA answers the From
 * address), FAILED when FMCSA could not be reached or refused the request (`reason` says why).
 */
export const ELD_TRANSFER_STATUSES = ['VALID', 'ERROR', 'WARNING', 'INFORMATION', 'NOT_VALIDATED', 'SENT', 'FAILED'] as const;
export type EldTransferStatus = (typeof ELD_TRANSFER_STATUSES)[number];

/**
 * Why a FAILED send failed (issue 66, decision 0242): NOT_SET_UP when the server lacks what the path
 * needs (certificates, keys), CONNECTION (refused, unreachable), TIMEOUT, TLS (the handshake),
 * HTTP_STATUS, SOAP_FAULT (FMCSA refused the request), BAD_RESPONSE, MAIL (the mail server).
 */
export const ELD_TRANSFER_FAILURES = ['NOT_SET_UP', 'CONNECTION', 'TIMEOUT', 'TLS', 'HTTP_STATUS', 'SOAP_FAULT', 'BAD_RESPONSE', 'MAIL'] as const;
export type EldTransferFailure = (typeof ELD_TRANSFER_FAILURES)[number];

/** The severities of FMCSA's validation messages (ValidationError.ErrorType, upper-cased). */
export const ELD_VALIDATION_TYPES = ['VALID', 'ERROR', 'WARNING', 'INFORMATION', 'NOT_VALIDATED'] as const;

/** Longest output file comment (7.38). */
export const ELD_OUTPUT_FILE_COMMENT_MAX = 60;

const day = (label: string) => dayField(label, { years: ELD_YEARS });

export const eldTransferInputSchema = z.object({
  method: z.enum(ELD_TRANSFER_METHODS, { error: () => 'Transfer method must be WEB_SERVICE or EMAIL' }),
  /** The routing code the officer gives (7.38): printable ASCII, at most 60 characters; may be empty. */
  outputFileComment: z
    .string({ error: (iss) => (iss.input === undefined ? 'Output file comment is a required field' : 'Output file comment must be text') })
    .trim()
    .max(ELD_OUTPUT_FILE_COMMENT_MAX, `Output file comment must be at most ${ELD_OUTPUT_FILE_COMMENT_MAX} characters`)
    .regex(/^[\x20-\x7e]*$/, 'Output file comment may hold only printable ASCII characters (letters, digits, spaces and punctuation)'),
  /** First log day (default: 7 days before `to`, the roadside period). */
  from: day('From').optional(),
  /** Last log day (default: today in the driver's home terminal zone). */
  to: day('To').optional(),
});
export type EldTransferInput = z.infer<typeof eldTransferInputSchema>;

/** One of FMCSA's validation messages about the file: the line and the character columns it names. */
export const eldValidationMessageSchema = z.object({
  line: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  type: z.enum(ELD_VALIDATION_TYPES),
  message: z.string(),
  detail: z.string().nullable(),
});
export type EldValidationMessage = z.infer<typeof eldValidationMessageSchema>;

/** A send of a driver's output file to FMCSA, as recorded. */
export const eldTransferSchema = z.object({
  id: z.string(),
  driverId: z.string(),
  driverName: z.string(),
  method: z.enum(ELD_TRANSFER_METHODS),
  /** A test submission (ELD_TRANSFER_TEST): FMCSA validates it but does not pass it to inspectors. */
  test: z.boolean(),
  /** The output file's 25-character name (4.8.2.2), without extension. */
  fileName: z.string(),
  outputFileComment: z.string(),
  /** The log days the file covers. */
  from: z.string(),
  to: z.string(),
  status: z.enum(ELD_TRANSFER_STATUSES),
  /** FMCSA's submission id (web service), null otherwise. */
  submissionId: z.string().nullable(),
  errors: z.array(eldValidationMessageSchema),
  /**
   * Why a FAILED send failed, in words; null otherwise. The office reads what to configure; a caller
   * acting only as the driver reads what to do instead, never the server's variable or file names.
   */
  reason: z.string().nullable(),
  /** The kind of failure of a FAILED send (null otherwise, and on sends recorded before issue 66). */
  failure: z.enum(ELD_TRANSFER_FAILURES).nullable(),
  createdAt: z.string(),
  /** Who sent it (the driver or an office user), by name; null when the account is gone. */
  sentBy: z.string().nullable(),
});
export type EldTransfer = z.infer<typeof eldTransferSchema>;

export const eldTransferPageSchema = pageSchema(eldTransferSchema);
export const eldTransferQuery = pageQuerySchema.omit({ search: true, sort: true }).extend({
  driverId: z.uuid('driverId must be a driver id').optional(),
});

const readiness = z.object({
  ready: z.boolean(),
  /** What is missing, in words naming the environment variables and files ("ELD_FMCSA_CERT is not set"); empty for a driver. */
  missing: z.array(z.string()),
});

/** Whether the two FMCSA paths are set up here, and the last self-check of the web service (4.6.1.7). */
export const eldTransferStatusSchema = z.object({
  /** Every send is a test submission (ELD_TRANSFER_TEST, on until an operator sets 0). */
  test: z.boolean(),
  webService: readiness,
  email: readiness,
  lastCheck: z
    .object({
      checkedAt: z.string(),
      /** The Ping's status (Success, InvalidRegistrationData, ...) or FAILED when the service could not be reached. */
      status: z.string(),
      detail: z.string().nullable(),
      ok: z.boolean(),
    })
    .nullable(),
});
export type EldTransferStatusBody = z.infer<typeof eldTransferStatusSchema>;
