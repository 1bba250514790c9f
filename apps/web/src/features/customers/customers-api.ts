import { useQuery } from '@tanstack/react-query';
import type { Customer, Organization } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath, orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { usePagedList, useRecord, useRegistryMutation } from '../../lib/registry-api.ts';

// The customers screen's calls (issue 70). Customers are registry records: their keys live under
// `registry`, so a change here also refreshes the load form's customer suggestions.

export const useCustomers = (query: Record<string, QueryValue>) => usePagedList<Customer>('customers', query);
export const useCustomer = (id: string | null) => useRecord<Customer>('customers', id);

/** Adds (no id) or changes a customer; the form shows the server's field messages, so no toast. */
export const saveCustomer = ({ id, body }: { id: string | undefined; body: unknown }) =>
  id
    ? api<Customer>(orgPath(`/customers/${id}`), { method: 'PATCH', body, toast: false })
    : api<Customer>(orgPath('/customers'), { method: 'POST', body, toast: false });

/** Deletes a customer; one that loads name answers 409 with the words the toast shows. */
export const deleteCustomer = (id: string) => api<null>(orgPath(`/customers/${id}`), { method: 'DELETE' });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useCustomerMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);

/** The organization's currency, in which detention rates are charged (the loads' currency, from its country). */
export function useOrgCurrency(): string {
  const orgId = useEffectiveOrganizationId();
  const q = useQuery({
    queryKey: ['org', orgId, 'account'] as const,
    queryFn: ({ signal }) => api<Organization>(orgPathFor(orgId ?? ''), { signal, toast: false }),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return q.data?.country === 'CA' ? 'CAD' : 'USD';
}
