import { parseEldFile } from '@fleet/eld';

// The stand-in's validator of ELD output files (decision 0185): what FMCSA's validator checks, for
// the rules we know (reference/fmcsa/README.md; 49 CFR 395 Appendix A 4.4.5, 4.8.2, section 7), written
// apart from packages/eld so it can disagree with it: the line delimiter, the layout and the count of
// fields of every line, each field's length, format and range, MMDDYY dates, the line and file check
// values (the rule's algorithm again, here), the event check values of the driver's records, the
// order numbers against their lists, and the submission's parameters against the file. The package's
// parser reads the file last, as a second opinion. Messages carry the names of FMCSA's Table 4-2;
// "Invalid Check Value" and the comment and file name mismatches are this stand-in's own words.
// Line is 1-based; Start and End are the 1-based first and last column of the field in the line.

export type MessageType = 'Error' | 'Warning' | 'Information';

export interface FileMessage {
  type: MessageType;
  line: number;
  start: number;
  end: number;
  message: string;
  detail: string;
}

export interface SubmissionParameters {
  registrationId: string;
  eldIdentifier: string;
  fileName: string;
  comment: string;
}

// ---------------------------------------------------------------- check values (4.4.5), again

const charValue = (c: number) => ((c >= 0x31 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? c - 0x30 : 0);
const sumOf = (text: string) => [...text].reduce((s, ch) => s + charValue(ch.charCodeAt(0)), 0);
const rol8 = (b: number) => ((b << 3) | (b >> 5)) & 0xff;
const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');
const lineCheck = (text: string) => hex(rol8(sumOf(text) & 0xff) ^ 0x96, 2);
const eventCheck = (text: string) => hex(rol8(sumOf(text) & 0xff) ^ 0xc3, 2);
function fileCheck(lineChecks: readonly number[]): string {
  const sum = lineChecks.reduce((s, v) => s + v, 0) & 0xffff;
  return hex(((rol8(sum >> 8) << 8) | rol8(sum & 0xff)) ^ 0x969c, 4);
}

// ---------------------------------------------------------------- fields

type Kind =
  | { t: 'text'; min?: number; max: number }
  | { t: 'fixed'; pattern: RegExp; len: string }
  | { t: 'int'; min: number; max: number }
  | { t: 'decimal'; min: number; max: number }
  | { t: 'enum'; values: readonly string[] }
  | { t: 'date' }
  | { t: 'time' }
  | { t: 'lat' }
  | { t: 'lon' }
  | { t: 'hex'; max: number }
  | { t: 'vin' };

interface Field {
  name: string;
  required: boolean;
  kind: Kind;
}

const f = (name: string, required: boolean, kind: Kind): Field => ({ name, required, kind });
const text = (max: number, min?: number): Kind => ({ t: 'text', max, ...(min === undefined ? {} : { min }) });
const int = (min: number, max: number): Kind => ({ t: 'int', min, max });
const oneOf = (...values: string[]): Kind => ({ t: 'enum', values });
const DATE: Kind = { t: 'date' };
const TIME: Kind = { t: 'time' };
const SEQ = f('Event Sequence ID Number', true, { t: 'hex', max: 4 });
const CHECK = f('Event Data Check Value', true, { t: 'fixed', pattern: /^[0-9A-F]{2}$/, len: '2 hexadecimal characters' });
const LAT = (name: string, required = true) => f(name, required, { t: 'lat' });
const LON = (name: string, required = true) => f(name, required, { t: 'lon' });
const CMV_ORDER = f('Corresponding CMV Order Number', false, int(1, 99));

const EVENT_HEAD: Field[] = [
  SEQ,
  f('Event Record Status', true, oneOf('1', '2', '3', '4')),
  f('Event Record Origin', true, oneOf('1', '2', '3', '4')),
  f('Event Type', true, oneOf('1', '2', '3')),
  f('Event Code', true, int(0, 9)),
  f('Event Date', true, DATE),
  f('Event Time', true, TIME),
  f('Accumulated Vehicle Miles', false, int(0, 9999)),
  f('Elapsed Engine Hours', false, { t: 'decimal', min: 0, max: 99.9 }),
  LAT('Event Latitude'),
  LON('Event Longitude'),
  f('Distance Since Last Valid Coordinates', true, int(0, 6)),
  CMV_ORDER,
];

const HEADER: Field[][] = [
  [
    f("Driver's Last Name", true, text(30)),
    f("Driver's First Name", true, text(30)),
    f('ELD Username', true, text(60, 4)),
    f("Driver's License Issuing State", true, { t: 'fixed', pattern: /^[A-Z]{2}$/, len: '2 letters' }),
    f("Driver's License Number", true, text(20)),
  ],
  [f("Co-Driver's Last Name", false, text(30)), f("Co-Driver's First Name", false, text(30)), f('Co-Driver ELD Username', false, text(60, 4))],
  [f('CMV Power Unit Number', false, text(10)), f('CMV VIN', false, { t: 'vin' }), f('Trailer Number(s)', false, text(32))],
  [
    f("Carrier's USDOT Number", true, int(0, 999_999_999)),
    f('Carrier Name', true, text(120, 4)),
    f('Multiday Basis Used', true, oneOf('7', '8')),
    f('24-Hour Period Starting Time', true, TIME),
    f('Time Zone Offset from UTC', true, { t: 'fixed', pattern: /^(0[4-9]|1[01])$/, len: '2 digits 04-11' }),
  ],
  [f('Shipping Document Number', false, text(40)), f('Exempt Driver Configuration', true, oneOf('E', '0'))],
  [
    f('Current Date', true, DATE),
    f('Current Time', true, TIME),
    LAT('Current Latitude'),
    LON('Current Longitude'),
    f('Current Total Vehicle Miles', false, int(0, 9_999_999)),
    f('Current Total Engine Hours', false, { t: 'decimal', min: 0, max: 99_999.9 }),
  ],
  [
    f('ELD Registration ID', true, { t: 'fixed', pattern: /^[A-Z0-9]{4}$/, len: '4 characters A-Z or 0-9' }),
    f('ELD Identifier', true, { t: 'fixed', pattern: /^[A-Z0-9]{6}$/, len: '6 characters A-Z or 0-9' }),
    // More than 16 characters; the rule names no longest.
    f('ELD Authentication Value', true, text(1000, 16)),
    f('Output File Comment', false, text(60)),
  ],
];

type Segment = 'users' | 'cmvs' | 'events' | 'annotations' | 'certifications' | 'malfunctions' | 'logins' | 'engine' | 'unidentified';

const LISTS: Record<Segment, Field[]> = {
  users: [f('Order Number', true, int(1, 99)), f('ELD Account Type', true, oneOf('D', 'S')), f('Last Name', true, text(30)), f('First Name', true, text(30))],
  cmvs: [f('Order Number', true, int(1, 99)), f('CMV Power Unit Number', true, text(10)), f('CMV VIN', false, { t: 'vin' })],
  events: [
    ...EVENT_HEAD,
    f('User Order Number', false, int(1, 99)),
    f('Malfunction Indicator Status', true, oneOf('0', '1')),
    f('Data Diagnostic Event Indicator Status', true, oneOf('0', '1')),
    CHECK,
  ],
  annotations: [
    SEQ,
    f('ELD Username', true, text(60, 4)),
    f('Comment/Annotation', true, text(60)),
    f('Event Date', true, DATE),
    f('Event Time', true, TIME),
    f("Driver's Location Description", false, text(60)),
  ],
  certifications: [
    SEQ,
    f('Event Code', true, int(1, 9)),
    f('Event Date', true, DATE),
    f('Event Time', true, TIME),
    f('Date of the Certified Record', true, DATE),
    CMV_ORDER,
  ],
  malfunctions: [
    SEQ,
    f('Event Code', true, oneOf('1', '2', '3', '4')),
    f('Malfunction/Diagnostic Code', true, oneOf('P', 'E', 'T', 'L', 'R', 'S', 'O', '1', '2', '3', '4', '5', '6')),
    f('Event Date', true, DATE),
    f('Event Time', true, TIME),
    f('Total Vehicle Miles', false, int(0, 9_999_999)),
    f('Total Engine Hours', false, { t: 'decimal', min: 0, max: 99_999.9 }),
    CMV_ORDER,
  ],
  logins: [
    SEQ,
    f('Event Code', true, oneOf('1', '2')),
    f('ELD Username', true, text(60, 4)),
    f('Event Date', true, DATE),
    f('Event Time', true, TIME),
    f('Total Vehicle Miles', false, int(0, 9_999_999)),
    f('Total Engine Hours', false, { t: 'decimal', min: 0, max: 99_999.9 }),
  ],
  engine: [
    SEQ,
    f('Event Code', true, oneOf('1', '2', '3', '4')),
    f('Event Date', true, DATE),
    f('Event Time', true, TIME),
    f('Total Vehicle Miles', false, int(0, 9_999_999)),
    f('Total Engine Hours', false, { t: 'decimal', min: 0, max: 99_999.9 }),
    LAT('Event Latitude'),
    LON('Event Longitude'),
    f('CMV Power Unit Number', true, text(10)),
    f('CMV VIN', false, { t: 'vin' }),
    f('Trailer Number(s)', false, text(32)),
    f('Shipping Document Number', false, text(40)),
  ],
  unidentified: [
    ...EVENT_HEAD.map((x) => (x.name === 'Event Type' ? f('Event Type', true, oneOf('1', '2')) : x)),
    f('Malfunction Indicator Status', true, oneOf('0', '1')),
    CHECK,
  ],
};

const TITLES: Array<[string, Segment | 'header' | 'end']> = [
  ['ELD File Header Segment:', 'header'],
  ['User List:', 'users'],
  ['CMV List:', 'cmvs'],
  ['ELD Event List:', 'events'],
  ['ELD Event Annotations or Comments:', 'annotations'],
  ["Driver's Certification/Recertification Actions:", 'certifications'],
  ['Malfunctions and Data Diagnostic Events:', 'malfunctions'],
  ['ELD Login/Logout Report:', 'logins'],
  ['CMV Engine Power-Up and Shut Down Activity:', 'engine'],
  ['Unidentified Driver Profile Records:', 'unidentified'],
  ['End of File:', 'end'],
];

const validDate = (s: string) => {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return false;
  const [mm, dd, yy] = [Number(m[1]), Number(m[2]), 2000 + Number(m[3])];
  return mm >= 1 && mm <= 12 && dd >= 1 && dd <= new Date(Date.UTC(yy, mm, 0)).getUTCDate();
};
const validTime = (s: string) => /^([01]\d|2[0-3])[0-5]\d[0-5]\d$/.test(s);
const MARKERS = ['M', 'X', 'E'];

/** The words of what is wrong with one field's value, or null. */
function fieldProblem(field: Field, v: string): { message: string; detail: string } | null {
  const say = (message: string, why: string) => ({ message, detail: `${field.name}: ${JSON.stringify(v)} ${why}` });
  if (v === '') return field.required ? say('Missing Required Field', 'is required') : null;
  if (/[^\x20-\x7e]/.test(v)) return say('Invalid Value', 'holds characters that are not printable ASCII');
  const k = field.kind;
  switch (k.t) {
    case 'text':
      if (v.length > k.max || v.length < (k.min ?? 0)) return say('Invalid Field Length', `must be ${k.min ?? 0}-${k.max} characters`);
      return null;
    case 'fixed':
      return k.pattern.test(v) ? null : say('Invalid Field Format', `must be ${k.len}`);
    case 'int': {
      if (!/^\d+$/.test(v)) return say('Invalid Integer', 'is not a whole number');
      const n = Number(v);
      return n < k.min || n > k.max ? say('Field Value is Outside Valid Range', `must be ${k.min}-${k.max}`) : null;
    }
    case 'decimal': {
      if (!/^\d+\.\d$/.test(v)) return say('Invalid Decimal', 'is not a number with one decimal');
      const n = Number(v);
      return n < k.min || n > k.max ? say('Field Value is Outside Valid Range', `must be ${k.min}-${k.max}`) : null;
    }
    case 'enum':
      return k.values.includes(v) ? null : say('Invalid Value', `must be one of ${k.values.join(', ')}`);
    case 'date':
      return validDate(v) ? null : say('Invalid Date', 'is not a date MMDDYY');
    case 'time':
      return validTime(v) ? null : say('Invalid Time', 'is not a time HHMMSS');
    case 'lat':
    case 'lon': {
      if (MARKERS.includes(v)) return null;
      const limit = k.t === 'lat' ? 90 : 180;
      if (!/^-?\d{1,3}\.\d{1,2}$/.test(v)) return say('Invalid Decimal', 'is not a coordinate with 1 or 2 decimals (or M, X, E)');
      return Math.abs(Number(v)) > limit ? say('Field Value is Outside Valid Range', `must be -${limit} to ${limit}`) : null;
    }
    case 'hex':
      return /^[0-9A-F]+$/.test(v) && v.length <= k.max ? null : say('Invalid Field Format', `must be 1-${k.max} hexadecimal characters`);
    case 'vin':
      return /^-?[A-HJ-NPR-Z0-9]{17}$/.test(v) ? null : say('Invalid Field Length', 'must be 17 characters (18 with a leading "-")');
  }
}

/** The 25-character file name 4.8.2.2 gives the file, from its header. */
function expectedFileName(lastName: string, license: string, currentDate: string): string {
  const letters = lastName
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 5)
    .padEnd(5, '_');
  const lic = license.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const digits = [...lic].filter((c) => c >= '0' && c <= '9').reduce((s, c) => s + Number(c), 0);
  return `${letters}${lic.slice(-2).padStart(2, '_')}${String(digits % 100).padStart(2, '0')}${currentDate}-`;
}

