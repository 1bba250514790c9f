import type { EldTransferFailure as ContractFailure } from '@fleet/api-contract';
import { AppError } from '../../http/errors.ts';

// Why a transfer to FMCSA did not happen (decisions 0185, 0242). The route answers 409 or 502 with
// the words, the office's (what to configure) or the driver's (what to do); the record keeps the
// office's as its reason.

/** Why a send did not happen (the contract's kinds; NOT_SET_UP is the 409 before any connection). */
export type EldTransferFailure = Exclude<ContractFailure, 'NOT_SET_UP'>;

export class EldTransferError extends Error {
  constructor(
    readonly failure: EldTransferFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a driver is told when a send fails (issue 66, decision 0242): what to do at the roadside, never
 * the server's variable or file names, which are the office's to read.
 */
export function driverWords(failure: ContractFailure): string {
  return failure === 'NOT_SET_UP'
    ? 'Sending to FMCSA is not set up for your carrier yet. Show the officer your logs on this screen or the downloaded ELD file, and tell your office.'
    : 'FMCSA could not take the file just now. Try again, or show the officer your logs on this screen or the downloaded ELD file, and tell your office if it keeps failing.';
}

/** 409: the path is not set up here; `missing` names what, in words (the office's), the driver reads what to do. */
export const transferNotConfigured = (what: string, missing: readonly string[], forDriver: boolean) =>
  forDriver
    ? new AppError(409, driverWords('NOT_SET_UP'), 'eld-transfer: NOT_SET_UP', 'eld_transfer.not_set_up')
    : new AppError(409, notConfiguredWords(what, missing), `eld-transfer: not configured: ${missing.join('; ')}`, 'eld_transfer.not_set_up');

export const notConfiguredWords = (what: string, missing: readonly string[]) => `${what} is not set up on this server: ${missing.join('; ')}`;

/** 502: FMCSA (or the mail server) could not be reached or refused the request; the send was recorded as FAILED. */
export const transferFailed = (failure: ContractFailure, message: string, forDriver: boolean) =>
  forDriver
    ? new AppError(502, driverWords(failure), `eld-transfer: ${failure}`, 'eld_transfer.failed')
    : new AppError(502, message, `eld-transfer: ${failure}: ${message}`, 'eld_transfer.failed');
