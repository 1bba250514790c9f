import type { Group, GroupDetail, GroupMember } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { resourceKeys, usePagedList, useRecord, useRegistryMutation } from '../../lib/registry-api.ts';

// The groups screens' calls (one place). Groups are registry records: their keys live under
// `registry`, so a change here also refreshes the lists filtered by group.

export const groupKeys = resourceKeys('groups');

export const useGroups = (query: Record<string, QueryValue>) => usePagedList<Group>('groups', query);

export const useGroup = (id: string | null | undefined) => useRecord<GroupDetail>('groups', id);

/** Adds (no id) or renames a group; the form shows the server's field messages, so no toast. */
export const saveGroup = (id: string | undefined, body: unknown) =>
  id ? api<Group>(orgPath(`/groups/${id}`), { method: 'PUT', body, toast: false }) : api<Group>(orgPath('/groups'), { method: 'POST', body, toast: false });

export const deleteGroup = (id: string) => api<null>(orgPath(`/groups/${id}`), { method: 'DELETE' });

export const addMember = (groupId: string, type: GroupMember['type'], id: string) =>
  api<unknown>(orgPath(`/groups/${groupId}/members`), { method: 'POST', body: { members: [{ type, id }] } });
export const removeMember = (groupId: string, memberId: string) => api<unknown>(orgPath(`/groups/${groupId}/members/${memberId}`), { method: 'DELETE' });
export const addAsset = (groupId: string, assetId: string) =>
  api<unknown>(orgPath(`/groups/${groupId}/assets`), { method: 'POST', body: { assetIds: [assetId] } });
export const removeAsset = (groupId: string, assetId: string) => api<unknown>(orgPath(`/groups/${groupId}/assets/${assetId}`), { method: 'DELETE' });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useGroupMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);
