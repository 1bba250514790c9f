import { useState } from 'react';
import type { HistoryRoute } from '@fleet/api-contract';
import { dayStartIn, todayIn } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useHistoryRoute, useSubjectOptions, useVehicleTrips, type HistorySubject } from './history-routes-api.ts';
import { useSearchParams } from '../../lib/search-params.ts';

const PARAM: Record<HistorySubject, string> = { assets: 'asset', drivers: 'driver', gateways: 'gateway' };
/** One empty track for every render without data, so what is derived from it is not worked out again. */
const NO_TRACK: HistoryRoute['track'] = [];

/** Midnight of the viewer's today (decision 0140: the profile's or organization's zone, not the browser's). */
export function startOfToday(): Date {
  return new Date(dayStartIn(todayIn()));
}

/**
 * What the history shows: the subject (vehicle, driver or device) and its id from the URL, the range
 * (today so far at first), and the route and the vehicle's trips in that range from the API.
 */
export function useHistoryQuery() {
  const orgId = useEffectiveOrganizationId();
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const subject: HistorySubject = type === 'drivers' || type === 'gateways' ? type : 'assets';
  const subjectId = params.get(PARAM[subject]);
  const setSubject = (next: HistorySubject, id: string | null) => setParams(id ? { type: next, [PARAM[next]]: id } : { type: next }, { replace: true });

  const [from, setFrom] = useState<Date>(startOfToday);
  const [to, setTo] = useState<Date>(() => new Date());
  const rangeError = to <= from ? 'The end must be after the start' : null;

  const options = useSubjectOptions(orgId, subject);
  const route = useHistoryRoute(orgId, subject, subjectId, from.toISOString(), to.toISOString(), !!orgId && !!subjectId && !rangeError);
  // Issue 32: the vehicle's trips in the range, beside the route.
  const canReport = useCan('REPORT_LIST');
  const trips = useVehicleTrips(orgId, subject === 'assets' ? subjectId : null, from.toISOString(), to.toISOString(), canReport && !rangeError);

  return {
    subject,
    subjectId,
    setSubject,
    options,
    range: { from, to, setFrom, setTo, error: rangeError },
    route,
    track: route.data?.track ?? NO_TRACK,
    trips,
    /** The trips panel is shown: a vehicle is chosen and the user may read reports. */
    showTrips: canReport && subject === 'assets' && !!subjectId,
  };
}
