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
  /** SPEEDING: the limit of the stretch that set the band (issue 66); MAX_SPEED: the fleet's. */
  limitKph: number | null;
  limitSource: string | null;
  /** SPEEDING: the speed held on the stretch that set the band, over `limitKph` (the headline's). */
  heldSpeedKph: number | null;
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

const POINT_SEVERITY: Partial<Record<SafetyEventType, SafetySeverity>> = {
  CRASH: 'CRITICAL',
  TOWING: 'HIGH',
  JAMMING: 'MEDIUM',
  MAX_SPEED: 'MEDIUM',
  IDLING: 'LOW',
};

const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

const NO_DRAFTS: readonly EventDraft[] = Object.freeze([]);
const FLEET_MAX_SOURCE = 'Fleet maximum speed';

/**
 * Works one fix (later than the track's last); returns the events it made or ended: point events, and
 * episodes that ended. Episodes still under way are not drafted at every fix (decision 0199's
 * follower cost): `openDrafts` gives their current drafts when the caller writes (a round's end, a
 * replay's end). safety-machine.reference.ts keeps the plain machine that drafts them at every fix.
 * Allocates nothing for a fix that makes no event (the common case).
 */
export function stepSafety(s: SafetyTrack, f: SafetyFix, ctx: MachineContext): readonly EventDraft[] {
  let out: EventDraft[] | null = null;
  const prev = s.b;
  // Point events the device reported.
  for (let i = 0; i < f.signals.length; i++) {
    const sig = f.signals[i]!;
    // A state a device repeats in every record (towing, jamming, its over-speeding) is one event until it stops.
    if (REPEATED.has(sig.type) && prev && f.t - prev.t <= REPEAT_MS && hasSignal(prev, sig.type)) continue;
    (out ??= []).push(pointEvent(sig, f, prev, ctx));
  }
  // Episodes.
  const speeding = ctx.settings.speeding;
  let over = NaN;
  let limitKph = 0;
  let limitSource = '';
  if (f.speed !== null && (s.speeding !== null || f.speed > speeding.toleranceKph)) {
    // The limit is looked up only where speeding can start or go on (a vehicle at or under the
    // tolerance cannot be over any limit).
    const limit = ctx.limitAt(f.lat, f.lon);
    if (limit) {
      over = f.speed - limit.kph;
      limitKph = limit.kph;
      limitSource = limit.source;
    }
  }
  out = stepSpeed(s, 'speeding', f, over > speeding.toleranceKph ? over : NaN, limitKph, limitSource, out, ctx, 'SPEEDING');
  const fleetOver = f.speed !== null ? f.speed - ctx.settings.fleetMaxSpeedKph : NaN;
  out = stepSpeed(s, 'maxSpeed', f, fleetOver > 0 ? fleetOver : NaN, ctx.settings.fleetMaxSpeedKph, FLEET_MAX_SOURCE, out, ctx, 'MAX_SPEED');
  out = stepIdle(s, f, out, ctx);
  if (ctx.gpsHarsh) out = stepHarsh(s, f, out, ctx);
  s.a = s.b;
  s.b = f;
  s.t = f.t;
  return out ?? NO_DRAFTS;
}

const hasSignal = (f: SafetyFix, type: SafetyEventType): boolean => {
  for (let i = 0; i < f.signals.length; i++) if (f.signals[i]!.type === type) return true;
  return false;
};

