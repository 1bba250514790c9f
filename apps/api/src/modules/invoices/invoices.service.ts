import {
  LOAD_STATUS_LABELS,
  type BillableLoad,
  type Invoice,
  type InvoiceCreate,
  type InvoiceLinesInput,
  type InvoiceListQuery,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoiceVoid,
  type Page,
} from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { conflict, conflictOn, invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { addDays, localDay } from './invoice-dates.ts';
import { moneyText } from '../../lib/money-text.ts';
import { loadLines, stopName, sumCents, type DraftLine } from './invoice-lines.ts';
import { presentInvoice, presentSummary } from './invoice-present.ts';
import * as repo from './invoices.repository.ts';

// Invoices (issue 70, decision 0291): a draft from a customer's delivered loads, read, listed, its
// lines edited while it is a draft, and voided (which lets its loads be billed again). Every change
// writes its activity-log row in the same transaction. Payments and sending are in their own files.

const ENTITY = 'INVOICE';

/** The organization's time zone and today in it (invoices are dated and due on its days). */
export async function todayOf(s: ReadScope): Promise<{ zone: string; today: string; carrier: repo.Carrier }> {
  const carrier = await repo.carrierOf(s.db, s.orgId);
  if (!carrier) throw notFound('Organization');
  return { zone: carrier.timeZone, today: localDay(s.now ?? Date.now(), carrier.timeZone), carrier };
}

const who = (s: Scope) => (s.actor.token ? { createdBy: null, createdByToken: s.actor.token.id } : { createdBy: s.actor.userId, createdByToken: null });
const numbers = (rows: ReadonlyArray<{ number: string }>) => rows.map((r) => r.number).join(', ');

/** 400 or 409 naming what keeps these loads off one invoice; the loads otherwise. */
async function checkedLoads(db: DbOrTx, orgId: string, loadIds: readonly string[]) {
  const rows = await repo.loadsToBill(db, orgId, loadIds);
  if (rows.length !== loadIds.length) throw invalidField('loadIds', 'Loads must be loads of this organization');
  const unknown = rows.filter((r) => !r.customerId);
  if (unknown.length)
    throw invalidField(
      'loadIds',
      `Load ${numbers(unknown)} ${unknown.length === 1 ? 'has' : 'have'} no customer from the customer list: choose the customer on the load first`,
      'invoices.customer_mismatch',
    );
  const customerIds = [...new Set(rows.map((r) => r.customerId!))];
  if (customerIds.length > 1)
    throw invalidField('loadIds', 'An invoice bills one customer: these loads are for different customers', 'invoices.customer_mismatch');
  const currencies = [...new Set(rows.map((r) => r.currency))];
  if (currencies.length > 1) throw invalidField('loadIds', `An invoice is in one currency: these loads are in ${currencies.join(' and ')}`);
  const undelivered = rows.filter((r) => r.status !== 'DELIVERED');
  if (undelivered.length)
    throw conflictOn(
      'loadIds',
      `Only delivered loads are invoiced: ${undelivered.map((r) => `load ${r.number} is ${LOAD_STATUS_LABELS[r.status].toLowerCase()}`).join(', ')}`,
      'invoices.load_not_delivered',
    );
  const billed = rows.filter((r) => r.invoiceNumber);
  if (billed.length)
    throw conflictOn(
      'loadIds',
      `A load is invoiced once: ${billed.map((r) => `load ${r.number} is on invoice ${r.invoiceNumber}`).join(', ')} (void that invoice to bill it again)`,
      'invoices.load_invoiced',
    );
  return { rows, customerId: customerIds[0]!, currency: currencies[0]! };
}

/** The draft lines of these loads, in order of delivery, for their customer. */
async function draftLines(db: DbOrTx, orgId: string, loads: repo.LoadToBill[], rule: { freeMinutes: number; centsPerHour: number }, zone: string) {
  const stops = await repo.stopsOfLoads(
    db,
    orgId,
    loads.map((l) => l.id),
  );
  const ordered = [...loads].sort(
    (a, b) => (a.deliveredAt?.getTime() ?? 0) - (b.deliveredAt?.getTime() ?? 0) || a.number.localeCompare(b.number, 'en', { numeric: true }),
  );
  return ordered.flatMap((l) => loadLines({ ...l, stops: stops.get(l.id) ?? [] }, rule, { zone, currency: l.currency }));
}

export async function createInvoice(s: Scope, input: InvoiceCreate): Promise<Invoice> {
  const id = await s.db.transaction(async (tx) => {
    const { rows, customerId, currency } = await checkedLoads(tx, s.orgId, input.loadIds);
    const customer = await repo.customerOf(tx, s.orgId, customerId);
    if (!customer) throw invalidField('loadIds', 'The customer of these loads was just removed');
    const { zone, today } = await todayOf({ ...s, db: tx });
    const invoiceDate = input.invoiceDate ?? today;
    const lines = await draftLines(tx, s.orgId, rows, { freeMinutes: customer.detentionFreeMinutes, centsPerHour: customer.detentionCentsPerHour }, zone);
    const row = await repo.insertInvoice(tx, {
      organizationId: s.orgId,
      number: await repo.nextInvoiceNumber(tx, s.orgId),
      customerId,
      customerName: customer.name,
      billingAddress: customer.billingAddress,
      currency,
      invoiceDate,
      dueDate: addDays(invoiceDate, customer.paymentTermsDays),
      termsDays: customer.paymentTermsDays,
      totalCents: sumCents(lines),
      notes: input.notes ?? null,
      ...who(s),
    });
    // The partial unique index is the last word on "invoiced once": a draft made at the same moment
    // for the same load fails here, worded as a 409 (constraint-words.ts).
    await repo.insertInvoiceLoads(tx, s.orgId, row.id, input.loadIds);
    await repo.replaceLines(tx, s.orgId, row.id, lines);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'CREATE',
      entityType: ENTITY,
      entityId: row.id,
      after: {
        number: row.number,
        customerName: row.customerName,
        loadNumbers: rows.map((r) => r.number),
        totalCents: row.totalCents,
        invoiceDate,
        dueDate: row.dueDate,
      },
    });
    return row.id;
  });
  return getInvoice(s, id);
}

