import type { SearchHit } from '@fleet/api-contract';

/** A searchable field of a record: its name as people say it, and its value. */
export type MatchField = readonly [field: string, value: string | null | undefined];

/**
 * Why a record matched the search text: the field(s) holding it, with their value. The fields are
 * given in the order of the record's stored search text (values joined by spaces, lower-cased), so
 * a text running over two fields ("kenworth t680", make and model) is found as the database found it.
 */
export function matchOf(text: string, fields: readonly MatchField[]): SearchHit['match'] {
  const needle = text.trim().toLowerCase();
  if (!needle) return null;
  let joined = '';
  const spans = fields.map(([field, value]) => {
    if (joined) joined += ' ';
    const start = joined.length;
    joined += (value ?? '').toLowerCase();
    return { field, value: value ?? '', start, end: joined.length };
  });
  const at = joined.indexOf(needle);
  if (at < 0) return null;
  const hit = spans.filter((s) => s.value && s.start < at + needle.length && s.end > at);
  if (!hit.length) return null;
  return { field: hit.map((s) => s.field).join(' and '), value: hit.map((s) => s.value).join(' ') };
}
