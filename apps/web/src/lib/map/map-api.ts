import type { Group, LiveVehicle, Page, StreamTicket } from '@fleet/api-contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../org-path.ts';

export function useGroups() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['org', orgId, 'groups', 'all'],
    enabled: !!orgId,
    queryFn: ({ signal }) => api<Page<Group>>(orgPathFor(orgId!, '/groups'), { signal, query: { size: 500, sort: 'name,asc' }, toast: false }),
  });
}

/** REST fallback and first paint: the latest position of every vehicle. */
export function fetchLiveVehicles(orgId: string, signal?: AbortSignal) {
  return api<{ vehicles: LiveVehicle[] }>(orgPathFor(orgId, '/assets/live'), { signal, toast: false });
}

/** A single-use ticket for one live-stream connection (EventSource cannot send the access token). */
export function fetchStreamTicket(orgId: string, signal?: AbortSignal) {
  return api<StreamTicket>(orgPathFor(orgId, '/assets/stream/ticket'), { method: 'POST', signal, toast: false });
}

export function formatDuration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h ? `${h} h ${m} min` : `${m} min`;
}

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function formatAge(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
