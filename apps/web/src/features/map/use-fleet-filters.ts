import { useMemo, useState } from 'react';
import type { VehicleStatus } from '@fleet/api-contract';
import { countByStatus, filterVehicles, type LiveState } from './live-store.ts';
import { useSearchParams } from '../../lib/search-params.ts';

const asStatus = (s: string | null): VehicleStatus | null => (s === 'MOVING' || s === 'IDLING' || s === 'STOPPED' || s === 'OFFLINE' ? s : null);

/**
 * The side list's filters (search, status, group) and what they leave: the vehicles shown, and the
 * counts per status under the search and group (not the status filter). The dashboard's counters
 * open the map with `?status=MOVING&group=…`.
 */
export function useFleetFilters(live: LiveState) {
  const [params] = useSearchParams();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<VehicleStatus | null>(() => asStatus(params.get('status')));
  const [groupId, setGroupId] = useState<string | null>(() => params.get('group'));
  // The store's state is new on every change, so its lists stand for its version here.
  const visible = useMemo(() => filterVehicles(live.sorted, { search, status, groupId }, true), [live.sorted, search, status, groupId]);
  const counts = useMemo(() => countByStatus(live.vehicles.values(), { search, groupId }), [live.vehicles, search, groupId]);
  return { search, setSearch, status, setStatus, groupId, setGroupId, visible, counts };
}
