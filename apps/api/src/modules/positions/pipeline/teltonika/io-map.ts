import { ENGINE_ATTRIBUTES, FAULT_ATTRIBUTES, FUEL_LEVEL_ATTRIBUTES, SAFETY_ATTRIBUTES, TELTONIKA_DEFAULT_IO_MAP, type IoMap } from '@fleet/api-contract';

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

function numberOf(v: number | bigint | Buffer): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  // A variable-length element mapped to a number: read it as an unsigned big-endian integer.
  if (v.length === 0 || v.length > 6) return null;
  return v.readUIntBE(0, v.length);
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

/** Named attributes (per `map`) and the raw elements under `io`. */
export function ioAttributes(io: RawIo, map: IoMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw: Record<string, number | string> = {};
  for (const [id, value] of io) {
    raw[id] = rawValue(value);
    const entry = map[String(id)];
    if (!entry) continue;
    const kind = KINDS.get(entry.attribute) ?? (Buffer.isBuffer(value) ? 'text' : 'number');
    if (kind === 'boolean') out[entry.attribute] = numberOf(value) !== 0;
    // A binary element (a whole DM1 message) as hex, whatever its length.
    else if (kind === 'bytes') out[entry.attribute] = rawValue(value);
    else if (kind === 'text') {
      const t = text(value);
      if (t !== '') out[entry.attribute] = t;
    } else {
      const n = numberOf(value);
      if (n !== null) out[entry.attribute] = entry.multiplier === undefined ? n : roundTo(n * entry.multiplier);
    }
  }
  out.io = raw;
  return out;
}

/** Multiplied values without binary noise (12845 * 0.001 = 12.845, not 12.845000000000001). */
const roundTo = (v: number): number => Math.round(v * 1e9) / 1e9;
