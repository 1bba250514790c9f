import { z } from 'zod';
import { ORGANIZATION_PERMISSIONS } from './permissions.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema } from './paging.ts';
import { messages, requiredText } from './validation.ts';

export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  /** A built-in role (Administrator: every code; Driver: the driver's own codes): cannot be edited or deleted. */
  builtIn: z.boolean(),
  /** Which built-in role it is; null for a custom role. */
  systemRole: z.enum(['ADMIN', 'DRIVER']).nullable(),
  userCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrganizationRole = z.infer<typeof roleSchema>;

defineLabels({ description: 'Description', permissions: 'Permissions' });

/** Create and edit a custom role. Required codes are added by the server (see permission-catalogue). */
export const roleInputSchema = z.object({
  name: requiredText('Name', 80),
  description: z
    .string()
    .trim()
    .max(300, messages.max('Description', 300))
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  permissions: z
    .array(z.enum(ORGANIZATION_PERMISSIONS as [string, ...string[]], { error: (i) => `${String(i.input)} is not a permission an organization role can hold` }))
    .max(ORGANIZATION_PERMISSIONS.length),
});
export type RoleInput = z.input<typeof roleInputSchema>;

export const roleListQuerySchema = pageQuerySchema;
export const roleIdParams = z.object({ orgId: z.uuid(), roleId: z.uuid() });
