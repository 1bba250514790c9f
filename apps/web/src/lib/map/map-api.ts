import type { Group, LiveVehicle, OrganizationSettingsValues, Page, StreamTicket } from '@fleet/api-contract';
import { DEFAULT_ORGANIZATION_SETTINGS } from '@fleet/api-contract/organizations';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../org-path.ts';

export function useOrgSettings() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['org', orgId, 'settings'],
    enabled: !!orgId,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => api<OrganizationSettingsValues>(orgPathFor(orgId!, '/settings'), { signal, toast: false }),
  });
}

export function useUnits(): 'IMPERIAL' | 'METRIC' {
  return useOrgSettings().data?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
}

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

const KMH_PER_MPH = 1.609344;

/** Speeds are km/h on the wire; shown in the organization's units. */
export function formatSpeed(kmh: number | null | undefined, units: 'IMPERIAL' | 'METRIC'): string {
  if (kmh === null || kmh === undefined) return '—';
  return units === 'IMPERIAL' ? `${Math.round(kmh / KMH_PER_MPH)} mph` : `${Math.round(kmh)} km/h`;
}

export function speedIn(kmh: number, units: 'IMPERIAL' | 'METRIC'): number {
  return units === 'IMPERIAL' ? kmh / KMH_PER_MPH : kmh;
}

export function formatDistance(m: number, units: 'IMPERIAL' | 'METRIC'): string {
  return units === 'IMPERIAL' ? `${(m / 1609.344).toFixed(1)} mi` : `${(m / 1000).toFixed(1)} km`;
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
