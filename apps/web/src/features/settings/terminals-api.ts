import type { Terminal } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { usePagedList, useRegistryMutation } from '../../lib/registry-api.ts';

// The home terminals screen's calls (issue 46). Terminals are registry records: their keys live
// under `registry`, so a change here also refreshes the driver lists and forms that name them.

export const useTerminals = (query: Record<string, QueryValue>) => usePagedList<Terminal>('terminals', query);

/** Adds (no id) or saves a terminal; the form shows the server's field messages, so no toast. */
export const saveTerminal = (id: string | undefined, body: unknown) =>
  id
    ? api<Terminal>(orgPath(`/terminals/${id}`), { method: 'PUT', body, toast: false })
    : api<Terminal>(orgPath('/terminals'), { method: 'POST', body, toast: false });

/** Deletes a terminal; one still in use answers 409 with the words the toast shows. */
export const deleteTerminal = (id: string) => api<null>(orgPath(`/terminals/${id}`), { method: 'DELETE' });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useTerminalMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);
