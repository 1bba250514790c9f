import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema } from './paging.ts';
import { userProfileSchema, userStatusSchema } from './users.ts';

/** Users and roles screen: list query (paging, search by name or e-mail, filter by role and status). */
export const userListQuerySchema = pageQuerySchema.extend({
  roleId: z.uuid().optional(),
  status: userStatusSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

defineLabels({ roleId: 'Role' });

/** Invite a user: the e-mail carries a create-new-password link; the account is INVITED until then. */
export const inviteUserSchema = userProfileSchema.extend({
  roleId: z.uuid({ error: () => 'Role is a required field' }),
});
export type InviteUserInput = z.input<typeof inviteUserSchema>;

/**
 * Edit a user: profile fields, and the role for callers with USER_UPDATE. `currentPassword` is
 * required when you change your own e-mail (decision 0227): the e-mail is where password resets go.
 */
export const updateUserSchema = userProfileSchema.extend({
  roleId: z.uuid({ error: () => 'Role is not valid.' }).optional(),
  currentPassword: z.string().max(128).optional(),
});
export type UpdateUserInput = z.input<typeof updateUserSchema>;
