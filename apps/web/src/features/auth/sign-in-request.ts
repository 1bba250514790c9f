import type { SignInResponse } from '@fleet/api-contract';
import type { CodedWords } from '../../i18n/error-body-words.ts';
import { loginBody, type LoginValues } from './login-validation.ts';

// POST auth/authenticate with fetch alone: the sign-in page's bundle has no API client (issue 67).
// A failed sign-in shows no toast (spec section 8): the form says why in place.

export type SignInResult =
  { ok: true; response: SignInResponse } | { ok: false; status: number; body: CodedWords | null } | { ok: false; status: null; body: null };

/** The error body's code, message and params when it is one (another answer reads as none). */
function errorBody(json: unknown): CodedWords | null {
  if (!json || typeof json !== 'object') return null;
  const { code, message, params } = json as Record<string, unknown>;
  if (typeof message !== 'string') return null;
  return {
    message,
    code: typeof code === 'string' ? code : undefined,
    params: params && typeof params === 'object' ? (params as CodedWords['params']) : undefined,
  };
}

export async function requestSignIn(values: LoginValues): Promise<SignInResult> {
  let res: Response;
  try {
    res = await fetch('/api/v1/auth/authenticate', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(loginBody(values)),
    });
  } catch {
    return { ok: false, status: null, body: null };
  }
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, response: json as SignInResponse };
  return { ok: false, status: res.status, body: errorBody(json) };
}