/** The drafts of the episodes under way that are already events (long enough), as they stand. */
export function openDrafts(s: SafetyTrack, ctx: MachineContext): EventDraft[] {
  const out: EventDraft[] = [];
  const min = ctx.settings.speeding.minSeconds * 1000;
  if (s.speeding && s.speeding.start !== s.speeding.last && s.speeding.last.t - s.speeding.start.t >= min)
    out.push(speedDraft(s.speeding, 'SPEEDING', ctx, null, true));
  if (s.maxSpeed && s.maxSpeed.start !== s.maxSpeed.last && s.maxSpeed.last.t - s.maxSpeed.start.t >= min)
    out.push(speedDraft(s.maxSpeed, 'MAX_SPEED', ctx, null, true));
  if (s.idling && s.idling.start !== s.idling.last && s.idling.last.t - s.idling.start.t >= ctx.settings.idlingMinutes * 60_000)
    out.push(idleDraft(s.idling, true));
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

/** Moves the speeding or fleet-maximum episode on by a fix; `over`: the excess (km/h), NaN when not over. */
function stepSpeed(
  s: SafetyTrack,
  slot: 'speeding' | 'maxSpeed',
  f: SafetyFix,
  over: number,
  limitKph: number,
  limitSource: string,
  out: EventDraft[] | null,
  ctx: MachineContext,
  type: 'SPEEDING' | 'MAX_SPEED',
): EventDraft[] | null {
  const min = ctx.settings.speeding.minSeconds * 1000;
  const hit = over === over; // not NaN
  let e = s[slot];
  if (e && (!hit || f.t - e.last.t > SPEED_GAP_MS)) {
    // The episode ended at its last fix over; it is an event if it lasted the minimum.
    if (e.last.t - e.start.t >= min) (out ??= []).push(speedDraft(e, type, ctx, f.t - e.last.t > SPEED_GAP_MS ? null : f, false));
    e = null;
  }
  if (!hit) {
    s[slot] = null;
    return out;
  }
  if (!e) {
    const speed = f.speed ?? 0;
    s[slot] = {
      start: f,
      last: f,
      maxSpeed: speed,
      maxHeld: over,
      lastOver: over,
      lastLimitKph: limitKph,
      lastLimitSource: limitSource,
      limitKph,
      limitSource,
      heldSpeed: speed,
      bandSeconds: {},
    };
    return out;
  }
  const held = Math.min(over, e.lastOver);
  const band = bandOf(held, ctx.settings.speeding);
  e.bandSeconds[band] = round2((e.bandSeconds[band] ?? 0) + (f.t - e.last.t) / 1000);
  // The excess held over two fixes; the first fix's own excess stands only until a second one comes.
  // The band's stretch is the fix whose excess is the held one: its limit and speed make the headline
  // ("72 mph in a 60 mph zone"), not the limit where the vehicle went fastest (issue 66).
  if (e.start === e.last || held > e.maxHeld) {
    e.maxHeld = held;
    const here = over <= e.lastOver;
    e.limitKph = here ? limitKph : e.lastLimitKph;
    e.limitSource = here ? limitSource : e.lastLimitSource;
    e.heldSpeed = (here ? f.speed : e.last.speed) ?? 0;
  }
  if ((f.speed ?? 0) > e.maxSpeed) e.maxSpeed = f.speed ?? 0;
  e.lastOver = over;
  e.lastLimitKph = limitKph;
  e.lastLimitSource = limitSource;
  e.last = f;
  s[slot] = e;
  return out;
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

function stepIdle(s: SafetyTrack, f: SafetyFix, out: EventDraft[] | null, ctx: MachineContext): EventDraft[] | null {
  const min = ctx.settings.idlingMinutes * 60_000;
  let e = s.idling;
  const idle = (f.speed ?? 0) < STILL_KPH && (f.ignition === true || f.idling === true) && !(ctx.settings.excludeYards && ctx.inYard(f.lat, f.lon));
  if (e && (!idle || f.t - e.last.t > IDLE_GAP_MS)) {
    if (e.last.t - e.start.t >= min) (out ??= []).push(idleDraft(e, false));
    e = null;
  }
  if (!idle) {
    s.idling = null;
    return out;
  }
  if (!e) {
    s.idling = { start: f, last: f, device: f.idling === true, fuelStart: f.fuelUsedL, fuelLast: f.fuelUsedL };
    return out;
  }
  e.last = f;
  // The source stays the start's: it is part of the event's key, and a key that changed under way left
  // the draft written under the first one behind (two events for one idling, whichever the rounds).
  if (f.fuelUsedL !== null) {
    e.fuelStart ??= f.fuelUsedL;
    e.fuelLast = f.fuelUsedL;
  }
  return out;
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

/** The central difference at the middle fix `b` of a, b, c (m/s²), or null where the fixes are too sparse. */
export function centralAcceleration(a: SafetyFix | null, b: SafetyFix | null, c: SafetyFix): number | null {
  if (!a || !b || a.speed === null || c.speed === null || b.speed === null) return null;
  if (b.t - a.t > GPS_HARSH_GAP_MS || c.t - b.t > GPS_HARSH_GAP_MS || c.t <= a.t) return null;
  if (Math.max(a.speed, c.speed) < GPS_HARSH_MIN_KPH) return null;
  return (c.speed - a.speed) / 3.6 / ((c.t - a.t) / 1000);
}

function stepHarsh(s: SafetyTrack, f: SafetyFix, out: EventDraft[] | null, ctx: MachineContext): EventDraft[] | null {
  const accel = centralAcceleration(s.a, s.b, f);
  const thr = ctx.thresholds.gps;
  const type = accel === null ? null : accel >= thr.acceleration ? 'HARSH_ACCELERATION' : -accel >= thr.braking ? 'HARSH_BRAKING' : null;
  let e = s.harsh;
  if (e && type !== e.type) {
    (out ??= []).push(harshDraft(e));
    e = null;
  }
  if (!type || accel === null) {
    s.harsh = null;
    return out;
  }
  const b = s.b!;
  if (!e) {
    s.harsh = {
      type,
      start: b,
      last: b,
      peak: Math.abs(accel),
      speedBefore: s.a!.speed,
      speedAfter: f.speed,
      threshold: type === 'HARSH_ACCELERATION' ? thr.acceleration : thr.braking,
    };
    return out;
  }
  e.last = b;
  e.peak = Math.max(e.peak, Math.abs(accel));
  e.speedAfter = f.speed;
  return out;
}

/** Replays fixes (in fix-time order) from a blank track: every event they make (the latest draft of each key) and the track after. */
export function replaySafety(
  fixes: readonly SafetyFix[],
  ctx: MachineContext,
  from: SafetyTrack = blankSafetyTrack(),
): { events: Map<string, EventDraft>; track: SafetyTrack; blankAfter: number[] } {
  const events = new Map<string, EventDraft>();
  const blankAfter: number[] = [];
  for (const f of fixes) {
    for (const e of stepSafety(from, f, ctx)) events.set(draftKey(e), e);
    if (isBlankTrack(from)) blankAfter.push(f.t);
  }
  for (const e of openDrafts(from, ctx)) events.set(draftKey(e), e);
  return { events, track: from, blankAfter };
}
