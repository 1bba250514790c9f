import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DriverSafety,
  Page,
  SafetyEvent,
  SafetyEventDetail,
  SafetyEventListQuery,
  SafetyEventReview,
  SafetyGroupBy,
  SafetyScoreDetail,
  SafetyScores,
  SafetySettings,
  SafetySettingsInput,
  SafetyCoach,
  SafetySummary,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The safety screens' calls (issue 47): the inbox, an event with its trace, reviews, scores and their
// formula, the settings, the driver's own view and the dashboard's summary. Every key sits under
// ['safety', orgId], so a review refreshes the inbox, the scores, the driver's card and the dashboard.

export const safetyKeys = {
  all: (orgId: string | null) => ['safety', orgId] as const,
  events: (orgId: string | null, q: Record<string, QueryValue>) => ['safety', orgId, 'events', q] as const,
  event: (orgId: string | null, id: string) => ['safety', orgId, 'event', id] as const,
  scores: (orgId: string | null, q: Record<string, QueryValue>) => ['safety', orgId, 'scores', q] as const,
  score: (orgId: string | null, groupBy: SafetyGroupBy, id: string, q: Record<string, QueryValue>) => ['safety', orgId, 'score', groupBy, id, q] as const,
  settings: (orgId: string | null) => ['safety', orgId, 'settings'] as const,
  summary: (orgId: string | null, q: Record<string, QueryValue>) => ['safety', orgId, 'summary', q] as const,
  own: (orgId: string | null) => ['safety', orgId, 'own'] as const,
  coaches: (orgId: string | null) => ['safety', orgId, 'coaches'] as const,
};

const at = (orgId: string | null, path: string) => orgPathFor(orgId ?? '', path);

/** The inbox's page under the filters (`type`, `status`, `severity` are comma-separated lists). */
export function useSafetyEvents(q: Record<string, QueryValue> & Partial<Record<keyof SafetyEventListQuery, QueryValue>>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.events(orgId, q),
    queryFn: ({ signal }) => api<Page<SafetyEvent>>(at(orgId, '/safety/events'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

/** One event with the positions around it. */
export function useSafetyEvent(id: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.event(orgId, id),
    queryFn: ({ signal }) => api<SafetyEventDetail>(at(orgId, `/safety/events/${encodeURIComponent(id)}`), { signal, toast: false }),
    enabled: !!orgId && !!id,
  });
}

/** Scores per driver or per vehicle over a period (the rolling window when `from`/`to` are absent). */
export function useSafetyScores(q: { from?: string; to?: string; groupBy: SafetyGroupBy; groupId?: string }) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.scores(orgId, q),
    queryFn: ({ signal }) => api<SafetyScores>(at(orgId, '/safety/scores'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

/** One driver's or vehicle's score: the formula with their numbers, the weekly trend, the events behind the points. */
export function useSafetyScore(groupBy: SafetyGroupBy, id: string, q: { from?: string; to?: string }) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.score(orgId, groupBy, id, q),
    queryFn: ({ signal }) =>
      api<SafetyScoreDetail>(at(orgId, `/safety/scores/${groupBy === 'driver' ? 'drivers' : 'vehicles'}/${encodeURIComponent(id)}`), {
        query: q,
        signal,
        toast: false,
      }),
    placeholderData: keepPreviousData,
    enabled: !!orgId && !!id,
  });
}

export function useSafetySettings() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.settings(orgId),
    queryFn: ({ signal }) => api<SafetySettings>(at(orgId, '/safety/settings'), { signal, toast: false }),
    enabled: !!orgId,
  });
}

/** The dashboard's card: the fleet's score and the drivers most in need of coaching. */
export const safetySummaryQuery = (orgId: string, q: { groupId?: string }) =>
  queryOptions({
    queryKey: safetyKeys.summary(orgId, q),
    queryFn: ({ signal }) => api<SafetySummary>(at(orgId, '/safety/summary'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** The signed-in driver's score and events. */
export const driverSafetyQuery = (orgId: string) =>
  queryOptions({
    queryKey: safetyKeys.own(orgId),
    queryFn: ({ signal }) => api<DriverSafety>(at(orgId, '/drivers/me/safety'), { signal, toast: false }),
    staleTime: 60_000,
  });

/** The users who may coach: those holding SAFETY_UPDATE, by name, never a driver (issue 66). */
export function useCoaches(enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: safetyKeys.coaches(orgId),
    queryFn: ({ signal }) => api<SafetyCoach[]>(at(orgId, '/safety/coaches'), { signal, toast: false }),
    enabled: enabled && !!orgId,
    staleTime: 5 * 60_000,
  });
}

/** A change to safety records: every safety list, score and card is read again after it. */
export function useSafetyMutation<V, R = unknown>(fn: (orgId: string, v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: safetyKeys.all(orgId) });
    },
  });
}

export const reviewEvent = (orgId: string, { id, body }: { id: string; body: SafetyEventReview }) =>
  api<SafetyEvent>(at(orgId, `/safety/events/${encodeURIComponent(id)}`), { method: 'PATCH', body, toast: false });

export const acknowledgeEvent = (orgId: string, { id, note }: { id: string; note?: string | null }) =>
  api<SafetyEvent>(at(orgId, `/safety/events/${encodeURIComponent(id)}/acknowledge`), { method: 'POST', body: { note: note ?? null }, toast: false });

export const disputeEvent = (orgId: string, { id, note }: { id: string; note: string }) =>
  api<SafetyEvent>(at(orgId, `/safety/events/${encodeURIComponent(id)}/dispute`), { method: 'POST', body: { note }, toast: false });

export const saveSafetySettings = (orgId: string, body: SafetySettingsInput) =>
  api<SafetySettings>(at(orgId, '/safety/settings'), { method: 'PUT', body, toast: false });

/** Saves the events or the scores under the filters as CSV or PDF (the API client shows an error toast). */
export async function downloadSafety(orgId: string, what: 'events' | 'scores', query: Record<string, QueryValue>, format: 'csv' | 'pdf'): Promise<void> {
  const blob = await api<Blob>(at(orgId, `/safety/${what}/export`), { query: { ...query, format }, blob: true });
  saveFile(blob, `safety-${what}.${format}`);
}
