import { z } from 'zod';
import { lengthForDisplay, lengthMFromInput, odometerForDisplay, odometerKmFromInput } from '@fleet/api-contract/units';
import type { UnitSystem } from './units.ts';

// Form fields typed in the organization's units (units.ts shows them): apart, since they need zod and
// units.ts is on every screen's first load (issue 67).

/**
 * A form field typed in the organization's units whose value the API takes metric. The text is
 * converted first and the contract's own schema `metric` then checks the metric number, so its
 * limits and messages hold. A value left exactly as it was shown goes back exactly as it came:
 * saving a record without touching the field never moves it by a rounding step.
 */
export function typedInUnits<S extends z.ZodType>(metric: S, shown: string, original: number | null, toMetric: (v: number) => number) {
  return z.preprocess((v) => {
    if (typeof v !== 'string') return v; // null: the box is empty
    const text = v.trim();
    if (original !== null && text === shown) return original;
    if (text === '') return null;
    const n = Number(text);
    return Number.isFinite(n) ? toMetric(n) : v; // not a number: the contract names the problem
  }, metric);
}

/** The odometer's text in the form (no grouping), and the schema reading it back to km. */
export function odometerField<S extends z.ZodType>(metric: S, km: number | null, units: UnitSystem) {
  const shown = km === null ? '' : String(odometerForDisplay(km, units));
  return { shown, schema: typedInUnits(metric, shown, km, (v) => odometerKmFromInput(v, units)) };
}

/** A trailer length's text in the form, and the schema reading it back to metres. */
export function lengthField<S extends z.ZodType>(metric: S, m: number | null, units: UnitSystem) {
  const shown = m === null ? '' : String(lengthForDisplay(m, units));
  return { shown, schema: typedInUnits(metric, shown, m, (v) => lengthMFromInput(v, units)) };
}
