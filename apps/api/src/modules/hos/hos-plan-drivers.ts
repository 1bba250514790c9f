import type { HosOptions, RulesetId } from '@fleet/hos';
import { rulesetIn } from './hos-crossings.ts';
import type { DbOrTx } from '../../db/client.ts';
import { LOOKBACK_MS } from './hos-clocks.service.ts';
import { clockPeriods, optionsAt } from './hos-audit.ts';
import type { MsPeriod } from './hos.periods.ts';
import { driverRecordsOf, fleetDriversOf, fleetStateOf, type FleetDriver } from './hos.repository.ts';

// What the trip planner (issue 33, decision 0167) needs of drivers: each one's duty periods up to
// now and the engine's options, read in bulk from the same in-memory records the availability list
// uses (one query or none for the whole fleet), so ranking 500 drivers is not 500 reads.

export interface PlanDriverRecord {
  driver: FleetDriver;
  periods: MsPeriod[];
  /** The options with the ruleset in force at the instant asked (the side of the border the driver is on). */
  options: HosOptions;
  /** The driver's ruleset on each side of the US-Canada border (issue 72): a route that crosses switches at the border. */
  rulesets: Readonly<Record<'US' | 'CA', RulesetId>>;
}

/** The organization's active drivers (or the listed ones, any status) with their log to `atMs` and their options. */
export async function planDriversOf(db: DbOrTx, orgId: string, atMs: number, driverIds?: readonly string[]): Promise<Map<string, PlanDriverRecord>> {
  const state = await fleetStateOf(db, orgId);
  let list = await fleetDriversOf(db, orgId, state);
  if (driverIds) {
    // The active drivers come from memory; a driver no longer active is read alone (rare).
    const wanted = new Set(driverIds);
    list = list.filter((d) => wanted.has(d.id));
    for (const id of wanted) if (!list.some((d) => d.id === id)) list.push(...(await fleetDriversOf(db, orgId, state, { driverId: id })));
  }
  const records = await driverRecordsOf(db, orgId, driverIds ? list.map((d) => d.id) : null, atMs - LOOKBACK_MS, atMs, state);
  const out = new Map<string, PlanDriverRecord>();
  for (const d of list) {
    out.set(d.id, {
      driver: d,
      periods: clockPeriods(records.periodsOf(d.id, atMs), d, state.periodStart, records.factsOf(d.id)),
      options: optionsAt(atMs, d, state.periodStart, records.factsOf(d.id)),
      rulesets: { US: rulesetIn(d.ruleset, 'US'), CA: rulesetIn(d.ruleset, 'CA') },
    });
  }
  return out;
}
