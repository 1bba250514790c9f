import { local } from '../lib/storage.ts';

// Which language the screens speak, without i18next: the sign-in page's own bundle picks its words
// with it too (issue 67). The choice is kept on the device; else the browser's first language we speak.

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly string[] = LANGUAGES.map((l) => l.code);
export const LANGUAGE_STORAGE_KEY = 'fleet.language';

/** The user's choice on this device, or null (follow the browser). */
export function chosenLanguage(): Language | null {
  const v = local.get(LANGUAGE_STORAGE_KEY);
  return v && LANGUAGE_CODES.includes(v) ? (v as Language) : null;
}

/** The browser's first preferred language we speak (es-MX → es), else English. */
export function browserLanguage(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Language {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (LANGUAGE_CODES.includes(base)) return base as Language;
  }
  return 'en';
}
