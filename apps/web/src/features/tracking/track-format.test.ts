import { describe, expect, it } from 'vitest';
import { tokenFromPath } from './track-api.ts';
import { dayText, localeFor, speedText, windowText, zoneName } from './track-format.ts';

const NY = { locale: 'en-US', zone: 'America/New_York' };

describe('the tracking page’s times and words', () => {
  it('takes the token from /track/{token} only', () => {
    expect(tokenFromPath('/track/AbC_-9')).toBe('AbC_-9');
    expect(tokenFromPath('/track/AbC_-9/')).toBe('AbC_-9');
    expect(tokenFromPath('/track/')).toBeNull();
    expect(tokenFromPath('/track/a/b')).toBeNull();
    expect(tokenFromPath('/dispatch')).toBeNull();
  });

  it('keeps the browser’s own tag for the language (a 24-hour en-GB stays so)', () => {
    expect(localeFor('en', ['fr-CA', 'en-GB'])).toBe('en-GB');
    expect(localeFor('es', ['fr-CA'])).toBe('es');
  });

  it('names the day only when it is not today, in the viewer’s zone', () => {
    const now = new Date('2026-12-01T15:00:00Z'); // 10:00 in New York
    expect(dayText('2026-12-01T20:00:00Z', NY, now)).toBe('');
    // 03:00 UTC on the 2nd is still the 1st in New York.
    expect(dayText('2026-12-02T03:00:00Z', NY, now)).toBe('');
    expect(dayText('2026-12-02T15:00:00Z', NY, now)).toBe('Wed, Dec 2');
    expect(zoneName('2026-12-01T15:00:00Z', NY)).toBe('EST');
  });

  it('writes a window of one day with its end as a time alone', () => {
    const now = new Date('2026-12-01T15:00:00Z');
    expect(windowText('2026-12-02T21:00:00Z', '2026-12-03T01:00:00Z', NY, now)).toBe('Wed, Dec 2, 4:00 PM – 8:00 PM');
    expect(windowText('2026-12-01T21:00:00Z', '2026-12-02T15:00:00Z', NY, now)).toBe('4:00 PM – Wed, Dec 2, 10:00 AM');
  });

  it('gives speeds in the carrier’s units', () => {
    expect(speedText(80, 'IMPERIAL')).toBe('50 mph');
    expect(speedText(80, 'METRIC')).toBe('80 km/h');
  });
});
