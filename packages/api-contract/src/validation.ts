import { z } from 'zod';

/**
 * Generic validation texts of spec section 5, each naming its field. Fields without a message of
 * their own get the same words from the error map in field-words.ts.
 */
export const messages = {
  required: (label: string) => `${label} is a required field`,
  email: (label: string) => `${label} must be a valid email address`,
  min: (label: string, min: number) => `${label} must be at least ${min} characters`,
  max: (label: string, max: number) => `${label} must be at most ${max} characters`,
  invalid: (label: string) => `${label} is not valid.`,
};

/** A trimmed, non-empty string; `label` names the field in its messages. */
export function requiredText(label: string, max = 200) {
  return (
    z
      .string({ error: () => messages.required(label) })
      .trim()
      // An empty field gets one message, not also the length and pattern ones checked after this.
      .min(1, { error: messages.required(label), abort: true })
      .max(max, messages.max(label, max))
  );
}

export function emailField(label = 'Email') {
  return z
    .string({ error: () => messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .pipe(z.email(messages.email(label)).max(254, messages.max(label, 254)))
    .transform((v) => v.toLowerCase());
}

export const PASSWORD_MIN = 8;

export function passwordField(label = 'Password') {
  return z
    .string({ error: () => messages.required(label) })
    .min(1, { error: messages.required(label), abort: true })
    .min(PASSWORD_MIN, messages.min(label, PASSWORD_MIN))
    .max(128, messages.max(label, 128));
}

export const uuid = z.uuid();