/** The whole invoice: lines, payments, loads, and where Send would mail it. */
export async function getInvoice(s: ReadScope, invoiceId: string): Promise<Invoice> {
  const row = await repo.invoiceRow(s.db, s.orgId, invoiceId);
  if (!row) throw notFound('Invoice');
  const { today } = await todayOf(s);
  return presentInvoice(row, await partsOf(s.db, s.orgId, row), today);
}

async function partsOf(db: DbOrTx, orgId: string, row: repo.InvoiceRow) {
  const [lines, payments, loads, customer] = await Promise.all([
    repo.linesOf(db, orgId, row.id),
    repo.paymentsOf(db, orgId, row.id),
    repo.loadsOfInvoices(db, orgId, [row.id]),
    repo.customerOf(db, orgId, row.customerId),
  ]);
  const stops = await repo.stopsOfLoads(
    db,
    orgId,
    loads.map((l) => l.id),
  );
  return { lines, payments, loads, stops, invoiceEmail: customer?.invoiceEmail ?? null };
}

export async function listInvoices(s: ReadScope, q: InvoiceListQuery): Promise<Page<InvoiceSummary>> {
  const { today } = await todayOf(s);
  const order = q.sort ? orderBy(q.sort, repo.INVOICE_SORTS, repo.DEFAULT_INVOICE_ORDER[0]!, repo.invoiceTieBreak) : repo.DEFAULT_INVOICE_ORDER;
  const { rows, total } = await repo.invoicePage(
    s.db,
    s.orgId,
    {
      statuses: q.status ? (q.status.split(',') as InvoiceStatus[]) : undefined,
      customerId: q.customerId,
      overdueOn: q.overdue === 'true' ? today : undefined,
      from: q.from,
      to: q.to,
      search: q.search ? likeTerm(q.search) : undefined,
    },
    order,
    q,
  );
  const loads = await repo.loadsOfInvoices(
    s.db,
    s.orgId,
    rows.map((r) => r.id),
  );
  return toPage(
    rows.map((r) =>
      presentSummary(
        r,
        loads.filter((l) => l.invoiceId === r.id).map((l) => l.number),
        today,
      ),
    ),
    total,
    q,
  );
}

