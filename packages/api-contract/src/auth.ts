import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { emailField, messages, passwordField, requiredText } from './validation.ts';

defineLabels({
  email: 'Email',
  password: 'Password',
  firstname: 'First name',
  lastname: 'Last name',
  organizationName: 'Company name',
  role: 'Role',
  id: 'Id',
  refreshToken: 'Refresh token',
  token: 'Token',
  confirmPassword: 'Confirm password',
});

export const loginSchema = z.object({
  email: emailField('Email'),
  password: z
    .string({ error: () => messages.required('Password') })
    .min(1, messages.required('Password'))
    .max(128, messages.max('Password', 128)),
});
export type LoginInput = z.input<typeof loginSchema>;

/**
 * Spec registration payload plus organizationName (the getting-started flow).
 * role and id are accepted for compatibility and ignored by the server.
 */
export const registerSchema = z.object({
  firstname: requiredText('First name', 100),
  lastname: requiredText('Last name', 100),
  organizationName: requiredText('Company name', 200),
  email: emailField('Email'),
  password: passwordField('Password'),
  role: z.string().optional(),
  id: z.union([z.number(), z.string()]).optional(),
});
export type RegisterInput = z.input<typeof registerSchema>;

/** `timeZone`: the organization's zone, the viewer's zone when the profile names none (decision 0140). */
export const organizationRefSchema = z.object({ id: z.string(), name: z.string(), timeZone: z.string().optional() });

/** The current user of spec section 3. Absent values are null. */
export const currentUserSchema = z.object({
  id: z.string(),
  role: z.string(),
  roleId: z.string().nullable(),
  roleName: z.string().nullable(),
  organization: organizationRefSchema.nullable(),
  permissions: z.array(z.string()),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string(),
  profilePicture: z.string().nullable(),
  position: z.string().nullable(),
  phone: z.string().nullable(),
  timeZone: z.string().nullable(),
  /** The driver record this account signs in for (drivers.user_id), or null: the driver screens need one (decision 0111). */
  driverId: z.string().nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const tokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type Tokens = z.infer<typeof tokensSchema>;

export const signInResponseSchema = z.object({
  user: currentUserSchema,
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const logoutSchema = z.object({ refreshToken: z.string().max(200).optional() });

export const resetPasswordSchema = z.object({ email: emailField('Email') });

export const createNewPasswordSchema = z.object({
  token: requiredText('Token', 200),
  password: passwordField('Password'),
});

/** The link e-mailed to the old address after a change of e-mail: undoes it within 7 days (decision 0227). */
export const undoEmailChangeSchema = z.object({
  token: requiredText('Token', 200),
});
/** The e-mail put back; a link to choose a new password is on its way to it. */
export const undoEmailChangeResultSchema = z.object({ email: z.string() });
export type UndoEmailChangeResult = z.infer<typeof undoEmailChangeResultSchema>;

/** Web form: new password entered twice. */
export const newPasswordFormSchema = z
  .object({ password: passwordField('Password'), confirmPassword: z.string().min(1, 'Confirm password is a required field') })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords must match' });

/** Web form of getting started: registration fields plus the confirmation. */
export const gettingStartedFormSchema = registerSchema
  .omit({ role: true, id: true })
  .extend({ confirmPassword: z.string().min(1, 'Confirm password is a required field') })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords must match' });

export const messageSchema = z.object({ message: z.string() });

/**
 * The last event of a stream the server ended because its user's access did (`event: revoked`):
 * `session` when the session is over (signed out, deactivated, logged out everywhere, the password
 * changed, the organization suspended); `forbidden` when the user is still signed in but lost the
 * stream's permission or organization; `token` when the API token that opened it was revoked or
 * expired. The client must not simply reconnect.
 */
export { STREAM_REVOKED_EVENT } from './answer-readers.ts';
export const streamRevokedSchema = z.object({ reason: z.enum(['session', 'forbidden', 'token']), message: z.string() });
export type StreamRevoked = z.infer<typeof streamRevokedSchema>;
