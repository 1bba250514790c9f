import { z } from 'zod';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema } from './paging.ts';
import { isValidTimeZone } from './users.ts';
import { emailField, messages, requiredText } from './validation.ts';
import { DEFAULT_ORGANIZATION_SETTINGS, UNIT_SYSTEMS } from './organization-defaults.ts';

export { DEFAULT_ORGANIZATION_SETTINGS, UNIT_SYSTEMS };

defineLabels({
  name: 'Name',
  dotNumber: 'DOT number',
  mcNumber: 'MC number',
  addressLine1: 'Address',
  addressLine2: 'Address line 2',
  city: 'City',
  state: 'State or province',
  postalCode: 'Postal code',
  country: 'Country',
  units: 'Units',
  periodStartTime: '24-hour period start time',
  defaultRuleset: 'Default HoS ruleset',
  darkMode: 'Dark mode',
  'darkMode.isEnabled': 'Dark mode',
  'darkMode.defaultTheme': 'Default theme',
  telematics: 'Telematics',
  'telematics.idleMinutes': 'Idle time (minutes)',
  'telematics.offlineMinutes': 'Offline time (minutes)',
  'telematics.speedLimitKmh': 'Speeding above (km/h)',
  detention: 'Detention',
  'detention.freeMinutes': 'Detention free time (minutes)',
  fuelCards: 'Fuel-card checks',
  'fuelCards.radiusM': 'Station radius (m)',
  'fuelCards.windowMinutes': 'Time window (minutes)',
  complianceExpiringDays: 'Compliance: expiring within (days)',
  admin: 'Administrator',
  'admin.email': 'Admin email',
  'admin.firstName': 'Admin first name',
  'admin.lastName': 'Admin last name',
});

const optional = (label: string, max: number, pattern?: RegExp) => {
  let s = z.string().trim().max(max, messages.max(label, max));
  if (pattern) s = s.regex(pattern, messages.invalid(label));
  return z
    .union([z.literal(''), s])
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional()
    .transform((v) => v ?? null);
};

export const ORGANIZATION_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export const organizationStatusSchema = z.enum(ORGANIZATION_STATUSES);

/** Editable fields of the organization account (legal name, carrier numbers, address, phone, time zone). */
export const organizationAccountSchema = z.object({
  name: requiredText('Legal name', 200),
  // USDOT numbers are 1-8 digits; MC (operating authority) numbers up to 8 digits, written without the "MC-" prefix.
  dotNumber: optional('DOT number', 8, /^\d{1,8}$/),
  mcNumber: z
    .string()
    .trim()
    .transform((v) => v.replace(/^MC[-\s]?/i, ''))
    .pipe(z.union([z.literal(''), z.string().regex(/^\d{1,8}$/, messages.invalid('MC number'))]))
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  phone: optional('Phone', 32, /^[+0-9 ()\-.]+$/),
  addressLine1: optional('Address', 200),
  addressLine2: optional('Address line 2', 200),
  city: optional('City', 100),
  state: optional('State or province', 2, /^[A-Za-z]{2}$/).transform((v) => v?.toUpperCase() ?? null),
  postalCode: optional('Postal code', 10, /^[A-Za-z0-9 -]{3,10}$/),
  country: z.enum(['US', 'CA'], { error: () => messages.invalid('Country') }).default('US'),
  timeZone: z
    .string({ error: () => messages.required('Time zone') })
    .trim()
    .min(1, messages.required('Time zone'))
    .refine(isValidTimeZone, messages.invalid('Time zone')),
});
export type OrganizationAccountInput = z.input<typeof organizationAccountSchema>;

export const organizationSettingsSchema = z
  .object({
    units: z.enum(UNIT_SYSTEMS, { error: () => messages.invalid('Units') }),
    periodStartTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, messages.invalid('24-hour period start time')),
    defaultRuleset: z.enum(RULESET_IDS, { error: () => messages.invalid('Default HoS ruleset') }),
    darkMode: z.object({ isEnabled: z.boolean(), defaultTheme: z.enum(['light', 'dark']) }),
    telematics: z.object({
      idleMinutes: z.number().int().min(1).max(1440),
      offlineMinutes: z.number().int().min(2).max(10080),
      // Optional for clients written before it existed: they keep the default.
      speedLimitKmh: z.number().int().min(20).max(200).default(105),
    }),
    // Optional for clients written before it existed (issue 32): they keep the default free time.
    detention: z
      .object({
        freeMinutes: z
          .number({ error: () => 'Detention free time must be a number of minutes' })
          .int('Detention free time must be whole minutes')
          .min(0, 'Detention free time must be 0 or more minutes')
          .max(1440, 'Detention free time must be at most 1440 minutes (a day)'),
      })
      .default({ freeMinutes: 120 }),
    // Optional for clients written before it existed (issue 68): they keep the defaults.
    fuelCards: z
      .object({
        radiusM: z
          .number({ error: () => 'Station radius must be a number of metres' })
          .int('Station radius must be whole metres')
          .min(25, 'Station radius must be at least 25 m')
          .max(5000, 'Station radius must be at most 5000 m'),
        windowMinutes: z
          .number({ error: () => 'Time window must be a number of minutes' })
          .int('Time window must be whole minutes')
          .min(1, 'Time window must be at least 1 minute')
          .max(180, 'Time window must be at most 180 minutes'),
      })
      .default({ radiusM: 150, windowMinutes: 15 }),
    // Optional for clients written before it existed (issue 71): they keep the default 30 days.
    complianceExpiringDays: z
      .number({ error: () => 'Expiring within must be a number of days' })
      .int('Expiring within must be whole days')
      .min(1, 'Expiring within must be at least 1 day')
      .max(180, 'Expiring within must be at most 180 days')
      .default(30),
  })
  .refine((s) => s.telematics.offlineMinutes > s.telematics.idleMinutes, {
    path: ['telematics', 'offlineMinutes'],
    message: 'Offline time must be longer than the idle time',
  });
export type OrganizationSettingsValues = z.infer<typeof organizationSettingsSchema>;

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: organizationStatusSchema,
  dotNumber: z.string().nullable(),
  mcNumber: z.string().nullable(),
  phone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
  timeZone: z.string(),
  logo: z.string().nullable(),
  settings: organizationSettingsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

/** A row of the super administrator's organizations list. */
export const organizationSummarySchema = organizationSchema.omit({ settings: true }).extend({
  userCount: z.number().int(),
  activeUserCount: z.number().int(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

export const organizationListQuerySchema = pageQuerySchema.extend({
  status: organizationStatusSchema.optional(),
});

/** Super administration: a new organization and the first administrator, who is invited by e-mail. */
export const createOrganizationSchema = organizationAccountSchema.extend({
  admin: z.object({
    email: emailField('Admin email'),
    firstName: requiredText('Admin first name', 100),
    lastName: requiredText('Admin last name', 100),
  }),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationSchema>;

export const createOrganizationResponseSchema = z.object({
  organization: organizationSchema,
  adminUserId: z.string(),
});
