import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { billableLoadListSchema, invoiceAgingSchema, invoicePageSchema, invoiceSchema, loadSchema, type Invoice, type Load } from '@fleet/api-contract';
import { customers } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { bearer, createTestApp, expectErrorBody, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { multipartForm, pngOf } from '../../test/images.ts';
import { pdfImageSizes, pdfPageCount, pdfText } from '../../test/pdf.ts';
import { driverBody } from '../../test/registry.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { ensureDemoInvoices } from '../../seed/demo-invoices.ts';
import { ensureDemoPlaces } from '../../seed/demo-places.ts';

// Invoices through HTTP on the real database (issue 70, decision 0291): a draft from delivered loads
// with detention per stop matching a hand calculation, the loads it refuses, a load invoiced once
// (and again after a void), the PDF, sending by e-mail, payments in parts, aging at its bucket
// boundaries, the accounting CSV, and another organization's invoices out of sight.

let t: TestContext;
let orgId: string;
let owner: Awaited<ReturnType<typeof registerOrganization>>;
let admin: Record<string, string>;
let other: { orgId: string; headers: Record<string, string> };
let driverId: string;
let acme: string;
let globex: string;
const H = 3_600_000;
const MIN = 60_000;
const url = (path = '', org = orgId) => `/api/v1/organizations/${org}${path}`;
const iso = (ms: number) => new Date(ms).toISOString();
/** A fixed past day, 10:00 UTC (04:00 in Chicago, the organization's zone), that stop times count from. */
const DAY0 = Date.parse('2026-10-05T10:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerOrganization(t.app, 'Invoice Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const o = await registerOrganization(t.app, 'Other Invoice Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };
  const d = await t.app.inject({ method: 'POST', url: url('/drivers'), headers: admin, payload: driverBody() });
  expect(d.statusCode, d.body).toBe(201);
  driverId = d.json().id;
  // The customers registry is its own part of issue 70; its rows are what invoices read.
  const made = await t.app.db
    .insert(customers)
    .values([
      {
        organizationId: orgId,
        name: 'Acme Foods',
        billingAddress: 'Acme Foods AP\n400 Market St\nKansas City, MO 64105',
        invoiceEmail: 'ap@acme.example',
        paymentTermsDays: 30,
        detentionFreeMinutes: 120,
        detentionCentsPerHour: 7000,
      },
      { organizationId: orgId, name: 'Globex', paymentTermsDays: 15, detentionFreeMinutes: 120, detentionCentsPerHour: 0 },
    ])
    .returning({ id: customers.id, name: customers.name });
  acme = made.find((c) => c.name === 'Acme Foods')!.id;
  globex = made.find((c) => c.name === 'Globex')!.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Visit {
  arrive: number;
  depart: number;
}

/** A load of `customerId` with a driver, delivered when `visits` gives every stop's times. */
async function load(customerId: string, rate: Record<string, unknown>, visits: Visit[] | null, base = DAY0): Promise<Load> {
  const res = await t.app.inject({
    method: 'POST',
    url: url('/loads'),
    headers: admin,
    payload: {
      customer: customerId === acme ? 'Acme Foods' : 'Globex',
      customerId,
      stops: [
        {
          kind: 'PICKUP',
          latitude: 41.85,
          longitude: -87.65,
          address: 'Chicago, IL',
          windowStart: iso(base - 5 * H),
          windowEnd: iso(base),
          serviceMinutes: 60,
        },
        {
          kind: 'DELIVERY',
          latitude: 39.1,
          longitude: -94.58,
          address: 'Kansas City, MO',
          windowStart: iso(base),
          windowEnd: iso(base + 8 * H),
          serviceMinutes: 60,
        },
      ],
      rate,
      driverIds: [driverId],
      overlapAllowed: true,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  let l = loadSchema.parse(res.json());
  for (const [i, v] of (visits ?? []).entries()) {
    for (const [event, at] of [
      ['ARRIVE', v.arrive],
      ['DEPART', v.depart],
    ] as const) {
      const r = await t.app.inject({
        method: 'POST',
        url: url(`/loads/${l.id}/stops/${l.stops[i]!.id}/status`),
        headers: admin,
        payload: { event, at: iso(at) },
      });
      expect(r.statusCode, r.body).toBe(200);
      l = loadSchema.parse(r.json());
    }
  }
  return l;
}

/** Stops left within the free time. */
const quick = (base = DAY0): Visit[] => [
  { arrive: base - 4 * H, depart: base - 3 * H },
  { arrive: base + H, depart: base + 2 * H },
];

async function createInvoice(payload: Record<string, unknown>, headers = admin): Promise<Invoice> {
  const res = await t.app.inject({ method: 'POST', url: url('/invoices'), headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return invoiceSchema.parse(res.json());
}

const send = (id: string) => t.app.inject({ method: 'POST', url: url(`/invoices/${id}/send`), headers: admin });
const pay = (id: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: url(`/invoices/${id}/payments`), headers: admin, payload });

describe('invoices', () => {
  let a: Load;
  let b: Load;
  let c: Load;
  let running: Load;
  let first: Invoice;

  it('lists the delivered loads no invoice bills yet, with what each would bill', async () => {
    // Pick-up 2 h 15 min on site, delivery 3 h 47 min 30 s: detention beyond the 2 h free at $70/h.
    a = await load(
      acme,
      {
        lineHaul: 2400,
        fuelSurcharge: 310.55,
        accessorials: [
          { kind: 'TARP', amount: 75 },
          { kind: 'DETENTION', amount: 50, note: 'entered by hand' },
          { kind: 'LUMPER', amount: 185.4, note: 'Receipt 4471' },
        ],
      },
      [
        { arrive: DAY0 - 6 * H, depart: DAY0 - 6 * H + 135 * MIN },
        { arrive: DAY0 + 2 * H, depart: DAY0 + 2 * H + 227 * MIN + 30_000 },
      ],
    );
    b = await load(acme, { lineHaul: 1000 }, quick());
    c = await load(globex, { lineHaul: 800, fuelSurcharge: 90 }, quick());
    running = await load(acme, { lineHaul: 500 }, [{ arrive: DAY0 - 4 * H, depart: DAY0 - 3 * H }]);
    expect([a, b, c].map((l) => l.status)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(running.status).toBe('EN_ROUTE');

    const res = await t.app.inject({ method: 'GET', url: url(`/invoices/billable-loads?customerId=${acme}`), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const list = billableLoadListSchema.parse(res.json());
    expect(list.map((l) => l.number).sort()).toEqual([a.number, b.number].sort());
    expect(list.find((l) => l.id === a.id)).toMatchObject({ customerName: 'Acme Foods', amountCents: 311_328, detentionCents: 14_233, hasPod: false });
    const all = billableLoadListSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices/billable-loads'), headers: admin })).json());
    expect(all.map((l) => l.number).sort()).toEqual([a.number, b.number, c.number].sort());
  });

  it('refuses loads of several customers, not delivered, or unknown, with the error body, and saves nothing', async () => {
    const refuse = async (loadIds: string[], status: number, code: string, words: string) => {
      const res = await t.app.inject({ method: 'POST', url: url('/invoices'), headers: admin, payload: { loadIds } });
      const body = expectErrorBody(res.json(), status);
      expect(res.statusCode).toBe(status);
      expect(body.code).toBe(code);
      expect(body.message).toContain(words);
      expect(body.technicalMessage).toContain('loadIds: ');
    };
    await refuse([a.id, c.id], 400, 'invoices.customer_mismatch', 'one customer');
    await refuse([a.id, running.id], 409, 'invoices.load_not_delivered', `load ${running.number} is en route`);
    await refuse([a.id, '00000000-0000-4000-8000-000000000000'], 400, 'validation.invalid_field', 'Loads must be loads of this organization');
    const bad = await t.app.inject({ method: 'POST', url: url('/invoices'), headers: admin, payload: { loadIds: [] } });
    expect(expectErrorBody(bad.json(), 400).message).toContain('Choose at least one delivered load');
    const [n] = rowsOf<{ n: number }>(await t.app.db.execute(sql`select count(*)::int as n from invoices where organization_id = ${orgId}`));
    expect(n!.n).toBe(0);
  });

  it('makes a draft whose detention matches the hand calculation, due after the customer’s terms', async () => {
    first = await createInvoice({ loadIds: [b.id, a.id], invoiceDate: '2026-10-06' });
    expect(first).toMatchObject({ number: 'INV-1001', status: 'DRAFT', customerId: acme, customerName: 'Acme Foods', currency: 'USD' });
    expect(first).toMatchObject({ invoiceDate: '2026-10-06', dueDate: '2026-11-05', termsDays: 30, invoiceEmail: 'ap@acme.example' });
    // By hand: stop 1, 135 min on site, 15 min beyond the 2 h free: 15 × $70 / 60 = $17.50.
    // Stop 2, 227 whole minutes (the started 30 s is not billed), 107 beyond: 107 × $70 / 60 = $124.833… → $124.83.
    const detention = first.lines.filter((l) => l.kind === 'DETENTION');
    expect(detention.map((l) => [l.loadNumber, l.stopNumber, l.minutes, l.rateCents, l.amountCents])).toEqual([
      [a.number, 1, 15, 7000, 1750],
      [a.number, 2, 107, 7000, 12_483],
    ]);
    expect(detention[1]!.description).toContain('3 h 47 min on site, 2 h free, 1 h 47 min billed at $70.00/h');
    // The hand-entered $50 detention is not billed on top of the computed one; the lumper comes back.
    const ofA = first.lines.filter((l) => l.loadId === a.id).map((l) => [l.kind, l.amountCents]);
    expect(ofA).toEqual([
      ['LINE_HAUL', 240_000],
      ['FUEL_SURCHARGE', 31_055],
      ['ACCESSORIAL', 7500],
      ['DETENTION', 1750],
      ['DETENTION', 12_483],
      ['LUMPER', 18_540],
    ]);
    expect(first.lines.find((l) => l.kind === 'LUMPER')!.description).toBe(`Lumper reimbursed, load ${a.number}: Receipt 4471`);
    expect(first.totalCents).toBe(311_328 + 100_000);
    expect(first.balanceCents).toBe(first.totalCents);
    // In the order delivered: b left its delivery before a did.
    expect(first.loads.map((l) => l.number)).toEqual([b.number, a.number]);
  });

  it('invoices a load once: a second invoice naming it is refused with the invoice that bills it', async () => {
    const res = await t.app.inject({ method: 'POST', url: url('/invoices'), headers: admin, payload: { loadIds: [b.id] } });
    const body = expectErrorBody(res.json(), 409);
    expect(body.code).toBe('invoices.load_invoiced');
    expect(body.message).toContain(`load ${b.number} is on invoice INV-1001`);
    const list = billableLoadListSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices/billable-loads'), headers: admin })).json());
    expect(list.map((l) => l.number)).toEqual([c.number]);
  });

  it('prints the invoice as a PDF: the carrier, the customer, the lines, the balance due, then each load’s proof of delivery and lumper receipt', async () => {
    // Photographed papers (pages told apart by their width): a two-page POD and a lumper receipt for
    // a, a one-page POD for b, and a's bill of lading, which the invoice does not carry.
    const paper = async (l: Load, type: string, stop: number, widths: number[]) => {
      const form = multipartForm(
        { type, stopId: l.stops[stop]!.id },
        widths.map((w) => ['pages', pngOf(w, 40), 'image/png']),
      );
      const res = await t.app.inject({ method: 'POST', url: url(`/loads/${l.id}/documents`), payload: form.payload, headers: { ...form.headers, ...admin } });
      expect(res.statusCode, res.body).toBe(201);
    };
    await paper(a, 'POD', 1, [101, 102]);
    await paper(a, 'LUMPER', 1, [103]);
    await paper(a, 'BOL', 0, [109]);
    await paper(b, 'POD', 1, [104]);
    const res = await t.app.inject({ method: 'GET', url: url(`/invoices/${first.id}/pdf`), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    for (const words of ['Invoice Carrier', 'INV-1001', 'Acme Foods', '400 Market St', 'Net 30', 'Nov 5, 2026', 'Balance due', '$4,113.28', a.number])
      expect(text).toContain(words);
    expect(text).toContain('Proofs of delivery follow on the next pages.');
    // One page of invoice, then the papers in the invoice's load order (b was delivered first):
    // b's POD, then a's two POD pages and a's lumper receipt; no bill of lading.
    expect(pdfPageCount(res.rawPayload)).toBe(1 + 1 + 2 + 1);
    expect(pdfImageSizes(res.rawPayload).map((i) => i.width)).toEqual([104, 101, 102, 103]);
  });

  it('edits a draft’s lines, then e-mails the PDF to the customer and marks it sent', async () => {
    const lines = first.lines.map((l) => ({
      id: l.id,
      kind: l.kind,
      loadId: l.loadId,
      stopId: l.stopId,
      description: l.description,
      amountCents: l.amountCents,
    }));
    const edited = await t.app.inject({
      method: 'PUT',
      url: url(`/invoices/${first.id}/lines`),
      headers: admin,
      payload: { lines: [...lines, { kind: 'OTHER', description: 'Pallet exchange', amountCents: 2500 }], notes: 'Thank you for your business' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const e = invoiceSchema.parse(edited.json());
    expect(e.totalCents).toBe(first.totalCents + 2500);
    expect(e.lines.filter((l) => l.kind === 'DETENTION').map((l) => l.minutes)).toEqual([15, 107]);
    const back = await t.app.inject({ method: 'PUT', url: url(`/invoices/${first.id}/lines`), headers: admin, payload: { lines, notes: null } });
    expect(invoiceSchema.parse(back.json()).totalCents).toBe(first.totalCents);

    const res = await send(first.id);
    expect(res.statusCode, res.body).toBe(200);
    const sent = invoiceSchema.parse(res.json());
    expect(sent).toMatchObject({ status: 'SENT', sentTo: 'ap@acme.example' });
    const mail = readOutbox(t.dataDir).find((m) => m.to === 'ap@acme.example') as
      { subject: string; text: string; attachments: Array<{ filename: string; content: string; contentType: string }> } | undefined;
    expect(mail?.subject).toBe('Invoice INV-1001 from Invoice Carrier');
    expect(mail?.attachments.map((x) => [x.filename, x.contentType])).toEqual([['INV-1001.pdf', 'application/pdf']]);
    expect(pdfText(Buffer.from(mail!.attachments[0]!.content, 'base64'))).toContain('INV-1001');
    // A sent invoice's lines no longer change.
    const late = await t.app.inject({ method: 'PUT', url: url(`/invoices/${first.id}/lines`), headers: admin, payload: { lines } });
    expect(expectErrorBody(late.json(), 409).code).toBe('invoices.not_draft');
  });

  it('refuses to send to a customer without an invoice e-mail, saying why', async () => {
    const g = await createInvoice({ loadIds: [c.id] });
    expect(g).toMatchObject({ number: 'INV-1002', termsDays: 15, invoiceEmail: null });
    const res = await send(g.id);
    const body = expectErrorBody(res.json(), 409);
    expect(body.code).toBe('invoices.no_invoice_email');
    expect(body.message).toBe('Globex has no e-mail for invoices: add one to the customer, then send invoice INV-1002');
    expect(invoiceSchema.parse((await t.app.inject({ method: 'GET', url: url(`/invoices/${g.id}`), headers: admin })).json()).status).toBe('DRAFT');
  });

  it('takes payments in parts, never more than the balance', async () => {
    const total = first.totalCents;
    const part = await pay(first.id, { amountCents: 100_000, receivedOn: '2026-10-20', reference: 'ACH 5521', method: 'ACH' });
    expect(part.statusCode, part.body).toBe(201);
    expect(invoiceSchema.parse(part.json())).toMatchObject({ status: 'PARTIALLY_PAID', paidCents: 100_000, balanceCents: total - 100_000 });
    const over = await pay(first.id, { amountCents: total - 100_000 + 1, receivedOn: '2026-10-21' });
    const body = expectErrorBody(over.json(), 409);
    expect(body).toMatchObject({ code: 'invoices.overpayment', message: 'The payment of $3,113.29 is more than the balance of $3,113.28' });
    expect(body.technicalMessage).toBe('amountCents: The payment of $3,113.29 is more than the balance of $3,113.28');
    const future = await pay(first.id, { amountCents: 1, receivedOn: '2099-01-01' });
    expect(expectErrorBody(future.json(), 400).technicalMessage).toBe('receivedOn: Received on must not be after today');
    expect(expectErrorBody((await pay(first.id, { amountCents: 0, receivedOn: '2026-10-21' })).json(), 400).message).toContain('at least 1 cent');
    const rest = await pay(first.id, { amountCents: total - 100_000, receivedOn: '2026-11-02', method: 'CHECK', reference: '10442' });
    const paid = invoiceSchema.parse(rest.json());
    expect(paid).toMatchObject({ status: 'PAID', paidCents: total, balanceCents: 0, overdue: false });
    expect(paid.payments.map((p) => [p.receivedOn, p.amountCents, p.method])).toEqual([
      ['2026-10-20', 100_000, 'ACH'],
      ['2026-11-02', total - 100_000, 'CHECK'],
    ]);
    expect(expectErrorBody((await pay(first.id, { amountCents: 1, receivedOn: '2026-11-03' })).json(), 409).message).toBe(
      'Invoice INV-1001 is paid in full: it takes no more payment',
    );
    // A paid invoice is not voided.
    const v = await t.app.inject({ method: 'POST', url: url(`/invoices/${first.id}/void`), headers: admin, payload: {} });
    expect(expectErrorBody(v.json(), 409).code).toBe('invoices.has_payments');
    // The PDF lists the payments and the balance.
    const text = pdfText((await t.app.inject({ method: 'GET', url: url(`/invoices/${first.id}/pdf`), headers: admin })).rawPayload);
    expect(text).toContain('Payment received Oct 20, 2026 · ACH transfer ACH 5521');
    expect(text).toContain('Paid in full');
  });

  it('voids a draft, which lets its load be invoiced again', async () => {
    const page = invoicePageSchema.parse((await t.app.inject({ method: 'GET', url: url(`/invoices?customerId=${globex}`), headers: admin })).json());
    const g = page.content[0]!;
    const res = await t.app.inject({ method: 'POST', url: url(`/invoices/${g.id}/void`), headers: admin, payload: { reason: 'Wrong rate' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(invoiceSchema.parse(res.json())).toMatchObject({ status: 'VOID', voidReason: 'Wrong rate', balanceCents: 0 });
    const again = await createInvoice({ loadIds: [c.id] });
    expect(again.number).toBe('INV-1003');
    const log = rowsOf<{ action: string }>(
      await t.app.db.execute(sql`select action from activity_log where organization_id = ${orgId} and entity_type = 'INVOICE' order by id`),
    ).map((r) => r.action);
    expect(log).toEqual(expect.arrayContaining(['CREATE', 'UPDATE', 'SEND_INVOICE', 'RECORD_PAYMENT', 'VOID_INVOICE']));
  });

  it('ages what customers owe at each bucket’s boundaries, as of a day, counting only payments received by then', async () => {
    // Net 30: an invoice dated 30 + d days before the day is d days past due on it.
    const asOf = '2026-11-29';
    const late = [0, 1, 30, 31, 60, 61, 90, 91];
    const made: Invoice[] = [];
    for (const [i, d] of late.entries()) {
      const l = await load(acme, { lineHaul: 100 + i }, quick(DAY0 - (i + 1) * 24 * H));
      const invoiceDate = new Date(Date.parse(`${asOf}T00:00:00Z`) - (30 + d) * 86_400_000).toISOString().slice(0, 10);
      const inv = await createInvoice({ loadIds: [l.id], invoiceDate });
      expect((await send(inv.id)).statusCode).toBe(200);
      made.push(inv);
    }
    // Received the day after: not counted on the day.
    expect((await pay(made[0]!.id, { amountCents: 4000, receivedOn: '2026-11-30' })).statusCode).toBe(201);
    const aging = async (day: string) => {
      const res = await t.app.inject({ method: 'GET', url: url(`/invoices/aging?asOf=${day}`), headers: admin });
      expect(res.statusCode, res.body).toBe(200);
      return invoiceAgingSchema.parse(res.json());
    };
    const cents = (i: number) => (100 + i) * 100;
    const all = late.reduce((sum, _d, i) => sum + cents(i), 0);
    const r = await aging(asOf);
    expect(r.asOf).toBe(asOf);
    // INV-1001 was paid by then; the Globex invoices are a draft and a void one: nothing owed.
    expect(r.customers.map((x) => x.customerId)).toEqual([acme]);
    expect(r.customers[0]).toMatchObject({
      current: cents(0),
      days1to30: cents(1) + cents(2),
      days31to60: cents(3) + cents(4),
      days61to90: cents(5) + cents(6),
      over90: cents(7),
      total: all,
      invoices: 8,
    });
    expect(r.totals).toMatchObject({ total: all, invoices: 8 });
    // The day before, the invoice 1 day late was due that day: current.
    expect((await aging('2026-11-28')).totals.current).toBe(cents(0) + cents(1));
    // The day after, the payment counts.
    expect((await aging('2026-11-30')).totals.total).toBe(all - 4000);
    // On Nov 1, INV-1001 was owed less its first payment, not yet due (Nov 5).
    const early = await aging('2026-11-01');
    expect(early.totals.current).toBeGreaterThanOrEqual(first.totalCents - 100_000);

    const overdue = invoicePageSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices?overdue=true&size=50'), headers: admin })).json());
    expect(overdue.totalElements).toBeGreaterThanOrEqual(7);
    expect(overdue.content.every((i) => i.overdue && i.daysPastDue > 0 && i.balanceCents > 0)).toBe(true);
  });

  it('exports the invoices as CSV an accounting program imports, per line or per invoice', async () => {
    const res = await t.app.inject({ method: 'GET', url: url('/invoices/export.csv?from=2026-10-06&to=2026-10-06'), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = res.body.split('\r\n');
    expect(rows[0]).toBe('InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Item,ItemDescription,ItemQuantity,ItemRate,ItemAmount,Currency,LoadNumber');
    expect(rows).toHaveLength(1 + first.lines.length);
    expect(rows.find((r) => r.includes('Detention at stop 2'))).toMatch(
      /^INV-1001,Acme Foods,2026-10-06,2026-11-05,Net 30,Detention,".*",1\.7833,70\.00,124\.83,USD,L-\d+$/,
    );
    const per = await t.app.inject({ method: 'GET', url: url('/invoices/export.csv?per=invoice&status=PAID'), headers: admin });
    expect(per.body.split('\r\n')).toEqual([
      'InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Status,Total,Paid,Balance,Currency',
      'INV-1001,Acme Foods,2026-10-06,2026-11-05,Net 30,Paid,4113.28,4113.28,0.00,USD',
    ]);
  });

  it('keeps another organization’s invoices out of sight and out of reach', async () => {
    const h = other.headers;
    expect((await t.app.inject({ method: 'GET', url: url(`/invoices/${first.id}`, other.orgId), headers: h })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(`/invoices/${first.id}/pdf`, other.orgId), headers: h })).statusCode).toBe(404);
    const foreignPay = await t.app.inject({
      method: 'POST',
      url: url(`/invoices/${first.id}/payments`, other.orgId),
      headers: h,
      payload: { amountCents: 1, receivedOn: '2026-11-03' },
    });
    expect(foreignPay.statusCode).toBe(404);
    const foreignLoads = await t.app.inject({ method: 'POST', url: url('/invoices', other.orgId), headers: h, payload: { loadIds: [b.id] } });
    expect(expectErrorBody(foreignLoads.json(), 400).message).toBe('Loads must be loads of this organization');
    expect(invoicePageSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices', other.orgId), headers: h })).json()).totalElements).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: url('/invoices'), headers: h })).statusCode).toBe(404);
    const aging = invoiceAgingSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices/aging', other.orgId), headers: h })).json());
    expect(aging.customers).toEqual([]);
  });

  it('takes INVOICE_LIST to read and INVOICE_UPDATE to change; a token acts for its organization', async () => {
    const dispatcher = bearer((await memberWithRole(t.app, t.dataDir, owner, ['LOAD_LIST', 'LOAD_UPDATE'])).session.accessToken);
    expect((await t.app.inject({ method: 'GET', url: url('/invoices'), headers: dispatcher })).statusCode).toBe(403);
    const reader = bearer((await memberWithRole(t.app, t.dataDir, owner, ['INVOICE_LIST'])).session.accessToken);
    expect((await t.app.inject({ method: 'GET', url: url(`/invoices/${first.id}`), headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: url(`/invoices/${first.id}/send`), headers: reader })).statusCode).toBe(403);
    const token = await createApiToken(t.app, orgId, admin, ['INVOICE_LIST', 'INVOICE_UPDATE']);
    const th = bearer(token.token);
    const l = await load(acme, { lineHaul: 321 }, quick(DAY0 - 20 * 24 * H));
    const inv = await createInvoice({ loadIds: [l.id] }, th);
    const paid = await t.app.inject({
      method: 'POST',
      url: url(`/invoices/${inv.id}/payments`),
      headers: th,
      payload: { amountCents: 32_100, receivedOn: '2026-10-06' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const p = invoiceSchema.parse(paid.json()).payments[0]!;
    expect(p.createdBy).toBeNull();
    const [row] = rowsOf<{ created_by: string | null; created_by_token: string | null }>(
      await t.app.db.execute(sql`select created_by, created_by_token from invoices where organization_id = ${orgId} and id = ${inv.id}`),
    );
    expect(row).toEqual({ created_by: null, created_by_token: token.id });
    const otherToken = await t.app.inject({ method: 'GET', url: url('/invoices', other.orgId), headers: th });
    expect(otherToken.statusCode).toBe(404);
  });

  it('gives the demo a month of invoices, some paid, some in part, some late in every aging bucket; once', async () => {
    const demo = await registerOrganization(t.app, 'Demo-like Carrier');
    const id = demo.user.organization!.id;
    const headers = bearer(demo.accessToken);
    await ensureDemoPlaces(t.app.db, id);
    for (const n of [1, 2, 3]) await createTestVehicle(t.app.db, id, { uniqueId: `demo-inv-${n}`, unitNumber: `10${n}` });
    const now = Date.parse('2026-11-30T15:00:00Z');
    const made = await ensureDemoInvoices(t.app.db, id, now);
    expect(made!.loads).toBeGreaterThanOrEqual(40);
    expect(made!.invoices).toBeGreaterThanOrEqual(15);
    const all = invoicePageSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices?size=500', id), headers })).json()).content;
    const statuses = new Set(all.map((i) => i.status));
    expect([...statuses].sort()).toEqual(expect.arrayContaining(['PAID', 'PARTIALLY_PAID', 'SENT']));
    expect(all.some((i) => i.overdue)).toBe(true);
    const aging = invoiceAgingSchema.parse((await t.app.inject({ method: 'GET', url: url('/invoices/aging?asOf=2026-11-30', id), headers })).json());
    for (const bucket of ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const) expect(aging.totals[bucket], bucket).toBeGreaterThan(0);
    // Detention past the free time and a lumper are on some of them.
    const one = invoiceSchema.parse((await t.app.inject({ method: 'GET', url: url(`/invoices/${all[0]!.id}`, id), headers })).json());
    expect(one.lines.length).toBeGreaterThan(0);
    const [kinds] = rowsOf<{ detention: number; lumper: number }>(
      await t.app.db.execute(sql`select count(*) filter (where kind = 'DETENTION')::int as detention, count(*) filter (where kind = 'LUMPER')::int as lumper
        from invoice_lines where organization_id = ${id}`),
    );
    expect(kinds!.detention).toBeGreaterThan(0);
    expect(kinds!.lumper).toBeGreaterThan(0);
    expect(await ensureDemoInvoices(t.app.db, id, now)).toBeNull();
  });
});
