import type { SafetyEventType } from '@fleet/api-contract';
import type { DeviceSignal } from './safety-machine.ts';

// What a position's attributes say for safety (decision 0194): Teltonika's elements as the device
// model's IO map names them (SAFETY_ATTRIBUTES), and Traccar's forwarded `alarm` values and raw
// io253/io254/io255 of a Teltonika device behind Traccar. Pure and cheap: it runs on every fix.

/** The attribute keys read here: the follower reads only these of stored positions (a replay). */
export const SIGNAL_KEYS = [
  'greenDrivingType',
  'greenDrivingValue',
  'harshAcceleration',
  'harshBraking',
  'harshCornering',
  'overSpeeding',
  'idling',
  'crash',
  'towing',
  'jamming',
  'fuelUsed',
  'alarm',
  'io253',
  'io254',
  'io255',
  'io251',
  'io247',
  'io246',
  'io249',
] as const;

const GREEN: Record<number, SafetyEventType> = { 1: 'HARSH_ACCELERATION', 2: 'HARSH_BRAKING', 3: 'HARSH_CORNERING' };

/** Traccar's alarm names (Position.ALARM_*) to event types; `idle` is a state, read apart. */
export const TRACCAR_ALARMS: Readonly<Record<string, SafetyEventType>> = {
  hardAcceleration: 'HARSH_ACCELERATION',
  hardBraking: 'HARSH_BRAKING',
  hardCornering: 'HARSH_CORNERING',
  overspeed: 'MAX_SPEED',
  accident: 'CRASH',
  tow: 'TOWING',
  jamming: 'JAMMING',
};

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : num(v) === null ? null : num(v) !== 0);
/** A strength in m/s², plausible only (a device's 0 or a garbled value is none). */
const strength = (v: number | null): number | null => (v !== null && v > 0 && v < 50 ? Math.round(v * 100) / 100 : null);

export interface Signals {
  signals: DeviceSignal[];
  idling: boolean | null;
  fuelUsedL: number | null;
}

const NONE: Signals = Object.freeze({ signals: Object.freeze([]) as unknown as DeviceSignal[], idling: null, fuelUsedL: null });

/** The safety signals of a fix's attributes (`traccar`: it came through Traccar's forwarding). */
export function signalsOf(a: Readonly<Record<string, unknown>>, traccar: boolean): Signals {
  // Most fixes carry none of these: one pass over the few keys that matter.
  let any = false;
  for (const k of SIGNAL_KEYS) {
    if (a[k] !== undefined) {
      any = true;
      break;
    }
  }
  if (!any) return NONE;
  const source = traccar ? 'TRACCAR' : 'DEVICE';
  const out: DeviceSignal[] = [];
  const add = (type: SafetyEventType, s: number | null = null, speed: number | null = null) => {
    if (!out.some((x) => x.type === type)) out.push({ type, source, strength: s, speed });
  };
  // Green driving: the named attribute (Teltonika through the IO map) or the raw element (through Traccar).
  const green = num(a.greenDrivingType) ?? num(a.io253);
  if (green !== null && GREEN[green]) add(GREEN[green], strength(num(a.greenDrivingValue) ?? (num(a.io254) === null ? null : num(a.io254)! / 10)));
  // Advanced eco driving elements, mapped by the device model's IO map.
  for (const [key, type] of [
    ['harshAcceleration', 'HARSH_ACCELERATION'],
    ['harshBraking', 'HARSH_BRAKING'],
    ['harshCornering', 'HARSH_CORNERING'],
  ] as const) {
    const v = num(a[key]);
    if (v !== null && v > 0) add(type, strength(v));
  }
  const over = num(a.overSpeeding) ?? num(a.io255);
  if (over !== null && over > 0) add('MAX_SPEED', null, over);
  const crash = num(a.crash) ?? num(a.io247);
  if (crash !== null && crash > 0) add('CRASH');
  const tow = flag(a.towing) ?? flag(a.io246);
  if (tow === true) add('TOWING');
  const jam = num(a.jamming) ?? num(a.io249);
  if (jam !== null && jam > 0) add('JAMMING');
  let idling = flag(a.idling) ?? flag(a.io251);
  if (typeof a.alarm === 'string') {
    for (const name of a.alarm.split(',')) {
      const t = TRACCAR_ALARMS[name.trim()];
      if (t) add(t, t.startsWith('HARSH_') ? strength(num(a.io254) === null ? null : num(a.io254)! / 10) : null);
      else if (name.trim() === 'idle') idling = true;
    }
  }
  const fuel = num(a.fuelUsed);
  return { signals: out, idling, fuelUsedL: fuel !== null && fuel >= 0 ? fuel : null };
}
