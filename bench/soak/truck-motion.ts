// How a soak truck moves (bench/soak.ts): along the straight (great-circle) line from one US city to
// the next across a state line, crossing it early in the run, then a stop (parked with the engine off,
// or idling) at a place of its own, then on again. Enough for every fact derived from positions to
// happen within minutes: Driving and On duty, trips and stops, an arrival and a departure at the
// place, IFTA miles in two states with a crossing; and a fuel level (decision 0276) that a quarter of
// the trucks refill at the stop and a quarter lose there. Pure and seeded: device i moves the same way
// in the soak and in its replay.
import { bearingDeg, destination, distanceM, type LatLon } from '@fleet/geo';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { CITIES, ROADS } from '../../apps/api/src/seed/simulator/network.ts';
import { seededRandom } from '../../apps/api/src/lib/seeded-random.ts';

/** One fix as a device reports it; speed km/h, odometer metres, time epoch ms (whole seconds). */
export interface Fix {
  time: number;
  lat: number;
  lon: number;
  speedKmh: number;
  course: number;
  ignition: boolean;
  odometerM: number;
  altitudeM: number;
  /** The fuel level, percent of the tank: sloshing on the road, a refill or a loss at the stop. */
  fuelPct: number;
}

/** A circle place where the truck stops, with dwell times that fit the stop. */
export interface StopPlace {
  name: string;
  center: LatLon;
  radiusM: number;
  arrivalDwellS: number;
  departureDwellS: number;
}

export interface TruckRoute {
  /** Where the great circle starts (a city) and its bearing there; the truck is `startM` along it at the run's start. */
  origin: LatLon;
  bearing: number;
  startM: number;
  speedKmh: number;
  /** The state line the truck crosses before its stop. */
  crossing: { fromState: string; toState: string; atM: number };
  /** From the run's start (ms): when the truck stops and for how long. */
  stopAtMs: number;
  stopMs: number;
  /** Idling at the stop (engine on) instead of parked with the engine off. */
  idling: boolean;
  /** What the fuel level does at the stop: a refuel, a drop, or nothing. */
  fuelAtStop: 'REFUEL' | 'DROP' | null;
  odometerStartM: number;
  place: StopPlace | null;
}

/** A city-to-city line that crosses a state line, and how far from the first city it does. */
interface CrossingLine {
  origin: LatLon;
  bearing: number;
  lengthM: number;
  crossingM: number;
  fromState: string;
  toState: string;
}

const stateAt = (p: LatLon): string | null => jurisdictionAt(p.lat, p.lon)?.code ?? null;

/** Where the line first enters another state: sampled every 2 km, then halved down to 5 m. */
function firstCrossing(origin: LatLon, bearing: number, lengthM: number): { atM: number; from: string; to: string } | null {
  const from = stateAt(origin);
  if (!from) return null;
  for (let d = 2000; d < lengthM; d += 2000) {
    const s = stateAt(destination(origin, bearing, d));
    if (s === null || s === from) continue;
    let lo = d - 2000;
    let hi = d;
    while (hi - lo > 5) {
      const mid = (lo + hi) / 2;
      if (stateAt(destination(origin, bearing, mid)) === s) hi = mid;
      else lo = mid;
    }
    return { atM: hi, from, to: s };
  }
  return null;
}

let lines: CrossingLine[] | null = null;

/** Every road of the demo network, both ways, whose straight line crosses a state line (computed once). */
export function crossingLines(): readonly CrossingLine[] {
  if (lines) return lines;
  lines = [];
  for (const [a, b] of ROADS) {
    for (const [p, q] of [
      [CITIES[a]!, CITIES[b]!],
      [CITIES[b]!, CITIES[a]!],
    ] as const) {
      const origin = { lat: p.lat, lon: p.lon };
      const bearing = bearingDeg(origin, q);
      const lengthM = distanceM(origin, q);
      const c = firstCrossing(origin, bearing, lengthM);
      if (c) lines.push({ origin, bearing, lengthM, crossingM: c.atM, fromState: c.from, toState: c.to });
    }
  }
  return lines;
}

/**
 * Device `index`'s route for a run of `runMs`: it drives from the start, crosses a state line a
 * third to two thirds of the way to its stop, stops for a quarter of the run (7 minutes at most: past
 * the 5 minutes that end a trip and turn Driving into On duty) a third to half into the run, and
 * drives on to the end. Every second truck has a place around its stop.
 */
