import { queryOptions } from '@tanstack/react-query';
import type { DriverQualification } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The compliance feature's query keys and the one read the driver's home makes (issue 71), apart from
// compliance-api.ts so the home's first load carries only this (decision 0297's budget). Types only
// from the contract: no zod on that load. Every key sits under ['compliance', orgId]: a change to one
// paper reads the calendar, the tile and both kinds of file again.

export const complianceKeys = {
  all: (orgId: string | null) => ['compliance', orgId] as const,
  calendar: (orgId: string | null, q: Record<string, QueryValue>) => ['compliance', orgId, 'calendar', q] as const,
  summary: (orgId: string | null) => ['compliance', orgId, 'summary'] as const,
  driver: (orgId: string | null, driverId: string) => ['compliance', orgId, 'driver', driverId] as const,
  asset: (orgId: string | null, assetId: string) => ['compliance', orgId, 'asset', assetId] as const,
};

/** A driver's qualification file; the driver's own home reads it too (their warning), hence the organization given. */
export const driverQualificationQuery = (orgId: string, driverId: string) =>
  queryOptions({
    queryKey: complianceKeys.driver(orgId, driverId),
    queryFn: ({ signal }) => api<DriverQualification>(orgPathFor(orgId, `/drivers/${encodeURIComponent(driverId)}/qualification`), { signal, toast: false }),
    staleTime: 60_000,
  });
