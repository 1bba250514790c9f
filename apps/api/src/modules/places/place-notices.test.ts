import { describe, expect, it } from 'vitest';
import { durationWords, radiusWords } from './place-notices.ts';

describe('place notice words', () => {
  it('writes a radius in the organization’s units and a stay in hours and minutes', () => {
    expect(radiusWords(150, 'IMPERIAL')).toBe('492 ft');
    expect(radiusWords(2000, 'IMPERIAL')).toBe('1.2 mi');
    expect(radiusWords(150, 'METRIC')).toBe('150 m');
    expect(radiusWords(2500, 'METRIC')).toBe('2.5 km');
    expect(durationWords(45 * 60_000)).toBe('45 min');
    expect(durationWords(2 * 3_600_000)).toBe('2 h');
    expect(durationWords(135 * 60_000)).toBe('2 h 15 min');
  });
});
