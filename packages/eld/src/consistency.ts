// Whether the accumulated values of an ELD output file agree with each other (issue 46): a CMV's
// total miles and engine hours never go down from one record to the next, and a record's miles and
// engine hours since power-up never go down between one power-up and the next, nor exceed what the
// engine totals allow. An officer's tool reads a file that breaks these as tampered or broken; the
// checks run on the file model, so a file parsed back is checked the same way.

import type { EldFile, LocalDateTime } from './model.ts';

interface Total {
  readonly at: LocalDateTime;
  readonly sequenceId: number;
  readonly miles: number | null;
  readonly hours: number | null;
  readonly what: string;
  readonly powerUp: boolean;
}

const byTime = (a: { at: string; sequenceId: number }, b: { at: string; sequenceId: number }) =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.sequenceId - b.sequenceId;
const hex = (n: number) => n.toString(16).toUpperCase();

/** Each pair of records in time order whose value goes down, in words. */
function downs(
  list: ReadonlyArray<{ at: string; sequenceId: number; miles: number | null; hours: number | null; what: string }>,
  where: string,
  kind: string,
): string[] {
  const out: string[] = [];
  let miles: { value: number; what: string } | null = null;
  let hours: { value: number; what: string } | null = null;
  for (const r of list) {
    if (r.miles !== null) {
      if (miles && r.miles < miles.value) out.push(`${where}: ${kind} miles go down from ${miles.value} (${miles.what}) to ${r.miles} (${r.what})`);
      miles = { value: r.miles, what: r.what };
    }
    if (r.hours !== null) {
      if (hours && r.hours < hours.value) out.push(`${where}: ${kind} engine hours go down from ${hours.value} (${hours.what}) to ${r.hours} (${r.what})`);
      hours = { value: r.hours, what: r.what };
    }
  }
  return out;
}

/**
 * The file's inconsistent accumulated values, in words (empty: all consistent):
 * - per CMV, the total vehicle miles and engine hours of its engine power-up/shut-down and
 *   malfunction records, in time order, never go down, and the header's current totals are not
 *   below those of the CMV it names;
 * - per CMV, the active driver and unidentified records' accumulated vehicle miles and elapsed
 *   engine hours never go down from one record to the next after the same power-up, and are not
 *   more than the CMV's totals moved from that power-up to its next engine record (whole miles, so
 *   one mile of rounding is allowed).
 */
export function accumulatedValueProblems(file: EldFile): string[] {
  const problems: string[] = [];
  const units = file.cmvs.map((c) => c.powerUnitNumber);
  const totals = new Map<string, Total[]>();
  const add = (unit: string, t: Total) => {
    const list = totals.get(unit);
    if (list) list.push(t);
    else totals.set(unit, [t]);
  };
  for (const e of file.enginePower) {
    add(e.powerUnitNumber, {
      at: e.at,
      sequenceId: e.sequenceId,
      miles: e.totalVehicleMiles,
      hours: e.totalEngineHours,
      what: `engine record ${hex(e.sequenceId)} at ${e.at}`,
      powerUp: e.code === 1 || e.code === 2,
    });
  }
  for (const m of file.malfunctions) {
    const unit = m.cmvOrder ? units[m.cmvOrder - 1] : undefined;
    if (unit !== undefined)
      add(unit, {
        at: m.at,
        sequenceId: m.sequenceId,
        miles: m.totalVehicleMiles,
        hours: m.totalEngineHours,
        what: `malfunction record ${hex(m.sequenceId)} at ${m.at}`,
        powerUp: false,
      });
  }
  for (const [unit, list] of totals) {
    list.sort(byTime);
    problems.push(...downs(list, `CMV ${unit}`, 'total'));
  }
  const current = file.header.current;
  const inUse = totals.get(file.header.cmv.powerUnitNumber) ?? [];
  const topMiles = Math.max(-Infinity, ...inUse.map((t) => t.miles ?? -Infinity));
  const topHours = Math.max(-Infinity, ...inUse.map((t) => t.hours ?? -Infinity));
  if (current.totalVehicleMiles !== null && current.totalVehicleMiles < topMiles)
    problems.push(`header: current total miles ${current.totalVehicleMiles} are below the ${topMiles} CMV ${file.header.cmv.powerUnitNumber} recorded`);
  if (current.totalEngineHours !== null && current.totalEngineHours < topHours)
    problems.push(`header: current total engine hours ${current.totalEngineHours} are below the ${topHours} CMV ${file.header.cmv.powerUnitNumber} recorded`);

  const records = [...file.events.map((e) => ({ ...e, who: 'event' })), ...file.unidentifiedEvents.map((e) => ({ ...e, who: 'unidentified event' }))].filter(
    (e) => e.recordStatus === 1 && e.cmvOrder !== null,
  );
  for (const [i, unit] of units.entries()) {
    const engine = (totals.get(unit) ?? []).filter((t) => t.what.startsWith('engine'));
    const ups = engine.filter((t) => t.powerUp);
    const mine = records.filter((e) => e.cmvOrder === i + 1).sort(byTime);
    // Grouped by the power-up each counts from (none before the first one the file lists).
    const groups = new Map<Total | null, typeof mine>();
    for (const e of mine) {
      const up = [...ups].reverse().find((u) => byTime(u, e) <= 0) ?? null;
      const g = groups.get(up);
      if (g) g.push(e);
      else groups.set(up, [e]);
    }
    for (const [up, list] of groups) {
      const where = `CMV ${unit}${up ? ` after the power-up at ${up.at}` : ''}`;
      problems.push(
        ...downs(
          list.map((e) => ({
            at: e.at,
            sequenceId: e.sequenceId,
            miles: e.accumulatedVehicleMiles,
            hours: e.elapsedEngineHours,
            what: `${e.who} ${hex(e.sequenceId)} at ${e.at}`,
          })),
          where,
          'accumulated',
        ),
      );
      if (!up) continue;
      const next = engine.find((t) => byTime(t, up) > 0);
      if (!next) continue;
      for (const e of list) {
        if (byTime(e, next) >= 0) continue;
        if (e.accumulatedVehicleMiles !== null && up.miles !== null && next.miles !== null && e.accumulatedVehicleMiles > next.miles - up.miles + 1) {
          problems.push(
            `${where}: ${e.who} ${hex(e.sequenceId)} at ${e.at} counts ${e.accumulatedVehicleMiles} miles, more than the ${next.miles - up.miles} the engine records allow`,
          );
        }
        if (
          e.elapsedEngineHours !== null &&
          up.hours !== null &&
          next.hours !== null &&
          e.elapsedEngineHours > Math.round((next.hours - up.hours + 0.1) * 10) / 10
        ) {
          problems.push(
            `${where}: ${e.who} ${hex(e.sequenceId)} at ${e.at} counts ${e.elapsedEngineHours} engine hours, more than the ${Math.round((next.hours - up.hours) * 10) / 10} the engine records allow`,
          );
        }
      }
    }
  }
  return problems;
}