/** Validates an output file as submitted; the messages, Errors and Warnings, in line order. */
export function validateEldFile(body: string, params: SubmissionParameters): FileMessage[] {
  const out: FileMessage[] = [];
  const add = (type: MessageType, line: number, start: number, end: number, message: string, detail: string) =>
    out.push({ type, line, start, end, message, detail });

  // Line delimiters: a CR alone. A CR LF or an LF is read as a line end too, and warned about.
  const lines = body.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const delimiters = body.match(/\r\n|\r|\n/g) ?? [];
  const badAt = delimiters.findIndex((d) => d !== '\r');
  if (badAt >= 0)
    add(
      'Warning',
      badAt + 1,
      1,
      (lines[badAt]?.length ?? 0) + 1,
      'Invalid Line Delimiter',
      `Lines must end with a carriage return alone; line ${badAt + 1} ends with ${JSON.stringify(delimiters[badAt])}`,
    );
  if (!/[\r\n]$/.test(body))
    add('Warning', lines.length, 1, lines.at(-1)?.length ?? 1, 'Invalid Line Delimiter', 'The last line must end with a carriage return');

  const lineChecks: number[] = [];
  const seen = new Set<string>();
  let titleIndex = -1;
  let segment: Segment | 'header' | 'end' | null = null;
  let headerLine = 0;
  const header: string[][] = [];
  const headerLines: number[] = [];
  const counts: Partial<Record<Segment, number>> = {};
  const rows: Array<{ segment: Segment; line: number; values: string[]; columns: number[] }> = [];
  const end: { fileCheck: { text: string; line: number } | null } = { fileCheck: null };

  lines.forEach((raw, i) => {
    const n = i + 1;
    const title = TITLES.findIndex(([t]) => t === raw);
    if (title >= 0) {
      const [name, key] = TITLES[title]!;
      if (seen.has(name)) add('Error', n, 1, raw.length, 'Duplicate File Section', `"${name}" appears twice`);
      for (let k = titleIndex + 1; k < title; k++)
        if (!seen.has(TITLES[k]![0])) add('Error', n, 1, raw.length, 'Missing File Line', `The section "${TITLES[k]![0]}" is missing before "${name}"`);
      if (title < titleIndex) add('Error', n, 1, raw.length, 'Duplicate File Section', `"${name}" is out of order`);
      seen.add(name);
      titleIndex = Math.max(titleIndex, title);
      segment = key;
      return;
    }
    if (segment === null) return void add('Error', n, 1, raw.length, 'Missing File Line', 'The file must start with "ELD File Header Segment:"');
    if (segment === 'end') {
      if (end.fileCheck) add('Error', n, 1, raw.length, 'Invalid Value', 'Nothing may follow the file data check value');
      else end.fileCheck = { text: raw, line: n };
      return;
    }
    if (raw === '') return void add('Error', n, 1, 1, 'Invalid Value', 'A blank line');
    // The line data check value ends every data line.
    const cut = raw.lastIndexOf(',');
    const check = cut >= 0 ? raw.slice(cut + 1) : '';
    const content = cut >= 0 ? raw.slice(0, cut) : raw;
    if (!/^[0-9A-F]{2}$/.test(check))
      add('Error', n, cut + 2, raw.length, 'Invalid Field Format', `Line Data Check Value: ${JSON.stringify(check)} must be 2 hexadecimal characters`);
    else {
      lineChecks.push(parseInt(check, 16));
      if (lineCheck(content) !== check)
        add('Error', n, cut + 2, raw.length, 'Invalid Check Value', `Line Data Check Value: ${check}, the line's is ${lineCheck(content)}`);
    }
    const values = content.split(',');
    const columns: number[] = [];
    values.reduce((at, v) => (columns.push(at), at + v.length + 1), 1);
    let fields: Field[];
    if (segment === 'header') {
      fields = HEADER[headerLine] ?? [];
      if (!HEADER[headerLine]) return void add('Error', n, 1, raw.length, 'Invalid Value', 'The header has 7 lines');
      header.push(values);
      headerLines.push(n);
      headerLine++;
    } else {
      fields = LISTS[segment];
      counts[segment] = (counts[segment] ?? 0) + 1;
      rows.push({ segment, line: n, values, columns });
    }
    if (values.length !== fields.length)
      return void add(
        'Error',
        n,
        1,
        raw.length,
        'Invalid Field Length',
        `The line holds ${values.length} fields before its check value, ${fields.length} expected`,
      );
    fields.forEach((field, k) => {
      const problem = fieldProblem(field, values[k]!);
      if (problem) add('Error', n, columns[k]!, columns[k]! + Math.max(values[k]!.length, 1) - 1, problem.message, problem.detail);
    });
  });

  if (!seen.has('ELD File Header Segment:')) add('Error', 1, 1, 1, 'Missing File Line', 'The file has no header');
  else if (header.length < 7) add('Error', 1, 1, 1, 'Missing File Line', `The header has ${header.length} lines of 7`);
  if (titleIndex < TITLES.length - 1)
    for (let k = titleIndex + 1; k < TITLES.length; k++) add('Error', lines.length, 1, 1, 'Missing File Line', `The section "${TITLES[k]![0]}" is missing`);
  if (!end.fileCheck) add('Error', lines.length, 1, 1, 'Missing File Line', 'The file data check value is missing');
  else {
    const { text: value, line } = end.fileCheck;
    const expected = fileCheck(lineChecks);
    if (!/^[0-9A-F]{4}$/.test(value))
      add(
        'Error',
        line,
        1,
        Math.max(value.length, 1),
        'Invalid Field Format',
        `File Data Check Value: ${JSON.stringify(value)} must be 4 hexadecimal characters`,
      );
    else if (value !== expected) add('Error', line, 1, 4, 'Invalid Check Value', `File Data Check Value: ${value}, the file's is ${expected}`);
  }

  // Across lines: order numbers against their lists, the driver's records' event check values, annotations' records.
  const users = counts.users ?? 0;
  const cmvs = counts.cmvs ?? 0;
  const powerUnits = rows.filter((r) => r.segment === 'cmvs').map((r) => r.values[1] ?? '');
  const username = header[0]?.[2] ?? '';
  const eventSeqs = new Set(rows.filter((r) => r.segment === 'events').map((r) => r.values[0]));
  for (const r of rows) {
    const fields = LISTS[r.segment];
    if (r.values.length !== fields.length) continue;
    const at = (name: string) => fields.findIndex((x) => x.name === name);
    const context = (k: number, detail: string) =>
      add('Error', r.line, r.columns[k]!, r.columns[k]! + Math.max(r.values[k]!.length, 1) - 1, 'Context Dependent', detail);
    const cmv = at('Corresponding CMV Order Number');
    if (cmv >= 0 && r.values[cmv] !== '' && Number(r.values[cmv]) > cmvs)
      context(cmv, `Corresponding CMV Order Number ${r.values[cmv]} is not in the CMV list (${cmvs} entries)`);
    const user = at('User Order Number');
    if (user >= 0 && r.values[user] !== '' && Number(r.values[user]) > users)
      context(user, `User Order Number ${r.values[user]} is not in the user list (${users} entries)`);
    if (r.segment === 'annotations' && !eventSeqs.has(r.values[0])) context(0, `No event of the event list has the sequence id ${r.values[0]}`);
    if (r.segment === 'events') {
      // Event type, code, date, time, miles, hours, latitude, longitude, the CMV's power unit number, the driver's username.
      const v = r.values;
      const unit = v[12] ? (powerUnits[Number(v[12]) - 1] ?? '') : '';
      const expected = eventCheck([v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], unit, username].join(''));
      const k = v.length - 1;
      if (/^[0-9A-F]{2}$/.test(v[k]!) && v[k] !== expected)
        add('Error', r.line, r.columns[k]!, r.columns[k]! + 1, 'Invalid Check Value', `Event Data Check Value: ${v[k]}, the record's is ${expected}`);
    }
  }

  // The submission's parameters against the file.
  const eldLine = header[6];
  if (eldLine) {
    const line = headerLines[6]!;
    if (eldLine[0] !== params.registrationId)
      add('Warning', line, 1, 4, 'Parameter Mismatch', `The ELD Registration ID submitted (${params.registrationId}) is not the file's (${eldLine[0]})`);
    if (eldLine[1] !== params.eldIdentifier)
      add('Warning', line, 6, 11, 'Parameter Mismatch', `The ELD Identifier submitted (${params.eldIdentifier}) is not the file's (${eldLine[1]})`);
    if ((eldLine[3] ?? '') !== params.comment.trim())
      add(
        'Warning',
        line,
        1,
        1,
        'Parameter Mismatch',
        `The Output File Comment submitted (${JSON.stringify(params.comment)}) is not the file's (${JSON.stringify(eldLine[3] ?? '')})`,
      );
  }
  if (header[0] && header[5]) {
    const stem = expectedFileName(header[0][0] ?? '', header[0][4] ?? '', header[5][0] ?? '');
    const name = params.fileName.replace(/\.csv$/i, '');
    if (name.length !== 25 || !name.startsWith(stem) || !/^[0-9A-Z]{9}$/.test(name.slice(16)))
      add('Warning', 1, 1, 1, 'Parameter Mismatch', `The Output Filename ${JSON.stringify(params.fileName)} is not the file's name by 4.8.2.2 (${stem}…)`);
  }

  // A second opinion: the package's parser reads what passed the checks above.
  if (!out.some((m) => m.type === 'Error')) {
    try {
      parseEldFile(body);
    } catch (err) {
      const e = err as Error & { line?: number };
      add('Error', e.line ?? 1, 1, 1, 'Invalid Value', `The file cannot be read: ${e.message}`);
    }
  }
  return out.sort((a, b) => a.line - b.line || a.start - b.start);
}
