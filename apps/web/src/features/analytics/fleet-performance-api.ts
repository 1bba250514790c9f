import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FleetPerformance } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { unparseCsv } from '../../lib/csv.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { fuelEconomyIn, unitLabels, type UnitSystem } from '../../lib/units.ts';

export interface PerformanceFilters {
  from: string;
  to: string;
  groupId?: string;
}

export const analyticsKeys = {
  fleetPerformance: (orgId: string, f: PerformanceFilters) => ['analytics', orgId, 'fleet-performance', f] as const,
};

export const fleetPerformanceQuery = (orgId: string, f: PerformanceFilters) =>
  queryOptions({
    queryKey: analyticsKeys.fleetPerformance(orgId, f),
    queryFn: ({ signal }) => api<FleetPerformance>(orgPathFor(orgId, '/analytics/fleet-performance'), { query: { ...f }, signal }),
    placeholderData: keepPreviousData,
  });

export function useFleetPerformance(f: PerformanceFilters, enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...fleetPerformanceQuery(orgId ?? '', f), enabled: enabled && !!orgId });
}

const H = 3_600_000;

/** The per-vehicle and per-group table as CSV, in the organization's units. */
export function performanceCsv(p: FleetPerformance, units: UnitSystem): string {
  const imperial = units === 'IMPERIAL';
  const dist = (m: number) => +(m / (imperial ? 1609.344 : 1000)).toFixed(1);
  const speed = (k: number | null) => (k === null ? '' : +(imperial ? k / 1.609344 : k).toFixed(1));
  const du = imperial ? 'mi' : 'km';
  const su = imperial ? 'mph' : 'km/h';
  const header = [
    'Kind',
    'Name',
    'Groups',
    `Distance (${du})`,
    'Driving (h)',
    'Idle (h)',
    'Utilization (%)',
    `Average speed (${su})`,
    `Top speed (${su})`,
    'Speeding events',
    'Stops',
    'Days driven',
    `Fuel economy (${unitLabels(units).economy})`,
    'Fuel economy from',
    'Fuel economy to',
  ];
  const row = (kind: string, name: string, groups: string, t: FleetPerformance['fleet']) => [
    kind,
    name,
    groups,
    dist(t.distanceM),
    +(t.drivingMs / H).toFixed(2),
    +(t.idleMs / H).toFixed(2),
    t.utilizationPct,
    speed(t.avgSpeedKmh),
    speed(t.topSpeedKmh),
    t.speedingEvents,
    t.stops,
    t.activeDays,
    fuelEconomyIn(t.fuelLPer100Km, units) ?? '',
    t.fuelSpan?.from ?? '',
    t.fuelSpan?.to ?? '',
  ];
  const rows = [
    ...p.vehicles.map((v) => row('Vehicle', v.unitNumber, v.groups.join('; '), { ...v, vehicles: 1 })),
    ...p.groups.map((g) => row('Group', g.name, '', g)),
    row('Fleet', 'All vehicles', '', p.fleet),
  ];
  return unparseCsv(header, rows);
}
