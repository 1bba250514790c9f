import type { SafetyClassThresholds, SafetyEventType, SafetySettings, SafetySeverity, SafetySource, SpeedingBand } from '@fleet/api-contract';

// The safety state machine of one vehicle (issue 47, decision 0194), pure: fixes in fix-time order in,
// events out. Point events come from what the device reported at a fix (Teltonika's green driving,
// over-speeding, crash, towing, jamming; Traccar's alarms); episodes from runs of fixes: speeding over
// the limit plus tolerance, above the fleet maximum, idling, and harsh acceleration or braking
// estimated from the speed of fixes 1 s apart or closer (a central difference). An episode ends at the
// first fix that is not in it (or after a gap), so whether the machine is blank after a fix depends on
// that fix alone and the one before it: a replay from any blank point gives the events an in-order
// stream gives (the follower relies on this for late, reversed and duplicated delivery).

/** What the device said at a fix, read from its attributes once (signals.ts). */
export interface DeviceSignal {
  type: SafetyEventType;
  source: 'DEVICE' | 'TRACCAR';
  /** m/s², harsh events where the device sends it. */
  strength: number | null;
  /** km/h: the over-speeding value where the device sends it. */
  speed: number | null;
}

export interface SafetyFix {
  t: number;
  lat: number;
  lon: number;
  /** km/h. */
  speed: number | null;
  ignition: boolean | null;
  driverId: string | null;
  signals: readonly DeviceSignal[];
  /** The device's idling flag (Teltonika 251), where reported. */
  idling: boolean | null;
  /** The engine's total fuel used (litres), where reported. */
  fuelUsedL: number | null;
}

/** What the machine needs to know about the vehicle and its organization. */
export interface MachineContext {
  settings: SafetySettings;
  thresholds: SafetyClassThresholds;
  /** Whether to estimate harsh events from the fixes' speeds (devices without an accelerometer). */
  gpsHarsh: boolean;
  /** The posted or default limit at a point (km/h), or null. */
  limitAt(lat: number, lon: number): { kph: number; source: string } | null;
  /** Whether the point is at a place marked as a yard (idling there is not an event when the settings say so). */
  inYard(lat: number, lon: number): boolean;
}

/** An event as the machine makes it; the key (type, source, startedAt) names it across replays. */
export interface EventDraft {
  type: SafetyEventType;
  source: SafetySource;
  severity: SafetySeverity;
  startedAt: number;
  endedAt: number;
  driverId: string | null;
  lat: number;
  lon: number;
  speedBeforeKph: number | null;
  speedAfterKph: number | null;
  maxSpeedKph: number | null;
  limitKph: number | null;
  limitSource: string | null;
  band: SpeedingBand | null;
  /** Speeding: seconds in each band. */
  bandSeconds: Partial<Record<SpeedingBand, number>> | null;
  strengthMps2: number | null;
  fuelBurnedL: number | null;
  /** Whether the episode is still under way (its end may still move). */
  open: boolean;
}

export const draftKey = (d: Pick<EventDraft, 'type' | 'source' | 'startedAt'>): string => `${d.type}|${d.source}|${d.startedAt}`;

/** Speeding and fleet-maximum episodes end after a gap this long between fixes. */
export const SPEED_GAP_MS = 120_000;
/** Idling ends after a gap this long (parked devices report every few minutes). */
export const IDLE_GAP_MS = 15 * 60_000;
/** Central differences only over fixes this close (1 Hz and faster, with jitter). */
export const GPS_HARSH_GAP_MS = 1_500;
/** Below this a vehicle is not moving (km/h). */
export const STILL_KPH = 3;
/** GPS-estimated harsh events only above this speed (km/h), as Teltonika's GPS source does. */
export const GPS_HARSH_MIN_KPH = 10;
const REPEATED: ReadonlySet<SafetyEventType> = new Set(['TOWING', 'JAMMING', 'MAX_SPEED']);
const REPEAT_MS = 300_000;
/** A device's speed before its harsh event: the previous fix within this long. */
const BEFORE_MS = 30_000;

