import { dailyTotals } from '@fleet/hos';
import type { Availability } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { availabilityOf, LOOKBACK_MS } from './hos-clocks.service.ts';
import { violationsOf } from './hos-audit.ts';
import { driverRecordsOf, engineOptions, fleetDriversOf, fleetStateOf, type FleetDriver, type FleetState } from './hos.repository.ts';
import { logDateOf } from './hos.time.ts';

// The whole fleet's HoS at once, for the dashboard and the notification detectors (issue 18): the
// same reads as the violations and availability lists (drivers and events from memory, decisions
// 0098-0099), unpaged, so counters computed here equal the totals those lists answer.

export interface FleetViolation {
  driver: { id: string; firstName: string; lastName: string };
  rule: string;
  severity: string;
  startMs: number;
  endMs: number;
  logDate: string;
  /** The driver's home-terminal zone, the log day's (decision 0140). */
  timeZone: string;
}

export interface FleetHos {
  state: FleetState;
  drivers: FleetDriver[];
  /** Every violation intersecting [fromMs, toMs), newest first (the violations list's order). */
  violations: FleetViolation[];
  /** Every driver's clocks at `atMs`, in name order. */
  availability: Availability[];
  /** Per log day of the range: hours in each duty status summed over the drivers. */
  hoursPerDay(dates: readonly string[]): Array<{ date: string; OFF: number; SB: number; D: number; ON: number }>;
}

/**
 * Violations, clocks and daily hours of the organization's active drivers (or one group's) for
 * [fromMs, atMs]: one read of the drivers' records and one engine pass per driver.
 */
export async function fleetHos(
  db: DbOrTx,
  orgId: string,
  opts: { fromMs: number; atMs: number; groupId?: string; driverIds?: ReadonlySet<string> },
): Promise<FleetHos> {
  const state = await fleetStateOf(db, orgId);
  const all = await fleetDriversOf(db, orgId, state, { groupId: opts.groupId });
  // Only some drivers (the notification checks behind ingest judge those who just drove).
  const drivers = opts.driverIds ? all.filter((d) => opts.driverIds!.has(d.id)) : all;
  const { periodStart } = state;
  const records = await driverRecordsOf(db, orgId, opts.driverIds ? drivers.map((d) => d.id) : null, opts.fromMs - LOOKBACK_MS, opts.atMs, state);
  const violations: FleetViolation[] = [];
  const availability: Availability[] = [];
  const periodsBy = new Map<string, ReturnType<typeof records.periodsOf>>();
  drivers.forEach((d) => {
    const periods = records.periodsOf(d.id, opts.atMs);
    periodsBy.set(d.id, periods);
    availability.push(availabilityOf(d, periods, opts.atMs, periodStart, records.factsOf(d.id)));
    if (periods.length === 0) return;
    for (const v of violationsOf(periods, d, periodStart, records.factsOf(d.id))) {
      const s = Date.parse(v.start);
      const e = Date.parse(v.end);
      if (e <= opts.fromMs || s >= opts.atMs) continue;
      violations.push({
        driver: { id: d.id, firstName: d.firstName, lastName: d.lastName },
        rule: v.rule,
        severity: v.severity,
        startMs: s,
        endMs: e,
        logDate: logDateOf(s, d.homeTimeZone, periodStart),
        timeZone: d.homeTimeZone,
      });
    }
  });
  violations.sort((x, y) => y.startMs - x.startMs);
  return {
    state,
    drivers,
    violations,
    availability,
    hoursPerDay(dates) {
      const out = new Map(dates.map((date) => [date, { date, OFF: 0, SB: 0, D: 0, ON: 0 }]));
      for (const d of drivers) {
        const periods = periodsBy.get(d.id);
        if (!periods?.length) continue;
        for (const t of dailyTotals(periods, engineOptions(d, periodStart, records.factsOf(d.id)))) {
          const row = out.get(t.date);
          if (!row) continue;
          row.OFF += t.OFF;
          row.SB += t.SB;
          row.D += t.D;
          row.ON += t.ON;
        }
      }
      return [...out.values()];
    },
  };
}
