import { Text } from '@mantine/core';
import type { VsMedian } from '../lib/fuel-economy.ts';

/**
 * A difference from the fleet's median (issue 68): green when better, red when worse, a dash
 * without one. `describe` words it for a screen reader (the colour says better or worse).
 */
export function VsMedianText({ v, describe }: { v: VsMedian | null; describe?: (v: VsMedian) => string }) {
  if (!v)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  return (
    <Text
      span
      size="sm"
      fw={600}
      c={v.better === null ? 'dimmed' : v.better ? 'teal' : 'red'}
      style={{ whiteSpace: 'nowrap' }}
      aria-label={describe?.(v)}
      data-better={v.better === null ? 'same' : String(v.better)}
    >
      {v.text}
    </Text>
  );
}

/** "+0.4 mpg economy, better than the fleet median" (the English screens' words). */
export const describeVsMedian =
  (what: string) =>
  (v: VsMedian): string =>
    `${v.text} ${what}, ${v.better === null ? 'the same as' : v.better ? 'better than' : 'worse than'} the fleet median`;
