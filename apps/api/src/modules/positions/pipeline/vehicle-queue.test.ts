import { describe, expect, it } from 'vitest';
import type { PositionRow } from './position-row.ts';
import { VehicleQueue, type Round, type VehicleQueueOptions } from './vehicle-queue.ts';

const row = (assetId: string | null, t: number, orgId = 'org-a'): PositionRow => ({
  organizationId: orgId,
  gatewayId: 'gw',
  assetId,
  driverId: null,
  fixTime: new Date(t),
  latitude: 35,
  longitude: -97,
  speed: 0,
  course: null,
  altitude: null,
  accuracy: null,
  odometer: null,
  odometerSource: null,
  engineHours: null,
  ignition: null,
  protocol: 'batch',
  attributes: {},
});

/** A queue of fix times whose rounds are recorded as `vehicle:time,time` lists. */
function recorder(opts: Partial<VehicleQueueOptions<number>> = {}) {
  const rounds: string[][] = [];
  const failures: string[][] = [];
  const queue = new VehicleQueue<number>({
    fixOf: (r) => r.fixTime.getTime(),
    pauseMs: () => 1,
    byOrganization: false,
    round: async (items: Round<number>) => {
      rounds.push(items.map(([v, w]) => `${v}:${w.fixes.join(',')}`));
    },
    failed: (items, err) => failures.push(items.map(([v]) => `${v} ${String(err)}`)),
    ...opts,
  });
  return { queue, rounds, failures };
}

describe('the vehicle queue behind the commit', () => {
  it('queues stored rows of vehicles only, in order, and idle() waits for their round', async () => {
    const { queue, rounds } = recorder();
    queue.enqueue([row('v1', 1), row('v1', 2), row(null, 3), row('v2', 4), row('v1', 5)], [true, false, true, true, true]);
    expect(queue.busy).toBe(true);
    await queue.idle();
    expect(rounds).toEqual([['v1:1,5', 'v2:4']]);
    expect(queue.busy).toBe(false);
  });

  it('works one round per organization, and rounds of at most roundVehicles vehicles', async () => {
    const byOrg = recorder({ byOrganization: true });
    byOrg.queue.enqueue([row('v1', 1, 'o1'), row('v2', 2, 'o2'), row('v3', 3, 'o1')], [true, true, true]);
    await byOrg.queue.idle();
    expect(byOrg.rounds).toEqual([['v1:1', 'v3:3'], ['v2:2']]);

    const small = recorder({ roundVehicles: 2 });
    small.queue.enqueue([row('v1', 1), row('v2', 2), row('v3', 3)], [true, true, true]);
    await small.queue.idle();
    expect(small.rounds).toEqual([['v1:1', 'v2:2'], ['v3:3']]);
  });

  it('admits vehicles per round as the follower says, the others wait for the next round', async () => {
    const { queue, rounds } = recorder({
      admit: () => {
        let n = 0;
        return () => n++ < 1;
      },
    });
    queue.enqueue([row('v1', 1), row('v2', 2)], [true, true]);
    await queue.idle();
    expect(rounds).toEqual([['v1:1'], ['v2:2']]);
  });

  it('hands a failed round to the follower and goes on with the next', async () => {
    let first = true;
    const { queue, rounds, failures } = recorder({
      byOrganization: true,
      round: async (items) => {
        if (first) {
          first = false;
          throw new Error('boom');
        }
        rounds.push(items.map(([v]) => v));
      },
    });
    queue.enqueue([row('v1', 1, 'o1'), row('v2', 2, 'o2')], [true, true]);
    await queue.idle();
    expect(failures).toEqual([['v1 Error: boom']]);
    expect(rounds).toEqual([['v2']]);
  });

  it('in passes, idle() ends the pause at once and a vehicle put back is worked in the same pass', async () => {
    let chunks = 2;
    const rounds: string[][] = [];
    const queue: VehicleQueue<number> = new VehicleQueue<number>({
      fixOf: (r) => r.fixTime.getTime(),
      pauseMs: () => 60_000,
      byOrganization: false,
      passes: true,
      again: (v) => queue.has(v),
      round: async (items) => {
        rounds.push(items.map(([v, w]) => `${v}:${w.until}`));
        // A long history: read in chunks, the rest put back.
        if (chunks-- > 1) queue.putBack(items[0]![0], items[0]![1]);
      },
      failed: () => undefined,
    });
    queue.touch('v1', 'org-a', 10);
    queue.enqueue([row('v1', 20)], [true]);
    const started = Date.now();
    await queue.idle();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(rounds).toEqual([['v1:20'], ['v1:20']]);
  });

  it('takes nothing once closed', async () => {
    const { queue, rounds } = recorder();
    queue.enqueue([row('v1', 1)], [true]);
    await queue.close();
    queue.enqueue([row('v1', 2)], [true]);
    queue.touch('v2', 'org-a', 3);
    await queue.idle();
    expect(queue.closed).toBe(true);
    expect(rounds).toEqual([['v1:1']]);
  });
});
