import {
  ENGINE_ATTRIBUTES,
  FAULT_ATTRIBUTES,
  FUEL_LEVEL_ATTRIBUTES,
  SAFETY_ATTRIBUTES,
  TELTONIKA_DEFAULT_IO_MAP,
  canonicalCardNumber,
  type IoMap,
  type IoMapEntry,
} from '@fleet/api-contract';

// A Teltonika record's numbered IO elements as named attributes (decision 0153): the device model's
// IO map says which element is which attribute and the factor to its unit; every raw element is also
// kept under `attributes.io` so that a map fixed later can be applied to stored positions.

type RawIo = ReadonlyMap<number, number | bigint | Buffer>;

/**
 * The map a device uses: its model's when not empty; else Teltonika's default. A device on the
 * Teltonika port speaks Teltonika whatever its model says, so an empty map always means the default.
 */
export function effectiveIoMap(modelMap: IoMap | null | undefined): IoMap {
  return modelMap && Object.keys(modelMap).length > 0 ? modelMap : TELTONIKA_DEFAULT_IO_MAP;
}

/** A raw value as stored in `attributes.io`: numbers as numbers, bytes (and 8-byte values past 2^53) as hex. */
function rawValue(v: number | bigint | Buffer): number | string {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString(16).padStart(16, '0');
  return v.toString('hex');
}

/** Printable ASCII of a byte value (a VIN), without the NUL padding some adapters add. */
function text(v: number | bigint | Buffer): string {
  if (Buffer.isBuffer(v))
    return v
      .toString('latin1')
      .replace(/[^\x20-\x7e]/g, '')
      .trim();
  return String(v);
}

/**
 * A raw value as a number: unsigned, or two's complement of `signedWidth` bytes (the width it came
 * with on the wire; 0x fb5d in 2 bytes is -1187). A variable-length element is read big-endian.
 */
export function numberOf(v: number | bigint | Buffer, signedWidth?: number): number | null {
  if (typeof v === 'number') {
    if (!signedWidth || signedWidth > 4) return v;
    const bits = 8 * signedWidth;
    return v >= 2 ** (bits - 1) ? v - 2 ** bits : v;
  }
  if (typeof v === 'bigint') return Number(signedWidth ? BigInt.asIntN(64, v) : v);
  // A variable-length element mapped to a number: read it as a big-endian integer.
  if (v.length === 0 || v.length > 6) return null;
  return signedWidth ? v.readIntBE(0, v.length) : v.readUIntBE(0, v.length);
}

/** True when the raw value is one the map says means "no reading" (compared unsigned, as the lists give them). */
function noReading(v: number | bigint | Buffer, entry: IoMapEntry): boolean {
  if (!entry.noReading) return false;
  const n = numberOf(v);
  return n !== null && entry.noReading.includes(n);
}

/** A driver card (iButton, RFID) as 16 upper-case hex digits, as the card's own reader prints it. */
function cardOf(v: number | bigint | Buffer): string {
  if (Buffer.isBuffer(v)) return v.toString('hex').toUpperCase();
  return BigInt(v).toString(16).toUpperCase().padStart(16, '0');
}

type Kind = 'boolean' | 'number' | 'text' | 'bytes';
/** The kind of each attribute a map may name: the engine's, the engine faults' (decision 0191), driver safety's (0194) and the fuel level's (0276). */
const KINDS = new Map<string, Kind>(
  [
    ...Object.entries(ENGINE_ATTRIBUTES),
    ...Object.entries(FAULT_ATTRIBUTES),
    ...Object.entries(SAFETY_ATTRIBUTES),
    ...Object.entries(FUEL_LEVEL_ATTRIBUTES),
  ].map(([n, a]) => [n, a.kind]),
);

/**
 * Named attributes (per `map`) and the raw elements under `io`. `widths`: each fixed-size value's
 * width on the wire, which a signed element needs (without it a signed element reads unsigned).
 */
export function ioAttributes(io: RawIo, map: IoMap, widths?: ReadonlyMap<number, number>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw: Record<string, number | string> = {};
  for (const [id, value] of io) {
    raw[id] = rawValue(value);
    const entry = map[String(id)];
    if (!entry || noReading(value, entry)) continue;
    if (entry.meaning === 'driverCard') {
      out[entry.attribute] = cardOf(value);
      continue;
    }
    // Bytes are text (a VIN) unless the map reads them as a number (signed, or scaled).
    const kind = KINDS.get(entry.attribute) ?? (Buffer.isBuffer(value) && !entry.signed && entry.multiplier === undefined ? 'text' : 'number');
    if (kind === 'boolean') out[entry.attribute] = numberOf(value) !== 0;
    // A binary element (a whole DM1 message) as hex, whatever its length.
    else if (kind === 'bytes') out[entry.attribute] = rawValue(value);
    else if (kind === 'text') {
      const t = text(value);
      if (t !== '') out[entry.attribute] = t;
    } else {
      const n = numberOf(value, entry.signed ? (widths?.get(id) ?? (Buffer.isBuffer(value) ? value.length : undefined)) : undefined);
      if (n !== null) out[entry.attribute] = entry.multiplier === undefined ? n : roundTo(n * entry.multiplier);
    }
  }
  out.io = raw;
  return out;
}

/** Multiplied values without binary noise (12845 * 0.001 = 12.845, not 12.845000000000001). */
const roundTo = (v: number): number => Math.round(v * 1e9) / 1e9;

/** A temperature a sensor reported: the attribute that holds it names the sensor (bleTemp1, dallasTemp2). */
export interface TemperatureReading {
  sensor: string;
  celsius: number;
}

/**
 * A map's temperature entries (the first per attribute) and driver-card entries, worked out once per
 * map: a map names hundreds of elements, and every record of every packet asks (walking the whole map
 * per record was a tenth of the API's CPU under Teltonika load).
 */
const MEANINGFUL = new WeakMap<IoMap, { temperatures: IoMapEntry[]; cards: IoMapEntry[] }>();
function meaningful(map: IoMap): { temperatures: IoMapEntry[]; cards: IoMapEntry[] } {
  let m = MEANINGFUL.get(map);
  if (!m) {
    const seen = new Set<string>();
    m = { temperatures: [], cards: [] };
    for (const entry of Object.values(map)) {
      if (entry.meaning === 'driverCard') m.cards.push(entry);
      if (entry.meaning !== 'temperature' || seen.has(entry.attribute)) continue;
      seen.add(entry.attribute);
      m.temperatures.push(entry);
    }
    MEANINGFUL.set(map, m);
  }
  return m;
}

/** The temperatures among a record's attributes: those the map says measure a temperature (in °C). */
export function temperaturesOf(attributes: Readonly<Record<string, unknown>>, map: IoMap): TemperatureReading[] {
  const out: TemperatureReading[] = [];
  for (const entry of meaningful(map).temperatures) {
    const v = attributes[entry.attribute];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    out.push({ sensor: entry.attribute, celsius: entry.unit === '°F' ? roundTo(((v - 32) * 5) / 9) : v });
  }
  return out;
}

/** The driver cards among a record's attributes: those the map says are a driver card (16 hex digits each). */
export function driverCardsOf(attributes: Readonly<Record<string, unknown>>, map: IoMap): string[] {
  const out = new Set<string>();
  for (const entry of meaningful(map).cards) {
    const v = attributes[entry.attribute];
    const card = typeof v === 'string' ? canonicalCardNumber(v) : null;
    if (card) out.add(card);
  }
  return [...out];
}
