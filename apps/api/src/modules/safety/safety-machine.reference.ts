// The plain reference of the safety machine (decision 0199), as it was before the follower's cost was
// cut: it drafts every episode under way at every fix, allocates freely and looks the limit up at every
// fix. Only safety-machine.test.ts uses it, to check the fast machine against it on random streams.
import type { SafetyEventType, SafetySeverity, SpeedingBand } from '@fleet/api-contract';
import {
  bandOf,
  centralAcceleration,
  harshSeverity,
  IDLE_GAP_MS,
  SPEED_GAP_MS,
  STILL_KPH,
  type DeviceSignal,
  type EventDraft,
  type MachineContext,
  type SafetyFix,
} from './safety-machine.ts';

const REPEAT_MS = 300_000;
const BEFORE_MS = 30_000;
const REPEATED: ReadonlySet<SafetyEventType> = new Set(['TOWING', 'JAMMING', 'MAX_SPEED']);

interface SpeedEpisode {
  start: SafetyFix;
  last: SafetyFix;
  maxSpeed: number;
  /** The highest "held" excess (the lower of two consecutive fixes' excesses), km/h. */
  maxHeld: number;
  lastOver: number;
  /** The limit at the last fix. */
  lastLimitKph: number;
  lastLimitSource: string;
  /** The stretch that set the band (`maxHeld`): its limit and the speed held there (issue 66). */
  limitKph: number;
  limitSource: string;
  heldSpeed: number;
  bandSeconds: Partial<Record<SpeedingBand, number>>;
}

interface IdleEpisode {
  start: SafetyFix;
  last: SafetyFix;
  device: boolean;
  fuelStart: number | null;
  fuelLast: number | null;
}

interface HarshEpisode {
  type: 'HARSH_ACCELERATION' | 'HARSH_BRAKING';
  start: SafetyFix;
  last: SafetyFix;
  peak: number;
  speedBefore: number | null;
  speedAfter: number | null;
  threshold: number;
}

/** A vehicle's state: its last two fixes and the episodes open. */
interface SafetyTrack {
  t: number;
  a: SafetyFix | null;
  b: SafetyFix | null;
  speeding: SpeedEpisode | null;
  maxSpeed: SpeedEpisode | null;
  idling: IdleEpisode | null;
  harsh: HarshEpisode | null;
}

export const blankReferenceTrack = (): SafetyTrack => ({ t: -Infinity, a: null, b: null, speeding: null, maxSpeed: null, idling: null, harsh: null });

/** Nothing open: what follows depends only on the fixes from here on (and this one, the last). */

const SPEEDING_SEVERITY: Record<SpeedingBand, SafetySeverity> = { LIGHT: 'LOW', MODERATE: 'MEDIUM', HEAVY: 'HIGH', SEVERE: 'HIGH' };

const POINT_SEVERITY: Partial<Record<SafetyEventType, SafetySeverity>> = {
  CRASH: 'CRITICAL',
  TOWING: 'HIGH',
  JAMMING: 'MEDIUM',
  MAX_SPEED: 'MEDIUM',
  IDLING: 'LOW',
};

const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

/** Works one fix (later than the track's last); returns the events it made or moved. */
export function stepSafetyReference(s: SafetyTrack, f: SafetyFix, ctx: MachineContext): EventDraft[] {
  const out: EventDraft[] = [];
  const prev = s.b;
  // Point events the device reported.
  for (const sig of f.signals) {
    // A state a device repeats in every record (towing, jamming, its over-speeding) is one event until it stops.
    if (REPEATED.has(sig.type) && prev && f.t - prev.t <= REPEAT_MS && prev.signals.some((p) => p.type === sig.type)) continue;
    out.push(pointEvent(sig, f, prev, ctx));
  }
  // Episodes.
  const limit = f.speed !== null ? ctx.limitAt(f.lat, f.lon) : null;
  const tol = ctx.settings.speeding.toleranceKph;
  const over = f.speed !== null && limit ? f.speed - limit.kph : null;
  s.speeding = stepSpeed(s.speeding, f, over !== null && over > tol ? { over, limit: limit! } : null, out, ctx, 'SPEEDING');
  const fleetOver = f.speed !== null ? f.speed - ctx.settings.fleetMaxSpeedKph : null;
  s.maxSpeed = stepSpeed(
    s.maxSpeed,
    f,
    fleetOver !== null && fleetOver > 0 ? { over: fleetOver, limit: { kph: ctx.settings.fleetMaxSpeedKph, source: 'Fleet maximum speed' } } : null,
    out,
    ctx,
    'MAX_SPEED',
  );
  s.idling = stepIdle(s.idling, f, out, ctx);
  if (ctx.gpsHarsh) s.harsh = stepHarsh(s, f, out, ctx);
  s.a = s.b;
  s.b = f;
  s.t = f.t;
  return out;
}

