import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Load, Page } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { orgPathFor } from '../../../lib/org-path.ts';

/** What the availability table shows of a driver's running load. */
export interface CurrentLoad {
  id: string;
  number: string;
  status: Load['status'];
  atRisk: boolean;
  riskReason: string | null;
  /** The next stop's ETA (null when none is known). */
  eta: string | null;
}

/**
 * Each driver's running load (issue 33), by driver id: the organization's assigned, en-route and
 * at-stop loads in one read (a fleet runs far fewer than 500 at once), under the loads' own query
 * keys so an assignment elsewhere refreshes it. Only asked for by a user who may list loads.
 */
export function useCurrentLoads(orgId: string | null, enabled: boolean): Map<string, CurrentLoad> {
  const q = useQuery({
    queryKey: ['loads', orgId, 'list', { status: 'ASSIGNED,EN_ROUTE,AT_STOP', size: 500 }],
    queryFn: ({ signal }) =>
      api<Page<Load>>(orgPathFor(orgId ?? '', '/loads'), { query: { status: 'ASSIGNED,EN_ROUTE,AT_STOP', size: 500 }, signal, toast: false }),
    enabled: enabled && !!orgId,
    refetchInterval: 60_000,
  });
  return useMemo(() => {
    const byDriver = new Map<string, CurrentLoad>();
    for (const l of q.data?.content ?? []) {
      const next = l.stops.find((s) => !s.departedAt);
      const current = { id: l.id, number: l.number, status: l.status, atRisk: l.atRisk, riskReason: l.riskReason, eta: next?.eta ?? null };
      for (const d of l.drivers) {
        // A driver on two running loads (one not yet started): the one under way wins.
        const had = byDriver.get(d.id);
        if (!had || (had.status === 'ASSIGNED' && l.status !== 'ASSIGNED')) byDriver.set(d.id, current);
      }
    }
    return byDriver;
  }, [q.data]);
}
