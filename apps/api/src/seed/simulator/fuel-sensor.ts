import { L_PER_US_GALLON, roundTo } from '@fleet/api-contract';
import { TruckPlan, warmUp, type TruckState } from './truck-plan.ts';

// The demo's fuel-level sensors (issue 68, decision 0276): tractors 110 (CAN, percent) and 116 (LV-CAN,
// litres) read the fuel in their 250 gal tanks. The level is what the plan says: full at each fuel
// stop (the pump runs from 2 minutes after the truck stops, for 5 minutes), then down with the miles;
// the fuel sloshes while driving and the sensor jitters a little standing. Deterministic, so the
// backfill and the live device agree. On tractor 110's first backfilled week, fuel is siphoned one
// night at a rest stop and the driver buys it back with cash before leaving (the incident).

/** Demo tractor index -> what its sensor reports. */
export const DEMO_FUEL_SENSORS: ReadonlyMap<number, 'PERCENT' | 'LITRES'> = new Map([
  [10, 'PERCENT'],
  [16, 'LITRES'],
]);
/** The sensor trucks' tanks: two 125 gal tanks. */
export const DEMO_TANK_L = roundTo(250 * L_PER_US_GALLON, 3);

const FULL_PCT = 95;
/** About 6.5 mpg. */
const L_PER_KM = 0.362;
const PUMP_AFTER_MS = 2 * 60_000;
const PUMP_MS = 5 * 60_000;

/** The night's siphoning and the cash refill before the truck leaves. */
export interface FuelIncident {
  dropAt: number;
  dropMs: number;
  dropPct: number;
  refuelAt: number;
  pumpMs: number;
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** The level the plan gives at `t` (percent of the tank), before the sensor's own wobble. */
function planPct(t: number, s: TruckState): number {
  const used = ((s.sinceFuelM / 1000) * L_PER_KM * 100) / DEMO_TANK_L;
  if (s.reason !== 'fuel') return FULL_PCT - used;
  // The fuel stop: the idling part holds the pump; the parked part after it is full.
  if (s.kind === 'PARK') return FULL_PCT;
  return FULL_PCT - used * (1 - clamp01((t - s.segmentStart - PUMP_AFTER_MS) / PUMP_MS));
}

/** The level the sensor reads at `t` in state `s` (percent), with the incident when the truck has one. */
export function demoFuelPct(index: number, t: number, s: TruckState, incident: FuelIncident | null = null): number {
  let pct = planPct(t, s);
  if (incident && t >= incident.dropAt && t < incident.refuelAt + incident.pumpMs) {
    pct -= incident.dropPct * clamp01((t - incident.dropAt) / incident.dropMs);
    if (t >= incident.refuelAt) pct += incident.dropPct * clamp01((t - incident.refuelAt) / incident.pumpMs);
  }
  // Sloshing on the road (a few percent); a sensor's jitter standing.
  const wobble = s.speed > 5 ? 3 * Math.sin(t / 23_000 + index) * Math.cos(t / 61_000) : 0.25 * Math.sin(t / 97_000 + index * 7);
  return Math.max(0, Math.min(100, pct + wobble));
}

/** The raw IO value the device sends: percent (89), or tenths of a litre (84); null for a truck without a sensor. */
export function demoFuelRaw(index: number, t: number, s: TruckState, incident: FuelIncident | null = null): number | null {
  const kind = DEMO_FUEL_SENSORS.get(index);
  if (!kind) return null;
  const pct = demoFuelPct(index, t, s, incident);
  return kind === 'PERCENT' ? Math.round(pct) : Math.round((pct * DEMO_TANK_L) / 100 / 0.1);
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Tractor 110's incident in the week before `until`: during the latest overnight rest between 6 and
 * 1.5 days before `until` that holds 08:00 UTC (2-3 AM in Chicago) with an hour before it and three
 * after, 22 % of the tank goes in 14 minutes; 45 minutes before the rest ends, the driver puts it back
 * (cash, at the truck stop). Null for other trucks, or when no rest fits.
 */
export async function demoFuelIncident(index: number, until: number): Promise<FuelIncident | null> {
  if (index !== 10) return null;
  const from = until - 6 * DAY;
  const plan = new TruckPlan(index);
  await warmUp([plan], from);
  let found: FuelIncident | null = null;
  for (let day = Math.ceil(from / DAY) * DAY; day + 8 * HOUR < until - 1.5 * DAY; day += DAY) {
    const night = day + 8 * HOUR + 7 * 60_000;
    const seg = plan.segmentAt(night);
    if (seg.kind !== 'PARK' || (seg.reason !== 'rest' && seg.reason !== 'restart')) continue;
    if (night - seg.start < HOUR || seg.end - night < 3 * HOUR) continue;
    found = { dropAt: night, dropMs: 14 * 60_000, dropPct: 22, refuelAt: seg.end - 45 * 60_000, pumpMs: 6 * 60_000 };
  }
  return found;
}

/**
 * Where tractor 116 stood 40 minutes into an overnight rest between `from` + 1 day and `until` - 1 day,
 * with its tank at most 80 % full: the demo's card purchase there (a card used where the truck stood,
 * for fuel that never went into it) is the one whose fill is not seen.
 */
export async function demoNoFillStop(from: number, until: number): Promise<{ t: number; lat: number; lon: number } | null> {
  const plan = new TruckPlan(16);
  await warmUp([plan], from + DAY);
  for (let t = from + DAY; t < until - DAY; t += 30 * 60_000) {
    const seg = plan.segmentAt(t);
    if (seg.kind !== 'PARK' || seg.reason !== 'rest' || seg.start < from + DAY) continue;
    const at = seg.start + 40 * 60_000;
    const s = plan.stateAt(at);
    if (planPct(at, s) <= 80) return { t: at, lat: s.lat, lon: s.lon };
  }
  return null;
}
