// The codes without zod, so a page that only words an error (the sign-in page) loads no schema library.
/**
 * Every machine code an error body carries (decision 0257): `<domain>.<reason>`, stable once
 * published, so a client switches over the code and never over the English `message`. A status
 * without a more precise code gets its default (`ERROR_CODE_OF_STATUS`); a code is added here, never
 * renamed. The English words stay in `message`, the fallback for a code a client does not know.
 */
export const ERROR_CODES = [
  // Any route: what the status alone says.
  'common.bad_request',
  'common.not_found',
  'common.method_not_allowed',
  'common.conflict',
  'common.duplicate',
  'common.changed_concurrently',
  'common.still_referenced',
  'common.reference_missing',
  'common.payload_too_large',
  'common.unsupported_media_type',
  'common.rate_limited',
  'common.upstream_failed',
  'common.unavailable',
  'common.database_unavailable',
  // The request breaks its schema (technicalMessage pairs each field path with its words).
  'validation.invalid_body',
  'validation.invalid_query',
  'validation.invalid_params',
  'validation.invalid_headers',
  'validation.malformed_body',
  'validation.malformed_url',
  'validation.invalid_field',
  // Who the caller is and what they may do.
  'auth.unauthenticated',
  'auth.session_expired',
  'auth.invalid_credentials',
  'auth.account_inactive',
  'auth.too_many_sign_ins',
  'auth.forbidden',
  'tokens.invalid',
  'tokens.expired',
  'tokens.endpoint_refused',
  'tokens.address_refused',
  'tokens.rate_limited',
  // Unique values a request can clash on.
  'users.email_taken',
  'users.current_password_required',
  'users.current_password_wrong',
  'assets.unit_number_taken',
  'assets.vin_taken',
  'drivers.license_taken',
  'drivers.account_linked',
  'drivers.card_taken',
  'gateways.unique_id_taken',
  'names.taken',
  'ifta.receipt_taken',
  // A record the driver's phone sends late (the offline outbox).
  'sync.recorded_in_future',
  'sync.recorded_too_old',
  // The driver's hours of service.
  'hos.position_unknown',
  'hos.time_in_future',
  'hos.moved_since',
  'hos.vehicle_moving',
  'hos.driving_automatic',
  'hos.yard_moves_not_allowed',
  'hos.personal_conveyance_not_allowed',
  'hos.waiting_time_not_allowed',
  'hos.proposal_stale',
  'hos.proposal_accepted',
  'hos.proposal_rejected',
  'hos.segment_assigned',
  'hos.segment_proposed',
  'hos.segment_driving',
  'hos.co_driver_self',
  'hos.co_driver_unknown',
  'hos.trailer_unknown',
  'hos.day_not_begun',
  // Loads: a delivery whose customer requires a proof of delivery (params: stop, the stop's number).
  'loads.pod_required',
  // Loads (issue 71): a driver whose licence or medical certificate, or a unit whose annual inspection
  // or registration, has expired by the load's dates (params: driver or unit, item, date).
  'loads.driver_not_qualified',
  'loads.vehicle_not_compliant',
  'eld_transfer.not_set_up',
  'eld_transfer.failed',
  // Invoices (issue 70): which loads a draft may bill, and what a payment may be.
  'invoices.load_not_delivered',
  'invoices.load_invoiced',
  'invoices.customer_mismatch',
  'invoices.no_invoice_email',
  'invoices.not_draft',
  'invoices.void',
  'invoices.overpayment',
  'invoices.has_payments',
  // Compliance (issue 71): a paper's kind that is not the subject's (or not one a driver renews from
  // the phone), approving or rejecting what is not pending, pages that are neither images nor one PDF.
  'compliance.kind_not_for_subject',
  'compliance.kind_not_renewable',
  'compliance.not_pending',
  'compliance.bad_document',
  // A failed item of an annual inspection made a defect: not a failed item of a failed inspection, or made already.
  'compliance.not_failed_item',
  'compliance.defect_exists',
  // The server's own failure: the words never carry internals.
  'internal.error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && KNOWN.has(code);

/** The code of an error whose thrower gave none: one place, so no error answers without one. */
export function errorCodeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'auth.unauthenticated';
    case 403:
      return 'auth.forbidden';
    case 404:
      return 'common.not_found';
    case 405:
      return 'common.method_not_allowed';
    case 409:
      return 'common.conflict';
    case 413:
      return 'common.payload_too_large';
    case 415:
      return 'common.unsupported_media_type';
    case 429:
      return 'common.rate_limited';
    case 502:
      return 'common.upstream_failed';
    case 503:
      return 'common.unavailable';
    default:
      return status >= 500 ? 'internal.error' : 'common.bad_request';
  }
}

/** Values a client needs to word the error itself (`hos.moved_since`: `time`), beside the English message. */
export type ErrorParams = Record<string, string | number>;
