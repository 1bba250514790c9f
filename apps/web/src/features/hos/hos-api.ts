import type { QueryKey } from '@tanstack/react-query';
import { registerHosLiveKeys } from '../../lib/hos-live.ts';

// The HoS feature's query keys (one factory for every HoS api file). Every key starts with
// ['hos', orgId], so a change to one driver's records can refresh all HoS views at once.

export const hosKeys = {
  all: (orgId: string) => ['hos', orgId] as const,
  availability: (orgId: string) => ['hos', orgId, 'availability'] as const,
  availabilityList: (orgId: string, filters: object) => ['hos', orgId, 'availability', filters] as const,
  violations: (orgId: string) => ['hos', orgId, 'violations'] as const,
  violationList: (orgId: string, filters: object) => ['hos', orgId, 'violations', filters] as const,
  driverOptions: (orgId: string) => ['hos', orgId, 'driver-options'] as const,
  logs: (orgId: string) => ['hos', orgId, 'logs'] as const,
  logList: (orgId: string, filters: object) => ['hos', orgId, 'logs', 'list', filters] as const,
  logDay: (orgId: string, id: string) => ['hos', orgId, 'logs', 'day', id] as const,
  unidentified: (orgId: string) => ['hos', orgId, 'unidentified'] as const,
  unidentifiedList: (orgId: string, filters: object) => ['hos', orgId, 'unidentified', filters] as const,
  diagnostics: (orgId: string) => ['hos', orgId, 'diagnostics'] as const,
  /** The signed-in driver's own screen (status, days, proposals, unidentified driving, choices). */
  driver: (orgId: string, userId: string) => ['hos', orgId, 'driver', userId] as const,
};

/** The office screens a change of any driver's records can move (the notification stream's `hos` event). */
export const hosLiveKeys = (orgId: string): QueryKey[] => [hosKeys.availability(orgId), hosKeys.logs(orgId), hosKeys.violations(orgId)];

registerHosLiveKeys(hosLiveKeys);
