import { KNOTS_TO_KMH, MS_TO_KMH } from '@fleet/geo';
import type { PositionRow } from './position-row.ts';

// The OsmAnd HTTP protocol as Traccar decodes it (OsmAndProtocolDecoder, traccar 6.14.5): what
// every Traccar Client generation and the OsmAnd app send. Pure: request parts in, fixes out.

/** One fix before it is checked and attributed to a vehicle: a position's measured values (speed km/h). */
export type DecodedFix = Pick<PositionRow, 'speed' | 'course' | 'altitude' | 'accuracy' | 'odometer' | 'ignition' | 'attributes'> & {
  /** Null: the device sent no time; the server's receive time is used. */
  fixTime: Date | null;
  /** Null when the device sent no coordinates (cell or Wi-Fi only): its last known location is used. */
  latitude: number | null;
  longitude: number | null;
};

export type OsmandDecoded =
  /** `badTime`: the time sent is not a time (fixTime is null): the fix is refused unless the device is set to use the time received; `sentTime` is that time as sent. */
  | { kind: 'fix'; deviceId: string; fix: DecodedFix; format: 'query' | 'json'; badTime?: string; sentTime?: string }
  /** A push-token upload (client 10): nothing to store as a position. */
  | { kind: 'token'; deviceId: string; format: 'query' }
  | { kind: 'error'; format: 'query' | 'json'; field: string; message: string };

const emptyFix = (): DecodedFix => ({
  fixTime: null,
  latitude: null,
  longitude: null,
  speed: null,
  course: null,
  altitude: null,
  accuracy: null,
  odometer: null,
  ignition: null,
  attributes: {},
});

