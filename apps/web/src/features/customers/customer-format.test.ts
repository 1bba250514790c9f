import { describe, expect, it } from 'vitest';
import { detentionText, minutesText, termsLine } from './customer-format.ts';

describe('customer terms in words', () => {
  it('reads free time in hours and minutes', () => {
    expect(minutesText(120)).toBe('2 h');
    expect(minutesText(90)).toBe('1 h 30 min');
    expect(minutesText(45)).toBe('45 min');
    expect(minutesText(0)).toBe('none');
  });

  it('reads detention and the whole terms line', () => {
    expect(detentionText({ detentionFreeMinutes: 120, detentionCentsPerHour: 6500 }, 'USD')).toBe('2 h free, then $65.00/h');
    expect(detentionText({ detentionFreeMinutes: 0, detentionCentsPerHour: 5000 }, 'USD')).toBe('From arrival, $50.00/h');
    expect(detentionText({ detentionFreeMinutes: 120, detentionCentsPerHour: 0 }, 'USD')).toBe('Not charged');
    expect(termsLine({ paymentTermsDays: 30, detentionFreeMinutes: 120, detentionCentsPerHour: 7500, requiresPod: true }, 'USD')).toBe(
      'Net 30 · detention 2 h free, then $75.00/h · proof of delivery required',
    );
    expect(termsLine({ paymentTermsDays: 0, detentionFreeMinutes: 120, detentionCentsPerHour: 0, requiresPod: false }, 'USD')).toBe(
      'Due on receipt · no detention charged',
    );
  });
});
