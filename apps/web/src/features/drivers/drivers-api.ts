import type { Driver, DriverDetail, RemovalResult, Terminal, User } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { resourceKeys, usePagedList, useRecord, useRegistryMutation } from '../../lib/registry-api.ts';

// The drivers screen's calls (one place). Drivers are registry records: their keys live under
// `registry`, so a change here also refreshes the vehicles and groups that show them.

export const driverRecordKeys = resourceKeys('drivers');

export const useDrivers = (query: Record<string, QueryValue>) => usePagedList<Driver>('drivers', query);

export const useDriver = (id: string | null | undefined) => useRecord<DriverDetail>('drivers', id);

/** The organization's sign-in accounts a driver can be linked to (only with USER_LIST). */
export const useLinkableUsers = (enabled: boolean) => usePagedList<User>('users', { size: 200 }, enabled);

/** The organization's home terminals a driver can belong to (issue 46; read with DRIVER_LIST or ORG_READ). */
export const useTerminalChoices = () => usePagedList<Terminal>('terminals', { size: 500, sort: 'name,asc' });

/** Adds (no id) or saves a driver; the form shows the server's field messages, so no toast. */
export const saveDriver = (id: string | undefined, body: unknown) =>
  id
    ? api<DriverDetail>(orgPath(`/drivers/${id}`), { method: 'PUT', body, toast: false })
    : api<DriverDetail>(orgPath('/drivers'), { method: 'POST', body, toast: false });

export const deleteDriver = (id: string) => api<RemovalResult>(orgPath(`/drivers/${id}`), { method: 'DELETE' });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useDriverMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);
