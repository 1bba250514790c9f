import { describe, expect, it } from 'vitest';
import { detentionCents, stopDetention } from './load-detention.ts';

const at = (hhmm: string) => new Date(`2026-11-02T${hhmm}:00Z`);

describe('stopDetention', () => {
  it('bills whole minutes beyond the free time, per stop, in driving order', () => {
    const stops = [
      { id: 'b', seq: 2, arrivedAt: at('14:00'), departedAt: at('17:45') },
      { id: 'a', seq: 1, arrivedAt: at('08:00'), departedAt: at('09:30') },
      { id: 'c', seq: 3, arrivedAt: at('20:00'), departedAt: null },
    ];
    expect(stopDetention(stops, 120)).toEqual([
      { stopId: 'a', seq: 1, dwellMinutes: 90, billableMinutes: 0 },
      { stopId: 'b', seq: 2, dwellMinutes: 225, billableMinutes: 105 },
    ]);
  });

  it('does not bill a started minute', () => {
    const stops = [{ id: 'a', seq: 1, arrivedAt: at('08:00'), departedAt: new Date(at('10:01').getTime() + 59_000) }];
    expect(stopDetention(stops, 120)[0]!.billableMinutes).toBe(1);
  });
});

describe('detentionCents', () => {
  it('prices minutes at an hourly rate to the nearest cent', () => {
    expect(detentionCents(105, 5000)).toBe(8750);
    expect(detentionCents(1, 5000)).toBe(83);
  });
});
