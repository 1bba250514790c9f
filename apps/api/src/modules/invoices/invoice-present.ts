import { OPEN_INVOICE_STATUSES, type Invoice, type InvoiceSummary } from '@fleet/api-contract';
import { daysBetween } from './invoice-dates.ts';
import { stopName, type LineStop } from './invoice-lines.ts';
import type { InvoiceLineRow, InvoiceRow } from './invoices.repository.ts';

// Invoices as the API answers them (issue 70): dates as days, the balance and how late it is as of
// the organization's today.

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const personName = (u: { firstName: string | null; lastName: string | null; email: string | null }) =>
  `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email || null;

/** Days past due on `today` (0 when not late, or when nothing is owed). */
export function daysPastDue(row: Pick<InvoiceRow, 'status' | 'dueDate' | 'totalCents' | 'paidCents'>, today: string): number {
  if (!OPEN_INVOICE_STATUSES.includes(row.status) || row.paidCents >= row.totalCents) return 0;
  return Math.max(0, daysBetween(row.dueDate, today));
}

export function presentSummary(row: InvoiceRow, loadNumbers: string[], today: string): InvoiceSummary {
  const late = daysPastDue(row, today);
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customerId: row.customerId,
    customerName: row.customerName,
    invoiceDate: row.invoiceDate,
    dueDate: row.dueDate,
    termsDays: row.termsDays,
    currency: row.currency,
    totalCents: row.totalCents,
    paidCents: row.paidCents,
    balanceCents: row.status === 'VOID' ? 0 : row.totalCents - row.paidCents,
    daysPastDue: late,
    overdue: late > 0,
    loadNumbers,
    sentAt: iso(row.sentAt),
    sentTo: row.sentTo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface InvoiceParts {
  lines: Array<{ line: InvoiceLineRow; loadNumber: string | null }>;
  payments: Array<{
    payment: { id: string; amountCents: number; receivedOn: string; reference: string | null; method: Invoice['payments'][number]['method']; createdAt: Date };
    firstName: string | null;
    lastName: string | null;
    email: string | null;
  }>;
  loads: Array<{ id: string; number: string; deliveredAt: Date | null; bolNumber: string | null; poNumber: string | null }>;
  stops: Map<string, LineStop[]>;
  invoiceEmail: string | null;
}

export function presentInvoice(row: InvoiceRow, p: InvoiceParts, today: string): Invoice {
  return {
    ...presentSummary(
      row,
      p.loads.map((l) => l.number),
      today,
    ),
    billingAddress: row.billingAddress,
    invoiceEmail: p.invoiceEmail,
    notes: row.notes,
    loads: p.loads.map((l) => {
      const stops = p.stops.get(l.id) ?? [];
      return {
        id: l.id,
        number: l.number,
        deliveredAt: iso(l.deliveredAt),
        bolNumber: l.bolNumber,
        poNumber: l.poNumber,
        origin: stopName(stops[0]),
        destination: stopName(stops[stops.length - 1]),
      };
    }),
    lines: p.lines.map(({ line, loadNumber }) => ({
      id: line.id,
      seq: line.seq,
      kind: line.kind,
      loadId: line.loadId,
      loadNumber,
      stopId: line.stopId,
      stopNumber: line.stopSeq === null ? null : line.stopSeq + 1,
      description: line.description,
      minutes: line.minutes,
      rateCents: line.rateCents,
      amountCents: line.amountCents,
    })),
    payments: p.payments.map((x) => ({
      id: x.payment.id,
      amountCents: x.payment.amountCents,
      receivedOn: x.payment.receivedOn,
      reference: x.payment.reference,
      method: x.payment.method,
      createdAt: x.payment.createdAt.toISOString(),
      createdBy: x.email || x.firstName || x.lastName ? personName(x) : null,
    })),
    voidedAt: iso(row.voidedAt),
    voidReason: row.voidReason,
  };
}
