import { describe, expect, it } from 'vitest';
import { ringAreaM2 } from './places.ts';

describe('a place polygon’s area', () => {
  it('is measured in square metres: a 0.001° square near Dallas is about 10,400 m²', () => {
    const area = ringAreaM2([
      [-96.8, 32.78],
      [-96.799, 32.78],
      [-96.799, 32.781],
      [-96.8, 32.781],
      [-96.8, 32.78],
    ]);
    expect(area).toBeGreaterThan(10_000);
    expect(area).toBeLessThan(10_800);
  });

  it('is 0 for corners on one line or repeated', () => {
    expect(
      ringAreaM2([
        [-96.8, 32.78],
        [-96.79, 32.78],
        [-96.78, 32.78],
        [-96.8, 32.78],
      ]),
    ).toBeLessThan(1e-3);
    expect(
      ringAreaM2([
        [-96.8, 32.78],
        [-96.79, 32.79],
        [-96.78, 32.8],
        [-96.8, 32.78],
      ]),
    ).toBeLessThan(1e-3);
    expect(
      ringAreaM2([
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
      ]),
    ).toBe(0);
  });
});
