import type { Page } from '@playwright/test';
import { en, es, fr } from '../src/i18n/full-catalogues.ts';

// Issue 66: English words left on a driver's screen in Spanish or French, one word at a time (a
// sentence check misses "Settings" or "Login"). A word is English when the English catalogue, an
// English date or a ruleset's name uses it and the screen's language does not: its catalogue and
// Intl's names of its months and days make its vocabulary. What stays English on purpose is left
// out: proper names and codes (ALLOWED), the data the test made (names, addresses, the carrier's
// words: `data`), and text marked lang="en" (a language's own name in a language picker).

type Tree = { [k: string]: string | Tree };
const strings = (t: Tree): string[] => Object.values(t).flatMap((v) => (typeof v === 'string' ? [v] : strings(v)));
const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;
const wordsOf = (text: string): string[] => [...text.replace(/\{\{\w+\}\}/g, ' ').matchAll(WORD)].map((m) => m[0]).filter((w) => w.length > 1);

/** Month and weekday names, long and short, as Intl writes them in a locale. */
function calendarWords(locale: string): string[] {
  const out: string[] = [];
  for (const month of ['long', 'short'] as const)
    for (let m = 0; m < 12; m++) out.push(new Intl.DateTimeFormat(locale, { month, timeZone: 'UTC' }).format(new Date(Date.UTC(2026, m, 15))));
  for (const weekday of ['long', 'short'] as const)
    for (let d = 0; d < 7; d++) out.push(new Intl.DateTimeFormat(locale, { weekday, timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 4 + d))));
  return out.flatMap(wordsOf);
}

const lower = (ws: Iterable<string>) => new Set([...ws].map((w) => w.toLowerCase()));
const ENGLISH = lower([...strings(en as unknown as Tree).flatMap(wordsOf), ...calendarWords('en-US'), 'AM', 'PM']);

/** Proper names, units and the ELD's codes: the same in every language. */
const ALLOWED = lower([
  'Fleetline',
  'FMCSA',
  'USDOT',
  'DOT',
  'ELD',
  'CFR',
  'IFTA',
  'PNG',
  'JPEG',
  'GIF',
  'WebP',
  'mi',
  'km',
  'ft',
  'rpm',
  'mph',
  'min',
  'America',
  'Chicago',
]);
/** The graph grid's duty-status codes (Appendix A), upper case only: "on" in a sentence is English. */
const CODES = new Set(['OFF']);

const VOCABULARY: Record<'es' | 'fr', Set<string>> = {
  es: lower([...strings(es as unknown as Tree).flatMap(wordsOf), ...calendarWords('es-US')]),
  fr: lower([...strings(fr as unknown as Tree).flatMap(wordsOf), ...calendarWords('fr-CA')]),
};

/** Record values the ELD rule words itself: a location "2 mi WNW of Lockport, IL" (Appendix A 4.6.1.2). */
const FIXED = [/\b\d+(?:[.,]\d+)? ?mi [NSEW]{1,3} of /g];

/** The English words in `text`, a screen in `lng`, once each, `data` (the test's own values) left out. */
export function englishWords(text: string, lng: 'es' | 'fr', data: readonly string[] = []): string[] {
  let rest = FIXED.reduce((t, re) => t.replace(re, ' '), text);
  // Case aside: a badge shows its words in capitals.
  for (const d of [...data].filter(Boolean).sort((a, b) => b.length - a.length))
    rest = rest.replace(new RegExp(d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ');
  const found = new Set<string>();
  for (const w of wordsOf(rest)) {
    const l = w.toLowerCase();
    // Two capitals are an abbreviation: a state (IL, IN), a province, a duty-status code.
    if (CODES.has(w) || /^[A-Z]{2}$/.test(w) || ALLOWED.has(l) || VOCABULARY[lng].has(l) || !ENGLISH.has(l)) continue;
    found.add(w);
  }
  return [...found];
}

/**
 * What the screen shows and says: the visible text of the page (the menu, header, bottom navigation
 * and open dialogs included) and what its visible elements say to a screen reader (aria-label,
 * title, placeholder, alt); text inside lang="en" left out.
 */
export function screenText(page: Page): Promise<string> {
  return page.locator('body').evaluate((body: HTMLElement) => {
    let text = body.innerText;
    for (const n of body.querySelectorAll<HTMLElement>('[lang="en"]')) text = text.split(n.innerText).join(' ');
    const said: string[] = [];
    for (const n of body.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder], [alt]')) {
      if (!n.checkVisibility() || n.closest('[lang="en"]')) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = n.getAttribute(a);
        if (v) said.push(v);
      }
    }
    return `${text}\n${said.join('\n')}`;
  });
}
