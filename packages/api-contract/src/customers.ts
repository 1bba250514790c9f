import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';
import { messages, requiredText } from './validation.ts';

// Customers (issue 70, decision 0284): the brokers and shippers a carrier bills, a registry of their
// own. A load names one (`customerId`); its `customer` text is then the customer's name. Invoices
// read the billing address, the e-mail for invoices, the payment terms and the detention rule (free
// time, then a rate per hour); the driver app reads whether a proof of delivery is required.

defineLabels({
  customerId: 'Customer',
  billingAddress: 'Billing address',
  invoiceEmail: 'Invoice e-mail',
  paymentTermsDays: 'Payment terms',
  detentionFreeMinutes: 'Detention free time',
  detentionCentsPerHour: 'Detention rate',
  requiresPod: 'Requires proof of delivery',
});

export const CUSTOMER_LIMITS = {
  name: 200,
  billingAddress: 500,
  notes: 2000,
  paymentTermsDaysMax: 365,
  detentionFreeMinutesMax: 24 * 60,
  /** $10,000 an hour: far above any detention rate, low enough that a typo stands out. */
  detentionCentsPerHourMax: 1_000_000,
} as const;

/** The defaults of a new customer (and the columns' defaults): net 30, two hours free, no detention charged. */
export const CUSTOMER_DEFAULTS = { paymentTermsDays: 30, detentionFreeMinutes: 120, detentionCentsPerHour: 0, requiresPod: false } as const;

const wholeInRange = (label: string, max: number, unit: string) =>
  z
    .number({ error: () => `${label} must be a number` })
    .int(`${label} must be a whole number of ${unit}`)
    .min(0, `${label} must be from 0 to ${max} ${unit}`)
    .max(max, `${label} must be from 0 to ${max} ${unit}`);

const optionalEmail = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v === '' || v == null ? null : v.toLowerCase()))
  .pipe(z.email(messages.email('Invoice e-mail')).max(254, messages.max('Invoice e-mail', 254)).nullable());

const customerFields = {
  name: requiredText('Name', CUSTOMER_LIMITS.name),
  billingAddress: optionalText(CUSTOMER_LIMITS.billingAddress),
  invoiceEmail: optionalEmail,
  paymentTermsDays: wholeInRange('Payment terms', CUSTOMER_LIMITS.paymentTermsDaysMax, 'days'),
  detentionFreeMinutes: wholeInRange('Detention free time', CUSTOMER_LIMITS.detentionFreeMinutesMax, 'minutes'),
  detentionCentsPerHour: z
    .number({ error: () => 'Detention rate must be a number' })
    .int('Detention rate is whole cents per hour')
    .min(0, 'Detention rate must not be negative')
    .max(CUSTOMER_LIMITS.detentionCentsPerHourMax, `Detention rate must be at most ${CUSTOMER_LIMITS.detentionCentsPerHourMax} cents per hour`),
  requiresPod: z.boolean({ error: () => 'Requires proof of delivery must be true or false' }),
  notes: optionalText(CUSTOMER_LIMITS.notes),
};

/** POST `customers`: a name; the rest default (net 30, 120 free minutes, no detention rate, no POD required). */
export const customerCreateSchema = z.object({
  ...customerFields,
  paymentTermsDays: customerFields.paymentTermsDays.default(CUSTOMER_DEFAULTS.paymentTermsDays),
  detentionFreeMinutes: customerFields.detentionFreeMinutes.default(CUSTOMER_DEFAULTS.detentionFreeMinutes),
  detentionCentsPerHour: customerFields.detentionCentsPerHour.default(CUSTOMER_DEFAULTS.detentionCentsPerHour),
  requiresPod: customerFields.requiresPod.default(CUSTOMER_DEFAULTS.requiresPod),
});
export type CustomerCreateInput = z.input<typeof customerCreateSchema>;
export type CustomerCreate = z.infer<typeof customerCreateSchema>;

/** PATCH `customers/{id}`: only the fields sent change; null clears an optional one. */
export const customerUpdateSchema = z
  .object(customerFields)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change: send at least one field' });
export type CustomerUpdateInput = z.input<typeof customerUpdateSchema>;
export type CustomerUpdate = z.infer<typeof customerUpdateSchema>;

export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  billingAddress: z.string().nullable(),
  invoiceEmail: z.string().nullable(),
  paymentTermsDays: z.number().int(),
  detentionFreeMinutes: z.number().int(),
  detentionCentsPerHour: z.number().int(),
  requiresPod: z.boolean(),
  notes: z.string().nullable(),
  /** Loads that name the customer: one with any cannot be deleted. */
  loadCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerPageSchema = pageSchema(customerSchema);
export const CUSTOMER_SORT_FIELDS = ['name', 'paymentTermsDays', 'createdAt', 'updatedAt'] as const;
export const customerListQuery = pageQuerySchema;
export const customerIdParams = z.object({ orgId: z.uuid(), customerId: z.uuid('customerId must be a customer id') });

/** "Net 30", "Due on receipt": payment terms in words. */
export function paymentTermsLabel(days: number): string {
  return days === 0 ? 'Due on receipt' : `Net ${days}`;
}
