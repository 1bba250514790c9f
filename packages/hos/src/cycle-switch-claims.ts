import { HosInputError } from './errors.ts';
import { readInstant } from './timeline.ts';
import type { HosOptions } from './types.ts';

// Canada's cycle switches (s. 29 / s. 54) read from the options (context.ts); applying them to the
// log is cycle-switch.ts.

/** A declared switch as the options give it, read. */
export interface SwitchClaim {
  at: number;
  to: 1 | 2;
}

export const NO_SWITCHES: readonly SwitchClaim[] = Object.freeze([]);

/** Reads `cycleSwitches`: instants and target cycles, sorted by instant. Other rulesets ignore them. */
export function readSwitches(list: HosOptions['cycleSwitches'], canada: boolean): readonly SwitchClaim[] {
  if (list === undefined || (Array.isArray(list) && list.length === 0)) return NO_SWITCHES;
  if (!Array.isArray(list)) throw new HosInputError('cycleSwitches must be an array', null, 'cycleSwitches');
  const out: SwitchClaim[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as { at?: unknown; to?: unknown } | null;
    const at = readInstant(s?.at);
    if (Number.isNaN(at)) throw new HosInputError('cycle switch at is not an ISO-8601 instant', null, `cycleSwitches[${i}].at`);
    if (s?.to !== 1 && s?.to !== 2) throw new HosInputError('cycle switch to must be 1 or 2', null, `cycleSwitches[${i}].to`);
    out.push({ at, to: s.to });
  }
  if (!canada) return NO_SWITCHES;
  return out.sort((a, b) => a.at - b.at);
}
