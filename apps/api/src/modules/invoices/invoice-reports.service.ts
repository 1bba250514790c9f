import { agingBucket, INVOICE_LINE_LABELS, INVOICE_STATUS_LABELS, type InvoiceAging, type InvoiceExportQuery, type InvoiceStatus } from '@fleet/api-contract';
import { unparseCsv } from '../../lib/csv.ts';
import type { ReadScope } from '../auth/index.ts';
import { daysBetween } from './invoice-dates.ts';
import { todayOf } from './invoices.service.ts';
import * as repo from './invoices.repository.ts';

// What accounting reads of the invoices (issue 70): the aging of what customers owe on a day, and
// the invoices as a CSV an accounting program imports (QuickBooks' and Xero's invoice imports take
// one row per line, repeating the invoice's number, customer and dates on each).

type Figures = InvoiceAging['totals'];
const zero = (): Figures => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0, invoices: 0 });

/** What each customer owed on `asOf` (default today), by days past due: current, 1-30, 31-60, 61-90, over 90. */
export async function invoiceAging(s: ReadScope, asOf?: string): Promise<InvoiceAging> {
  const day = asOf ?? (await todayOf(s)).today;
  const owed = (await repo.owedOn(s.db, s.orgId, day)).filter((r) => r.totalCents - r.paidCents > 0);
  const byCustomer = new Map<string, { customerId: string; customerName: string } & Figures>();
  const totals = zero();
  for (const r of owed) {
    const balance = r.totalCents - r.paidCents;
    const bucket = agingBucket(daysBetween(r.dueDate, day));
    const c = byCustomer.get(r.customerId) ?? { customerId: r.customerId, customerName: r.customerName, ...zero() };
    for (const f of [c, totals]) {
      f[bucket] += balance;
      f.total += balance;
      f.invoices += 1;
    }
    byCustomer.set(r.customerId, c);
  }
  const currencies = [...new Set(owed.map((r) => r.currency))];
  return {
    asOf: day,
    currency: currencies.length === 1 ? currencies[0]! : currencies.length ? currencies.join('/') : 'USD',
    // The largest debts first: who to call.
    customers: [...byCustomer.values()].sort((a, b) => b.total - a.total || a.customerName.localeCompare(b.customerName)),
    totals,
  };
}

const money = (cents: number) => (cents / 100).toFixed(2);

/**
 * The invoices as CSV: per line (default) or per invoice. Void invoices are left out unless asked
 * for by status: an accounting program that imported one voids it there.
 */
export async function invoicesCsv(s: ReadScope, q: InvoiceExportQuery): Promise<{ name: string; body: string }> {
  const statuses = q.status ? (q.status.split(',') as InvoiceStatus[]) : (['DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID'] as InvoiceStatus[]);
  const rows = await repo.invoicesFiltered(s.db, s.orgId, { statuses, customerId: q.customerId, from: q.from, to: q.to });
  const name = `invoices-${q.from ?? 'all'}${q.to ? `-to-${q.to}` : ''}.csv`;
  const terms = (days: number) => (days === 0 ? 'Due on receipt' : `Net ${days}`);
  if (q.per === 'invoice') {
    const body = unparseCsv(
      ['InvoiceNo', 'Customer', 'InvoiceDate', 'DueDate', 'Terms', 'Status', 'Total', 'Paid', 'Balance', 'Currency'],
      rows.map((r) => [
        r.number,
        r.customerName,
        r.invoiceDate,
        r.dueDate,
        terms(r.termsDays),
        INVOICE_STATUS_LABELS[r.status],
        money(r.totalCents),
        money(r.paidCents),
        money(r.totalCents - r.paidCents),
        r.currency,
      ]),
    );
    return { name, body };
  }
  const lines = await repo.linesOfInvoices(
    s.db,
    s.orgId,
    rows.map((r) => r.id),
  );
  const byInvoice = new Map<string, typeof lines>();
  for (const l of lines) byInvoice.set(l.line.invoiceId, [...(byInvoice.get(l.line.invoiceId) ?? []), l]);
  const body = unparseCsv(
    ['InvoiceNo', 'Customer', 'InvoiceDate', 'DueDate', 'Terms', 'Item', 'ItemDescription', 'ItemQuantity', 'ItemRate', 'ItemAmount', 'Currency', 'LoadNumber'],
    rows.flatMap((r) =>
      (byInvoice.get(r.id) ?? []).map(({ line, loadNumber }) => [
        r.number,
        r.customerName,
        r.invoiceDate,
        r.dueDate,
        terms(r.termsDays),
        INVOICE_LINE_LABELS[line.kind],
        line.description,
        // Detention: hours at the hourly rate; any other line: one of its amount.
        line.minutes !== null && line.rateCents !== null ? (line.minutes / 60).toFixed(4).replace(/\.?0+$/, '') : 1,
        line.minutes !== null && line.rateCents !== null ? money(line.rateCents) : money(line.amountCents),
        money(line.amountCents),
        r.currency,
        loadNumber ?? '',
      ]),
    ),
  );
  return { name, body };
}
