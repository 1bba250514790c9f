import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FleetPerformance, FuelEconomy, FuelEconomyFigure } from '@fleet/api-contract';
import { volumeFromL } from '@fleet/api-contract/units';
import { FUEL_BASIS_WORDS } from '../../lib/fuel-economy.ts';
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

/** Figures added together (a group's vehicles): fuel over distance, the basis when all agree. */
export function sumFigures(list: ReadonlyArray<FuelEconomyFigure | null | undefined>): FuelEconomyFigure | null {
  const got = list.filter((f): f is FuelEconomyFigure => !!f);
  if (got.length === 0) return null;
  const fuelL = got.reduce((a, f) => a + f.fuelL, 0);
  const distanceM = got.reduce((a, f) => a + f.distanceM, 0);
  return {
    basis: got.every((f) => f.basis === got[0]!.basis) ? got[0]!.basis : 'MIXED',
    fuelL,
    distanceM,
    lPer100Km: fuelL / (distanceM / 100_000),
    from: got.reduce((a, f) => (f.from < a ? f.from : a), got[0]!.from),
    to: got.reduce((a, f) => (f.to > a ? f.to : a), got[0]!.to),
    fills: null,
  };
}

/**
 * The per-vehicle and per-group table as CSV, in the organization's units. Fuel economy from the
 * fuel economy answer (decision 0280) when it has loaded: a vehicle's own, a group's vehicles' together.
 */
export function performanceCsv(p: FleetPerformance, units: UnitSystem, fuel?: FuelEconomy): string {
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
    `Fuel used (${unitLabels(units).volume})`,
    'Fuel economy basis',
  ];
  const byVehicle = new Map((fuel?.rows ?? []).map((r) => [r.id, r.economy]));
  const row = (kind: string, name: string, groups: string, t: FleetPerformance['fleet'], e: FuelEconomyFigure | null) => [
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
    fuelEconomyIn(e?.lPer100Km, units) ?? '',
    e ? +volumeFromL(e.fuelL, units).toFixed(1) : '',
    e ? FUEL_BASIS_WORDS[e.basis] : '',
  ];
  const members = (groupId: string | null, name: string) => p.vehicles.filter((v) => (groupId === null ? v.groups.length === 0 : v.groups.includes(name)));
  const rows = [
    ...p.vehicles.map((v) => row('Vehicle', v.unitNumber, v.groups.join('; '), { ...v, vehicles: 1 }, byVehicle.get(v.assetId) ?? null)),
    ...p.groups.map((g) => row('Group', g.name, '', g, sumFigures(members(g.groupId, g.name).map((v) => byVehicle.get(v.assetId))))),
    row('Fleet', 'All vehicles', '', p.fleet, fuel?.totals.economy ?? null),
  ];
  return unparseCsv(header, rows);
}
