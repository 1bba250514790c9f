import { useCallback } from 'react';
import { VIOLATIONS_MAX_RANGE_DAYS } from '@fleet/api-contract/hos';
import { addDays, dayStartIn, todayIn, useViewerZone } from '../../../lib/dates.ts';
import { withParams, useSearchParams } from '../../../lib/search-params.ts';

export const VIOLATION_FILTER_KEYS = ['from', 'to', 'driver', 'rule', 'severity', 'group'] as const;
export type ViolationFilterKey = (typeof VIOLATION_FILTER_KEYS)[number];

const DAY_MS = 86_400_000;
const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00`));

/**
 * Start of a day (`end`: start of the next one) in the viewer's zone as an ISO instant, for the API's
 * from/to: the same days as the dashboard's counters that link here, whatever zone the browser is in (decision 0140).
 */
function dayBound(day: string, end: boolean, zone: string): string {
  return dayStartIn(end ? addDays(day, 1) : day, zone);
}

/** Whole calendar days from `from` to `to`, both included. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00`) - Date.parse(`${from}T12:00:00`)) / DAY_MS) + 1;
}

export interface ViolationFilterState {
  /** The days shown in the pickers (the default range when the URL names none), days of `zone`. */
  fromDay: string;
  toDay: string;
  driverId: string | null;
  rule: string | null;
  severity: string | null;
  /** The dashboard's counters open the list for one group. */
  groupId: string | null;
  /** Why the range cannot be asked for, under the "To" picker; the list keeps its last good answer meanwhile. */
  rangeError: string | null;
  /** The range as the API's instants, or null while it is invalid. */
  range: { from: string; to: string } | null;
  /** True when any filter differs from the default. */
  any: boolean;
  /** The viewer's zone, whose days the range covers. */
  zone: string;
}

/**
 * The violation filters kept in the URL (`?from=2026-06-01&to=2026-06-07&driver=…&rule=…&severity=…`);
 * without dates the range is the last 7 days up to today. Changing a filter goes back to page one.
 */
export function useViolationFilters(today: Date = new Date()): [ViolationFilterState, (key: ViolationFilterKey, value: string | null) => void, () => void] {
  const [params, setParams] = useSearchParams();
  const zone = useViewerZone();
  const defaultTo = todayIn(zone, today);
  const defaultFrom = addDays(defaultTo, -6);
  const fromParam = params.get('from');
  const toParam = params.get('to');
  const fromDay = isDay(fromParam) ? fromParam : defaultFrom;
  const toDay = isDay(toParam) ? toParam : defaultTo;
  let rangeError: string | null = null;
  if (toDay < fromDay) rangeError = 'To must be on or after From';
  else if (daysIn(fromDay, toDay) > VIOLATIONS_MAX_RANGE_DAYS) rangeError = `The range may cover at most ${VIOLATIONS_MAX_RANGE_DAYS} days`;
  const state: ViolationFilterState = {
    fromDay,
    toDay,
    driverId: params.get('driver'),
    rule: params.get('rule'),
    severity: params.get('severity'),
    groupId: params.get('group'),
    rangeError,
    range: rangeError ? null : { from: dayBound(fromDay, false, zone), to: dayBound(toDay, true, zone) },
    any: VIOLATION_FILTER_KEYS.some((k) => params.has(k)),
    zone,
  };
  const set = useCallback(
    (key: ViolationFilterKey, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }, 'page'), { replace: true }),
    [setParams],
  );
  const clear = useCallback(
    () => setParams((prev) => withParams(prev, Object.fromEntries(VIOLATION_FILTER_KEYS.map((k) => [k, null])), 'page'), { replace: true }),
    [setParams],
  );
  return [state, set, clear];
}
