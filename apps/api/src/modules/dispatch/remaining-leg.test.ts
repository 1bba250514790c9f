import { describe, expect, it } from 'vitest';
import type { RouteLeg } from '@fleet/dispatch';
import { metresBetween, remainingLeg, thinLeg } from './remaining-leg.ts';

// A vehicle followed along its routed leg (decision 0167): the rest of the line from the nearest
// vertex, time in proportion; off the route, nothing (route again); thinned lines keep their ends.

const line = Array.from({ length: 101 }, (_, i) => ({ lat: 35, lon: -100 + i * 0.01 }));
const lineM = metresBetween(line[0]!, line[100]!);
const leg: RouteLeg = { metres: lineM * 1.1, seconds: 3600, line };

describe('remaining leg', () => {
  it('takes the rest of the line from where the vehicle is, time in proportion to distance', () => {
    const half = remainingLeg(leg, { lat: 35.001, lon: -99.5 })!;
    expect(half.line[0]).toEqual({ lat: 35.001, lon: -99.5 });
    expect(half.line.at(-1)).toEqual(line[100]);
    expect(half.metres / leg.metres).toBeCloseTo(0.5, 2);
    expect(half.seconds).toBeCloseTo((3600 * half.metres) / leg.metres, 6);
    expect(remainingLeg(leg, line[100]!)!.metres).toBe(0);
  });

  it('answers null when the vehicle is off the route, so the leg is routed again', () => {
    expect(remainingLeg(leg, { lat: 35.1, lon: -99.5 })).toBeNull();
  });

  it('thins a line to a vertex every step, ends kept, distance and time unchanged', () => {
    const thin = thinLeg(leg, 2000);
    expect(thin.line[0]).toEqual(line[0]);
    expect(thin.line.at(-1)).toEqual(line[100]);
    expect(thin.line.length).toBeLessThan(line.length / 2);
    expect(thin).toMatchObject({ metres: leg.metres, seconds: 3600 });
  });
});