export function truckRoute(index: number, runMs: number, withPlace: boolean): TruckRoute {
  const random = seededRandom(0x50a6 + index * 7919);
  const all = crossingLines();
  const line = all[index % all.length]!;
  const speedKmh = 88 + random() * 17;
  const stopAtMs = Math.round(runMs * (0.3 + random() * 0.15));
  const stopMs = Math.round(Math.min(7 * 60_000, Math.max(20_000, runMs * 0.25)));
  const beforeStopM = (speedKmh / 3.6) * (stopAtMs / 1000);
  // The crossing a third to two thirds of the way to the stop; never before the line's first city.
  const startM = Math.max(0, line.crossingM - beforeStopM * (0.35 + random() * 0.3));
  const idling = index % 3 === 0;
  const stopPoint = destination(line.origin, line.bearing, startM + beforeStopM);
  const stopS = stopMs / 1000;
  const place: StopPlace | null = withPlace
    ? {
        name: `Soak stop ${String(index).padStart(4, '0')}`,
        center: stopPoint,
        radiusM: 250,
        // The defaults (120 s and 60 s) where the stop is long enough; shorter in a short run.
        arrivalDwellS: Math.min(120, Math.floor(stopS * 0.4)),
        departureDwellS: Math.min(60, Math.floor(stopS * 0.3)),
      }
    : null;
  return {
    origin: line.origin,
    bearing: line.bearing,
    startM,
    speedKmh,
    crossing: { fromState: line.fromState, toState: line.toState, atM: line.crossingM },
    stopAtMs,
    stopMs,
    idling,
    fuelAtStop: index % 4 === 1 ? 'REFUEL' : index % 4 === 2 ? 'DROP' : null,
    odometerStartM: (100_000 + index * 137) * 1000,
    place,
  };
}

/** The truck's fix `sinceStartMs` after the run's start (`time` is the fix's epoch ms). */
export function fixAt(route: TruckRoute, sinceStartMs: number, time: number): Fix {
  const mps = route.speedKmh / 3.6;
  const stopped = sinceStartMs >= route.stopAtMs && sinceStartMs < route.stopAtMs + route.stopMs;
  const drivingMs = sinceStartMs < route.stopAtMs ? sinceStartMs : stopped ? route.stopAtMs : sinceStartMs - route.stopMs;
  const travelledM = mps * (drivingMs / 1000);
  const p = destination(route.origin, route.bearing, route.startM + travelledM);
  // A small, repeatable wobble around the cruise speed, as a real speedometer shows.
  const speedKmh = stopped ? 0 : Math.max(0, route.speedKmh + Math.sin(time / 37_000) * 3);
  return {
    time,
    lat: Math.round(p.lat * 1e6) / 1e6,
    lon: Math.round(p.lon * 1e6) / 1e6,
    speedKmh: Math.round(speedKmh * 10) / 10,
    course: Math.round(route.bearing),
    ignition: !stopped || route.idling,
    odometerM: Math.round(route.odometerStartM + travelledM),
    altitudeM: 200,
    fuelPct: fuelPctAt(route, sinceStartMs, travelledM, stopped, time),
  };
}

/**
 * The fuel level: 60 % less what the miles burnt; at the stop, from a minute in, 30 % more over 45 s
 * (a refuel) or 15 % less (a drop), kept after (so a stop of 3 minutes or more has it settled when the
 * truck drives off); on the road the fuel sloshes a few percent. One decimal, as a sensor reports it.
 */
function fuelPctAt(route: TruckRoute, sinceStartMs: number, travelledM: number, stopped: boolean, time: number): number {
  const intoStop = sinceStartMs - route.stopAtMs - 60_000;
  const change = route.fuelAtStop === 'REFUEL' ? 30 : route.fuelAtStop === 'DROP' ? -15 : 0;
  const done = intoStop <= 0 ? 0 : Math.min(1, intoStop / 45_000);
  const level = 60 - travelledM / 30_000 + change * done;
  const slosh = stopped ? 0 : 4 * Math.sin(time / 9_000) * Math.cos(time / 23_000);
  return Math.round((level + slosh) * 10) / 10;
}
