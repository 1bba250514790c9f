import { j1939Code, MAX_FMI, MAX_SPN, normalizeFaultCode, type EngineFaultSource, type FaultLamps } from '@fleet/api-contract';
import type { FaultChannel } from '../../db/schema/index.ts';

// What a position says about engine faults (decision 0191), from the attributes the ways in name
// (api-contract's FAULT_ATTRIBUTES): pure, attributes in, the faults each channel reports out.
// Malformed data is never an error: it is left out and counted, and the position is stored as it is.

export interface ReportedFault {
  source: EngineFaultSource;
  code: string;
  spn: number | null;
  fmi: number | null;
  occurrences: number | null;
  lamps: FaultLamps | null;
}

/** One channel's report: LIST channels name every active fault (a fault left out is cleared), EVENT ones a fault that appeared. */
export interface ChannelReport {
  channel: FaultChannel;
  kind: 'LIST' | 'EVENT';
  faults: ReportedFault[];
}

export interface FaultReport {
  channels: ChannelReport[];
  /** Fault attributes left out as malformed. */
  malformed: number;
}

const has = (a: Readonly<Record<string, unknown>>, k: string) => a[k] !== undefined && a[k] !== null;

/** Whether a position carries any fault attribute (the cheap test on ingest's path). */
export const hasFaultData = (a: Readonly<Record<string, unknown>>): boolean => has(a, 'dtcs') || has(a, 'dtcCount') || has(a, 'dm1Dtc') || has(a, 'dm1');

/** A J1939 fault of an SPN and FMI; the occurrence count 127 means "not available". */
function j1939(spn: number, fmi: number, oc: number | null, lamps: FaultLamps | null): ReportedFault {
  return { source: 'J1939', code: j1939Code(spn, fmi), spn, fmi, occurrences: oc === null || oc === 127 ? null : oc, lamps };
}

/** A code as a list names it: OBD-II ("P0301") or J1939 ("110/0", "SPN 110 FMI 0"); null when it is none. */
function listed(token: string): ReportedFault | null {
  const code = normalizeFaultCode(token);
  if (code === null) return null;
  if (!code.startsWith('SPN')) return { source: 'OBD', code, spn: null, fmi: null, occurrences: null, lamps: null };
  const m = /^SPN (\d+) FMI (\d+)$/.exec(code)!;
  return j1939(Number(m[1]), Number(m[2]), null, null);
}

/**
 * Traccar's `dtcs` ("P0100 P0200": its decoders replace commas with spaces) and Teltonika's 281
 * ("P0100,P0200"), or an array of codes. One code that is not a code makes the whole list malformed:
 * a list read wrong could clear faults that are still there.
 */
function dtcList(v: unknown): ReportedFault[] | null {
  let tokens: unknown[];
  if (Array.isArray(v)) tokens = v;
  else if (typeof v === 'string') {
    // "SPN 110 FMI 0" is one code: its spaces go before the list is split.
    const joined = v.replace(/SPN\s+/gi, 'SPN').replace(/\s+FMI\s*/gi, 'FMI');
    tokens = joined.split(/[\s,;|]+/).filter((t) => t !== '');
  } else return null;
  const out: ReportedFault[] = [];
  for (const t of tokens) {
    const f = typeof t === 'string' ? listed(t) : null;
    if (!f) return null;
    if (!out.some((o) => o.code === f.code)) out.push(f);
  }
  return out;
}

/**
 * One J1939 DTC as DM1 carries it, four bytes (J1939-73, conversion method 4): SPN low byte, SPN
 * middle byte, SPN's 3 high bits over the FMI's 5, then CM over the 7-bit occurrence count.
 * Teltonika's "DTC DM1" element holds them as a 4-byte unsigned value, read big-endian.
 */
export function decodeDtcBytes(b0: number, b1: number, b2: number, b3: number, lamps: FaultLamps | null = null): ReportedFault | null {
  const spn = b0 | (b1 << 8) | ((b2 & 0xe0) << 11);
  const fmi = b2 & 0x1f;
  // SPN 0 is no parameter: DM1's "no active fault" is all zeros (or SPN 0 with FMI 0).
  if (spn === 0) return null;
  return j1939(spn, fmi, b3 & 0x7f, lamps);
}

/** The four bytes of a fault as one unsigned value (the simulator and the tests encode with it). */
export const dtcValue = (spn: number, fmi: number, oc: number): number =>
  (((spn & 0xff) << 24) | (((spn >> 8) & 0xff) << 16) | (((((spn >> 16) & 0x07) << 5) | (fmi & 0x1f)) << 8) | (oc & 0x7f)) >>> 0;