interface SpeedEpisode {
  start: SafetyFix;
  last: SafetyFix;
  maxSpeed: number;
  /** The highest "held" excess (the lower of two consecutive fixes' excesses), km/h. */
  maxHeld: number;
  lastOver: number;
  limitKph: number;
  limitSource: string;
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
export interface SafetyTrack {
  t: number;
  a: SafetyFix | null;
  b: SafetyFix | null;
  speeding: SpeedEpisode | null;
  maxSpeed: SpeedEpisode | null;
  idling: IdleEpisode | null;
  harsh: HarshEpisode | null;
}

export const blankSafetyTrack = (): SafetyTrack => ({ t: -Infinity, a: null, b: null, speeding: null, maxSpeed: null, idling: null, harsh: null });

/** Nothing open: what follows depends only on the fixes from here on (and this one, the last). */
export const isBlankTrack = (s: SafetyTrack): boolean => !s.speeding && !s.maxSpeed && !s.idling && !s.harsh;

/** The band of an excess over the limit (km/h), given the settings. */
export function bandOf(over: number, s: SafetySettings['speeding']): SpeedingBand {
  if (over >= s.bands.SEVERE) return 'SEVERE';
  if (over >= s.bands.HEAVY) return 'HEAVY';
  if (over >= s.bands.MODERATE) return 'MODERATE';
  return 'LIGHT';
}

const SPEEDING_SEVERITY: Record<SpeedingBand, SafetySeverity> = { LIGHT: 'LOW', MODERATE: 'MEDIUM', HEAVY: 'HIGH', SEVERE: 'HIGH' };

/** A harsh event's severity from its strength against the threshold (MEDIUM when the strength is unknown). */
export function harshSeverity(strength: number | null, threshold: number): SafetySeverity {
  if (strength === null) return 'MEDIUM';
  const r = strength / threshold;
  return r >= 1.5 ? 'HIGH' : r >= 1.15 ? 'MEDIUM' : 'LOW';
}

const POINT_SEVERITY: Partial<Record<SafetyEventType, SafetySeverity>> = { CRASH: 'CRITICAL', TOWING: 'HIGH', JAMMING: 'MEDIUM', MAX_SPEED: 'MEDIUM', IDLING: 'LOW' };

const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

/** Works one fix (later than the track's last); returns the events it made or moved. */
export function stepSafety(s: SafetyTrack, f: SafetyFix, ctx: MachineContext): EventDraft[] {
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
  s.maxSpeed = stepSpeed(s.maxSpeed, f, fleetOver !== null && fleetOver > 0 ? { over: fleetOver, limit: { kph: ctx.settings.fleetMaxSpeedKph, source: 'Fleet maximum speed' } } : null, out, ctx, 'MAX_SPEED');
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
    return { start: f, last: f, maxSpeed: f.speed ?? 0, maxHeld: hit.over, lastOver: hit.over, limitKph: hit.limit.kph, limitSource: hit.limit.source, bandSeconds: {} };
  }
  const held = Math.min(hit.over, e.lastOver);
  const band = bandOf(held, ctx.settings.speeding);
  e.bandSeconds[band] = round2((e.bandSeconds[band] ?? 0) + (f.t - e.last.t) / 1000);
  // The excess held over two fixes; the first fix's own excess stands only until a second one comes.
  e.maxHeld = e.start === e.last ? held : Math.max(e.maxHeld, held);
  if ((f.speed ?? 0) > e.maxSpeed) {
    e.maxSpeed = f.speed ?? 0;
    // The limit where the vehicle went fastest.
    e.limitKph = hit.limit.kph;
    e.limitSource = hit.limit.source;
  }
  e.lastOver = hit.over;
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
  if (f.idling === true) e.device = true;
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
    band: null,
    bandSeconds: null,
    strengthMps2: round2(e.peak),
    fuelBurnedL: null,
    open: false,
  };
}

/** The central difference at the middle fix `b` of a, b, c (m/s²), or null where the fixes are too sparse. */
export function centralAcceleration(a: SafetyFix | null, b: SafetyFix | null, c: SafetyFix): number | null {
  if (!a || !b || a.speed === null || c.speed === null || b.speed === null) return null;
  if (b.t - a.t > GPS_HARSH_GAP_MS || c.t - b.t > GPS_HARSH_GAP_MS || c.t <= a.t) return null;
  if (Math.max(a.speed, c.speed) < GPS_HARSH_MIN_KPH) return null;
  return (c.speed - a.speed) / 3.6 / ((c.t - a.t) / 1000);
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
  if (!e) return { type, start: b, last: b, peak: Math.abs(accel), speedBefore: s.a!.speed, speedAfter: f.speed, threshold: type === 'HARSH_ACCELERATION' ? thr.acceleration : thr.braking };
  e.last = b;
  e.peak = Math.max(e.peak, Math.abs(accel));
  e.speedAfter = f.speed;
  return e;
}

/** Replays fixes (in fix-time order) from a blank track: every event they make (the latest draft of each key) and the track after. */
export function replaySafety(fixes: readonly SafetyFix[], ctx: MachineContext, from: SafetyTrack = blankSafetyTrack()): { events: Map<string, EventDraft>; track: SafetyTrack; blankAfter: number[] } {
  const events = new Map<string, EventDraft>();
  const blankAfter: number[] = [];
  for (const f of fixes) {
    for (const e of stepSafety(from, f, ctx)) events.set(draftKey(e), e);
    if (isBlankTrack(from)) blankAfter.push(f.t);
  }
  return { events, track: from, blankAfter };
}
