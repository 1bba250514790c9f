import { z } from 'zod';
import { dayField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';

// Invoices (issue 70, decision 0291): a draft made from a customer's delivered loads (line haul, fuel
// surcharge, accessorials, detention per stop, lumper reimbursed), numbered per organization
// (INV-1001, …), sent by e-mail with the proofs of delivery appended, paid in parts, aged and
// exported for an accounting program. Unlike a load's rate (decimal amounts), an invoice speaks
// whole cents: every figure of it adds up exactly, as the accounting program will add it again.
// Money is in the currency of its loads (the organization's).

defineLabels({
  amountCents: 'Amount',
  lines: 'Lines',
  loadIds: 'Loads',
  invoiceDate: 'Invoice date',
  receivedOn: 'Received on',
  reference: 'Reference',
  asOf: 'As of',
  overdue: 'Overdue',
  per: 'One row per',
  'lines.kind': 'Line kind',
  'lines.description': 'Description',
  'lines.loadId': 'Load',
});

export const INVOICE_STATUSES = ['DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID', 'VOID'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  DRAFT: 'Draft',
  SENT: 'Sent',
  PARTIALLY_PAID: 'Partially paid',
  PAID: 'Paid',
  VOID: 'Void',
};
/** Statuses whose balance the customer owes (aging, overdue). */
export const OPEN_INVOICE_STATUSES: readonly InvoiceStatus[] = ['SENT', 'PARTIALLY_PAID'];

export const INVOICE_LINE_KINDS = ['LINE_HAUL', 'FUEL_SURCHARGE', 'ACCESSORIAL', 'DETENTION', 'LUMPER', 'OTHER'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];
/** The item an accounting program files a line under (the CSV's Item column). */
export const INVOICE_LINE_LABELS: Record<InvoiceLineKind, string> = {
  LINE_HAUL: 'Line haul',
  FUEL_SURCHARGE: 'Fuel surcharge',
  ACCESSORIAL: 'Accessorial',
  DETENTION: 'Detention',
  LUMPER: 'Lumper reimbursement',
  OTHER: 'Other',
};

export const PAYMENT_METHODS = ['ACH', 'CHECK', 'WIRE', 'CARD', 'FACTORING', 'OTHER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  ACH: 'ACH transfer',
  CHECK: 'Check',
  WIRE: 'Wire',
  CARD: 'Card',
  FACTORING: 'Factoring',
  OTHER: 'Other',
};

/** Aging buckets by days past the due date (as of a day): current is not yet due. */
export const AGING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_BUCKET_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  days1to30: '1-30 days',
  days31to60: '31-60 days',
  days61to90: '61-90 days',
  over90: 'Over 90 days',
};
/** The bucket of a balance `daysPastDue` days past its due date (0 or less: not yet due). */
export function agingBucket(daysPastDue: number): AgingBucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return 'days1to30';
  if (daysPastDue <= 60) return 'days31to60';
  if (daysPastDue <= 90) return 'days61to90';
  return 'over90';
}

export const INVOICE_LIMITS = { loads: 100, lines: 500, amountCentsMax: 100_000_000_00 } as const;

const cents = (label: string) =>
  z
    .number({ error: () => `${label} must be a number of cents` })
    .int(`${label} is a whole number of cents`)
    .max(INVOICE_LIMITS.amountCentsMax, `${label} must be at most ${INVOICE_LIMITS.amountCentsMax} cents`);

/** `POST invoices`: a draft from delivered loads of one customer. */
export const invoiceCreateSchema = z.object({
  loadIds: z
    .array(z.uuid('Loads must be load ids'), { error: () => 'Loads must be a list of load ids' })
    .min(1, 'Choose at least one delivered load')
    .max(INVOICE_LIMITS.loads, `An invoice has at most ${INVOICE_LIMITS.loads} loads`)
    .refine((ids) => new Set(ids).size === ids.length, 'A load is named twice'),
  /** Default: today in the organization's time zone. The due date is this plus the customer's terms. */
  invoiceDate: dayField('Invoice date').optional(),
  notes: optionalText(1000),
});
export type InvoiceCreate = z.infer<typeof invoiceCreateSchema>;
/** What a client sends (notes may be left out). */
export type InvoiceCreateBody = z.input<typeof invoiceCreateSchema>;

/** One line of a draft as edited (PUT `invoices/{id}/lines`): lines of the invoice's loads, or added by hand. */
export const invoiceLineInputSchema = z.object({
  /** A line of the draft kept (its detention minutes and rate stay while its amount does); absent: a new line. */
  id: z.uuid('Line must be a line id').optional(),
  kind: z.enum(INVOICE_LINE_KINDS, { error: () => `Line kind must be one of ${INVOICE_LINE_KINDS.join(', ')}` }),
  /** One of the invoice's loads, or null for a line of the whole invoice. */
  loadId: z.uuid('Load must be a load id').nullable().optional(),
  stopId: z.uuid('Stop must be a stop id').nullable().optional(),
  description: z.string().trim().min(1, 'Description is a required field').max(300),
  amountCents: cents('Amount').min(-INVOICE_LIMITS.amountCentsMax, `Amount must be at least -${INVOICE_LIMITS.amountCentsMax} cents`),
});
export const invoiceLinesInputSchema = z.object({
  lines: z.array(invoiceLineInputSchema).min(1, 'An invoice has at least one line').max(INVOICE_LIMITS.lines),
  notes: optionalText(1000),
});
export type InvoiceLinesInput = z.infer<typeof invoiceLinesInputSchema>;

