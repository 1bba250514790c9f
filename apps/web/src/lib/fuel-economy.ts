import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DISPLAY_DECIMALS, UNIT_LABELS } from '@fleet/api-contract/units';
import type { FuelBasis, FuelEconomy, FuelEconomyQuery } from '@fleet/api-contract';
import { FUEL_ECONOMY_MAX_DAYS } from '@fleet/api-contract/fuel-economy';
import { api } from './api-client.ts';
import { addDays } from './dates.ts';
import { orgPathFor, useEffectiveOrganizationId } from './org-path.ts';
import { fuelEconomyIn, type UnitSystem } from './units.ts';

// Fuel economy and idling (issue 68, decision 0280), read by fleet performance, the vehicle page and
// the driver's scorecard: the one query and how a figure compares with the fleet's median in the
// organization's units (more mpg is better, fewer L/100 km is better).

export const fuelEconomyKeys = {
  all: (orgId: string | null) => ['fuel-economy', orgId] as const,
  one: (orgId: string | null, q: FuelEconomyQuery) => ['fuel-economy', orgId, q] as const,
};

/** The API answers fuel economy for at most 92 days (a longer period is not asked, and says so). */
export const fuelRangeTooLong = (from: string, to: string): boolean => addDays(from, FUEL_ECONOMY_MAX_DAYS - 1) < to;
export const FUEL_RANGE_TOO_LONG = `Fuel economy covers at most ${FUEL_ECONOMY_MAX_DAYS} days: choose a shorter period.`;

/** `GET …/fuel-economy` (fleet performance's permission: pass `enabled` false without it). */
export function useFuelEconomy(q: FuelEconomyQuery, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: fuelEconomyKeys.one(orgId, q),
    queryFn: ({ signal }) => api<FuelEconomy>(orgPathFor(orgId ?? '', '/fuel-economy'), { query: { ...q }, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId && q.from <= q.to && !fuelRangeTooLong(q.from, q.to),
  });
}

/** How a figure compares with the median: signed text in its unit, and whether that is better (null: no comparison). */
export interface VsMedian {
  text: string;
  better: boolean | null;
}

const signed = (v: number, digits: number) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(digits)}`;

/** "+0.4 mpg" (better) or "+1.3 L/100 km" (worse) against the median; null without both. */
export function economyVsMedian(lPer100Km: number | null | undefined, medianLPer100Km: number | null | undefined, units: UnitSystem): VsMedian | null {
  const a = fuelEconomyIn(lPer100Km, units);
  const m = fuelEconomyIn(medianLPer100Km, units);
  if (a === null || m === null) return null;
  const digits = DISPLAY_DECIMALS[units].economy;
  const d = Math.round((a - m) * 10 ** digits) / 10 ** digits;
  return { text: `${signed(d, digits)} ${UNIT_LABELS[units].economy}`, better: d === 0 ? null : units === 'IMPERIAL' ? d > 0 : d < 0 };
}

/** "+3.1 pts" (worse: more idling) against the median share; null without both. */
export function idleVsMedian(sharePct: number | null | undefined, medianPct: number | null | undefined): VsMedian | null {
  if (sharePct == null || medianPct == null) return null;
  const d = Math.round((sharePct - medianPct) * 10) / 10;
  return { text: `${signed(d, 1)} pts`, better: d === 0 ? null : d < 0 };
}

/** What a figure's fuel came from, in words. */
export const FUEL_BASIS_WORDS: Record<FuelBasis, string> = {
  ENGINE: 'Engine fuel counter',
  PURCHASES: 'Fuel bought between fills',
  MIXED: 'Engine counter and fills',
};

/** "2 h 05 m" from milliseconds (idle time). */
export function formatHoursMinutes(ms: number): string {
  const m = Math.round(ms / 60_000);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
}
