// The pure half of the in-memory list index (docs/decisions/0083): one organization's list as
// flat arrays, and the page of entries a search, filters and a sort order select from it. No I/O here;
// list-index.ts builds these from the database and checks they are still current.

/** One list of one organization at one version, entries in id order. */
export interface ListEntries {
  /** Entry i's row id. */
  ids: string[];
  /** Entry i's stored search text (lower-cased by PostgreSQL). */
  texts: string[];
  /** The entries whose text holds each trigram (three UTF-16 code units, see trigramKey), ascending. */
  trigrams: Map<number, Int32Array>;
  /** Filter columns: entry i's value is `values[codes[i]]` (null when the column is null); `lists[c]` the entries of value c, ascending. */
  filters: Map<string, { values: Array<string | null>; codes: Uint8Array; lists: Int32Array[] }>;
  /** Each group's member entries, ascending. */
  groups: Map<string, Int32Array>;
}

/** A row as the index is built from it: id, search text, filter column values, group ids. */
export interface EntryRow {
  id: string;
  text: string;
  filters: Array<string | null>;
  groups: string[];
}

/** A sort order over the entries: `order[k]` is the k-th entry, `rank[i]` is entry i's place. */
export interface EntryOrder {
  order: Int32Array;
  rank: Int32Array;
}

/** Three code units as one exact number (below 2^48): no substring per trigram. */
const trigramKey = (s: string, j: number) => s.charCodeAt(j) * 4294967296 + s.charCodeAt(j + 1) * 65536 + s.charCodeAt(j + 2);

