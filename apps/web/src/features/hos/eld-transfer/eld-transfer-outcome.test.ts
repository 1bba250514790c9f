// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ELD_TRANSFER_FAILURES, ELD_TRANSFER_STATUSES } from '@fleet/api-contract';
import { en } from '../../../i18n/full-catalogues.ts';
import { outcomeWords } from './eld-transfer-outcome.ts';

describe('outcomeWords', () => {
  it('shows a received test submission as received, not as an error', () => {
    expect(outcomeWords({ status: 'INFORMATION', test: true })).toEqual({ key: 'receivedTest', color: 'green', showMessages: false });
    expect(outcomeWords({ status: 'ERROR', test: true }).color).toBe('red');
    expect(outcomeWords({ status: 'ERROR', test: false }).showMessages).toBe(true);
  });

  it('has words in the catalogue for every status, test or not, and every failure the driver reads', () => {
    for (const status of ELD_TRANSFER_STATUSES) {
      for (const test of [true, false]) expect(en.fmcsa).toHaveProperty(outcomeWords({ status, test }).key);
    }
    for (const failure of ELD_TRANSFER_FAILURES) expect(en.fmcsa).toHaveProperty(outcomeWords({ status: 'FAILED', test: true, failure }, true).key);
    expect(outcomeWords({ status: 'FAILED', test: true, failure: 'NOT_SET_UP' }, true).key).toBe('notSetUp');
    expect(outcomeWords({ status: 'FAILED', test: true, failure: 'NOT_SET_UP' }).key).toBe('failed');
  });
});
