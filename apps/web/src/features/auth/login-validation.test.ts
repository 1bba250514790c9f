import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginSchema } from '@fleet/api-contract/auth';
import { messages } from '@fleet/api-contract/validation-words';
import { EMAIL_PATTERN, loginBody, loginIssues, type LoginIssue, type LoginValues } from './login-validation.ts';

// The sign-in page checks its form without zod (issue 67): the same rules, message for message, as
// the contract's loginSchema, compared on random input.

const LABELS = { email: 'Email', password: 'Password' } as const;
const words = (field: keyof LoginValues, issue: LoginIssue) =>
  issue.kind === 'max' ? messages.max(LABELS[field], issue.max) : messages[issue.kind](LABELS[field]);

/** The first message loginSchema gives each field (what the form showed with react-hook-form). */
function schemaMessages(values: LoginValues): Partial<Record<keyof LoginValues, string>> {
  const parsed = loginSchema.safeParse(values);
  const out: Partial<Record<keyof LoginValues, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as keyof LoginValues;
    out[field] ??= issue.message;
  }
  return out;
}

function plainMessages(values: LoginValues): Partial<Record<keyof LoginValues, string>> {
  const out: Partial<Record<keyof LoginValues, string>> = {};
  for (const [field, issue] of Object.entries(loginIssues(values)) as [keyof LoginValues, LoginIssue][]) out[field] = words(field, issue);
  return out;
}

/** A random string from pieces that matter to an e-mail check: letters, dots, @, spaces, symbols. */
function randomText(rand: () => number, max: number): string {
  const pieces = ['a', 'Z', '0', '.', '@', ' ', '-', '_', '+', "'", 'é', 'example', 'com', '..', '@@', 'x'.repeat(60)];
  let s = '';
  const n = Math.floor(rand() * max);
  for (let k = 0; k < n; k++) s += pieces[Math.floor(rand() * pieces.length)];
  return s;
}

function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('the sign-in form checks without zod', () => {
  it('uses the contract email pattern', () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
  });

  it('gives loginSchema its messages on random input, and sends what its transform gives', () => {
    const rand = seeded(67);
    const samples: LoginValues[] = [
      { email: '', password: '' },
      { email: '  Admin@DemoFreight.test ', password: 'x' },
      { email: `${'a'.repeat(250)}@b.co`, password: 'p'.repeat(129) },
      { email: 'a@b', password: 'p'.repeat(128) },
    ];
    for (let k = 0; k < 3000; k++) {
      const email = rand() < 0.5 ? `${randomText(rand, 8)}@${randomText(rand, 6)}.${['com', 'c', 'test', ''][Math.floor(rand() * 4)]}` : randomText(rand, 12);
      samples.push({ email, password: randomText(rand, 6) });
    }
    for (const values of samples) {
      expect(plainMessages(values), JSON.stringify(values)).toEqual(schemaMessages(values));
      const parsed = loginSchema.safeParse(values);
      if (parsed.success) expect(loginBody(values)).toEqual(parsed.data);
    }
  });
});
