// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { en, es, fr } from './full-catalogues.ts';
import { browserLanguage } from './i18n.ts';

// Every language has every key of the English catalogue, each a non-empty string with the same
// placeholders; a plural key has every form its language's plural rules ask for.

type Tree = { [k: string]: string | Tree };
const flat = (t: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flat(v, `${prefix}${k}.`)))));
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe('catalogues', () => {
  const source = flat(en as unknown as Tree);
  for (const [lng, catalogue] of [
    ['es', es],
    ['fr', fr],
  ] as const) {
    it(`${lng} has every key of English, non-empty, with the same placeholders`, () => {
      const keys = flat(catalogue as unknown as Tree);
      expect(Object.keys(keys).sort()).toEqual(Object.keys(source).sort());
      for (const [k, v] of Object.entries(keys)) {
        expect(v.trim(), `${lng} ${k}`).not.toBe('');
        expect(placeholders(v), `${lng} ${k}`).toEqual(placeholders(source[k]!));
      }
    });

    it(`${lng} has each plural form its language uses`, () => {
      const keys = flat(catalogue as unknown as Tree);
      const bases = new Set(
        Object.keys(keys)
          .filter((k) => PLURAL.test(k))
          .map((k) => k.replace(PLURAL, '')),
      );
      const forms = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      for (const base of bases) for (const form of forms) expect(keys, `${lng} ${base}_${form}`).toHaveProperty([`${base}_${form}`]);
    });
  }

  it('translations differ from English where words are translated (a copied catalogue fails)', () => {
    expect(es.duty.OFF).toBe('Fuera de servicio');
    expect(fr.duty.SB).toBe('Couchette');
    // A few words are the same in both languages ("Messages", "Cycle", "En route"): at most 1 in 20.
    const same = (c: Tree) => Object.entries(flat(c)).filter(([k, v]) => v === source[k]).length / Object.keys(source).length;
    expect(same(es as unknown as Tree)).toBeLessThan(0.05);
    expect(same(fr as unknown as Tree)).toBeLessThan(0.05);
  });
});

describe('the language a browser asks for', () => {
  it('takes the first language spoken here, by its base tag, else English', () => {
    expect(browserLanguage(['es-MX', 'en-US'])).toBe('es');
    expect(browserLanguage(['fr-CA'])).toBe('fr');
    expect(browserLanguage(['de-DE', 'fr'])).toBe('fr');
    expect(browserLanguage(['de-DE'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});