/** `timestamp`: epoch seconds below 2^31, else milliseconds; ISO-8601 with a T; else `yyyy-MM-dd HH:mm:ss` local. */
export function parseOsmandTime(value: string): Date | null {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    return new Date(n < 2_147_483_647 ? n * 1000 : n);
  }
  if (v.includes('T')) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : new Date(t);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(v);
  if (!m) return null;
  // Traccar reads this form in the server's default zone; so do we (TZ of the process).
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Extra parameters: a number when it parses as one, true/false as booleans, else the string. */
function attributeValue(v: string): unknown {
  if (v !== '' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

const num = (v: string): number | null => {
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : Number.NaN;
};

/** A measured value as sent: NaN when it is not a finite number, so the fix check can name it. */
const measured = (v: string): number => {
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : Number.NaN;
};

/**
 * Query-string or form parameters (`id=…&lat=…`). Parameters apply in order, repeated ones
 * included (cell, wifi). A non-numeric coordinate comes back as NaN so the check can name it.
 */
export function decodeOsmandParams(params: URLSearchParams): OsmandDecoded {
  const fix = emptyFix();
  let deviceId: string | null = null;
  let sawToken = false;
  let sawData = false;
  const cells: Array<Record<string, number>> = [];
  const wifis: Array<{ macAddress: string; signalStrength: number }> = [];
  let badTime: string | undefined;
  let sentTime: string | undefined;
  for (const [key, value] of params) {
    switch (key) {
      case 'id':
      case 'deviceid':
        deviceId = value.trim();
        break;
      case 'timestamp': {
        const t = parseOsmandTime(value);
        // Read on: the device's id may come after its time, and a device that said who it is is answered as received.
        if (!t || Number.isNaN(t.getTime())) {
          badTime ??= `timestamp "${value.slice(0, 64)}" is not a time`;
          sentTime ??= value.slice(0, 64);
        } else fix.fixTime = t;
        sawData = true;
        break;
      }
      case 'lat':
        fix.latitude = num(value);
        sawData = true;
        break;
      case 'lon':
        fix.longitude = num(value);
        sawData = true;
        break;
      case 'location': {
        const [lat, lon] = value.split(',');
        fix.latitude = num(lat ?? '');
        fix.longitude = num(lon ?? '');
        sawData = true;
        break;
      }
      case 'speed': {
        // Knots, whatever the client (Traccar treats the OsmAnd app's m/s as knots too).
        // An empty value is no value; anything else that is not a number of 0 or more is refused by the check.
        fix.speed = value.trim() === '' ? null : measured(value) * KNOTS_TO_KMH;
        sawData = true;
        break;
      }
      case 'bearing':
      case 'heading': {
        fix.course = value.trim() === '' ? null : measured(value) % 360;
        break;
      }
      case 'altitude': {
        fix.altitude = value.trim() === '' ? null : measured(value);
        break;
      }
      case 'accuracy': {
        const a = num(value);
        fix.accuracy = a === null || Number.isNaN(a) || a < 0 ? null : a;
        break;
      }
      case 'odometer': {
        const o = num(value);
        if (o !== null && !Number.isNaN(o)) fix.odometer = o;
        break;
      }
      case 'ignition':
        fix.ignition = value === 'true' || value === '1';
        fix.attributes.ignition = fix.ignition;
        break;
      case 'batt': {
        const b = num(value);
        if (b !== null && !Number.isNaN(b)) fix.attributes.batteryLevel = b;
        break;
      }
      case 'charge':
        fix.attributes.charge = value === 'true';
        break;
      case 'hdop': {
        const h = num(value);
        if (h !== null && !Number.isNaN(h)) fix.attributes.hdop = h;
        break;
      }
      case 'valid':
        fix.attributes.valid = value === 'true' || value === '1';
        break;
      case 'driverUniqueId':
        fix.attributes.driverUniqueId = value;
        break;
      case 'cell': {
        const [mcc, mnc, lac, cid, rssi] = value.split(',').map(Number);
        if ([mcc, mnc, lac, cid].every((x) => x !== undefined && Number.isFinite(x))) {
          const cell: Record<string, number> = { mobileCountryCode: mcc!, mobileNetworkCode: mnc!, locationAreaCode: lac!, cellId: cid! };
          if (rssi !== undefined && Number.isFinite(rssi)) cell.signalStrength = rssi;
          cells.push(cell);
          sawData = true;
        }
        break;
      }
      case 'wifi': {
        const [mac, rssi] = value.split(',');
        if (mac) {
          wifis.push({ macAddress: mac.replace(/-/g, ':'), signalStrength: Number(rssi ?? 0) });
          sawData = true;
        }
        break;
      }
      case 'notificationToken':
        sawToken = true;
        break;
      default:
        fix.attributes[key] = attributeValue(value);
        sawData = true;
    }
  }
  if (!deviceId) return { kind: 'error', format: 'query', field: 'id', message: 'id (or deviceid) is required' };
  if (cells.length || wifis.length) {
    fix.attributes.network = { ...(cells.length ? { cellTowers: cells } : {}), ...(wifis.length ? { wifiAccessPoints: wifis } : {}) };
  }
  if (sawToken && !sawData) return { kind: 'token', deviceId, format: 'query' };
  return { kind: 'fix', deviceId, fix, format: 'query', ...(badTime ? { badTime, sentTime } : {}) };
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A JSON speed or heading: null when absent or -1 (unknown); NaN when not a number. */
function jsonMeasure(v: unknown): number | null {
  if (v === undefined || v === null || v === -1) return null;
  return finite(v) ?? Number.NaN;
}

/** Traccar's minimum stored accuracy on the JSON path (osmand.minAccuracy default) is a quirk we do not copy: every accuracy is kept. */
export function decodeOsmandJson(body: unknown): OsmandDecoded {
  if (!isObj(body)) return { kind: 'error', format: 'json', field: 'body', message: 'the body must be a JSON object' };
  const deviceId = typeof body.device_id === 'string' ? body.device_id.trim() : typeof body.device_id === 'number' ? String(body.device_id) : '';
  if (!deviceId) return { kind: 'error', format: 'json', field: 'device_id', message: 'device_id is required' };
  const loc = isObj(body.location) ? body.location : {};
  const fix = emptyFix();
  let badTime: string | undefined;
  let sentTime: string | undefined;
  if (loc.timestamp !== undefined) {
    const t = typeof loc.timestamp === 'string' ? Date.parse(loc.timestamp) : Number.NaN;
    if (Number.isNaN(t)) {
      badTime = 'location.timestamp must be an ISO-8601 time';
      sentTime = (typeof loc.timestamp === 'string' ? loc.timestamp : (JSON.stringify(loc.timestamp) ?? '')).slice(0, 64);
    } else fix.fixTime = new Date(t);
  }
  if (isObj(loc.coords)) {
    const c = loc.coords;
    fix.latitude = typeof c.latitude === 'number' ? c.latitude : Number.NaN;
    fix.longitude = typeof c.longitude === 'number' ? c.longitude : Number.NaN;
    // m/s and degrees; -1 means unknown (the SDK's own value). Any other negative or non-numeric
    // value is kept as sent, so the fix check refuses it instead of storing a guess.
    const speed = jsonMeasure(c.speed);
    if (speed !== null) fix.speed = speed * MS_TO_KMH;
    const heading = jsonMeasure(c.heading);
    if (heading !== null) fix.course = heading % 360;
    const accuracy = finite(c.accuracy);
    if (accuracy !== null && accuracy >= 0) fix.accuracy = accuracy;
    fix.altitude = c.altitude === undefined || c.altitude === null ? null : (finite(c.altitude) ?? Number.NaN);
  }
  if (typeof loc.is_moving === 'boolean') fix.attributes.motion = loc.is_moving;
  const odometer = finite(loc.odometer);
  if (odometer !== null) {
    fix.odometer = odometer;
    fix.attributes.odometer = Math.trunc(odometer);
  }
  if (typeof loc.event === 'string') fix.attributes.event = loc.event;
  if (isObj(loc.activity) && typeof loc.activity.type === 'string') fix.attributes.activity = loc.activity.type;
  if (loc.mock !== undefined) fix.attributes.mock = loc.mock === true;
  if (typeof loc.alarm === 'string') fix.attributes.alarm = loc.alarm;
  if (isObj(loc.battery)) {
    const level = finite(loc.battery.level);
    if (level !== null && level >= 0) fix.attributes.batteryLevel = Math.trunc(level * 100);
    if (loc.battery.is_charging === true) fix.attributes.charge = true;
  }
  if (isObj(loc.extras)) {
    for (const [k, v] of Object.entries(loc.extras)) {
      if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') fix.attributes[k] = v;
    }
    if (typeof loc.extras.ignition === 'boolean') fix.ignition = loc.extras.ignition;
  }
  return { kind: 'fix', deviceId, fix, format: 'json', ...(badTime ? { badTime, sentTime } : {}) };
}
