// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME } from '@mantine/core';
import { LIGHT_TONES } from './theme.ts';

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
const luminance = (hex: string) => {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('light theme tones (issue 28: badges and chips at 4.5:1)', () => {
  it('covers every Mantine colour but dark', () => {
    expect(Object.keys(LIGHT_TONES).sort()).toEqual(
      Object.keys(DEFAULT_THEME.colors)
        .filter((c) => c !== 'dark')
        .sort(),
    );
  });

  it.each(Object.entries(LIGHT_TONES))('%s: light-variant text on its backgrounds and text on white reach 4.5:1', (name, t) => {
    const shades = DEFAULT_THEME.colors[name]!;
    // Light variant background (shade 1) and its hover (shade 2).
    expect(contrast(t.light, shades[1]!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.light, shades[2]!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // Mantine's own dark-theme light text (shade 0) on its light background (shade 9 at half brightness).
    const bg = `#${channels(shades[9]!)
      .map((c) =>
        Math.round(c * 0.5 * 255)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    expect(contrast(shades[0]!, bg)).toBeGreaterThanOrEqual(4.5);
  });
});