/** A draft's lines replaced (lines of its own loads and stops, or of the whole invoice). */
export async function updateLines(s: Scope, invoiceId: string, input: InvoiceLinesInput): Promise<Invoice> {
  await s.db.transaction(async (tx) => {
    const before = await repo.invoiceRow(tx, s.orgId, invoiceId, true);
    if (!before) throw notFound('Invoice');
    if (before.status !== 'DRAFT')
      throw conflict(
        `Invoice ${before.number} is ${before.status.toLowerCase().replace('_', ' ')}: only a draft's lines change`,
        undefined,
        'invoices.not_draft',
      );
    const loads = await repo.loadsOfInvoices(tx, s.orgId, [invoiceId]);
    const stops = await repo.stopsOfLoads(
      tx,
      s.orgId,
      loads.map((l) => l.id),
    );
    const old = await repo.linesOf(tx, s.orgId, invoiceId);
    const kept = new Set<string>();
    const lines: DraftLine[] = input.lines.map((l, i) => {
      const loadId = l.loadId ?? null;
      if (loadId && !loads.some((x) => x.id === loadId)) throw invalidField(`lines.${i}.loadId`, 'Load must be one of the invoice’s loads');
      const stop = l.stopId ? (loadId ? stops.get(loadId) : undefined)?.find((st) => st.id === l.stopId) : undefined;
      if (l.stopId && !stop) throw invalidField(`lines.${i}.stopId`, 'Stop must be a stop of the line’s load');
      // A kept line keeps its minutes at a rate while its amount stays; an amount changed by hand is just that.
      // A line named twice keeps its id once (the second is a new line).
      const was = l.id && !kept.has(l.id) ? old.find((o) => o.line.id === l.id)?.line : undefined;
      if (was) kept.add(was.id);
      const same = was && was.amountCents === l.amountCents && was.kind === l.kind;
      return {
        ...(was ? { id: was.id } : {}),
        kind: l.kind,
        loadId,
        stopId: stop?.id ?? null,
        stopSeq: stop?.seq ?? null,
        description: l.description,
        amountCents: l.amountCents,
        minutes: same ? was.minutes : null,
        rateCents: same ? was.rateCents : null,
      };
    });
    await repo.replaceLines(tx, s.orgId, invoiceId, lines);
    const after = await repo.updateInvoice(tx, s.orgId, invoiceId, { totalCents: sumCents(lines), notes: input.notes ?? null });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE',
      entityType: ENTITY,
      entityId: invoiceId,
      before: {
        number: before.number,
        totalCents: before.totalCents,
        notes: before.notes,
        lines: old.map((l) => `${l.line.description}: ${l.line.amountCents}`),
      },
      after: { number: after.number, totalCents: after.totalCents, notes: after.notes, lines: lines.map((l) => `${l.description}: ${l.amountCents}`) },
    });
  });
  return getInvoice(s, invoiceId);
}

/** Void: the invoice stays (numbered, listed as void) and its loads may be billed again. Not with payments on it. */
export async function voidInvoice(s: Scope, invoiceId: string, input: InvoiceVoid): Promise<Invoice> {
  await s.db.transaction(async (tx) => {
    const before = await repo.invoiceRow(tx, s.orgId, invoiceId, true);
    if (!before) throw notFound('Invoice');
    if (before.status === 'VOID') throw conflict(`Invoice ${before.number} is already void`, undefined, 'invoices.void');
    if (before.paidCents > 0)
      throw conflict(
        `Invoice ${before.number} has payments of ${moneyText(before.paidCents, before.currency)}: remove them before voiding it`,
        undefined,
        'invoices.has_payments',
      );
    const after = await repo.updateInvoice(tx, s.orgId, invoiceId, {
      status: 'VOID',
      voidedAt: new Date(s.now ?? Date.now()),
      voidReason: input.reason ?? null,
    });
    await repo.releaseLoads(tx, s.orgId, invoiceId);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'VOID_INVOICE',
      entityType: ENTITY,
      entityId: invoiceId,
      before: { number: before.number, status: before.status },
      after: { number: after.number, status: after.status, voidReason: after.voidReason },
    });
  });
  return getInvoice(s, invoiceId);
}

/** Delivered loads no invoice bills yet (of one customer, or all), with what each would bill. */
export async function listBillableLoads(s: ReadScope, customerId?: string): Promise<BillableLoad[]> {
  const rows = await repo.billableLoads(s.db, s.orgId, customerId);
  const { zone } = await todayOf(s);
  const stops = await repo.stopsOfLoads(
    s.db,
    s.orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const st = stops.get(r.id) ?? [];
    const lines = loadLines({ ...r, stops: st }, { freeMinutes: r.freeMinutes, centsPerHour: r.centsPerHour }, { zone, currency: r.currency });
    return {
      id: r.id,
      number: r.number,
      customerId: r.customerId,
      customerName: r.customerName,
      termsDays: r.termsDays,
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
      origin: stopName(st[0]),
      destination: stopName(st[st.length - 1]),
      currency: r.currency,
      amountCents: sumCents(lines),
      detentionCents: sumCents(lines.filter((l) => l.kind === 'DETENTION')),
      hasPod: r.hasPod,
    };
  });
}
