import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { bearingDeg, distanceM, type LatLon } from '@fleet/geo';
import { CITIES, roadGeometry, ROADS } from './network.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

// A demo truck's life as a sequence of segments (drive, idle, park) generated from a seeded random
// stream starting at a fixed epoch. Any instant's state is found by walking segments, not seconds,
// so the same truck is in the same place at the same time on every start: history written on a
// previous run, the backfill and the live posts all agree, and restarts are idempotent.

/** Where every truck's life starts. */
export const SIM_EPOCH = Date.UTC(2026, 0, 1);

export type SegmentKind = 'DRIVE' | 'IDLE' | 'PARK';

export interface Segment {
  kind: SegmentKind;
  start: number;
  end: number;
  from: LatLon;
  to: LatLon;
  /** km/h while driving. */
  speed: number;
  /** Odometer (m) at the start. */
  odometer: number;
  /** The engine's running time (ms) since the plan's epoch at the start: driving and idling. */
  engineMs: number;
  /** Why the truck stands: break, fuel, rest, load. */
  reason?: string;
  /** Metres driven since the last fuel stop, at the start (the demo's fuel-level sensors read it). */
  sinceFuelM: number;
}

export interface TruckState {
  lat: number;
  lon: number;
  /** km/h. */
  speed: number;
  course: number;
  ignition: boolean;
  /** Metres. */
  odometer: number;
  /** The engine's running time (ms) since the plan's epoch (its hour meter without the starting value). */
  engineMs: number;
  kind: SegmentKind;
  /** Metres driven since the last fuel stop; the segment's reason and start (a fuel stop's pump follows its start). */
  sinceFuelM: number;
  reason?: string;
  segmentStart: number;
}

const neighbours = new Map<string, string[]>();
for (const [a, b] of ROADS) {
  neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  neighbours.set(b, [...(neighbours.get(b) ?? []), a]);
}
const CITY_CODES = Object.keys(CITIES);

/** Shortest path by road length (Dijkstra on the small graph). */
export function roadPath(from: string, to: string): string[] {
  const dist = new Map<string, number>([[from, 0]]);
  const prev = new Map<string, string>();
  const open = new Set<string>([from]);
  while (open.size) {
    let best: string | null = null;
    for (const c of open) if (best === null || dist.get(c)! < dist.get(best)!) best = c;
    open.delete(best!);
    if (best === to) break;
    for (const n of neighbours.get(best!) ?? []) {
      const d = dist.get(best!)! + distanceM(CITIES[best!]!, CITIES[n]!);
      if (d < (dist.get(n) ?? Infinity)) {
        dist.set(n, d);
        prev.set(n, best!);
        open.add(n);
      }
    }
  }
  const path = [to];
  while (path[0] !== from) {
    const p = prev.get(path[0]!);
    if (!p) return [from];
    path.unshift(p);
  }
  return path;
}

const HOUR = 3_600_000;
const DRIVE_PER_SHIFT = 10 * HOUR;

/**
 * The demo truck whose driver runs Detroit to Toronto and back (issue 72): over the Ambassador
 * Bridge and Highway 401, so the log crosses the border twice a round trip and follows Canada's
 * rules on the Ontario side.
 */
export const DEMO_BORDER_TRUCK = 20;
const TORONTO: LatLon = { lat: 43.6532, lon: -79.3832 };
/** Detroit to Toronto: the Ambassador Bridge into Windsor, then the 401 by Chatham, London and Cambridge. */
const DETROIT_TORONTO: readonly LatLon[] = Object.freeze([
  { lat: 42.3314, lon: -83.0458 },
  { lat: 42.3186, lon: -83.0739 },
  { lat: 42.3123, lon: -83.0757 },
  { lat: 42.3015, lon: -83.0686 },
  { lat: 42.2525, lon: -82.9635 },
  { lat: 42.2183, lon: -82.7375 },
  { lat: 42.3539, lon: -82.2264 },
  { lat: 42.4046, lon: -82.1853 },
  { lat: 42.6156, lon: -81.6823 },
  { lat: 42.9417, lon: -81.2284 },
  { lat: 43.1315, lon: -80.7467 },
  { lat: 43.1761, lon: -80.4469 },
  { lat: 43.3881, lon: -80.3271 },
  { lat: 43.5231, lon: -79.8711 },
  { lat: 43.6148, lon: -79.6539 },
  { lat: 43.6512, lon: -79.5158 },
  TORONTO,
]);
/** The truck stop a driver rests at after unloading late in the shift: outside every demo place's fence. */
const TRUCK_STOP_OFFSET_M = 3_000;
const HOP_KMH = 40;

