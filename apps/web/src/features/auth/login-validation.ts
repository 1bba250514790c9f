import type { TFunction } from 'i18next';

// The sign-in form's checks without zod (issue 67: the sign-in page loads no schema library). They
// are the contract's loginSchema rule for rule; login-validation.test.ts compares the two on random
// input, message for message.

/** zod's email pattern (z.regexes.email), which the contract's emailField checks with. */
// eslint-disable-next-line no-useless-escape -- zod's source as it is: the test compares them character for character
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
const EMAIL_MAX = 254;
const PASSWORD_MAX = 128;

export interface LoginValues {
  email: string;
  password: string;
}

/** What is wrong with a field, as the catalogue's `validation.*` key and its bound. */
export type LoginIssue = { kind: 'required' } | { kind: 'email' } | { kind: 'max'; max: number };
export type LoginIssues = Partial<Record<keyof LoginValues, LoginIssue>>;

/** The first issue of each field, in the order loginSchema checks them. */
export function loginIssues({ email, password }: LoginValues): LoginIssues {
  const issues: LoginIssues = {};
  const trimmed = email.trim();
  if (!trimmed) issues.email = { kind: 'required' };
  else if (!EMAIL_PATTERN.test(trimmed)) issues.email = { kind: 'email' };
  else if (trimmed.length > EMAIL_MAX) issues.email = { kind: 'max', max: EMAIL_MAX };
  if (!password) issues.password = { kind: 'required' };
  else if (password.length > PASSWORD_MAX) issues.password = { kind: 'max', max: PASSWORD_MAX };
  return issues;
}

/** What the form sends: the e-mail as loginSchema's transform gives it (trimmed, lower case). */
export const loginBody = ({ email, password }: LoginValues): LoginValues => ({ email: email.trim().toLowerCase(), password });

/** An issue in words: the catalogue's `validation.*` with the field's label (English is the contract's own). */
export function issueText(t: TFunction, field: keyof LoginValues, issue: LoginIssue): string {
  const label = t(`fields.${field}`);
  return issue.kind === 'max' ? t('validation.max', { label, max: String(issue.max) }) : t(`validation.${issue.kind}`, { label });
}
