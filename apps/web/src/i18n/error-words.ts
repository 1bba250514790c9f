import { errorBodyWordsIn, type CodedWords } from './error-body-words.ts';
import type { TFunction } from 'i18next';
import { ApiError, describeError, NetworkError } from '../lib/api-client.ts';
import { currentLanguage } from './i18n.ts';

// The API's errors in the driver's language by their code: error-body-words.ts (light, the sign-in
// page's bundle uses it too); here, with the current language and the API client's errors.

export type { CodedWords } from './error-body-words.ts';

/** An error body's words in the current language: by its code where worded, else its message. */
export function errorBodyWords(t: TFunction, body: CodedWords): string {
  return errorBodyWordsIn(currentLanguage(), t, body);
}

/**
 * Any failure of a call in the current language: the server's error by its code, no connection, or
 * `fallback` (what the screen says in English; the spec's generic display by default).
 */
export function errorWords(t: TFunction, err: unknown, fallback: string = describeError(err).title): string {
  if (currentLanguage() === 'en') return fallback;
  if (err instanceof ApiError) return err.body ? errorBodyWords(t, err.body) : fallback;
  if (err instanceof NetworkError) return t('server.network');
  return fallback === describeError(err).title ? t('server.unknown') : fallback;
}

/**
 * One field's words of a 400 or 409 (`path: words` of the technical message): an error about that one
 * field is worded by its code; one of several (a body that breaks its schema) keeps the server's words.
 */
export function fieldWords(t: TFunction, body: CodedWords, message: string): string {
  return message === body.message ? errorBodyWords(t, body) : message;
}
