import { z } from 'zod';
import { inYears, yearsMessage } from './dates.ts';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { LICENSE_CLASSES } from './registry-reference.ts';
import { assetRef, entityRef, optionalPhone, optionalText, recordStatus, registryListQuery, stateCode } from './registry-fields.ts';
import { pageSchema } from './paging.ts';
import { isValidTimeZone } from './users.ts';
import { defineLabels } from './field-words.ts';
import { messages, requiredText } from './validation.ts';

defineLabels({
  employeeId: 'Employee id',
  licenseNumber: 'Licence number',
  licenseState: 'Licence state',
  licenseClass: 'Licence class',
  licenseExpiry: 'Licence expiry',
  homeTimeZone: 'Home time zone',
  homeTerminalId: 'Home terminal',
  ruleset: 'Ruleset',
  shortHaul150: '150 air-mile short-haul exemption',
  sixteenHour: '16-hour short-haul exception',
  oilfield: 'Oilfield operations',
  personalConveyanceAllowed: 'Personal conveyance',
  yardMovesAllowed: 'Yard moves',
  eldExempt: 'ELD exempt',
  eldExemptReason: 'ELD exemption reason',
  userId: 'Sign-in account',
  invite: 'Invite to sign in',
  cardNumber: 'Driver card',
});

/**
 * A driver's iButton or RFID card (decision 0324) in its one stored form: 16 upper-case hex digits,
 * as Teltonika's element 78 (and RFID 207) arrives and a card reader prints it. Typed with or without
 * spaces, dashes or colons and with its leading zeros left out, it is padded back to 16 digits.
 * Null: not a card (empty, not hex, too long, or all zeros, which the device sends for "no card").
 */
export function canonicalCardNumber(text: string): string | null {
  const digits = text.replace(/[\s:-]/g, '').toUpperCase();
  if (!/^[0-9A-F]{1,16}$/.test(digits) || /^0+$/.test(digits)) return null;
  return digits.padStart(16, '0');
}

const cardNumberField = z
  .string()
  .trim()
  .nullish()
  .transform((v, ctx) => {
    // Left out: unchanged on an edit (as homeTerminalId); empty or null: no card.
    if (v === undefined) return undefined;
    if (v === '' || v === null) return null;
    const card = canonicalCardNumber(v);
    if (card === null) {
      ctx.addIssue({ code: 'custom', message: 'Driver card must be up to 16 hex digits (0-9, A-F), not all zeros' });
      return z.NEVER;
    }
    return card;
  });

const optionalEmail = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v === '' || v == null ? null : v.toLowerCase()))
  .pipe(z.email(messages.email('Email')).max(254).nullable());

const isoDate = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v === '' || v == null ? null : v))
  .refine((v) => v === null || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))), 'Licence expiry must be a date like 2027-06-30')
  .refine((v) => v === null || inYears(v), yearsMessage('Licence expiry'));

