import { fieldWords } from './field-words.ts';

// What no field of the API takes, wherever it is in a request (issue 43): PostgreSQL's text cannot
// hold NUL (22021) and its UTF-8 cannot hold a lone UTF-16 surrogate (22P05/22P02); no column holds
// a subnormal number (a `real` underflows, 22003, and a double would not give it back as sent); and
// a value nested deeper than any request needs only costs a parser's stack. The API's validator
// checks every body, query and path parameter against these rules before its schema (one place, so
// a new schema inherits them); the schemas add each field's own rules.

/** Nesting levels a request may have: a place's polygon is 5, free-form attributes get the rest. */
export const MAX_INPUT_DEPTH = 32;

/** The smallest normal double: below it (except 0) a number is subnormal. */
const MIN_NORMAL = 2.2250738585072014e-308;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored, or null: NUL characters and lone surrogates. */
export function textProblem(text: string): string | null {
  // In a text of several lines (a CSV sent as JSON), which line.
  const where = (index: number) => (text.includes('\n') ? ` (line ${text.slice(0, index).split('\n').length})` : '');
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `must not contain the NUL character (U+0000)${where(nul)}`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `must not contain a lone UTF-16 surrogate (text that is not valid Unicode)${where(lone.index)}`;
  return null;
}

/** Why a number cannot be stored as sent, or null: not finite, or subnormal (too close to zero). */
export function numberProblem(n: number): string | null {
  if (!Number.isFinite(n)) return 'must be a finite number';
  if (n !== 0 && Math.abs(n) < MIN_NORMAL) return 'must be 0 or a number further from zero (a subnormal number cannot be stored)';
  return null;
}

export interface InputProblem {
  /** Where the value is (`stops.0.name`), as a body's field path. */
  path: Array<string | number>;
  /** In words, the field named by its label ("Unit number must not contain …"). */
  message: string;
}

/**
 * The values of a parsed request part (a JSON body, a query, path parameters) that break the rules
 * above, field names included, at most `limit` of them. Nothing is walked below `maxDepth`.
 */
export function inputProblems(value: unknown, { maxDepth = MAX_INPUT_DEPTH, limit = 20 } = {}): InputProblem[] {
  const found: InputProblem[] = [];
  const report = (path: Array<string | number>, rule: string) => found.push({ path, message: `${fieldWords(path)} ${rule}` });
  const walk = (v: unknown, path: Array<string | number>, depth: number): void => {
    if (found.length >= limit) return;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) report(path, problem);
    } else if (typeof v === 'number') {
      const problem = numberProblem(v);
      if (problem) report(path, problem);
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= maxDepth) return void report(path, `is nested too deeply (at most ${maxDepth} levels)`);
      if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i], depth + 1));
      else
        for (const [key, item] of Object.entries(v)) {
          if (textProblem(key)) report(path, 'has a field name that is not valid text');
          else walk(item, [...path, key], depth + 1);
        }
    }
  };
  walk(value, [], 0);
  return found;
}
