import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BorderCountry, BorderCrossing, BorderCrossingList } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { hosKeys } from './hos-api.ts';

// A driver's border crossings (issue 72): the office reads them by driver, the driver by their own
// user. A correction changes the rules the log is judged by: every HoS view is refreshed.

/** Whose crossings: the office's path by driver, the driver's own by user. */
export type CrossingsOwner = { driverId: string } | { userId: string };

const base = (orgId: string, owner: CrossingsOwner) =>
  orgPathFor(
    orgId,
    'driverId' in owner ? `/drivers/${encodeURIComponent(owner.driverId)}/hos_crossings` : `/users/${encodeURIComponent(owner.userId)}/hos_crossings`,
  );

export const crossingsQuery = (orgId: string, owner: CrossingsOwner, from: string, to: string) =>
  queryOptions({
    queryKey: [...hosKeys.all(orgId), 'crossings', owner, from, to] as const,
    queryFn: ({ signal }) => api<BorderCrossingList>(base(orgId, owner), { query: { from, to }, signal }),
  });

export type CrossingChange =
  | { kind: 'add'; at: string; to: BorderCountry; annotation: string }
  | { kind: 'move'; id: string; at: string; annotation: string }
  | { kind: 'remove'; id: string; annotation: string };

/** Adds, moves or removes a crossing, with its annotation. */
export function useChangeCrossing(orgId: string, owner: CrossingsOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: CrossingChange) => {
      const path = base(orgId, owner);
      if (c.kind === 'add') return api<BorderCrossing>(path, { method: 'POST', body: { at: c.at, to: c.to, annotation: c.annotation }, toast: false });
      if (c.kind === 'move') return api<BorderCrossing>(`${path}/${c.id}`, { method: 'PUT', body: { at: c.at, annotation: c.annotation }, toast: false });
      return api<undefined>(`${path}/${c.id}`, { method: 'DELETE', body: { annotation: c.annotation }, toast: false });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: hosKeys.all(orgId) }),
  });
}
