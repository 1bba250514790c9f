import { describe, expect, it } from 'vitest';
import { buildEntries, entryOrder, indexPage, type EntryRow, type IndexQuery } from './list-index-page.ts';

// indexPage against the obvious reference (filter every row, sort, slice) on random lists and
// queries, many calls in a row: it reuses scratch buffers and shares postings between calls.

const WORDS = ['kenworth', 'volvo', 'mack', 'vnl', 'ab', 'b0', 'x', 'wei', 'öz', 'garcía'];
// mulberry32: a small seeded generator, so a failure repeats.
let seed = 42;
const rand = (n: number) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
};

function randomRows(n: number): EntryRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `id-${String(i).padStart(5, '0')}`,
    text: `${WORDS[rand(WORDS.length)]} u${rand(300)} ${WORDS[rand(WORDS.length)]}`,
    filters: [['VEHICLE', 'TRAILER'][rand(2)] as string, rand(5) === 0 ? null : (['ACTIVE', 'INACTIVE'][rand(2)] as string)],
    groups: rand(3) === 0 ? ['g1'] : rand(4) === 0 ? ['g1', 'g2'] : [],
  }));
}

describe('indexPage', () => {
  it('selects, counts and orders exactly as filtering and sorting every row would', () => {
    for (const n of [0, 1, 40, 900]) {
      const rows = randomRows(n);
      const e = buildEntries(rows, ['type', 'status']);
      const keys = rows.map(() => rand(50));
      const order = entryOrder(Int32Array.from(rows.map((_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b)));
      const postingsBefore = new Map([...e.trigrams].map(([k, v]) => [k, Array.from(v)]));
      for (let round = 0; round < 300; round++) {
        const q: IndexQuery = {
          search: rand(4) === 0 ? undefined : [...(WORDS[rand(WORDS.length)] as string)].slice(rand(3)).join('').toUpperCase(),
          filters: { type: rand(2) ? undefined : rand(2) ? 'VEHICLE' : 'TRAILER', status: rand(3) ? undefined : 'ACTIVE' },
          group: rand(4) === 0 ? (rand(2) ? 'g2' : 'nope') : undefined,
        };
        const offset = rand(4) * 15;
        const expected = Array.from(order.order).filter((i) => {
          const r = rows[i] as EntryRow;
          return (
            (q.search === undefined || r.text.includes(q.search.toLowerCase())) &&
            (q.filters.type === undefined || r.filters[0] === q.filters.type) &&
            (q.filters.status === undefined || r.filters[1] === q.filters.status) &&
            (q.group === undefined || r.groups.includes(q.group))
          );
        });
        const got = indexPage(e, q, order, offset, 15);
        expect(got.total, JSON.stringify(q)).toBe(expected.length);
        expect(got.entries, JSON.stringify(q)).toEqual(expected.slice(offset, offset + 15));
      }
      // Filtering never wrote into the shared trigram postings.
      expect(new Map([...e.trigrams].map(([k, v]) => [k, Array.from(v)]))).toEqual(postingsBefore);
    }
  });

  it('matches nothing for a NUL in the term, and everything for an empty one', () => {
    const e = buildEntries(randomRows(30), ['type', 'status']);
    const order = entryOrder(Int32Array.from({ length: 30 }, (_, i) => i));
    expect(indexPage(e, { search: 'a\0b', filters: {} }, order, 0, 15).total).toBe(0);
    expect(indexPage(e, { search: '', filters: {} }, order, 0, 15).total).toBe(30);
    expect(indexPage(e, { filters: { type: 'BOAT' } }, order, 0, 15)).toEqual({ entries: [], total: 0 });
  });
});
