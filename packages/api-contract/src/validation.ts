import { z } from 'zod';

/** Generic validation texts of spec section 5, shared by the API's 400s and the web forms. */
export const messages = {
  required: (path: string) => `${path} is a required field`,
  email: 'must be a valid email',
  min: (min: number) => `must be at least ${min} characters`,
  max: (max: number) => `must be at most ${max} characters`,
  invalid: (field: string) => `${field} is not valid.`,
};

/** A trimmed, non-empty string; `label` names the field in the required message. */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: () => messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(max, messages.max(max));
}

export function emailField(label = 'Email') {
  return z
    .string({ error: () => messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .pipe(z.email(messages.email).max(254, messages.max(254)))
    .transform((v) => v.toLowerCase());
}

export const PASSWORD_MIN = 8;

export function passwordField(label = 'Password') {
  return z
    .string({ error: () => messages.required(label) })
    .min(1, messages.required(label))
    .min(PASSWORD_MIN, messages.min(PASSWORD_MIN))
    .max(128, messages.max(128));
}

export const uuid = z.uuid();