/** The point `metres` north-east of `p` (a flat-earth step: a few km at most). */
function offsetM(p: LatLon, metres: number): LatLon {
  const d = metres / Math.SQRT2 / 111_320;
  return { lat: p.lat + d, lon: p.lon + d / Math.cos((p.lat * Math.PI) / 180) };
}

/** Generates one truck's segments lazily, in time order, from SIM_EPOCH. */
export class TruckPlan {
  private segments: Segment[] = [];
  private readonly random: () => number;
  private city: string;
  private odometer: number;
  private engineMs = 0;
  private clock = SIM_EPOCH;
  private drivenSinceBreak = 0;
  private drivenToday = 0;
  private sinceFuelM = 0;
  /** When the current shift began (after the last 10-hour rest), for the 14-hour window. */
  private shiftStart = SIM_EPOCH;
  private shiftsSinceRestart = 0;
  private cursor = 0;
  /** The odometer (m) at the plan's epoch. */
  readonly startOdometerM: number;

  constructor(readonly index: number) {
    this.random = seededRandom(0x5eed + index * 7919);
    this.city = CITY_CODES[Math.floor(this.random() * CITY_CODES.length)]!;
    // The border truck starts its life at its Detroit terminal.
    if (index === DEMO_BORDER_TRUCK) this.city = 'DET';
    this.odometer = (150_000 + Math.floor(this.random() * 450_000)) * 1000;
    this.startOdometerM = this.odometer;
    // Trucks start their first day at different hours.
    this.push('PARK', this.here(), this.here(), Math.floor(this.random() * 12 * HOUR), 0, 'rest');
    this.shiftStart = this.clock;
    // Trucks take their restarts on different days.
    this.shiftsSinceRestart = index % 5;
  }

  /**
   * Ends the shift with a rest (10 hours off duty), or a restart (34 hours) after every fifth shift, so the
   * drivers' logs (derived from these segments, decision 0095) stay within the 70-hour cycle.
   */
  private rest(at: LatLon): void {
    this.push('IDLE', at, at, 5 * 60_000, 0, 'rest');
    this.shiftsSinceRestart++;
    const restart = this.shiftsSinceRestart >= 5;
    if (restart) this.shiftsSinceRestart = 0;
    // An hour more than the rule: the driver's post-trip and pre-trip inspections are on duty.
    this.push('PARK', at, at, restart ? 35 * HOUR : 11 * HOUR, 0, restart ? 'restart' : 'rest');
    this.shiftStart = this.clock;
    this.drivenToday = 0;
    this.drivenSinceBreak = 0;
  }

  private here(): LatLon {
    if (this.city === 'TOR') return TORONTO;
    const c = CITIES[this.city]!;
    return { lat: c.lat, lon: c.lon };
  }

  private push(kind: SegmentKind, from: LatLon, to: LatLon, durationMs: number, speed: number, reason?: string): void {
    const seg: Segment = {
      kind,
      start: this.clock,
      end: this.clock + durationMs,
      from,
      to,
      speed,
      odometer: this.odometer,
      engineMs: this.engineMs,
      reason,
      sinceFuelM: this.sinceFuelM,
    };
    this.segments.push(seg);
    this.clock = seg.end;
    if (kind === 'DRIVE') this.odometer += distanceM(from, to);
    if (kind !== 'PARK') this.engineMs += durationMs;
  }