/** Add and edit form of a driver. */
export const driverInputSchema = z
  .object({
    firstName: requiredText('First name', 100),
    lastName: requiredText('Last name', 100),
    email: optionalEmail,
    phone: optionalPhone,
    employeeId: optionalText(40),
    licenseNumber: requiredText('Licence number', 32)
      .transform((v) => v.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9*-]+$/, 'Licence number may use letters, digits, * and -')),
    licenseState: stateCode('Licence state'),
    licenseClass: z
      .enum(LICENSE_CLASSES, { error: () => 'Licence class must be A, B, C or NON_CDL' })
      .nullish()
      .transform((v) => v ?? null),
    licenseExpiry: isoDate,
    homeTimeZone: z
      .string()
      .trim()
      .default('America/Chicago')
      .refine((v) => isValidTimeZone(v) && v.includes('/'), 'Home time zone is not valid.'),
    /**
     * The organization's terminal the driver belongs to (issue 46): its time zone becomes the driver's
     * home time zone. Null: none (the main office is the home terminal); left out: unchanged on an edit.
     */
    homeTerminalId: z.uuid('Home terminal must be a terminal id').nullish(),
    ruleset: z.enum(RULESET_IDS, { error: () => `Ruleset must be one of ${RULESET_IDS.join(', ')}` }).default('US_PROPERTY_70_8'),
    shortHaul150: z.boolean().default(false),
    sixteenHour: z.boolean().default(false),
    /** Oilfield operations (49 CFR §395.1(d)): the 24-hour restart and well-site waiting time; US property rulesets only. */
    oilfield: z.boolean().default(false),
    personalConveyanceAllowed: z.boolean().default(false),
    yardMovesAllowed: z.boolean().default(false),
    eldExempt: z.boolean().default(false),
    eldExemptReason: optionalText(300),
    status: recordStatus.default('ACTIVE'),
    /** Optional sign-in account (a user of the same organization). */
    userId: z
      .uuid('Sign-in account must be a user id')
      .nullish()
      .transform((v) => v ?? null),
    /**
     * Invite the driver to sign in (decision 0111): a new account with the built-in Driver role gets the
     * users' invitation e-mail at `email`, and the driver record is linked to it. Needs USER_CREATE.
     */
    invite: z.boolean({ error: () => 'Invite to sign in must be true or false' }).default(false),
    /** The driver's iButton or RFID card (issue 73); null: none; left out: unchanged. Reading it in a vehicle makes the driver its driver. */
    cardNumber: cardNumberField,
    notes: optionalText(2000),
  })
  .superRefine((v, ctx) => {
    if (v.eldExempt && !v.eldExemptReason) {
      ctx.addIssue({ code: 'custom', path: ['eldExemptReason'], message: 'Give the reason the driver is exempt from the ELD rule' });
    }
    if (v.invite && !v.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'Email is a required field to invite the driver to sign in' });
    if (v.invite && v.userId) ctx.addIssue({ code: 'custom', path: ['invite'], message: 'The driver already has a sign-in account' });
  });
export type DriverInput = z.input<typeof driverInputSchema>;

export const driverSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  employeeId: z.string().nullable(),
  licenseNumber: z.string().nullable(),
  licenseState: z.string().nullable(),
  licenseClass: z.string().nullable(),
  licenseExpiry: z.string().nullable(),
  homeTimeZone: z.string(),
  /** The driver's home terminal (issue 46); null: the main office is the home terminal. */
  homeTerminalId: z.string().nullable(),
  ruleset: z.string(),
  shortHaul150: z.boolean(),
  sixteenHour: z.boolean(),
  oilfield: z.boolean(),
  personalConveyanceAllowed: z.boolean(),
  yardMovesAllowed: z.boolean(),
  eldExempt: z.boolean(),
  eldExemptReason: z.string().nullable(),
  status: recordStatus,
  notes: z.string().nullable(),
  /** The driver's card, 16 upper-case hex digits (decision 0324); null: none. */
  cardNumber: z.string().nullable(),
  /** The vehicle the driver is assigned to now. */
  vehicle: assetRef.nullable(),
  user: z.object({ id: z.string(), email: z.string() }).nullable(),
  groups: z.array(entityRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Driver = z.infer<typeof driverSchema>;

export const driverDetailSchema = driverSchema.extend({
  vehicleHistory: z.array(z.object({ from: z.string(), to: z.string().nullable(), asset: assetRef })),
});
export type DriverDetail = z.infer<typeof driverDetailSchema>;

export const driverPageSchema = pageSchema(driverSchema);
export const DRIVER_SORT_FIELDS = [
  'lastName',
  'firstName',
  'email',
  'employeeId',
  'licenseNumber',
  'licenseState',
  'licenseExpiry',
  'status',
  'createdAt',
] as const;
export const driverListQuery = registryListQuery;
export const driverIdParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be a driver id') });

/**
 * A driver card a vehicle's device read (issue 73, decision 0324): the card (16 hex digits), when,
 * the driver who has it now (null: an unknown card, which the vehicle's page offers to give to a
 * driver), and whether the read made that driver the vehicle's driver.
 */
export const driverCardReadSchema = z.object({
  id: z.string(),
  cardNumber: z.string(),
  readAt: z.string(),
  driver: z.object({ id: z.string(), name: z.string() }).nullable(),
  assigned: z.boolean(),
});
export type DriverCardRead = z.infer<typeof driverCardReadSchema>;
/** A vehicle's latest card reads (newest first) and how many of all its reads are of unknown cards. */
export const driverCardReadListSchema = z.object({ items: z.array(driverCardReadSchema), unknownCount: z.number().int() });
export type DriverCardReadList = z.infer<typeof driverCardReadListSchema>;
