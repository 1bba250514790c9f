// The rulesets' names and restart lengths have one owner, src/ruleset-facts.ts, which the contract and
// the web import as '@fleet/hos/ruleset-facts': it must stay free of imports, or the engine follows it
// into their bundles.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESTART_MS, RULESET_IDS, RULESET_LABELS } from '../src/ruleset-facts.ts';
import { RULESETS } from '../src/rulesets.ts';

const H = 3_600_000;

describe('ruleset facts', () => {
  it('import nothing, so reading them never loads the engine', () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, '../src/ruleset-facts.ts'), 'utf8');
    expect(text).not.toMatch(/^\s*import\b/m);
    expect(text).not.toMatch(/\bfrom\s+['"]/);
  });

  it("are the engine's: every ruleset has a name, and the engine restarts the cycle after the listed off-duty time", () => {
    for (const id of RULESET_IDS) {
      expect(RULESET_LABELS[id], id).toMatch(/\S/);
      expect(RULESETS[id].cycle.restartMs, id).toBe(RESTART_MS[id]);
    }
    // P6 (34 h), B3 (no restart for passenger carriers), C4 (36 h cycle 1, 72 h cycle 2, s. 28; north of 60° the same, s. 53), Texas and California 34 h,
    // Florida 34 h (F.S. 316.302(2)(c)), none for Alaska (§395.1(h)) and Mexico (NOM-087 has no cycle).
    const restarts = RULESET_IDS.map((id) => `${id}: ${RESTART_MS[id] === null ? 'none' : `${RESTART_MS[id]! / H} h`}`);
    expect(restarts.join(', ')).toBe(
      'US_PROPERTY_70_8: 34 h, US_PROPERTY_60_7: 34 h, US_PASSENGER_70_8: none, US_PASSENGER_60_7: none, CA_SOUTH_CYCLE_1: 36 h, CA_SOUTH_CYCLE_2: 72 h, CA_NORTH_CYCLE_1: 36 h, CA_NORTH_CYCLE_2: 72 h, TX_INTRASTATE: 34 h, CA_INTRASTATE: 34 h, ' +
        'FL_INTRASTATE_70_7: 34 h, FL_INTRASTATE_80_8: 34 h, AK_PROPERTY_70_7: none, AK_PROPERTY_80_8: none, AK_PASSENGER_70_7: none, ' +
        'AK_PASSENGER_80_8: none, MX_NOM_087: none',
    );
  });
});
