import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY_SETTINGS, type SafetyBehaviourScore } from '@fleet/api-contract';
import { i18next, loadMoreWords } from '../../i18n/i18n.ts';
import { accelFromMps2, accelToMps2, eventFigures, formatScore, formatSeconds, formatStrength, scoreColor } from './safety-words.tsx';
import { formulaText } from './score-page.tsx';
import { readSettingsForm, settingsFormText } from './settings-page.tsx';
import { minuteTicks } from './speed-trace.tsx';

// The numbers the safety screens show: strength in g and the organization's acceleration unit, the
// figures of an event in words, durations, score bands, and the formula written with a row's numbers.

const t = i18next.getFixedT('en');

// The office's safety words load with its screens (decision 0277), as the router loads them.
beforeAll(() => loadMoreWords());

describe('an event in numbers', () => {
  it("reads a strength in g and in the organization's unit (Motive's 8.66 mph/s is 3.87 m/s²)", () => {
    expect(formatStrength(3.87, 'IMPERIAL')).toBe('0.39 g · 8.7 mph/s');
    expect(formatStrength(3.87, 'METRIC')).toBe('0.39 g · 3.9 m/s²');
    expect(formatStrength(null, 'METRIC')).toBe('—');
    expect(accelToMps2(accelFromMps2(4.2, 'IMPERIAL'), 'IMPERIAL')).toBeCloseTo(4.2, 10);
    expect(accelFromMps2(4.2, 'METRIC')).toBe(4.2);
  });

  it('says a speeding run against its limit in the organization units, and a harsh braking by its strength and speeds', () => {
    const base = { maxSpeedKph: null, limitKph: null, strengthMps2: null, durationS: 0 };
    expect(eventFigures({ ...base, type: 'SPEEDING', maxSpeedKph: 112.654, limitKph: 88.514, durationS: 95 }, 'IMPERIAL', t)).toBe(
      '70 mph in a 55 mph zone · 1 min 35 s',
    );
    // Speeding names the stretch that set its band: 82 mph held in the 60 mph zone, though 90 was the top in a 70 (issue 66).
    expect(eventFigures({ ...base, type: 'SPEEDING', maxSpeedKph: 144.84, heldSpeedKph: 131.97, limitKph: 96.561, durationS: 95 }, 'IMPERIAL', t)).toBe(
      '82 mph in a 60 mph zone · 1 min 35 s',
    );
    expect(eventFigures({ ...base, type: 'MAX_SPEED', maxSpeedKph: 130, limitKph: 120.7, durationS: 60 }, 'METRIC', t)).toBe(
      '130 km/h over the fleet maximum 121 km/h · 1 min',
    );
    expect(eventFigures({ ...base, type: 'HARSH_BRAKING', strengthMps2: 6.1, speedBeforeKph: 96.56, speedAfterKph: 0 }, 'IMPERIAL', t)).toBe(
      '0.62 g · 13.6 mph/s · 60 mph → 0 mph',
    );
    expect(eventFigures({ ...base, type: 'IDLING', durationS: 1380, fuelBurnedL: 3.0283 }, 'IMPERIAL', t)).toBe('23 min · 0.8 gal');
    expect(eventFigures({ ...base, type: 'HARSH_CORNERING' }, 'METRIC', t)).toBe('—');
  });

  it('writes durations in hours, minutes and seconds', () => {
    expect(formatSeconds(45)).toBe('45 s');
    expect(formatSeconds(120)).toBe('2 min');
    expect(formatSeconds(4980)).toBe('1 h 23 min');
    expect(formatSeconds(4_973_218)).toBe('1,381 h 26 min');
  });
});

