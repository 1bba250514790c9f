import type { Invoice, InvoicePaymentInput, InvoiceStatus } from '@fleet/api-contract';
import { conflict, conflictOn, invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Scope } from '../auth/index.ts';
import { moneyText } from '../../lib/money-text.ts';
import { getInvoice, todayOf } from './invoices.service.ts';
import * as repo from './invoices.repository.ts';

// Payments of an invoice (issue 70): in parts, never more than the balance. The invoice's row is
// locked while a payment is added or removed, so two payments at once cannot both fit the same
// balance. A payment issues a draft (a customer who pays has the invoice); removing the last one
// puts the invoice back to sent (or draft, if it never was).

function statusAfter(row: Pick<repo.InvoiceRow, 'totalCents' | 'sentAt'>, paidCents: number): InvoiceStatus {
  if (paidCents <= 0) return row.sentAt ? 'SENT' : 'DRAFT';
  return paidCents >= row.totalCents ? 'PAID' : 'PARTIALLY_PAID';
}

export async function recordPayment(s: Scope, invoiceId: string, input: InvoicePaymentInput): Promise<Invoice> {
  const { today } = await todayOf(s);
  if (input.receivedOn > today) throw invalidField('receivedOn', 'Received on must not be after today');
  await s.db.transaction(async (tx) => {
    const before = await repo.invoiceRow(tx, s.orgId, invoiceId, true);
    if (!before) throw notFound('Invoice');
    if (before.status === 'VOID') throw conflict(`Invoice ${before.number} is void: it takes no payment`, undefined, 'invoices.void');
    const balance = before.totalCents - before.paidCents;
    if (input.amountCents > balance)
      throw conflictOn(
        'amountCents',
        balance <= 0
          ? `Invoice ${before.number} is paid in full: it takes no more payment`
          : `The payment of ${moneyText(input.amountCents, before.currency)} is more than the balance of ${moneyText(balance, before.currency)}`,
        'invoices.overpayment',
      );
    const payment = await repo.insertPayment(tx, {
      organizationId: s.orgId,
      invoiceId,
      amountCents: input.amountCents,
      receivedOn: input.receivedOn,
      reference: input.reference ?? null,
      method: input.method ?? null,
      createdBy: s.actor.token ? null : s.actor.userId,
      createdByToken: s.actor.token?.id ?? null,
    });
    const paidCents = before.paidCents + input.amountCents;
    const after = await repo.updateInvoice(tx, s.orgId, invoiceId, { paidCents, status: statusAfter(before, paidCents) });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'RECORD_PAYMENT',
      entityType: 'INVOICE',
      entityId: invoiceId,
      before: { number: before.number, status: before.status, paidCents: before.paidCents },
      after: {
        number: after.number,
        status: after.status,
        paidCents: after.paidCents,
        paymentId: payment.id,
        amountCents: payment.amountCents,
        receivedOn: payment.receivedOn,
        reference: payment.reference,
        currency: after.currency,
      },
    });
  });
  return getInvoice(s, invoiceId);
}

/** Removes a payment recorded by mistake. */
export async function removePayment(s: Scope, invoiceId: string, paymentId: string): Promise<Invoice> {
  await s.db.transaction(async (tx) => {
    const before = await repo.invoiceRow(tx, s.orgId, invoiceId, true);
    if (!before) throw notFound('Invoice');
    const gone = await repo.deletePayment(tx, s.orgId, invoiceId, paymentId);
    if (!gone) throw notFound('Payment');
    const paidCents = before.paidCents - gone.amountCents;
    const after = await repo.updateInvoice(tx, s.orgId, invoiceId, { paidCents, status: statusAfter(before, paidCents) });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'REMOVE_PAYMENT',
      entityType: 'INVOICE',
      entityId: invoiceId,
      before: {
        number: before.number,
        status: before.status,
        paidCents: before.paidCents,
        paymentId: gone.id,
        amountCents: gone.amountCents,
        receivedOn: gone.receivedOn,
        currency: before.currency,
      },
      after: { number: after.number, status: after.status, paidCents: after.paidCents },
    });
  });
  return getInvoice(s, invoiceId);
}
