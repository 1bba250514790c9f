import type { Settings } from './context.ts';
import { dayIndex, formatDay, type DayGrid } from './days.ts';
import type { Timeline } from './timeline.ts';
import { RULESETS, type CycleSwitch, type RulesetConfig } from './rulesets.ts';
import type { DayFinding, RulesetId } from './types.ts';

// Canada's cycle switching: SOR/2005-313 s. 29(1) (south of 60°): from cycle 1 to cycle 2 after at
// least 36 consecutive hours off duty, from cycle 2 to cycle 1 after at least 72. Those are the
// restart lengths of the cycle being left (s. 28(1)), which set the hours back to zero (s. 28(2)).
// North of 60° (s. 54, whose text we did not read: decision 0310) the same 36 h / 72 h as s. 53.

/** The ruleset of cycle `n` in the driver's region (south or north of 60°). */
function cycleRuleset(cfg: RulesetConfig, n: 1 | 2): RulesetConfig {
  const north = cfg.id.startsWith('CA_NORTH');
  const id: RulesetId = north ? (n === 1 ? 'CA_NORTH_CYCLE_1' : 'CA_NORTH_CYCLE_2') : n === 1 ? 'CA_SOUTH_CYCLE_1' : 'CA_SOUTH_CYCLE_2';
  return RULESETS[id];
}

/**
 * The call's ruleset with its declared switches applied (the same object when there are none). A
 * switch at an instant inside a rest block of at least the leaving cycle's restart length (36 h from
 * cycle 1, 72 h from cycle 2) takes effect at the block's end with the hours set back to zero. A
 * switch after too little rest (or during work) still puts the driver on the declared cycle from its
 * instant, hours not set back, and is a finding of its day (`CYCLE_SWITCH`, short by the rest
 * missing). A switch to the cycle already in force changes nothing.
 */
export function applySwitches(set: Settings, tl: Timeline, grid: DayGrid, out: DayFinding[] | null): RulesetConfig {
  const cfg = set.cfg;
  if (set.switches.length === 0) return cfg;
  let cur: 1 | 2 = cfg.id.endsWith('_2') ? 2 : 1;
  const list: CycleSwitch[] = [];
  for (const s of set.switches) {
    if (s.to === cur) continue;
    const leaving = cycleRuleset(cfg, cur);
    const target = cycleRuleset(cfg, s.to);
    const required = leaving.cycle.restartMs ?? 0;
    // The rest block holding the instant (a switch at the end of a rest is in it).
    let rest = 0;
    let restEnd = s.at;
    for (let b = 0; b < tl.nb; b++) {
      if (tl.bStart[b]! <= s.at && s.at <= tl.bEnd[b]!) {
        rest = tl.bLen[b]!;
        restEnd = tl.bEnd[b]!;
        break;
      }
    }
    const valid = rest >= required;
    if (!valid && out) {
      const d = dayIndex(grid, s.at);
      if (d >= 0) out.push({ rule: 'CYCLE_SWITCH', day: formatDay(grid.firstDay + d), shortMs: required - rest });
    }
    list.push({
      from: valid ? restEnd : s.at,
      zeroFrom: valid ? restEnd : -Infinity,
      cycle: target.cycle,
      onDutyBefore24OffMs: target.canada?.onDutyBefore24OffMs ?? null,
    });
    cur = s.to;
  }
  return list.length === 0 ? cfg : { ...cfg, switches: list };
}
