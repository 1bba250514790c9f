import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { HosEventDetail, HosEventEdit, HosLogDay, HosLogRow, Page, PageQuery } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { hosKeys } from './hos-api.ts';

// The log screens' endpoints (issue 15): the day list, one log day, and the edit of a duty-status
// event. Every key starts with ['hos', orgId, 'logs'] so an edit refreshes the list and the day.

export const hosLogKeys = {
  all: hosKeys.logs,
  list: (orgId: string, q: HosLogListFilters) => hosKeys.logList(orgId, q),
  day: hosKeys.logDay,
};

export interface HosLogListFilters extends PageQuery {
  /** Log day, YYYY-MM-DD. */
  date: string;
  groupId?: string;
  /** Only rows with this form-and-manner problem (the dashboard's uncertified counter). */
  problem?: 'UNCERTIFIED' | 'NO_SHIPPING_DOCUMENT' | 'NO_TRAILER';
}

/** One row per driver for a log day (`GET …/hos_log?date=`); the previous page stays while the next loads. */
export const hosLogListQuery = (orgId: string, q: HosLogListFilters) =>
  queryOptions({
    queryKey: hosLogKeys.list(orgId, q),
    queryFn: ({ signal }) => api<Page<HosLogRow>>(orgPathFor(orgId, '/hos_log'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

/** One log day: header, segments, totals, events, violations, neighbours (`GET …/hos_log/{id}`). */
export const hosLogDayQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: hosLogKeys.day(orgId, id),
    queryFn: ({ signal }) => api<HosLogDay>(orgPathFor(orgId, `/hos_log/${encodeURIComponent(id)}`), { signal }),
  });

export interface HosEventEditVars {
  driverId: string;
  logId: string;
  eventId: string;
  body: HosEventEdit;
}

/** Proposes an edit of a duty-status event to the driver (decision 0112: the original stays in force until they accept); refreshes every log view. */
export function useEditHosEvent(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ driverId, logId, eventId, body }: HosEventEditVars) =>
      api<HosEventDetail>(orgPathFor(orgId, `/drivers/${driverId}/hos_log/${logId}/hos_event/${eventId}`), { method: 'PUT', body, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: hosLogKeys.all(orgId) }),
  });
}