/** Flat arrays from rows already in id order. */
export function buildEntries(rows: EntryRow[], filterNames: string[]): ListEntries {
  const ids = rows.map((r) => r.id);
  const texts = rows.map((r) => r.text);
  const filters = new Map(
    filterNames.map((name) => [name, { values: [] as Array<string | null>, codes: new Uint8Array(rows.length), lists: [] as Int32Array[] }]),
  );
  const groupLists = new Map<string, number[]>();
  const postings = new Map<number, number[]>();
  rows.forEach((r, i) => {
    filterNames.forEach((name, f) => {
      const col = filters.get(name)!;
      const v = r.filters[f] ?? null;
      let code = col.values.indexOf(v);
      if (code < 0) code = col.values.push(v) - 1;
      if (code > 255) throw new Error(`list index: filter ${name} has more than 256 values`);
      col.codes[i] = code;
    });
    for (const g of r.groups) {
      const members = groupLists.get(g);
      if (members) members.push(i);
      else groupLists.set(g, [i]);
    }
    const t = r.text;
    for (let j = 0; j + 3 <= t.length; j++) {
      const key = trigramKey(t, j);
      const list = postings.get(key);
      // Entries arrive in order, so a repeated trigram of this entry is the list's last element.
      if (!list) postings.set(key, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const trigrams = new Map<number, Int32Array>();
  for (const [key, list] of postings) trigrams.set(key, Int32Array.from(list));
  const groups = new Map<string, Int32Array>();
  for (const [g, list] of groupLists) groups.set(g, Int32Array.from(list));
  for (const col of filters.values()) {
    const lists = col.values.map(() => [] as number[]);
    col.codes.forEach((c, i) => lists[c]?.push(i));
    col.lists = lists.map((l) => Int32Array.from(l));
  }
  return { ids, texts, trigrams, filters, groups };
}

/** The entry order from entry indices listed in sort order. */
export function entryOrder(order: Int32Array): EntryOrder {
  const rank = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) rank[order[k] as number] = k;
  return { order, rank };
}

const ALL = Symbol('all entries');
type Ints = Int32Array<ArrayBufferLike>;

// Scratch space of indexPage, reused by every call (it runs to completion, nothing escapes): a
// page allocating tens of kilobytes of typed arrays per request kept the collector busy.
let hitBuf: Ints = new Int32Array(1024);
let keptBuf: Ints = new Int32Array(1024);
let filterBuf: Ints = new Int32Array(1024);
let placeBuf: Ints = new Int32Array(1024);
let marks: Ints = new Int32Array(1024);
let stamp = 0;
const grow = (buf: Ints, n: number): Ints => (buf.length >= n ? buf : new Int32Array(Math.max(n, buf.length * 2)));

/**
 * Entries whose search text contains `term` (lower-cased like the stored text, as `LIKE
 * '%term%'` over it finds them), ascending. A term of three or more code units is looked up
 * through its rarest trigram and each candidate checked; a shorter one, or one whose rarest
 * trigram is in most entries, is checked against every entry.
 */
function searchHits(e: ListEntries, term: string): Ints | typeof ALL {
  if (term === '') return ALL;
  const n = e.texts.length;
  let candidates: Ints | null = null;
  if (term.length >= 3) {
    for (let j = 0; j + 3 <= term.length; j++) {
      const list = e.trigrams.get(trigramKey(term, j));
      if (!list) return new Int32Array(0);
      if (!candidates || list.length < candidates.length) candidates = list;
    }
  }
  // A three-unit term is its own trigram: its postings are exactly its matches.
  if (candidates && term.length === 3) return candidates;
  hitBuf = grow(hitBuf, n);
  const hits = hitBuf;
  let found = 0;
  if (candidates && candidates.length < n) {
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k] as number;
      if ((e.texts[i] as string).includes(term)) hits[found++] = i;
    }
  } else {
    for (let i = 0; i < n; i++) if ((e.texts[i] as string).includes(term)) hits[found++] = i;
  }
  return hits.subarray(0, found);
}

/** What a list request asks of the index: a search term, filter values, a group. */
export interface IndexQuery {
  search?: string;
  filters: Record<string, string | undefined>;
  group?: string;
}

/** The ascending entries of `list` also in `other` (both ascending). */
function intersect(list: Ints, other: Ints): Ints {
  keptBuf = grow(keptBuf, Math.min(list.length, other.length));
  const out = keptBuf;
  let n = 0;
  for (let a = 0, b = 0; a < list.length && b < other.length;) {
    const x = list[a] as number;
    const y = other[b] as number;
    if (x === y) {
      out[n++] = x;
      a++;
      b++;
    } else if (x < y) a++;
    else b++;
  }
  return out.subarray(0, n);
}

/**
 * The entries `offset`..`offset + limit - 1` among those matching `q`, in the sort order, and how
 * many match in all.
 */
export function indexPage(e: ListEntries, q: IndexQuery, sort: EntryOrder, offset: number, limit: number): { entries: number[]; total: number } {
  const n = e.ids.length;
  let matches: Ints | typeof ALL =
    q.search !== undefined && !q.search.includes('\0') ? searchHits(e, q.search.toLowerCase()) : q.search === undefined ? ALL : new Int32Array(0);
  if (q.group !== undefined) {
    // Another organization's group, or an empty one, has no members here: nothing matches.
    const members = e.groups.get(q.group) ?? new Int32Array(0);
    matches = matches === ALL ? members : intersect(matches, members);
  }
  for (const [name, value] of Object.entries(q.filters)) {
    if (value === undefined) continue;
    const col = e.filters.get(name);
    const code = col ? col.values.indexOf(value) : -1;
    if (!col || code < 0) return { entries: [], total: 0 };
    if (matches === ALL) {
      matches = col.lists[code] as Ints;
      continue;
    }
    const codes = col.codes;
    // Into scratch (in place when the matches already are this scratch): never into shared postings.
    if (matches.buffer !== filterBuf.buffer) filterBuf = grow(filterBuf, matches.length);
    const kept = filterBuf;
    let m = 0;
    for (let k = 0; k < matches.length; k++) {
      const i = matches[k] as number;
      if (codes[i] === code) kept[m++] = i;
    }
    matches = kept.subarray(0, m);
  }
  const page: number[] = [];
  if (matches === ALL) {
    for (let k = offset; k < Math.min(n, offset + limit); k++) page.push(sort.order[k] as number);
    return { entries: page, total: n };
  }
  const total = matches.length;
  if (total <= offset) return { entries: page, total };
  if (total * 8 > n) {
    // Dense: walk the sort order, which reaches the page after about (offset + limit) * n / total entries.
    // Marked with this call's stamp, so the marks never need clearing.
    marks = grow(marks, n);
    if (++stamp === 0x7fffffff) {
      marks.fill(0);
      stamp = 1;
    }
    for (let k = 0; k < total; k++) marks[matches[k] as number] = stamp;
    let seen = 0;
    for (let k = 0; k < n && page.length < limit; k++) {
      const i = sort.order[k] as number;
      if (marks[i] === stamp && seen++ >= offset) page.push(i);
    }
    return { entries: page, total };
  }
  // Sparse: order the matches by their place in the sort.
  placeBuf = grow(placeBuf, total);
  const places = placeBuf.subarray(0, total);
  for (let k = 0; k < total; k++) places[k] = sort.rank[matches[k] as number] as number;
  places.sort();
  for (let k = offset; k < Math.min(total, offset + limit); k++) page.push(sort.order[places[k] as number] as number);
  return { entries: page, total };
}
