import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { local } from '../lib/storage.ts';
import { browserLanguage, chosenLanguage, LANGUAGE_CODES as CODES, LANGUAGE_STORAGE_KEY as STORAGE_KEY, type Language } from './language.ts';
import { en, type Catalogue } from './en.ts';
import type { MoreCatalogue } from './more/en.ts';

// The driver's screens, the shell, sign-in and My account in English, Spanish and French (issue 44,
// decision 0183), with i18next: one catalogue per language (./en.ts is the source of the keys; the
// others are typed against it, and a test compares them), plurals by the language's rules
// (Intl.PluralRules), dates and numbers by Intl with the language as locale. The language follows
// the browser until the user picks one in My account (kept on the device). What the law fixes (the
// ELD output file, its codes) is not translated. English is bundled; Spanish and French are loaded
// only on a device that uses them (a chunk of their own), before the first render (see ready).
// Each language comes in two parts (issue 67): the words of the driver's home and the shell (./en.ts)
// with the app, the others (./more/) with the first screen or part loaded after it (loadMoreWords).

export { LANGUAGES, browserLanguage, chosenLanguage, type Language } from './language.ts';

export const currentLanguage = (): Language => (i18next.language as Language | undefined) ?? 'en';

/**
 * The Intl locale of a language on the driver's screens: English is en-US (the office's formats, byte
 * for byte); Spanish es-US (Latin-American Spanish whose zones read "CDT", as the drivers' logs name
 * them); French fr-CA.
 */
const INTL_LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-US', fr: 'fr-CA' };
export const intlLocale = (lng: string = currentLanguage()): string => INTL_LOCALES[lng as Language] ?? 'en-US';

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Catalogue>> = {
  es: () => import('./es.ts').then((m) => m.es),
  fr: () => import('./fr.ts').then((m) => m.fr),
};
const MORE_LOADERS: Record<Language, () => Promise<MoreCatalogue>> = {
  en: () => import('./more/en.ts').then((m) => m.enMore),
  es: () => import('./more/es.ts').then((m) => m.esMore),
  fr: () => import('./more/fr.ts').then((m) => m.frMore),
};

/** The parts added to i18next, by language ("first": the driver's home and the shell; "more": the rest). */
const added = new Set<string>(['en:first']);
/** The other words were asked for: a language chosen later loads them too. */
let moreWanted = false;

async function addPart(lng: Language, part: 'first' | 'more'): Promise<void> {
  if (added.has(`${lng}:${part}`)) return;
  const words = part === 'first' ? await LOADERS[lng as Exclude<Language, 'en'>]() : await MORE_LOADERS[lng]();
  // Deep: both parts hold some of a namespace (`safety`, `inspection`, `messages`, `driver`).
  i18next.addResourceBundle(lng, 'translation', words, true, true);
  added.add(`${lng}:${part}`);
}

/** Loads a language's catalogue once (English is bundled); a failed load leaves English on screen. */
export async function loadLanguage(lng: Language): Promise<void> {
  await addPart(lng, 'first');
  if (moreWanted) await Promise.all([addPart('en', 'more'), addPart(lng, 'more')]);
}

/**
 * The words of every screen but the driver's home, in English and the current language: the router
 * and the parts loaded on first use wait for them with their code (a failed load is not retried: the
 * screen then shows the keys it lacks).
 */
export function loadMoreWords(): Promise<void> {
  moreWanted = true;
  return Promise.all([addPart('en', 'more'), addPart(currentLanguage(), 'more')]).then(
    () => undefined,
    () => undefined,
  );
}

function applyToDocument(lng: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  // The other languages' bundles are added by loadLanguage, before the language is shown.
  partialBundledLanguages: true,
  lng: chosenLanguage() ?? browserLanguage(),
  fallbackLng: 'en',
  supportedLngs: CODES,
  // scoreHundred/scoreThousand: the safety score's distances in the organization's units (lib/units.ts sets them).
  interpolation: { escapeValue: false, defaultVariables: { scoreHundred: '100 mi', scoreThousand: '1,000 mi' } },
  returnNull: false,
  initAsync: false,
});
applyToDocument(i18next.language);
i18next.on('languageChanged', applyToDocument);

/** Settled once the language of the first render is loaded (main.tsx renders after it). */
export const ready: Promise<void> = loadLanguage(currentLanguage()).catch(() => undefined);

/** Picks the language (null: follow the browser again), kept on this device. */
export function chooseLanguage(lng: Language | null): void {
  if (lng) local.set(STORAGE_KEY, lng);
  else local.remove(STORAGE_KEY);
  const next = lng ?? browserLanguage();
  void loadLanguage(next)
    .catch(() => undefined)
    .then(() => i18next.changeLanguage(next));
}

export { i18next };