export const invoicePaymentInputSchema = z.object({
  amountCents: cents('Amount').min(1, 'Amount must be at least 1 cent'),
  receivedOn: dayField('Received on'),
  reference: optionalText(80),
  method: z.enum(PAYMENT_METHODS, { error: () => `Payment method must be one of ${PAYMENT_METHODS.join(', ')}` }).nullish(),
});
export type InvoicePaymentInput = z.infer<typeof invoicePaymentInputSchema>;

export const invoiceVoidSchema = z.object({ reason: optionalText(300) });
export type InvoiceVoid = z.infer<typeof invoiceVoidSchema>;

const statusList = z
  .string()
  .optional()
  .refine((v) => !v || v.split(',').every((s) => (INVOICE_STATUSES as readonly string[]).includes(s)), `status must be among ${INVOICE_STATUSES.join(', ')}`);

export const invoiceListQuerySchema = pageQuerySchema.extend({
  /** One status or several, comma-separated. */
  status: statusList,
  customerId: z.uuid('customerId must be a customer id').optional(),
  /** true: only open invoices past their due date. */
  overdue: z.enum(['true', 'false'], { error: () => 'overdue must be true or false' }).optional(),
  /** Invoice dates from `from` to `to`, both included. */
  from: dayField('From').optional(),
  to: dayField('To').optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceExportQuerySchema = z.object({
  per: z.enum(['line', 'invoice'], { error: () => 'per must be line or invoice' }).default('line'),
  status: statusList,
  customerId: z.uuid('customerId must be a customer id').optional(),
  from: dayField('From').optional(),
  to: dayField('To').optional(),
});
export type InvoiceExportQuery = z.infer<typeof invoiceExportQuerySchema>;

export const invoiceAgingQuerySchema = z.object({
  /** Default: today in the organization's time zone. */
  asOf: dayField('As of').optional(),
});

export const billableLoadsQuerySchema = z.object({ customerId: z.uuid('customerId must be a customer id').optional() });

export const invoiceLineSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: z.enum(INVOICE_LINE_KINDS),
  loadId: z.string().nullable(),
  loadNumber: z.string().nullable(),
  stopId: z.string().nullable(),
  /** The stop's number as people count (1 = the first pick-up); null for a line of the whole load. */
  stopNumber: z.number().int().nullable(),
  description: z.string(),
  /** Detention: the minutes billed and the hourly rate (cents). */
  minutes: z.number().int().nullable(),
  rateCents: z.number().int().nullable(),
  amountCents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoicePaymentSchema = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  receivedOn: z.string(),
  reference: z.string().nullable(),
  method: z.enum(PAYMENT_METHODS).nullable(),
  createdAt: z.string(),
  /** Who recorded it (null: an API token or the demo). */
  createdBy: z.string().nullable(),
});
export type InvoicePayment = z.infer<typeof invoicePaymentSchema>;

export const invoiceSummarySchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  customerId: z.string(),
  customerName: z.string(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  termsDays: z.number().int(),
  currency: z.string(),
  totalCents: z.number().int(),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  /** Days past the due date today (0 when not yet due, paid, a draft or void). */
  daysPastDue: z.number().int(),
  overdue: z.boolean(),
  loadNumbers: z.array(z.string()),
  sentAt: z.string().nullable(),
  sentTo: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
export const invoicePageSchema = pageSchema(invoiceSummarySchema);

export const invoiceLoadSchema = z.object({
  id: z.string(),
  number: z.string(),
  deliveredAt: z.string().nullable(),
  bolNumber: z.string().nullable(),
  poNumber: z.string().nullable(),
  /** First pick-up and last delivery, as the invoice names the lane. */
  origin: z.string().nullable(),
  destination: z.string().nullable(),
});

export const invoiceSchema = invoiceSummarySchema.extend({
  billingAddress: z.string().nullable(),
  /** The customer's invoice e-mail now (where Send goes); null: it has none. */
  invoiceEmail: z.string().nullable(),
  notes: z.string().nullable(),
  loads: z.array(invoiceLoadSchema),
  lines: z.array(invoiceLineSchema),
  payments: z.array(invoicePaymentSchema),
  voidedAt: z.string().nullable(),
  voidReason: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** A delivered load not yet invoiced, with what its invoice lines would come to. */
export const billableLoadSchema = z.object({
  id: z.string(),
  number: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  /** The customer's payment terms: the draft is due this many days after its date. */
  termsDays: z.number().int(),
  deliveredAt: z.string().nullable(),
  origin: z.string().nullable(),
  destination: z.string().nullable(),
  currency: z.string(),
  /** Line haul, fuel surcharge, accessorials, detention and lumper, as the draft would bill them. */
  amountCents: z.number().int(),
  detentionCents: z.number().int(),
  /** Whether a proof of delivery is attached (the invoice PDF appends it). */
  hasPod: z.boolean(),
});
export type BillableLoad = z.infer<typeof billableLoadSchema>;
export const billableLoadListSchema = z.array(billableLoadSchema);

const agingFigures = {
  current: z.number().int(),
  days1to30: z.number().int(),
  days31to60: z.number().int(),
  days61to90: z.number().int(),
  over90: z.number().int(),
  total: z.number().int(),
  invoices: z.number().int(),
};
export const invoiceAgingSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  customers: z.array(z.object({ customerId: z.string(), customerName: z.string(), ...agingFigures })),
  totals: z.object(agingFigures),
});
export type InvoiceAging = z.infer<typeof invoiceAgingSchema>;

export const invoiceIdParams = z.object({ orgId: z.uuid(), invoiceId: z.uuid('invoiceId must be an invoice id') });
export const invoicePaymentIdParams = invoiceIdParams.extend({ paymentId: z.uuid('paymentId must be a payment id') });
