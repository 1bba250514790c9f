import { useEffect } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EldOutputSent,
  HosDriverChoices,
  HosDriverStatus,
  HosEventCreate,
  HosEventDetail,
  HosLogDay,
  HosLogHeader,
  HosPeriod,
  HosProposal,
  HosUnidentifiedSegment,
  Page,
} from '@fleet/api-contract';
import { api, apiFile } from '../../../lib/api-client.ts';
import { sendRecord } from '../../../lib/outbox.ts';
import { orgPathFor } from '../../../lib/org-path.ts';
import { hosKeys } from '../hos-api.ts';
import { addDays } from '../logs/log-format.ts';
import { saveFile } from '../../../lib/download.ts';

// The driver's own endpoints (issue 16, decision 0115): everything under users/{userId}/hos_log for
// the signed-in driver, and the ELD output file under drivers/{driverId}. Every key starts with
// ['hos', orgId, 'driver', userId], so a change refreshes the whole driver screen at once.

export const driverKeys = {
  all: hosKeys.driver,
  status: (orgId: string, userId: string) => [...hosKeys.driver(orgId, userId), 'status'] as const,
  day: (orgId: string, userId: string, logId: string) => [...hosKeys.driver(orgId, userId), 'day', logId] as const,
  period: (orgId: string, userId: string, from: string, to: string) => [...hosKeys.driver(orgId, userId), 'period', from, to] as const,
  proposals: (orgId: string, userId: string) => [...hosKeys.driver(orgId, userId), 'proposals'] as const,
  unidentified: (orgId: string, userId: string) => [...hosKeys.driver(orgId, userId), 'unidentified'] as const,
  choices: (orgId: string, userId: string) => [...hosKeys.driver(orgId, userId), 'choices'] as const,
};

const base = (orgId: string, userId: string) => orgPathFor(orgId, `/users/${encodeURIComponent(userId)}/hos_log`);

/** How often the driver's screen asks again; between answers the clocks count down locally. */
export const DRIVER_REFETCH_MS = 60_000;

/** The driver's status with the instant it was asked at (the live clocks count down from it). */
export interface DriverStatusAt {
  at: number;
  status: HosDriverStatus;
}

export const driverStatusQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: driverKeys.status(orgId, userId),
    queryFn: async ({ signal }): Promise<DriverStatusAt> => {
      const at = Date.now();
      return { at, status: await api<HosDriverStatus>(`${base(orgId, userId)}/driver-status`, { signal }) };
    },
    staleTime: 0,
    refetchInterval: DRIVER_REFETCH_MS,
    refetchOnWindowFocus: true,
  });

/** One of the driver's log days (today's id comes with the status). */
export const driverDayQuery = (orgId: string, userId: string, logId: string) =>
  queryOptions({
    queryKey: driverKeys.day(orgId, userId, logId),
    queryFn: ({ signal }) => api<HosLogDay>(`${base(orgId, userId)}/${encodeURIComponent(logId)}`, { signal }),
    staleTime: 0,
    refetchInterval: DRIVER_REFETCH_MS,
  });

/** The driver's days from..to (ids, totals, certification) for the inspection view's day picker. */
export const driverPeriodQuery = (orgId: string, userId: string, from: string, to: string) =>
  queryOptions({
    queryKey: driverKeys.period(orgId, userId, from, to),
    queryFn: ({ signal }) => api<HosPeriod>(`${base(orgId, userId)}/hos-logs-for-period`, { query: { from, to }, signal }),
  });

export const driverProposalsQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: driverKeys.proposals(orgId, userId),
    queryFn: ({ signal }) => api<Page<HosProposal>>(`${base(orgId, userId)}/proposals`, { query: { state: 'PENDING', size: 50 }, signal }),
  });

export const driverUnidentifiedQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: driverKeys.unidentified(orgId, userId),
    queryFn: ({ signal }) => api<Page<HosUnidentifiedSegment>>(`${base(orgId, userId)}/unidentified`, { query: { size: 50 }, signal }),
  });

export const driverChoicesQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: driverKeys.choices(orgId, userId),
    queryFn: ({ signal }) => api<HosDriverChoices>(`${base(orgId, userId)}/choices`, { signal }),
    staleTime: 5 * 60_000,
  });

/** Every driver mutation refreshes the driver's screen (status, day, lists) and the office's log views. */
function useDriverMutation<V, R>(orgId: string, userId: string, fn: (vars: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: driverKeys.all(orgId, userId) }), qc.invalidateQueries({ queryKey: hosKeys.logs(orgId) })]);
    },
  });
}

/** A duty-status change now (no `at`), with its special category and note. */
export function useChangeStatus(orgId: string, userId: string) {
  return useDriverMutation(
    orgId,
    userId,
    ({
      logId,
      body,
    }: {
      logId: string;
      body: Pick<HosEventCreate, 'status' | 'special' | 'annotation'> & Partial<Pick<HosEventCreate, 'latitude' | 'longitude' | 'locationDescription'>>;
    }) => api<HosEventDetail>(`${base(orgId, userId)}/${logId}/hos_event`, { method: 'POST', body, toast: false }),
  );
}