function dm1DtcValue(v: unknown): ReportedFault | null | 'bad' {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) return 'bad';
  return decodeDtcBytes((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

/** Lamp status byte: MIL in bits 8-7, red stop 6-5, amber warning 4-3, protect 2-1; "01" is on. */
const lampsOf = (b: number): FaultLamps => ({
  mil: ((b >> 6) & 3) === 1,
  redStop: ((b >> 4) & 3) === 1,
  amberWarning: ((b >> 2) & 3) === 1,
  protect: (b & 3) === 1,
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const intIn = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/**
 * A whole DM1 message: hex (two lamp bytes, then four bytes per fault, as a CAN element carries it)
 * or, from our own JSON, `{ lamps?: {mil, redStop, amberWarning, protect}, faults: [{ spn, fmi, occurrences? }] }`.
 */
function dm1Message(v: unknown): ReportedFault[] | null {
  if (typeof v === 'string') {
    const hex = v.trim();
    if (!/^(?:[0-9a-f]{2})+$/i.test(hex) || hex.length < 4 || (hex.length / 2 - 2) % 4 !== 0) return null;
    const bytes = Buffer.from(hex, 'hex');
    const lamps = lampsOf(bytes[0]!);
    const out: ReportedFault[] = [];
    for (let i = 2; i + 4 <= bytes.length; i += 4) {
      const f = decodeDtcBytes(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!, lamps);
      if (f && !out.some((o) => o.code === f.code)) out.push(f);
    }
    return out;
  }
  if (!isObject(v) || !Array.isArray(v.faults)) return null;
  let lamps: FaultLamps | null = null;
  if (v.lamps !== undefined && v.lamps !== null) {
    const l = v.lamps;
    if (!isObject(l) || !['mil', 'redStop', 'amberWarning', 'protect'].every((k) => l[k] === undefined || typeof l[k] === 'boolean')) return null;
    lamps = { mil: l.mil === true, redStop: l.redStop === true, amberWarning: l.amberWarning === true, protect: l.protect === true };
  }
  const out: ReportedFault[] = [];
  for (const f of v.faults) {
    if (!isObject(f) || !intIn(f.spn, MAX_SPN) || !intIn(f.fmi, MAX_FMI)) return null;
    if (f.occurrences !== undefined && f.occurrences !== null && !intIn(f.occurrences, 127)) return null;
    if (f.spn === 0) continue;
    const r = j1939(f.spn, f.fmi, typeof f.occurrences === 'number' ? f.occurrences : null, lamps);
    if (!out.some((o) => o.code === r.code)) out.push(r);
  }
  return out;
}

/** What one position's attributes report; null when it carries no fault attribute. */
export function faultReport(a: Readonly<Record<string, unknown>>): FaultReport | null {
  if (!hasFaultData(a)) return null;
  const report: FaultReport = { channels: [], malformed: 0 };
  if (has(a, 'dtcs')) {
    // Some of Traccar's decoders put the number of codes in `dtcs`: 0 is an empty list, any other number says nothing of which.
    if (typeof a.dtcs === 'number') {
      if (a.dtcs === 0) report.channels.push({ channel: 'dtcs', kind: 'LIST', faults: [] });
    } else {
      const faults = dtcList(a.dtcs);
      if (faults) report.channels.push({ channel: 'dtcs', kind: 'LIST', faults });
      else report.malformed++;
    }
  } else if (has(a, 'dtcCount')) {
    // Teltonika's count without its list: none means the list is empty.
    if (typeof a.dtcCount !== 'number' || !Number.isFinite(a.dtcCount) || a.dtcCount < 0) report.malformed++;
    else if (a.dtcCount === 0) report.channels.push({ channel: 'dtcs', kind: 'LIST', faults: [] });
  }
  if (has(a, 'dm1')) {
    const faults = dm1Message(a.dm1);
    if (faults) report.channels.push({ channel: 'dm1', kind: 'LIST', faults });
    else report.malformed++;
  }
  if (has(a, 'dm1Dtc')) {
    const f = dm1DtcValue(a.dm1Dtc);
    if (f === 'bad') report.malformed++;
    else if (f) report.channels.push({ channel: 'dm1Dtc', kind: 'EVENT', faults: [f] });
  }
  return report;
}
