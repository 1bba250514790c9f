import { describe, expect, it } from 'vitest';
import { crossingsOfTrack } from '../../modules/hos/hos-crossings.ts';
import { DEMO_BORDER_TRUCK, TruckPlan } from './truck-plan.ts';

// Issue 72's demo: the driver of truck 120 runs Detroit to Toronto and back, crossing the border at
// the Detroit River each way, every week.

describe('the border truck', () => {
  it('crosses into Canada and back several times in any week, over the Detroit River', () => {
    const plan = new TruckPlan(DEMO_BORDER_TRUCK);
    const start = Date.UTC(2026, 10, 16);
    const track = [];
    for (let t = start; t < start + 7 * 86_400_000; t += 60_000) {
      const s = plan.stateAt(t);
      track.push({ time: t, lat: s.lat, lon: s.lon, speedKmh: s.speed, vehicleId: null });
    }
    const crossings = crossingsOfTrack(track);
    expect(crossings.filter((c) => c.to === 'CA').length).toBeGreaterThanOrEqual(3);
    expect(crossings.filter((c) => c.to === 'US').length).toBeGreaterThanOrEqual(3);
    // Alternating, each at the Ambassador Bridge between Detroit and Windsor.
    for (let i = 1; i < crossings.length; i++) expect(crossings[i]!.from).toBe(crossings[i - 1]!.to);
    for (const c of crossings) {
      expect(c.lat).toBeGreaterThan(42.28);
      expect(c.lat).toBeLessThan(42.33);
      expect(c.lon).toBeGreaterThan(-83.09);
      expect(c.lon).toBeLessThan(-83.05);
    }
    // Toronto is reached: the truck stands at the far end of the run.
    expect(track.some((f) => f.lon > -79.45 && f.lat > 43.6)).toBe(true);
  });
});
