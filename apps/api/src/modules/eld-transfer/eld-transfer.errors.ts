import { AppError } from '../../http/errors.ts';

// Why a transfer to FMCSA did not happen (decision 0185). The route answers 502 with the words; the
// record keeps them as its reason.

export type EldTransferFailure =
  /** No connection: refused, unreachable, the name not found. */
  | 'CONNECTION'
  /** Connected, no answer in time. */
  | 'TIMEOUT'
  /** The TLS handshake failed: our client certificate refused, or the service's not trusted. */
  | 'TLS'
  /** An HTTP status other than 2xx without a SOAP fault. */
  | 'HTTP_STATUS'
  /** The service answered a SOAP fault. */
  | 'SOAP_FAULT'
  /** An answer that is not the SOAP message the WSDL describes. */
  | 'BAD_RESPONSE'
  /** The mail server refused or could not be reached (the e-mail path). */
  | 'MAIL';

export class EldTransferError extends Error {
  constructor(
    readonly failure: EldTransferFailure,
    message: string,
  ) {
    super(message);
  }
}

/** 409: the path is not set up here; `missing` names what, in words. */
export const transferNotConfigured = (what: string, missing: readonly string[]) =>
  new AppError(409, `${what} is not set up on this server: ${missing.join('; ')}`, `eld-transfer: not configured: ${missing.join('; ')}`);

/** 502: FMCSA (or the mail server) could not be reached or refused the request; the send was recorded as FAILED. */
export const transferFailed = (err: EldTransferError) => new AppError(502, err.message, `eld-transfer: ${err.failure}: ${err.message}`);
