import type { DbOrTx } from '../../db/client.ts';
import { nextDate } from '../hos/index.ts';
import { accumulateDays, type DayClock, type DayRecords } from './distance-days.ts';
import { replaceDays, type DayRange } from './ifta-miles.repository.ts';
import { countFixesMany, fixesInMany, neighboursMany, type FixSpan, type SpanEnds } from './ifta-recompute.repository.ts';

// The recompute of dirty days for many vehicles at once (decision 0215). Each run of a vehicle's
// dirty days is rebuilt exactly as IftaMiles.rebuild rebuilds it alone (the plain reference, which
// ifta-recompute.test.ts compares this with): widened to the days the pairs around it touch, its
// fixes read up to the vehicle's watermark, its days replaced. Here each step is one statement for
// all runs, where the plain path runs 12-14 per vehicle: on Citus each is a round trip through the
// coordinator, and a fleet whose devices alternate between API instances marks every vehicle.

/** A run of one vehicle's dirty days [from, to], rebuilt from its stored fixes up to the watermark. */
export interface DirtyRun {
  vehicleId: string;
  from: string;
  to: string;
  watermarkMs: number;
}

/** Stored fixes one read may return for all its runs together, by default (a run with more is read alone). */
export const FIXES_PER_READ = 20_000;

interface Plan {
  run: DirtyRun;
  fromDay: string;
  toDay: string;
  span: FixSpan;
  before: SpanEnds['before'];
  after: SpanEnds['after'];
}

/**
 * The days a run of dirty days [from, to] rebuilds: a pair reaching into it from an earlier or a
 * later day (a gap) changed those days too. The plain path (IftaMiles.rebuild) widens by it as well.
 */
export function widenedDays(from: string, to: string, around: SpanEnds, clock: DayClock): { fromDay: string; toDay: string } {
  const start = clock.startOf(from);
  const end = clock.startOf(nextDate(to));
  return {
    fromDay: around.before ? clock.dayOf(Math.min(around.before.time, start)) : from,
    toDay: around.after ? clock.dayOf(Math.max(around.after.time, end - 1)) : to,
  };
}

const spanOf = (run: DirtyRun, fromDay: string, toDay: string, clock: DayClock): FixSpan => ({
  vehicleId: run.vehicleId,
  startMs: clock.startOf(fromDay),
  endMs: clock.startOf(nextDate(toDay)),
  watermarkMs: run.watermarkMs,
});

/**
 * Rebuilds the runs of one organization. Returns the runs whose widened days overlap another run of
 * the same vehicle (a gap of days between two runs): those are left to the caller, to rebuild one
 * after the other as the plain path does, since one statement cannot write a day twice. Also
 * returns how many days were rebuilt.
 */
export async function rebuildRuns(
  tx: DbOrTx,
  orgId: string,
  runs: readonly DirtyRun[],
  clock: DayClock,
  opts: { routed: boolean; fixesPerRead?: number },
): Promise<{ days: number; alone: DirtyRun[] }> {
  const first = runs.map((r) => spanOf(r, r.from, r.to, clock));
  const around = await neighboursMany(tx, orgId, first);
  const plans: Plan[] = runs.map((run, i) => {
    const { fromDay, toDay } = widenedDays(run.from, run.to, around[i]!, clock);
    return { run, fromDay, toDay, span: spanOf(run, fromDay, toDay, clock), ...around[i]! };
  });
  const widened = plans.filter((p) => p.fromDay !== p.run.from || p.toDay !== p.run.to);
  const wide = await neighboursMany(
    tx,
    orgId,
    widened.map((p) => p.span),
  );
  widened.forEach((p, i) => Object.assign(p, wide[i]!));

  const alone = overlapping(plans);
  const batch = plans.filter((p) => !alone.has(p.run.vehicleId));
  const counts = await countFixesMany(
    tx,
    orgId,
    batch.map((p) => p.span),
  );
  const ranges: DayRange[] = [];
  for (const chunk of chunksByFixes(batch, counts, opts.fixesPerRead ?? FIXES_PER_READ)) {
    const fixes = await fixesInMany(
      tx,
      orgId,
      chunk.map((p) => p.span),
    );
    chunk.forEach((p, i) => {
      const days: DayRecords = new Map();
      accumulateDays(days, p.before, [...fixes[i]!, ...(p.after ? [p.after] : [])], { fromDay: p.fromDay, toDay: p.toDay, clock });
      ranges.push({ vehicleId: p.run.vehicleId, fromDay: p.fromDay, toDay: p.toDay, days });
    });
  }
  await replaceDays(tx, orgId, ranges, opts.routed);
  const days = batch.reduce((n, p) => n + Math.round((p.span.endMs - p.span.startMs) / 86_400_000), 0);
  return { days, alone: plans.filter((p) => alone.has(p.run.vehicleId)).map((p) => p.run) };
}

/** Vehicles with two runs whose widened days overlap. */
function overlapping(plans: readonly Plan[]): Set<string> {
  const byVehicle = new Map<string, Plan[]>();
  for (const p of plans) byVehicle.set(p.run.vehicleId, [...(byVehicle.get(p.run.vehicleId) ?? []), p]);
  const out = new Set<string>();
  for (const [v, list] of byVehicle) {
    const sorted = [...list].sort((a, b) => (a.fromDay < b.fromDay ? -1 : a.fromDay > b.fromDay ? 1 : 0));
    for (let i = 1; i < sorted.length; i++) if (sorted[i]!.fromDay <= sorted[i - 1]!.toDay) out.add(v);
  }
  return out;
}

/** The plans in reads of at most `budget` stored fixes (a larger run alone). */
function chunksByFixes<T>(items: readonly T[], counts: readonly number[], budget: number): T[][] {
  const out: T[][] = [];
  let chunk: T[] = [];
  let n = 0;
  items.forEach((item, i) => {
    const c = Math.max(1, counts[i]!);
    if (chunk.length > 0 && n + c > budget) {
      out.push(chunk);
      chunk = [];
      n = 0;
    }
    chunk.push(item);
    n += c;
  });
  if (chunk.length > 0) out.push(chunk);
  return out;
}
