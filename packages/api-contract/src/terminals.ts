import { z } from 'zod';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { stateCode } from './registry-fields.ts';
import { isValidTimeZone } from './users.ts';
import { messages, requiredText } from './validation.ts';

// Home terminals (issue 46, decision 0188): the organization's terminals, kept in settings, each an
// address with its IANA time zone. A driver belongs to one: the log's header, the roadside view and
// the ELD output file's carrier line (the time zone offset) are the terminal's, and choosing a
// terminal sets the driver's home time zone, in which the log days are counted.

export const terminalInputSchema = z.object({
  name: requiredText('Name', 100),
  addressLine1: requiredText('Address', 200),
  city: requiredText('City', 100),
  state: stateCode('State or province'),
  postalCode: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v === '' || v == null ? null : v))
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9 -]{3,10}$/, messages.invalid('Postal code'))
        .nullable(),
    ),
  timeZone: z
    .string({ error: () => messages.required('Time zone') })
    .trim()
    .min(1, messages.required('Time zone'))
    // A home terminal's zone is a region's (America/Chicago), never a fixed offset like UTC or EST.
    .refine((v) => isValidTimeZone(v) && v.includes('/'), messages.invalid('Time zone')),
});
export type TerminalInput = z.input<typeof terminalInputSchema>;

export const terminalSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  addressLine1: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string().nullable(),
  timeZone: z.string(),
  /** The address on one line, as the log's header shows it: "1200 Commerce St, Dallas, TX 75201". */
  address: z.string(),
  /** Drivers (active or not) who belong to the terminal: one with any cannot be deleted. */
  driverCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Terminal = z.infer<typeof terminalSchema>;

export const terminalPageSchema = pageSchema(terminalSchema);
export const TERMINAL_SORT_FIELDS = ['name', 'city', 'state', 'timeZone', 'createdAt'] as const;
export const terminalListQuery = pageQuerySchema;
export const terminalIdParams = z.object({ orgId: z.uuid(), terminalId: z.uuid('terminalId must be a terminal id') });

/** "1200 Commerce St, Dallas, TX 75201": a terminal's address on one line. */
export function terminalAddress(t: { addressLine1: string; city: string; state: string; postalCode: string | null }): string {
  return `${t.addressLine1}, ${t.city}, ${t.state}${t.postalCode ? ` ${t.postalCode}` : ''}`;
}
