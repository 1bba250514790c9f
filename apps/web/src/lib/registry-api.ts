import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Page, Permission } from '@fleet/api-contract';
import { hasPermission } from '@fleet/api-contract/permissions';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { api, ApiError } from './api-client.ts';
import { useCurrentUser } from './auth-store.ts';
import { orgPath, useEffectiveOrganizationId } from './org-path.ts';
import type { QueryValue } from './query-string.ts';
import { saveCsv } from './download.ts';

/** Query keys of the registry screens: every mutation invalidates the whole `registry` tree. */
export const registryKeys = {
  all: ['registry'] as const,
  list: (orgId: string | null, resource: string, query: Record<string, QueryValue>) => ['registry', orgId, resource, 'list', query] as const,
  one: (orgId: string | null, resource: string, id: string) => ['registry', orgId, resource, id] as const,
};

/** One resource's registry keys: the key factory of a registry feature (`assetKeys = resourceKeys('assets')`). */
export const resourceKeys = (resource: string) => ({
  all: registryKeys.all,
  list: (orgId: string | null, query: Record<string, QueryValue>) => registryKeys.list(orgId, resource, query),
  one: (orgId: string | null, id: string) => registryKeys.one(orgId, resource, id),
});

/** A paged organization list (`assets`, `drivers`, `gateways`, `groups`); the previous page stays while the next loads. */
export function usePagedList<T>(resource: string, query: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: registryKeys.list(orgId, resource, query),
    queryFn: ({ signal }) => api<Page<T>>(orgPath(`/${resource}`), { query, signal }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

/** One record of the organization (`assets/{id}`). */
export function useRecord<T>(resource: string, id: string | null | undefined) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: registryKeys.one(orgId, resource, id ?? ''),
    queryFn: ({ signal }) => api<T>(orgPath(`/${resource}/${id}`), { signal }),
    enabled: !!orgId && !!id,
  });
}

/** A mutation that refreshes every registry list and detail when it succeeds. */
export function useRegistryMutation<V, R = unknown>(fn: (v: V) => Promise<R>, extraInvalidate: QueryKey[] = []) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: registryKeys.all }), ...extraInvalidate.map((k) => qc.invalidateQueries({ queryKey: k }))]);
    },
  });
}

/** Whether the signed-in user holds `code` (super administrators hold everything). */
export function useCan(code: Permission): boolean {
  return hasPermission(useCurrentUser(), code);
}

/** `path: words` pairs of an error's technical message (`vin: VIN is a required field; unitNumber: …`). */
export function fieldMessages(technicalMessage: string): Array<{ path: string; message: string }> {
  return technicalMessage
    .split(/;\s+(?=[A-Za-z][\w.]*:\s)/)
    .map((part) => /^([A-Za-z][\w.]*):\s*(.+)$/s.exec(part.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ path: m[1]!, message: m[2]!.trim() }));
}

/**
 * A 400 or 409 pairs each bad field with its path in the technical message: put every message
 * under its field of the form (the first one focused). True when a field took one.
 */
export function showServerError<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, err: unknown, fields: readonly string[]): boolean {
  if (!(err instanceof ApiError) || !err.body || (err.status !== 400 && err.status !== 409)) return false;
  let shown = false;
  for (const { path, message } of fieldMessages(err.body.technicalMessage ?? '')) {
    if (!fields.includes(path)) continue;
    form.setError(path as Path<T>, { type: 'server', message }, { shouldFocus: !shown });
    shown = true;
  }
  return shown;
}

/** Downloads an authenticated CSV (export or template) as a file. */
export async function downloadCsv(path: string, query: Record<string, QueryValue>, fileName: string): Promise<void> {
  saveCsv(await api<string>(orgPath(path), { query }), fileName);
}

export const STATUS_OPTIONS = [
  { value: 'ACTIVE', label: 'Active' },
  { value: 'INACTIVE', label: 'Inactive' },
];

/** `{...register(name), error}` where an empty choice or box is sent as null ("not set"): enums, ids and numbers. */
export function nullableField<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>) {
  const error = (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message;
  return { ...form.register(name, { setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : v) }), error };
}
