import type { Invoice } from '@fleet/api-contract';
import type { Mailer } from '../../mail/mailer.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { moneyText } from '../../lib/money-text.ts';
import { invoicePapers } from './invoice-papers.ts';
import { invoicePdf } from './invoice-pdf.ts';
import { getInvoice, todayOf } from './invoices.service.ts';
import * as repo from './invoices.repository.ts';

// The invoice's PDF, and sending it to the customer (issue 70): e-mailed with the app's mailer to the
// customer's invoice address as it is now, then marked sent. The mail goes first: an invoice is
// marked sent only once the mailer took it (a failure leaves it as it was, to send again).

export interface InvoiceFile {
  invoice: Invoice;
  name: string;
  body: Buffer;
}

/** The invoice's PDF with its loads' proofs of delivery (and lumper receipts) appended. */
export async function invoiceFile(s: ReadScope, invoiceId: string): Promise<InvoiceFile> {
  const invoice = await getInvoice(s, invoiceId);
  const { carrier } = await todayOf(s);
  const papers = await invoicePapers(
    s.db,
    s.orgId,
    invoice.loads.map((l) => ({ id: l.id, lumper: invoice.lines.some((x) => x.kind === 'LUMPER' && x.loadId === l.id) })),
  );
  return { invoice, name: `${invoice.number}.pdf`, body: await invoicePdf(invoice, carrier, papers) };
}

export async function sendInvoice(s: Scope, mailer: Mailer, invoiceId: string): Promise<Invoice> {
  const row = await repo.invoiceRow(s.db, s.orgId, invoiceId);
  if (!row) throw notFound('Invoice');
  if (row.status === 'VOID') throw conflict(`Invoice ${row.number} is void: it is not sent`, undefined, 'invoices.void');
  const customer = await repo.customerOf(s.db, s.orgId, row.customerId);
  const to = customer?.invoiceEmail?.trim();
  if (!to)
    throw conflict(
      `${row.customerName} has no e-mail for invoices: add one to the customer, then send invoice ${row.number}`,
      'customer.invoiceEmail: not set',
      'invoices.no_invoice_email',
    );
  const file = await invoiceFile(s, invoiceId);
  const { carrier } = await todayOf(s);
  const inv = file.invoice;
  await mailer.send({
    to,
    subject: `Invoice ${inv.number} from ${carrier.name}`,
    text:
      `Hello,\n\nPlease find attached invoice ${inv.number} from ${carrier.name} for ${moneyText(inv.balanceCents, inv.currency)}` +
      `, due on ${inv.dueDate}` +
      (inv.loads.length ? ` (load${inv.loads.length === 1 ? '' : 's'} ${inv.loadNumbers.join(', ')}), with the proof of delivery attached.` : '.') +
      `\n\nThank you,\n${carrier.name}${carrier.phone ? `\n${carrier.phone}` : ''}\n`,
    attachments: [{ filename: file.name, content: file.body.toString('base64'), contentType: 'application/pdf', encoding: 'base64' }],
  });
  const now = new Date(s.now ?? Date.now());
  await s.db.transaction(async (tx) => {
    const before = await repo.invoiceRow(tx, s.orgId, invoiceId, true);
    if (!before) throw notFound('Invoice');
    const after = await repo.updateInvoice(tx, s.orgId, invoiceId, { status: before.status === 'DRAFT' ? 'SENT' : before.status, sentAt: now, sentTo: to });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'SEND_INVOICE',
      entityType: 'INVOICE',
      entityId: invoiceId,
      before: { number: before.number, status: before.status, sentTo: before.sentTo },
      after: { number: after.number, status: after.status, sentTo: to },
    });
  });
  return getInvoice(s, invoiceId);
}
