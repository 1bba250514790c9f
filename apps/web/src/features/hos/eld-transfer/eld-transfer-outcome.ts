import type { EldTransfer } from '@fleet/api-contract';

/** The catalogue keys (under `fmcsa.`) a send's outcome is said with, and its colour. */
export interface OutcomeWords {
  key: string;
  color: 'green' | 'orange' | 'red' | 'blue';
  /** The validation messages are the point of the answer (errors, warnings). */
  showMessages: boolean;
}

/**
 * FMCSA's answer in plain words: a test submission that was received comes back Information ("File
 * Received") and is shown as received, never as an error. A failed send reads, for the driver, by
 * its kind (translated); for the office, with the server's reason.
 */
export function outcomeWords(t: Pick<EldTransfer, 'status' | 'test'> & { failure?: EldTransfer['failure'] }, asDriver = false): OutcomeWords {
  switch (t.status) {
    case 'INFORMATION':
      return { key: t.test ? 'receivedTest' : 'received', color: 'green', showMessages: false };
    case 'VALID':
      return { key: t.test ? 'acceptedTest' : 'accepted', color: 'green', showMessages: false };
    case 'WARNING':
      return { key: 'warnings', color: 'orange', showMessages: true };
    case 'ERROR':
      return { key: 'refused', color: 'red', showMessages: true };
    case 'NOT_VALIDATED':
      return { key: 'notValidated', color: 'blue', showMessages: false };
    case 'SENT':
      return { key: t.test ? 'emailedTest' : 'emailed', color: 'green', showMessages: false };
    case 'FAILED':
      // The driver reads what happened in their language, not the server's words (issue 66).
      if (asDriver && t.failure) return { key: t.failure === 'NOT_SET_UP' ? 'notSetUp' : 'notTaken', color: 'red', showMessages: false };
      return { key: 'failed', color: 'red', showMessages: false };
  }
}
