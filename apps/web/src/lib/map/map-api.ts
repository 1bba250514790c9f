import type { Group, LiveVehicle, Page, Place, StreamTicket, VehiclePlace } from '@fleet/api-contract';
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

/** The organization's places for the live map's layer (the first 500, the API's page limit), under ['places', orgId] so a saved place redraws. */
export function useMapPlaces(enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['places', orgId, 'map-layer'],
    enabled: enabled && !!orgId,
    staleTime: 60_000,
    queryFn: ({ signal }) => api<Page<Place>>(orgPathFor(orgId!, '/places'), { signal, query: { size: 500, sort: 'name,asc' }, toast: false }),
  });
}

/** Where each vehicle is now (`places/current`): its open visit's place and arrival. */
export function useVehiclePlaces(enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['places', orgId, 'current'],
    enabled: enabled && !!orgId,
    refetchInterval: 60_000,
    queryFn: ({ signal }) => api<{ content: VehiclePlace[] }>(orgPathFor(orgId!, '/places/current'), { signal, toast: false }),
  });
}
