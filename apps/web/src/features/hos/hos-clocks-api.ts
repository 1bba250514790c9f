import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Availability, Driver, HosViolation, Page, PageQuery } from '@fleet/api-contract';
import { MAX_PAGE_SIZE } from '@fleet/api-contract/paging';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { hosKeys } from './hos-api.ts';

// Web client of the HoS clock endpoints: `violations` (VIO_LIST) and `availability` (AVAILABILITY_LIST).

export interface ViolationFilters {
  page: number;
  size: number;
  /** ISO instants bounding the range (the API defaults to the last 7 days, at most 31). */
  from?: string;
  to?: string;
  driverId?: string;
  rule?: string;
  severity?: string;
  groupId?: string;
}

/** One page of violations, newest first (the API's only order). */
export const violationsQuery = (orgId: string, filters: ViolationFilters) =>
  queryOptions({
    queryKey: hosKeys.violationList(orgId, filters),
    queryFn: ({ signal }) => api<Page<HosViolation>>(orgPathFor(orgId, '/violations'), { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });

/** Every violation of the filters, page by page at the API's largest page size (for the CSV export). */
export async function fetchAllViolations(orgId: string, filters: Omit<ViolationFilters, 'page' | 'size'>): Promise<HosViolation[]> {
  const out: HosViolation[] = [];
  for (let page = 0; ; page++) {
    const p = await api<Page<HosViolation>>(orgPathFor(orgId, '/violations'), { query: { ...filters, page, size: MAX_PAGE_SIZE } });
    out.push(...p.content);
    if (page + 1 >= p.totalPages || p.content.length === 0) return out;
  }
}

/** The organization's drivers for the driver filter (by name; the API's largest page; needs DRIVER_LIST). */
export const hosDriversQuery = (orgId: string) =>
  queryOptions({
    queryKey: hosKeys.driverOptions(orgId),
    // No toast: without the list the filter is only disabled.
    queryFn: ({ signal }) =>
      api<Page<Driver>>(orgPathFor(orgId, '/drivers'), { query: { page: 0, size: MAX_PAGE_SIZE, sort: 'lastName,asc' }, signal, toast: false }),
    staleTime: 5 * 60_000,
  });

export interface AvailabilityFilters extends PageQuery {
  groupId?: string;
  /** The dashboard's driver counters: duty status now, and driving time left under so many minutes. */
  duty?: 'DRIVING' | 'ON_DUTY' | 'OFF_DUTY';
  underMinutes?: number;
}

/** A page of availability and the instant its clocks were computed at (the screen counts down from it). */
export interface AvailabilityAt {
  at: number;
  page: Page<Availability>;
}

/** How often the availability list asks the server again; between two answers the clocks count down locally. */
export const AVAILABILITY_REFETCH_MS = 60_000;

/**
 * Availability at the moment of the request. The instant is sent as `at` (and kept with the answer)
 * rather than left to the server's clock, so the local countdown starts from exactly the instant the
 * clocks belong to; it is not part of the key, so each refetch replaces the same entry.
 */
export const availabilityQuery = (orgId: string, filters: AvailabilityFilters) =>
  queryOptions({
    queryKey: hosKeys.availabilityList(orgId, filters),
    queryFn: async ({ signal }): Promise<AvailabilityAt> => {
      const at = Date.now();
      const page = await api<Page<Availability>>(orgPathFor(orgId, '/availability'), { query: { ...filters, at: new Date(at).toISOString() }, signal });
      return { at, page };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: AVAILABILITY_REFETCH_MS,
    refetchOnWindowFocus: true,
  });