function pointEvent(sig: DeviceSignal, f: SafetyFix, prev: SafetyFix | null, ctx: MachineContext): EventDraft {
  const thr = ctx.thresholds.accelerometer;
  const threshold = sig.type === 'HARSH_ACCELERATION' ? thr.acceleration : sig.type === 'HARSH_BRAKING' ? thr.braking : thr.cornering;
  const harsh = sig.type === 'HARSH_ACCELERATION' || sig.type === 'HARSH_BRAKING' || sig.type === 'HARSH_CORNERING';
  const speedNow = sig.speed ?? f.speed;
  return {
    type: sig.type,
    source: sig.source,
    severity: harsh ? harshSeverity(sig.strength, threshold) : sig.type === 'SPEEDING' ? 'MEDIUM' : (POINT_SEVERITY[sig.type] ?? 'MEDIUM'),
    startedAt: f.t,
    endedAt: f.t,
    driverId: f.driverId,
    lat: f.lat,
    lon: f.lon,
    speedBeforeKph: prev && f.t - prev.t <= BEFORE_MS ? prev.speed : null,
    speedAfterKph: f.speed,
    maxSpeedKph: speedNow,
    limitKph: null,
    limitSource: sig.type === 'MAX_SPEED' || sig.type === 'SPEEDING' ? "The device's over-speeding setting" : null,
    heldSpeedKph: null,
    band: null,
    bandSeconds: null,
    strengthMps2: sig.strength,
    fuelBurnedL: null,
    open: false,
  };
}

function speedDraft(e: SpeedEpisode, type: 'SPEEDING' | 'MAX_SPEED', ctx: MachineContext, after: SafetyFix | null, open: boolean): EventDraft {
  const band = type === 'SPEEDING' ? bandOf(e.maxHeld, ctx.settings.speeding) : null;
  const severity: SafetySeverity = type === 'SPEEDING' ? SPEEDING_SEVERITY[band!] : e.maxHeld >= 16 ? 'HIGH' : 'MEDIUM';
  return {
    type,
    source: type === 'SPEEDING' ? 'POSTED_LIMIT' : 'FLEET_MAXIMUM',
    severity,
    startedAt: e.start.t,
    endedAt: e.last.t,
    driverId: e.start.driverId,
    lat: e.start.lat,
    lon: e.start.lon,
    speedBeforeKph: e.start.speed,
    speedAfterKph: (after ?? e.last).speed,
    maxSpeedKph: round1(e.maxSpeed),
    limitKph: e.limitKph,
    limitSource: e.limitSource,
    heldSpeedKph: type === 'SPEEDING' ? round1(e.heldSpeed) : null,
    band,
    bandSeconds: type === 'SPEEDING' ? { ...e.bandSeconds } : null,
    strengthMps2: null,
    fuelBurnedL: null,
    open,
  };
}

function stepSpeed(
  e: SpeedEpisode | null,
  f: SafetyFix,
  hit: { over: number; limit: { kph: number; source: string } } | null,
  out: EventDraft[],
  ctx: MachineContext,
  type: 'SPEEDING' | 'MAX_SPEED',
): SpeedEpisode | null {
  const min = ctx.settings.speeding.minSeconds * 1000;
  if (e && (!hit || f.t - e.last.t > SPEED_GAP_MS)) {
    // The episode ended at its last fix over; it is an event if it lasted the minimum.
    if (e.last.t - e.start.t >= min) out.push(speedDraft(e, type, ctx, f.t - e.last.t > SPEED_GAP_MS ? null : f, false));
    e = null;
  }
  if (!hit) return null;
  if (!e) {
    const speed = f.speed ?? 0;
    return {
      start: f,
      last: f,
      maxSpeed: speed,
      maxHeld: hit.over,
      lastOver: hit.over,
      lastLimitKph: hit.limit.kph,
      lastLimitSource: hit.limit.source,
      limitKph: hit.limit.kph,
      limitSource: hit.limit.source,
      heldSpeed: speed,
      bandSeconds: {},
    };
  }
  const held = Math.min(hit.over, e.lastOver);
  const band = bandOf(held, ctx.settings.speeding);
  e.bandSeconds[band] = round2((e.bandSeconds[band] ?? 0) + (f.t - e.last.t) / 1000);
  // The excess held over two fixes; the first fix's own excess stands only until a second one comes.
  // The band's stretch (the fix whose excess is the held one) names the limit and the speed.
  if (e.start === e.last || held > e.maxHeld) {
    e.maxHeld = held;
    const here = hit.over <= e.lastOver;
    e.limitKph = here ? hit.limit.kph : e.lastLimitKph;
    e.limitSource = here ? hit.limit.source : e.lastLimitSource;
    e.heldSpeed = (here ? f.speed : e.last.speed) ?? 0;
  }
  e.maxSpeed = Math.max(e.maxSpeed, f.speed ?? 0);
  e.lastOver = hit.over;
  e.lastLimitKph = hit.limit.kph;
  e.lastLimitSource = hit.limit.source;
  e.last = f;
  if (f.t - e.start.t >= min) out.push(speedDraft(e, type, ctx, null, true));
  return e;
}

