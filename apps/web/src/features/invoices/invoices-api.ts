import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillableLoad, Invoice, InvoiceAging, InvoiceCreateBody, InvoiceLinesInput, InvoicePaymentInput, InvoiceSummary, Page } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPath, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The invoice screens' calls (issue 70, contract packages/api-contract/src/invoices.ts). Every key
// sits under ['invoices', orgId]: a change reads the list, the invoice, the aging and the loads
// left to bill again.

export const invoiceKeys = {
  all: (orgId: string | null) => ['invoices', orgId] as const,
  list: (orgId: string | null, q: Record<string, QueryValue>) => ['invoices', orgId, 'list', q] as const,
  one: (orgId: string | null, id: string) => ['invoices', orgId, 'one', id] as const,
  billable: (orgId: string | null) => ['invoices', orgId, 'billable'] as const,
  aging: (orgId: string | null, asOf: string) => ['invoices', orgId, 'aging', asOf] as const,
};

const invoicePath = (id: string, rest = '') => orgPath(`/invoices/${encodeURIComponent(id)}${rest}`);

export function useInvoices(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: invoiceKeys.list(orgId, query),
    queryFn: ({ signal }) => api<Page<InvoiceSummary>>(orgPath('/invoices'), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

export function useInvoice(id: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: invoiceKeys.one(orgId, id),
    queryFn: ({ signal }) => api<Invoice>(invoicePath(id), { signal, toast: false }),
    enabled: !!orgId && !!id,
  });
}

/** Every delivered load no invoice bills yet (the new-invoice screen groups them by customer). */
export function useBillableLoads() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: invoiceKeys.billable(orgId),
    queryFn: ({ signal }) => api<BillableLoad[]>(orgPath('/invoices/billable-loads'), { signal, toast: false }),
    enabled: !!orgId,
  });
}

export function useAging(asOf: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: invoiceKeys.aging(orgId, asOf),
    queryFn: ({ signal }) => api<InvoiceAging>(orgPath('/invoices/aging'), { query: { asOf }, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

/** A change to an invoice: every invoice view is read again after it. */
export function useInvoiceMutation<V, R = Invoice>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: invoiceKeys.all(orgId) }) });
}

export const createInvoice = (body: InvoiceCreateBody) => api<Invoice>(orgPath('/invoices'), { method: 'POST', body, toast: false });
export const updateLines = ({ id, body }: { id: string; body: InvoiceLinesInput }) =>
  api<Invoice>(invoicePath(id, '/lines'), { method: 'PUT', body, toast: false });
export const sendInvoice = (id: string) => api<Invoice>(invoicePath(id, '/send'), { method: 'POST', toast: false });
export const voidInvoice = ({ id, reason }: { id: string; reason: string | null }) =>
  api<Invoice>(invoicePath(id, '/void'), { method: 'POST', body: { reason }, toast: false });
export const recordPayment = ({ id, body }: { id: string; body: InvoicePaymentInput }) =>
  api<Invoice>(invoicePath(id, '/payments'), { method: 'POST', body, toast: false });
export const removePayment = ({ id, paymentId }: { id: string; paymentId: string }) =>
  api<Invoice>(invoicePath(id, `/payments/${encodeURIComponent(paymentId)}`), { method: 'DELETE' });

/** The invoice's PDF (its proofs of delivery appended), saved as INV-1001.pdf. */
export async function downloadInvoicePdf(inv: Pick<Invoice, 'id' | 'number'>): Promise<void> {
  saveFile(await api<Blob>(invoicePath(inv.id, '/pdf'), { blob: true }), `${inv.number}.pdf`);
}

/** The invoices as CSV for an accounting program, per line or per invoice. */
export async function downloadInvoicesCsv(query: Record<string, QueryValue>): Promise<void> {
  saveFile(await api<Blob>(orgPath('/invoices/export.csv'), { query, blob: true }), `invoices${query.from ? `-${String(query.from)}` : ''}.csv`);
}
