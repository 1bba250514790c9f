import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { browserLanguage, chosenLanguage, type Language } from './language.ts';
import { signInEn, type SignInCatalogue } from './sign-in/en.ts';

// The sign-in page's own bundle (issue 67) speaks the user's language with its words only
// (./sign-in/): the same keys and words as the app's catalogues, which take them in.

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<SignInCatalogue>> = {
  es: () => import('./sign-in/es.ts').then((m) => m.signInEs),
  fr: () => import('./sign-in/fr.ts').then((m) => m.signInFr),
};

/** Settled once the page's language is loaded (a failed load leaves English). */
export async function initSignInWords(): Promise<void> {
  const lng = chosenLanguage() ?? browserLanguage();
  const resources: Record<string, { translation: SignInCatalogue }> = { en: { translation: signInEn } };
  if (lng !== 'en') {
    const words = await LOADERS[lng]().catch(() => null);
    if (words) resources[lng] = { translation: words };
  }
  await i18next.use(initReactI18next).init({
    resources,
    lng: resources[lng] ? lng : 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = i18next.language;
}