describe('a score', () => {
  it('shows whole points, a dash under 100 miles, and its band colour', () => {
    expect(formatScore(84.8)).toBe('85');
    expect(formatScore(null)).toBe('—');
    expect([95, 90, 89.9, 80, 75, 69.9, null].map(scoreColor)).toEqual(['teal', 'teal', 'yellow', 'yellow', 'orange', 'red', 'gray']);
  });

  it('writes the formula with the terms that cost points, and the score it comes to', () => {
    const b = (
      behaviour: SafetyBehaviourScore['behaviour'],
      weight: number,
      rate: number,
      basis: SafetyBehaviourScore['basis'] = 'PER_1000_MI',
    ): SafetyBehaviourScore => ({
      behaviour,
      label: behaviour,
      basis,
      events: 1,
      seconds: 0,
      rate,
      weight,
      points: weight * rate,
    });
    const behaviours = [b('HARSH_BRAKING', 4, 2.5), b('HARSH_ACCELERATION', 1, 0), b('SPEEDING_HEAVY', 2, 3.1, 'PERCENT_OF_DRIVING_TIME')];
    expect(formulaText({ behaviours, score: 83.8, pointsLost: 16.2 })).toBe('100 − (4 × 2.50 + 2 × 3.10 %) = 83.8');
    expect(formulaText({ behaviours: [], score: null, pointsLost: 0 })).toBe('100 − (0) = —');
  });
});

describe('the speed trace', () => {
  it('ticks on whole minutes, at most seven, whatever the seconds of the first fix', () => {
    const at = (h: number, m: number, s = 0) => Date.UTC(2026, 10, 27, h, m, s);
    expect(minuteTicks([at(11, 3, 40), at(11, 9, 20)])).toEqual([at(11, 4), at(11, 5), at(11, 6), at(11, 7), at(11, 8), at(11, 9)]);
    expect(minuteTicks([at(11, 0, 10), at(11, 12, 0)])).toEqual([at(11, 2), at(11, 4), at(11, 6), at(11, 8), at(11, 10), at(11, 12)]);
    expect(minuteTicks([at(11, 0, 10), at(11, 0, 40)])).toBeUndefined();
    expect(minuteTicks([at(8, 0), at(12, 0)])).toBeUndefined();
  });
});

describe('the settings form', () => {
  const extra = { excludeYards: DEFAULT_SAFETY_SETTINGS.excludeYards, defaultVehicleClass: DEFAULT_SAFETY_SETTINGS.defaultVehicleClass, vehicleClasses: [] };
  const read = (changes: Record<string, string>, units: 'IMPERIAL' | 'METRIC' = 'IMPERIAL') => {
    const shown = settingsFormText(DEFAULT_SAFETY_SETTINGS, units);
    return readSettingsForm({ values: { ...shown, ...changes }, shown, initial: DEFAULT_SAFETY_SETTINGS, units, t, extra });
  };

  it('shows the defaults in mph and mph/s, and gives them back exactly when untouched', () => {
    const shown = settingsFormText(DEFAULT_SAFETY_SETTINGS, 'IMPERIAL');
    expect(shown['speeding.toleranceKph']).toBe('6');
    expect(shown['fleetMaxSpeedKph']).toBe('75');
    expect(shown['thresholds.HEAVY.accelerometer.braking']).toBe('8.72');
    expect(read({}).body).toEqual(DEFAULT_SAFETY_SETTINGS);
  });

  it('reads what was typed in the organization units as metric', () => {
    const { body, errors } = read({ fleetMaxSpeedKph: '70', 'thresholds.HEAVY.gps.braking': '10', 'weights.IDLING': '0.5' });
    expect(errors).toEqual({});
    expect(body!.fleetMaxSpeedKph).toBeCloseTo(112.654, 3);
    expect(body!.thresholds.HEAVY.gps.braking).toBeCloseTo(4.47, 2);
    expect(body!.weights.IDLING).toBe(0.5);
    expect(read({ fleetMaxSpeedKph: '110' }, 'METRIC').body!.fleetMaxSpeedKph).toBe(110);
  });

  it('names each bad field, and the bands that do not increase under the severe band', () => {
    expect(read({ idlingMinutes: '2.5', 'weights.CRASH': '-1', windowWeeks: '' }).errors).toEqual({
      idlingMinutes: 'Enter a whole number',
      'weights.CRASH': 'Enter 0 or more',
      windowWeeks: 'Enter a number',
    });
    const bands = read({ 'speeding.bands.HEAVY': '25' });
    expect(bands.body).toBeNull();
    expect(bands.errors).toEqual({ 'speeding.bands.SEVERE': 'The bands must increase: tolerance < moderate < heavy < severe' });
    expect(read({ idlingMinutes: '500' }).errors).toEqual({ idlingMinutes: 'Idling minutes must be at most 240' });
  });
});