/** Where a duty-status change of the driver is sent (through the phone's outbox, issue 44). */
export const statusChangePath = (orgId: string, userId: string, logId: string) => `${base(orgId, userId)}/${encodeURIComponent(logId)}/hos_event`;

/** Where the driver's certification of a log day is sent (through the phone's outbox, issue 44). */
export const certificationPath = (orgId: string, userId: string, logId: string) => `${base(orgId, userId)}/${encodeURIComponent(logId)}/certification`;

/** The trip details of a log day: a record of the phone (issue 44), the same values when resent. */
export function useUpdateLogHeader(orgId: string, userId: string) {
  return useDriverMutation(orgId, userId, ({ logId, body, label }: { logId: string; body: HosLogHeader; label: string }) =>
    sendRecord<HosLogDay>({ kind: 'LOG_HEADER', method: 'PUT', madeAt: Date.now(), label, path: `${base(orgId, userId)}/${encodeURIComponent(logId)}`, body }),
  );
}

export function useCertifyDay(orgId: string, userId: string) {
  return useDriverMutation(orgId, userId, ({ logId }: { logId: string }) =>
    api<HosLogDay>(`${base(orgId, userId)}/${logId}/certification`, { method: 'POST', body: { agree: true } }),
  );
}

/** Accepting or rejecting an office edit: a record of the phone (issue 44); the same decision resent answers it as made. */
export function useDecideProposal(orgId: string, userId: string) {
  return useDriverMutation(
    orgId,
    userId,
    ({ id, decision, note, label }: { id: string; decision: 'accept' | 'reject'; note?: string | null; label: string }) => {
      const madeAt = Date.now();
      const recordedAt = new Date(madeAt).toISOString();
      return sendRecord<HosProposal>({
        kind: 'PROPOSAL',
        madeAt,
        label,
        path: `${base(orgId, userId)}/proposals/${encodeURIComponent(id)}/${decision}`,
        body: decision === 'reject' ? { note: note ?? null, recordedAt } : { recordedAt },
      });
    },
  );
}

/** Claiming unidentified driving: a record of the phone (issue 44). */
export function useClaimSegment(orgId: string, userId: string) {
  return useDriverMutation(orgId, userId, ({ id, annotation, label }: { id: string; annotation: string | null; label: string }) =>
    sendRecord<HosUnidentifiedSegment>({
      kind: 'CLAIM',
      madeAt: Date.now(),
      label,
      path: `${base(orgId, userId)}/unidentified/${encodeURIComponent(id)}/claim`,
      body: { annotation },
    }),
  );
}

const eldPath = (orgId: string, driverId: string) => orgPathFor(orgId, `/drivers/${encodeURIComponent(driverId)}/hos_log/eld-output`);

/**
 * Downloads the ELD output file under the name the server gives it: today and the 7 days before, or
 * the 8 days ending `to` (a past log day the office opened).
 */
export async function downloadEldFile(orgId: string, driverId: string, comment: string, to?: string): Promise<string> {
  const { text, fileName } = await apiFile(eldPath(orgId, driverId), { query: { ...(comment ? { comment } : {}), ...(to ? { to } : {}) } });
  const name = `${fileName ?? 'eld-output'}`;
  saveFile(new Blob([text], { type: 'text/csv' }), name);
  return name;
}

export function useSendEldFile(orgId: string, driverId: string) {
  return useMutation({
    mutationFn: (body: { email: string; comment?: string }) => api<EldOutputSent>(`${eldPath(orgId, driverId)}/email`, { method: 'POST', body, toast: false }),
  });
}

/** How long the roadside view's copies of past days count as fresh (they change only by an edit). */
const ROADSIDE_FRESH_MS = 10 * 60_000;

/**
 * Keeps today and the previous 7 days in the query cache (issue 44): the roadside inspection view then
 * opens with no signal from what was last synced. Answers the period query (the days and when synced).
 */
export function useRoadsideDays(orgId: string, userId: string, today: { date: string } | undefined) {
  const qc = useQueryClient();
  const from = today ? addDays(today.date, -7) : '';
  const period = useQuery({
    ...driverPeriodQuery(orgId, userId, from, today?.date ?? ''),
    enabled: !!today && !!orgId && !!userId,
    staleTime: ROADSIDE_FRESH_MS,
  });
  const days = period.data?.days;
  useEffect(() => {
    for (const d of days ?? []) void qc.prefetchQuery({ ...driverDayQuery(orgId, userId, d.id), staleTime: ROADSIDE_FRESH_MS });
  }, [qc, orgId, userId, days]);
  return period;
}
