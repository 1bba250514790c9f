import Papa from 'papaparse';

// A CSV import whose columns are mapped by the person: the file's header row, a preset's columns
// found among them (as the server matches them: case, spaces and punctuation aside), and one field's
// column changed. Both fuel imports (IFTA purchases, card transactions) use these.

/** The header row's names, trimmed, without empty ones. */
export function csvHeaders(text: string): string[] {
  return (Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: 1 }).data[0] ?? []).map((h) => h.trim()).filter(Boolean);
}

const loose = (h: string) => h.toLowerCase().replace(/[^a-z0-9#]/g, '');

/** Each field's wanted column found in `headers`: the same name, else the same loosely. */
export function matchColumns<F extends string>(wanted: Partial<Record<F, string>>, headers: readonly string[]): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const [f, h] of Object.entries(wanted) as Array<[F, string]>) {
    const hit = headers.find((x) => x === h) ?? headers.find((x) => loose(x) === loose(h));
    if (hit) out[f] = hit;
  }
  return out;
}

/** `mapping` with `field` read from column `header`, or from none when it is empty. */
export function withColumn<F extends string>(mapping: Partial<Record<F, string>>, field: F, header: string): Partial<Record<F, string>> {
  const next = { ...mapping };
  if (header) next[field] = header;
  else delete next[field];
  return next;
}