  /** One trip: pick a destination 2-6 road hops away, drive it with breaks, fuel and rest, unload. */
  private planTrip(): void {
    if (this.index === DEMO_BORDER_TRUCK) {
      // Detroit to Toronto, or back.
      this.driveLeg(this.city === 'DET' ? DETROIT_TORONTO : [...DETROIT_TORONTO].reverse());
      this.city = this.city === 'DET' ? 'TOR' : 'DET';
      this.unloadAndLoad();
      return;
    }
    let path: string[] = [this.city];
    for (let tries = 0; tries < 20 && (path.length < 3 || path.length > 7); tries++) {
      const dest = CITY_CODES[Math.floor(this.random() * CITY_CODES.length)]!;
      path = dest === this.city ? [this.city] : roadPath(this.city, dest);
    }
    for (let i = 1; i < path.length; i++) {
      this.driveLeg(roadGeometry(path[i - 1]!, path[i]!));
      this.city = path[i]!;
    }
    this.unloadAndLoad();
  }

  private unloadAndLoad(): void {
    // Unload and load: some idling at the dock, then parked.
    this.push('IDLE', this.here(), this.here(), (10 + this.random() * 20) * 60_000, 0, 'dock');
    // Late in the shift: the rest comes first, loading happens after it. A driver rests at a truck
    // stop, not at the customer's dock (a night in the customer's fence read as 12 h of detention).
    if (this.clock - this.shiftStart >= 9 * HOUR) {
      const truckStop = offsetM(this.here(), TRUCK_STOP_OFFSET_M);
      this.hop(this.here(), truckStop);
      this.rest(truckStop);
      this.hop(truckStop, this.here());
    }
    this.push('PARK', this.here(), this.here(), (1 + this.random() * 2) * HOUR, 0, 'load');
  }

  /** A few minutes at town speed between the dock and the truck stop. */
  private hop(from: LatLon, to: LatLon): void {
    const ms = (distanceM(from, to) / (HOP_KMH / 3.6)) * 1000;
    this.push('DRIVE', from, to, ms, HOP_KMH);
    this.drivenToday += ms;
    this.drivenSinceBreak += ms;
  }

  /**
   * Drives a city-to-city leg along its road polyline, in straight pieces that end at the road's
   * vertices, every ~20 minutes (a new cruise speed) and where a break, fuel stop or rest falls.
   */
  private driveLeg(road: readonly LatLon[]): void {
    let vertex = 1;
    let from = road[0]!;
    let speed = 0;
    let stretchMs = Infinity;
    while (vertex < road.length) {
      if (stretchMs >= 1_200_000) {
        speed = 92 + this.random() * 14;
        stretchMs = 0;
      }
      const mps = speed / 3.6;
      const target = road[vertex]!;
      const toVertex = distanceM(from, target);
      const untilBreak = Math.max(60_000, 4 * HOUR - this.drivenSinceBreak);
      // 10 hours of driving a shift (the ELD adds 5 minutes of each stop) within 12 of the window.
      const untilRest = Math.max(60_000, Math.min(DRIVE_PER_SHIFT - this.drivenToday, 12 * HOUR - (this.clock - this.shiftStart)));
      const untilFuel = Math.max(1000, 1_000_000 - this.sinceFuelM);
      const pieceM = Math.min(toVertex, (mps * (1_200_000 - stretchMs)) / 1000, (mps * Math.min(untilBreak, untilRest)) / 1000, untilFuel);
      const f = toVertex > 0 ? pieceM / toVertex : 1;
      const to = f >= 1 - 1e-9 ? target : { lat: from.lat + (target.lat - from.lat) * f, lon: from.lon + (target.lon - from.lon) * f };
      if (to === target) vertex++;
      if (pieceM <= 0) {
        from = to;
        continue;
      }
      const ms = (pieceM / mps) * 1000;
      this.push('DRIVE', from, to, ms, speed);
      from = to;
      stretchMs += ms;
      this.drivenSinceBreak += ms;
      this.drivenToday += ms;
      this.sinceFuelM += pieceM;
      if (this.drivenToday >= DRIVE_PER_SHIFT - 1000 || this.clock - this.shiftStart >= 12 * HOUR - 1000) {
        this.rest(to);
        stretchMs = Infinity;
      } else if (this.sinceFuelM >= 1_000_000 - 1) {
        this.push('IDLE', to, to, (8 + this.random() * 7) * 60_000, 0, 'fuel');
        this.push('PARK', to, to, (10 + this.random() * 15) * 60_000, 0, 'fuel');
        this.sinceFuelM = 0;
        this.drivenSinceBreak = 0;
        stretchMs = Infinity;
      } else if (this.drivenSinceBreak >= 4 * HOUR - 1000) {
        this.push('IDLE', to, to, 3 * 60_000, 0, 'break');
        // 35 minutes parked: with the 5 minutes the ELD still counts as driving, 30 off the wheel.
        this.push('PARK', to, to, 35 * 60_000, 0, 'break');
        this.drivenSinceBreak = 0;
        stretchMs = Infinity;
      }
    }
  }

