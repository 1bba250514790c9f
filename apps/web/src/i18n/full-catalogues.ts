import { en as enFirst } from './en.ts';
import { es as esFirst } from './es.ts';
import { fr as frFirst } from './fr.ts';
import { enMore } from './more/en.ts';
import { esMore } from './more/es.ts';
import { frMore } from './more/fr.ts';

// Every word of a language in one object, for the tests (the app loads the two parts apart: i18n.ts).

function whole<A extends { safety: object }, B extends { safety: object }>(
  first: A,
  more: B,
): Omit<A, 'safety'> & Omit<B, 'safety'> & { safety: A['safety'] & B['safety'] } {
  return { ...first, ...more, safety: { ...first.safety, ...more.safety } } as Omit<A, 'safety'> & Omit<B, 'safety'> & { safety: A['safety'] & B['safety'] };
}

export const en = whole(enFirst, enMore);
export const es = whole(esFirst, esMore);
export const fr = whole(frFirst, frMore);
