import { en as enFirst } from './en.ts';
import { es as esFirst } from './es.ts';
import { fr as frFirst } from './fr.ts';
import { enMore } from './more/en.ts';
import { esMore } from './more/es.ts';
import { frMore } from './more/fr.ts';

// Every word of a language in one object, for the tests (the app loads the two parts apart: i18n.ts).

type Words = { [key: string]: string | Words };

/** Both parts as one, namespace by namespace (a namespace such as `safety` or `inspection` is in both). */
function whole<A extends object, B extends object>(first: A, more: B): A & B {
  const out: Words = { ...(first as Words) };
  for (const [ns, words] of Object.entries(more as Words)) {
    const had = out[ns];
    out[ns] = typeof had === 'object' && typeof words === 'object' ? { ...had, ...words } : words;
  }
  return out as A & B;
}

export const en = whole(enFirst, enMore);
export const es = whole(esFirst, esMore);
export const fr = whole(frFirst, frMore);
