import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY_SETTINGS, type SafetyEventType } from '@fleet/api-contract';
import {
  blankSafetyTrack,
  draftKey,
  openDrafts,
  stepSafety,
  type DeviceSignal,
  type EventDraft,
  type MachineContext,
  type SafetyFix,
} from './safety-machine.ts';
import { blankReferenceTrack, stepSafetyReference } from './safety-machine.reference.ts';

// The safety machine allocates nothing for a quiet fix, skips the limit where no speeding can be, and
// drafts an episode under way only when asked (openDrafts, at a round's end), not at every fix
// (decision 0199's follower cost). Property: over any stream of fixes cut into rounds anywhere, the
// events written (the latest draft of each key) equal the plain reference machine's
// (safety-machine.reference.ts), which drafts every episode under way after every fix.

const ctxOf = (gpsHarsh: boolean): MachineContext => ({
  settings: { ...DEFAULT_SAFETY_SETTINGS, idlingMinutes: 1, speeding: { ...DEFAULT_SAFETY_SETTINGS.speeding, minSeconds: 5 } },
  thresholds: DEFAULT_SAFETY_SETTINGS.thresholds.HEAVY,
  gpsHarsh,
  // A 90 km/h zone west of -88°, none east of it.
  limitAt: (_lat, lon) => (lon < -88 ? { kph: 90, source: 'test zone' } : null),
  inYard: (lat) => lat > 41.5,
});

const SIGNAL_TYPES: SafetyEventType[] = ['HARSH_BRAKING', 'MAX_SPEED', 'TOWING', 'CRASH'];
const step = fc.record({
  dt: fc.oneof(fc.constant(1000), fc.integer({ min: 200, max: 3000 }), fc.integer({ min: 60_000, max: 1_000_000 })),
  speed: fc.oneof(fc.constant(null), fc.constant(0), fc.integer({ min: 0, max: 160 })),
  lon: fc.constantFrom(-89, -87),
  lat: fc.constantFrom(41, 42),
  ignition: fc.constantFrom(true, false, null),
  idling: fc.constantFrom(true, null),
  fuel: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
  signal: fc.option(fc.constantFrom(...SIGNAL_TYPES), { freq: 8, nil: null }),
  cut: fc.boolean(),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function fixesOf(steps: Step[]): Array<SafetyFix & { cut: boolean }> {
  let t = Date.UTC(2026, 10, 2);
  return steps.map((s) => {
    t += s.dt;
    const signals: DeviceSignal[] = s.signal ? [{ type: s.signal, source: 'DEVICE', strength: null, speed: null }] : [];
    return { t, lat: s.lat, lon: s.lon, speed: s.speed, ignition: s.ignition, driverId: null, signals, idling: s.idling, fuelUsedL: s.fuel, cut: s.cut };
  });
}

describe('the safety machine drafting episodes under way on demand', () => {
  it('writes the same events as drafting them at every fix, however the fixes are cut into rounds', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 200 }), fc.boolean(), (steps, gps) => {
        const ctx = ctxOf(gps);
        const fixes = fixesOf(steps);
        // The reference: every fix's drafts, the latest of each key kept.
        const plain = new Map<string, EventDraft>();
        const a = blankReferenceTrack();
        for (const f of fixes) for (const d of stepSafetyReference(a, f, ctx)) plain.set(draftKey(d), d);
        // The fast path: rounds ending where `cut` says, open episodes drafted at each round's end.
        const fast = new Map<string, EventDraft>();
        const b = blankSafetyTrack();
        for (const [i, f] of fixes.entries()) {
          for (const d of stepSafety(b, f, ctx)) fast.set(draftKey(d), d);
          if (f.cut || i === fixes.length - 1) for (const d of openDrafts(b, ctx)) fast.set(draftKey(d), d);
        }
        expect(fast).toEqual(plain);
      }),
      { numRuns: Number(process.env.RUNS ?? 300) },
    );
  });
});
