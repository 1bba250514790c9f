import { describe, expect, it } from 'vitest';
import { reconcileDerived } from './derived-rows.ts';

// A recompute's rows against the stored ones (decision 0238): found again they keep their id and
// are not written; a finished row found different or gone is a correction, the open one going on is not.

const A = '00000000-0000-4000-8000-00000000000a';
const stored = (id: string, startedAt: string, endedAt: string | null, idle: number, lat = 41.1) => ({
  j: JSON.stringify({ id, asset_id: A, started_at: startedAt.replace('Z', '+00:00'), ended_at: endedAt?.replace('Z', '+00:00') ?? null, lat, idle_s: idle }),
});
const next = (startedAt: string, endedAt: string | null, idle: number, lat = 41.1) => ({
  asset_id: A,
  started_at: startedAt,
  ended_at: endedAt,
  lat,
  idle_s: idle,
});
const COLUMNS = { ended_at: 'time', lat: 'float8', idle_s: 'int' } as const;

describe('reconcileDerived', () => {
  it('writes nothing for the same rows (a restart), times and floats as stored', () => {
    const r = reconcileDerived(
      [stored('s1', '2026-11-20T10:00:00Z', '2026-11-20T10:30:00Z', 60, 41.123456789012)],
      [next('2026-11-20T10:00:00.000Z', '2026-11-20T10:30:00.000Z', 60, 41.123456789012 + 1e-12)],
      COLUMNS,
    );
    expect(r).toEqual({ deletes: [], updates: [], inserts: [], corrections: [] });
  });

  it('updates the open stop going on without a correction, and corrects a finished one', () => {
    const r = reconcileDerived(
      [stored('done', '2026-11-20T10:00:00Z', '2026-11-20T10:30:00Z', 60), stored('open', '2026-11-20T12:00:00Z', null, 0)],
      [next('2026-11-20T10:00:00.000Z', '2026-11-20T10:30:00.000Z', 90), next('2026-11-20T12:00:00.000Z', '2026-11-20T12:20:00.000Z', 30)],
      COLUMNS,
    );
    expect(r.updates.map((u) => u.id)).toEqual(['done', 'open']);
    expect(r.corrections.map((c) => [c.before.id, c.after?.idle_s])).toEqual([['done', 90]]);
  });

  it('withdraws a finished row no longer found, and inserts a new one', () => {
    const r = reconcileDerived([stored('gone', '2026-11-20T10:00:00Z', '2026-11-20T10:30:00Z', 60)], [next('2026-11-20T11:00:00.000Z', null, 0)], COLUMNS);
    expect(r.deletes).toEqual(['gone']);
    expect(r.inserts).toHaveLength(1);
    expect(r.corrections).toEqual([{ before: expect.objectContaining({ id: 'gone' }), after: null }]);
  });
});
