import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CitusWorkers } from './citus-workers.ts';

// Decision 0217: the routes of the group commit to the workers, on a stand-in for the coordinator's
// metadata (the Citus pass writes through them for real: citus-shard-write.test.ts).

function setUp(placement: Map<string, { host: string; port: number; group: number }>) {
  let now = 1_000_000;
  const lookUps: string[] = [];
  const made: string[] = [];
  const coordinator = {
    query: async (q: { values: string[] }) => {
      lookUps.push(q.values[0]!);
      const p = placement.get(q.values[0]!);
      return { rows: p ? [p] : [] };
    },
  } as unknown as pg.Pool;
  const ended: string[] = [];
  const makePool = (url: string) => {
    made.push(url);
    return { end: async () => void ended.push(url) } as unknown as pg.Pool;
  };
  const workers = new CitusWorkers(coordinator, 'postgres://app:s3cret@coord.internal:5432/fleet?sslmode=require', makePool, () => now);
  return { workers, lookUps, made, ended, tick: (ms: number) => (now += ms) };
}

describe('CitusWorkers', () => {
  it("routes an organization to its worker's pool with the coordinator's credentials, one pool a worker, looked up again after 30 s or when told", async () => {
    const placement = new Map([
      ['org-a', { host: 'w1.internal', port: 5433, group: 1 }],
      ['org-b', { host: 'w1.internal', port: 5433, group: 1 }],
      ['org-c', { host: 'w2.internal', port: 5434, group: 2 }],
    ]);
    const { workers, lookUps, made, ended, tick } = setUp(placement);
    const a = await workers.route('org-a');
    expect(a).toMatchObject({ group: 1, key: 'w1.internal:5433' });
    expect((await workers.route('org-b'))!.pool).toBe(a!.pool);
    expect(await workers.route('org-c')).toMatchObject({ group: 2, key: 'w2.internal:5434' });
    expect(made).toEqual(['postgres://app:s3cret@w1.internal:5433/fleet?sslmode=require', 'postgres://app:s3cret@w2.internal:5434/fleet?sslmode=require']);
    // Cached: no second look-up within 30 s.
    await workers.route('org-a');
    expect(lookUps).toEqual(['org-a', 'org-b', 'org-c']);
    // The shards moved: after forget() the next write asks again and follows them.
    placement.set('org-a', { host: 'w2.internal', port: 5434, group: 2 });
    workers.forget('org-a');
    expect(await workers.route('org-a')).toMatchObject({ group: 2 });
    // Older than 30 s: asked again.
    placement.set('org-b', { host: 'w2.internal', port: 5434, group: 2 });
    tick(29_000);
    expect((await workers.route('org-b'))!.group).toBe(1);
    tick(2_000);
    expect((await workers.route('org-b'))!.group).toBe(2);
    await workers.close();
    expect(ended.sort()).toEqual(made.sort());
    // Closed: everything goes through the coordinator.
    expect(await workers.route('org-c')).toBeNull();
  });

  it('sends an organization through the coordinator when its shard is on the coordinator, unknown, or its worker took no connection', async () => {
    const { workers, tick } = setUp(
      new Map([
        ['on-coordinator', { host: 'coord.internal', port: 5432, group: 0 }],
        ['org-a', { host: 'w1.internal', port: 5433, group: 1 }],
      ]),
    );
    expect(await workers.route('on-coordinator')).toBeNull();
    expect(await workers.route('nowhere')).toBeNull();
    const a = (await workers.route('org-a'))!;
    workers.unreachable(a, new Error('connect ECONNREFUSED'));
    expect(await workers.route('org-a')).toBeNull();
    tick(31_000);
    expect(await workers.route('org-a')).toMatchObject({ group: 1 });
  });
});