function idleDraft(e: IdleEpisode, open: boolean): EventDraft {
  const fuel = e.fuelStart !== null && e.fuelLast !== null && e.fuelLast >= e.fuelStart ? round2(e.fuelLast - e.fuelStart) : null;
  return {
    type: 'IDLING',
    source: e.device ? 'DEVICE' : 'ENGINE',
    severity: 'LOW',
    startedAt: e.start.t,
    endedAt: e.last.t,
    driverId: e.start.driverId,
    lat: e.start.lat,
    lon: e.start.lon,
    speedBeforeKph: null,
    speedAfterKph: null,
    maxSpeedKph: null,
    limitKph: null,
    limitSource: null,
    heldSpeedKph: null,
    band: null,
    bandSeconds: null,
    strengthMps2: null,
    fuelBurnedL: fuel,
    open,
  };
}

function stepIdle(e: IdleEpisode | null, f: SafetyFix, out: EventDraft[], ctx: MachineContext): IdleEpisode | null {
  const min = ctx.settings.idlingMinutes * 60_000;
  const idle = (f.speed ?? 0) < STILL_KPH && (f.ignition === true || f.idling === true) && !(ctx.settings.excludeYards && ctx.inYard(f.lat, f.lon));
  if (e && (!idle || f.t - e.last.t > IDLE_GAP_MS)) {
    if (e.last.t - e.start.t >= min) out.push(idleDraft(e, false));
    e = null;
  }
  if (!idle) return null;
  if (!e) return { start: f, last: f, device: f.idling === true, fuelStart: f.fuelUsedL, fuelLast: f.fuelUsedL };
  e.last = f;
  // The source stays the start's: it is part of the event's key, and a key that changed under way left
  // the draft written under the first one behind (two events for one idling, whichever the rounds).
  if (f.fuelUsedL !== null) {
    e.fuelStart ??= f.fuelUsedL;
    e.fuelLast = f.fuelUsedL;
  }
  if (f.t - e.start.t >= min) out.push(idleDraft(e, true));
  return e;
}

function harshDraft(e: HarshEpisode): EventDraft {
  return {
    type: e.type,
    source: 'GPS_ESTIMATED',
    severity: harshSeverity(e.peak, e.threshold),
    startedAt: e.start.t,
    endedAt: e.last.t,
    driverId: e.start.driverId,
    lat: e.start.lat,
    lon: e.start.lon,
    speedBeforeKph: e.speedBefore,
    speedAfterKph: e.speedAfter,
    maxSpeedKph: null,
    limitKph: null,
    limitSource: null,
    heldSpeedKph: null,
    band: null,
    bandSeconds: null,
    strengthMps2: round2(e.peak),
    fuelBurnedL: null,
    open: false,
  };
}

function stepHarsh(s: SafetyTrack, f: SafetyFix, out: EventDraft[], ctx: MachineContext): HarshEpisode | null {
  const accel = centralAcceleration(s.a, s.b, f);
  const thr = ctx.thresholds.gps;
  const type = accel === null ? null : accel >= thr.acceleration ? 'HARSH_ACCELERATION' : -accel >= thr.braking ? 'HARSH_BRAKING' : null;
  let e = s.harsh;
  if (e && type !== e.type) {
    out.push(harshDraft(e));
    e = null;
  }
  if (!type || accel === null) return null;
  const b = s.b!;
  if (!e)
    return {
      type,
      start: b,
      last: b,
      peak: Math.abs(accel),
      speedBefore: s.a!.speed,
      speedAfter: f.speed,
      threshold: type === 'HARSH_ACCELERATION' ? thr.acceleration : thr.braking,
    };
  e.last = b;
  e.peak = Math.max(e.peak, Math.abs(accel));
  e.speedAfter = f.speed;
  return e;
}
