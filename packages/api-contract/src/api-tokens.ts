import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { ORGANIZATION_PERMISSIONS, type Permission } from './permissions.ts';
import { requiredText } from './validation.ts';

defineLabels({ permissions: 'Permissions', expiresAt: 'Expires', allowedIps: 'Allowed addresses' });

// API tokens (issue 48, decision 0197): an organization's administrator gives another system (a TMS,
// accounting, payroll) a token carrying some of their own permission codes. The secret is shown once,
// stored as a keyed hash, and starts with API_TOKEN_PREFIX so secret scanners recognise a leaked one.

/** Every token starts with this: `fltk_` then 43 base64url characters (256 random bits). */
export const API_TOKEN_PREFIX = 'fltk_';
/** A whole token (secret scanners and the auth plugin recognise it by this). */
export const API_TOKEN_PATTERN = /^fltk_[A-Za-z0-9_-]{43}$/;

/**
 * Codes a token may never carry: managing tokens (a token minting tokens outlives its revocation), the
 * driver's own codes (a token is nobody's own driver record), and the codes of what only people do
 * (decision 0226): users and roles (a token never changes who may do what), and the messages
 * between drivers and dispatch (a token is no party to a conversation). No route open to tokens
 * asks for them.
 */
export const TOKEN_EXCLUDED_PERMISSIONS: readonly Permission[] = [
  'API_TOKEN_MANAGE',
  'HOS_SELF_READ',
  'HOS_SELF_WRITE',
  'DVIR_SELF_WRITE',
  'LOAD_SELF_WRITE',
  'USER_READ',
  'USER_LIST',
  'USER_CREATE',
  'USER_UPDATE',
  'ROLE_LIST',
  'ROLE_UPDATE',
  'MESSAGE_LIST',
  'MESSAGE_SEND',
];
/** The codes a token may carry (the creator's own among them). */
export const TOKEN_PERMISSIONS: readonly Permission[] = ORGANIZATION_PERMISSIONS.filter((p) => !TOKEN_EXCLUDED_PERMISSIONS.includes(p));

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+(:(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})?$/;

/** An address or CIDR range ("203.0.113.7", "203.0.113.0/24", "2001:db8::/32"); the prefix within the family's bits. */
export function isAddressOrCidr(text: string): boolean {
  const [addr, bits, extra] = text.split('/');
  if (extra !== undefined || !addr) return false;
  const v4 = IPV4.test(addr);
  const v6 = !v4 && IPV6.test(addr) && addr.includes(':') && (addr.match(/::/g)?.length ?? 0) <= 1;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

export const apiTokenInputSchema = z.object({
  name: requiredText('Name', 100),
  permissions: z
    .array(z.enum(TOKEN_PERMISSIONS, { error: () => 'permissions must be permission codes a token may carry' }), {
      error: () => 'Permissions is a required field',
    })
    .min(1, 'Choose at least one permission')
    .max(TOKEN_PERMISSIONS.length)
    .transform((codes) => [...new Set(codes)]),
  /** When the token stops working; absent or null: never. */
  expiresAt: instantField('Expires', { years: { min: 2000, max: 2200 } })
    .refine((v) => Date.parse(v) > Date.now(), 'Expires must be in the future')
    .nullish(),
  /** Client addresses or CIDR ranges the token is accepted from; absent or empty: any. */
  allowedIps: z.array(z.string().trim().refine(isAddressOrCidr, 'allowedIps must be IP addresses or CIDR ranges such as 203.0.113.0/24')).max(50).nullish(),
});
export type ApiTokenInput = z.input<typeof apiTokenInputSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters ("fltk_Ab3x"), to tell tokens apart; never the secret. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  /**
   * Codes of `permissions` the token can no longer use (decision 0226): its creator no longer holds
   * them (a token never does more than the person who made it can do now), or tokens may no longer
   * carry them.
   */
  lostPermissions: z.array(z.string()),
  expiresAt: z.string().nullable(),
  allowedIps: z.array(z.string()),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string().nullable(), label: z.string() }),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a create: the only time the secret is shown. */
export const apiTokenCreatedSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret: shown here once, never again. */
  token: z.string(),
  permissions: z.array(z.string()),
  expiresAt: z.string().nullable(),
  allowedIps: z.array(z.string()),
  createdAt: z.string(),
});
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenListSchema = z.object({ content: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;
export const apiTokenIdParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be an API token id') });