  /** The segment covering `t`: a cursor walks forward; a time before the segments kept replans from the epoch. */
  segmentAt(t: number): Segment {
    // Looking days ahead (a load's dock time) drops the old segments; asking for an earlier time after
    // that once answered a later segment (a truck a day's drive from where its history ends).
    if (this.segments.length && t < this.segments[0]!.start) Object.assign(this, new TruckPlan(this.index));
    while (this.clock <= t) this.planTrip();
    if (this.cursor >= this.segments.length || this.segments[this.cursor]!.start > t) this.cursor = 0;
    while (this.segments[this.cursor]!.end <= t) this.cursor++;
    // Old segments are dropped so a long-running server does not keep months of plan (a week is about
    // 1,600 segments). A new array, not splice: splice keeps the old backing store.
    if (this.cursor > 1000) {
      this.segments = this.segments.slice(this.cursor - 100);
      this.cursor = 100;
    }
    return this.segments[this.cursor]!;
  }

  /** When the engine last started or stopped at or before `t`: the start of the run of segments with the ignition `t` has. */
  ignitionSince(t: number): number {
    const on = this.segmentAt(t).kind !== 'PARK';
    let i = this.cursor;
    while (i > 0 && (this.segments[i - 1]!.kind !== 'PARK') === on) i--;
    // A device's clock counts whole milliseconds; a segment's start is a fraction of one (decision 0298).
    // Rounded up, so the record's moment lies in the segment and reads its state (ignition, engine hours).
    return Math.ceil(this.segments[i]!.start);
  }

  stateAt(t: number): TruckState {
    const s = this.segmentAt(t);
    const engineMs = s.kind === 'PARK' ? s.engineMs : s.engineMs + (t - s.start);
    const fuel = { sinceFuelM: s.sinceFuelM, reason: s.reason, segmentStart: s.start };
    if (s.kind !== 'DRIVE')
      return { lat: s.from.lat, lon: s.from.lon, speed: 0, course: 0, ignition: s.kind === 'IDLE', odometer: s.odometer, engineMs, kind: s.kind, ...fuel };
    const f = (t - s.start) / (s.end - s.start);
    const lat = s.from.lat + (s.to.lat - s.from.lat) * f;
    const lon = s.from.lon + (s.to.lon - s.from.lon) * f;
    const along = distanceM(s.from, { lat, lon });
    // Small, repeatable speed wobble around the cruise speed.
    const wobble = Math.sin(t / 37_000 + this.index) * 3;
    return {
      lat,
      lon,
      speed: Math.max(0, s.speed + wobble),
      course: bearingDeg(s.from, s.to),
      ignition: true,
      odometer: s.odometer + along,
      engineMs,
      kind: 'DRIVE',
      ...fuel,
      sinceFuelM: s.sinceFuelM + along,
    };
  }
}

const WEEK_MS = 7 * 86_400_000;

/**
 * Walks each plan from SIM_EPOCH up to `until` a week at a time, letting the event loop turn between
 * steps. A plan's first walk covers months of segments (100-250 ms a truck on a quiet machine); done
 * in the simulator's first ticks, two or three trucks a tick held every request up for over a second
 * just after the first start said it was ready (issue 28).
 */
export async function warmUp(plans: readonly TruckPlan[], until: number, stopped: () => boolean = () => false): Promise<void> {
  for (const plan of plans) {
    for (let t = SIM_EPOCH; t < until && !stopped(); t += WEEK_MS) {
      plan.segmentAt(t);
      await yieldToEventLoop();
    }
  }
}
