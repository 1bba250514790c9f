import { z } from 'zod';
import { messages } from './validation-words.ts';

export { messages } from './validation-words.ts';

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
