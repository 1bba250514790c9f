// Reads an ELD output file back into the model, verifying the layout of 4.8.2.1, every line data
// check value, every event data check value and the file data check value. Line ends may be CR, LF
// or CR LF (files travel through e-mail and editors); blank lines, trailing spaces and a byte-order
// mark are ignored.

import { eventDataCheckValue, fileDataCheckValue, lineDataCheckValue } from './check-values.ts';
import { EldParseError } from './errors.ts';
import { readFileDate, readFileTime, readPosition } from './format.ts';
import type {
  EldAnnotation,
  EldCertification,
  EldCmv,
  EldEnginePower,
  EldEvent,
  EldFile,
  EldHeader,
  EldLoginLogout,
  EldMalfunction,
  EldPosition,
  EldRecordedEvent,
  EldRecordOrigin,
  EldRecordStatus,
  EldUnidentifiedEvent,
  EldUser,
  LocalDate,
  LocalDateTime,
} from './model.ts';
import { DEFAULT_UNIDENTIFIED_USERNAME, HEADER_FIELDS, LIST_FIELDS, SEGMENT_ORDER, SEGMENT_TITLES, type ListSegment, type SegmentKey } from './segments.ts';

export interface ParseEldFileOptions {
  /** Username of the unidentified driver profile, needed to verify those records' event check values. */
  readonly unidentifiedUsername?: string;
  /**
   * Verify the event data check values (default true). The rule names "ELD username" among their
   * fields without saying whose; this package uses the record's owner (the header's driver, or the
   * unidentified profile). A file from an ELD that read it otherwise can be imported with false: line
   * and file check values still guard it.
   */
  readonly verifyEventCheckValues?: boolean;
}

interface Line {
  readonly number: number;
  readonly text: string;
}

const TITLE_KEYS = new Map<string, SegmentKey>(SEGMENT_ORDER.map((key) => [SEGMENT_TITLES[key], key]));

/** Title of a segment, tolerating the typographic apostrophe some editors put in "Driver's". */
function titleKey(text: string): SegmentKey | undefined {
  // Every data line holds a comma (at least before its check value); no title does.
  if (text.includes(',')) return undefined;
  return TITLE_KEYS.get(text.trim().replace(/\u2019/g, "'"));
}

/** The fields of one data line, read with the line number and field names in every error. */
class Row {
  constructor(
    readonly line: number,
    readonly segment: string,
    private readonly names: readonly string[],
    readonly values: readonly string[],
  ) {}

  error(index: number | null, reason: string): EldParseError {
    return new EldParseError(this.line, this.segment, index === null ? null : (this.names[index] ?? null), reason);
  }

  fail(index: number | null, reason: string): never {
    throw this.error(index, reason);
  }

  text(i: number): string {
    return this.values[i] ?? '';
  }

  integer(i: number, min: number, max: number): number {
    const text = this.text(i);
    const value = Number(text);
    if (!/^\d{1,5}$/.test(text) || value < min || value > max) this.fail(i, `${JSON.stringify(text)} is not an integer from ${min} to ${max}`);
    return value;
  }

  oneOf<T extends number>(i: number, allowed: readonly T[]): T {
    const text = this.text(i);
    const found = allowed.find((a) => String(a) === text);
    if (found === undefined) this.fail(i, `${JSON.stringify(text)} is not one of ${allowed.join(', ')}`);
    return found;
  }

  sequenceId(i: number): number {
    const text = this.text(i);
    if (!/^[0-9A-Fa-f]{1,4}$/.test(text)) this.fail(i, `${JSON.stringify(text)} is not 1-4 hexadecimal digits`);
    return parseInt(text, 16);
  }

  order(i: number, listLength: number): number | null {
    const text = this.text(i);
    if (text === '') return null;
    const value = this.integer(i, 1, 99);
    if (value > listLength) this.fail(i, `order number ${value} is not in its list (${listLength} entries)`);
    return value;
  }

  date(i: number): LocalDate {
    const date = readFileDate(this.text(i));
    if (date === null) this.fail(i, `${JSON.stringify(this.text(i))} is not a date MMDDYY`);
    return date;
  }

  time(i: number): string {
    const time = readFileTime(this.text(i));
    if (time === null) this.fail(i, `${JSON.stringify(this.text(i))} is not a time HHMMSS`);
    return time;
  }

  dateTime(dateIndex: number, timeIndex: number): LocalDateTime {
    return `${this.date(dateIndex)}T${this.time(timeIndex)}`;
  }

  miles(i: number): number | null {
    const text = this.text(i);
    if (text === '') return null;
    if (!/^\d{1,7}$/.test(text)) this.fail(i, `${JSON.stringify(text)} is not whole miles`);
    return Number(text);
  }

  hours(i: number): number | null {
    const text = this.text(i);
    if (text === '') return null;
    if (!/^\d{1,5}(\.\d)?$/.test(text)) this.fail(i, `${JSON.stringify(text)} is not engine hours like 1234.5`);
    return Number(text);
  }

  flag(i: number): boolean {
    const text = this.text(i);
    if (text !== '0' && text !== '1') this.fail(i, `${JSON.stringify(text)} is not 0 or 1`);
    return text === '1';
  }

  position(latIndex: number, lonIndex: number): EldPosition {
    const position = readPosition(this.text(latIndex), this.text(lonIndex));
    if (position === null) {
      this.fail(
        latIndex,
        `${JSON.stringify(`${this.text(latIndex)},${this.text(lonIndex)}`)} is not a position (degrees with 1 or 2 decimals, or X, M, E twice)`,
      );
    }
    return position;
  }

  trailers(i: number): string[] {
    return this.text(i)
      .split(' ')
      .filter((t) => t !== '');
  }
}

const EVENT_CODES: Readonly<Record<number, readonly number[]>> = { 1: [1, 2, 3, 4], 2: [1, 2], 3: [0, 1, 2] };

/**
 * Parses an ELD output file. Throws EldParseError with the line number, segment and field at fault
 * for a file out of layout, a value out of its format, or any check value that does not match.
 */
export function parseEldFile(text: string, options: ParseEldFileOptions = {}): EldFile {
  // A byte-order mark and trailing spaces come from editors, never from the file's data: every data
  // line ends with its check value.
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const lines: Line[] = [];
  physical.forEach((t, i) => {
    const trimmed = t.trimEnd();
    if (trimmed.trim() !== '') lines.push({ number: i + 1, text: trimmed });
  });
  const verifyEvents = options.verifyEventCheckValues ?? true;
  const unidentifiedUsername = options.unidentifiedUsername ?? DEFAULT_UNIDENTIFIED_USERNAME;
  const lineChecks: number[] = [];
  let cursor = 0;
  const lastLineNumber = physical.length;

  const expectTitle = (key: SegmentKey): void => {
    const line = lines[cursor];
    if (line === undefined) throw new EldParseError(lastLineNumber, null, null, `the file ends before the segment "${SEGMENT_TITLES[key]}"`);
    if (titleKey(line.text) !== key)
      throw new EldParseError(line.number, null, null, `expected the title "${SEGMENT_TITLES[key]}", found ${JSON.stringify(line.text.slice(0, 60))}`);
    cursor++;
  };

  // Verifies a data line's check value and splits it into its fields.
  const dataRow = (line: Line, segment: SegmentKey, names: readonly string[]): Row => {
    const title = SEGMENT_TITLES[segment];
    const cut = line.text.lastIndexOf(',');
    const given = cut < 0 ? '' : line.text.slice(cut + 1);
    if (!/^[0-9A-Fa-f]{2}$/.test(given))
      throw new EldParseError(line.number, title, 'Line Data Check Value', `the line does not end with a line data check value (2 hex digits)`);
    const body = line.text.slice(0, cut);
    const expected = lineDataCheckValue(body);
    if (given.toUpperCase() !== expected) {
      throw new EldParseError(
        line.number,
        title,
        'Line Data Check Value',
        `is ${given} but the line's characters give ${expected}: the line was changed after the file was made`,
      );
    }
    lineChecks.push(parseInt(given, 16));
    const values = body.split(',');
    if (values.length !== names.length)
      throw new EldParseError(line.number, title, null, `has ${values.length} fields, ${names.length} expected (${names.join(', ')})`);
    return new Row(line.number, title, names, values);
  };

  // The data lines of a repeating segment: every line up to the next title.
  const listRows = (segment: ListSegment): Row[] => {
    expectTitle(segment);
    const rows: Row[] = [];
    for (let line = lines[cursor]; line !== undefined && titleKey(line.text) === undefined; line = lines[++cursor]) {
      rows.push(dataRow(line, segment, LIST_FIELDS[segment]));
    }
    return rows;
  };

  // ---- header
  expectTitle('header');
  const headerRows = HEADER_FIELDS.map((names, i) => {
    const line = lines[cursor];
    if (line === undefined || titleKey(line.text) !== undefined) {
      throw new EldParseError(line?.number ?? lastLineNumber, SEGMENT_TITLES.header, null, `the header has ${i} lines, 7 expected`);
    }
    cursor++;
    return dataRow(line, 'header', names);
  });
  const [l1, l2, l3, l4, l5, l6, l7] = headerRows as [Row, Row, Row, Row, Row, Row, Row];
  const coDriverBlank = l2.values.every((v) => v === '');
  if (!/^\d{1,9}$/.test(l4.text(0))) l4.fail(0, `${JSON.stringify(l4.text(0))} is not 1 to 9 digits`);
  const exempt = l5.text(1);
  if (exempt !== 'E' && exempt !== '0') l5.fail(1, `${JSON.stringify(exempt)} is not E or 0`);
  const header: EldHeader = {
    driver: { lastName: l1.text(0), firstName: l1.text(1), username: l1.text(2), licenseState: l1.text(3), licenseNumber: l1.text(4) },
    coDriver: coDriverBlank ? null : { lastName: l2.text(0), firstName: l2.text(1), username: l2.text(2) },
    cmv: { powerUnitNumber: l3.text(0), vin: l3.text(1), trailerNumbers: l3.trailers(2) },
    carrier: { usdotNumber: l4.text(0), name: l4.text(1) },
    multidayBasis: l4.oneOf(2, [7, 8] as const),
    periodStartTime: l4.time(3),
    timeZoneOffsetHours: l4.integer(4, 0, 23),
    shippingDocumentNumber: l5.text(0),
    exempt: exempt === 'E',
    current: { at: l6.dateTime(0, 1), position: l6.position(2, 3), totalVehicleMiles: l6.miles(4), totalEngineHours: l6.hours(5) },
    eld: { registrationId: l7.text(0), identifier: l7.text(1), authenticationValue: l7.text(2) },
    outputFileComment: l7.text(3),
  };

  // ---- user and CMV lists: order numbers count 1, 2, 3… down the list
  const users: EldUser[] = listRows('users').map((row, i) => {
    if (row.integer(0, 1, 99) !== i + 1) row.fail(0, `is ${row.text(0)} but this is entry ${i + 1} of the list`);
    const accountType = row.text(1);
    if (accountType !== 'D' && accountType !== 'S') throw row.error(1, `${JSON.stringify(accountType)} is not D or S`);
    return { accountType, lastName: row.text(2), firstName: row.text(3) };
  });
  const cmvRows = listRows('cmvs');
  const cmvs: EldCmv[] = cmvRows.map((row, i) => {
    if (row.integer(0, 1, 99) !== i + 1) row.fail(0, `is ${row.text(0)} but this is entry ${i + 1} of the list`);
    return { powerUnitNumber: row.text(1), vin: row.text(2) };
  });

  // Fields shared by event list and unidentified rows, with their event check value verified.
  const recorded = (row: Row, checkIndex: number, username: string): EldRecordedEvent => {
    const type = row.oneOf(3, [1, 2, 3] as const);
    const code = row.oneOf(4, EVENT_CODES[type] ?? []);
    const cmvOrder = row.order(12, cmvs.length);
    const event: EldRecordedEvent = {
      sequenceId: row.sequenceId(0),
      recordStatus: row.oneOf<EldRecordStatus>(1, [1, 2, 3, 4]),
      recordOrigin: row.oneOf<EldRecordOrigin>(2, [1, 2, 3, 4]),
      type,
      code,
      at: row.dateTime(5, 6),
      accumulatedVehicleMiles: row.miles(7),
      elapsedEngineHours: row.hours(8),
      position: row.position(9, 10),
      distanceSinceLastValidCoordinates: row.integer(11, 0, 6),
      cmvOrder,
      malfunction: false,
    };
    const given = row.text(checkIndex);
    if (!/^[0-9A-Fa-f]{2}$/.test(given)) row.fail(checkIndex, `${JSON.stringify(given)} is not 2 hex digits`);
    if (verifyEvents) {
      const powerUnit = cmvOrder === null ? '' : (cmvs[cmvOrder - 1]?.powerUnitNumber ?? '');
      const v = row.values;
      const expected = eventDataCheckValue([
        v[3] ?? '',
        v[4] ?? '',
        v[5] ?? '',
        v[6] ?? '',
        v[7] ?? '',
        v[8] ?? '',
        v[9] ?? '',
        v[10] ?? '',
        powerUnit,
        username,
      ]);
      if (given.toUpperCase() !== expected)
        row.fail(checkIndex, `is ${given} but the event's fields give ${expected}: the event was changed after it was recorded`);
    }
    return event;
  };

  // ---- ELD event list
  const eventRows = listRows('events');
  const events: EldEvent[] = eventRows.map((row) => ({
    ...recorded(row, 16, header.driver.username),
    userOrder: row.order(13, users.length),
    malfunction: row.flag(14),
    dataDiagnostic: row.flag(15),
    annotation: null,
  }));

  // ---- annotations, attached to their event by sequence id, date and time
  const eventIndex = new Map<string, number>();
  eventRows.forEach((row, i) => eventIndex.set(`${parseInt(row.text(0), 16)}|${row.text(5)}|${row.text(6)}`, i));
  for (const row of listRows('annotations')) {
    const key = `${row.sequenceId(0)}|${row.text(3)}|${row.text(4)}`;
    row.dateTime(3, 4);
    const index = eventIndex.get(key);
    const event = index === undefined ? undefined : events[index];
    if (index === undefined || event === undefined)
      throw row.error(0, `no event of the ELD Event List has sequence id ${row.text(0)} at ${row.text(3)} ${row.text(4)}`);
    if (event.annotation !== null) row.fail(0, `event ${row.text(0)} at ${row.text(3)} ${row.text(4)} is annotated twice`);
    const annotation: EldAnnotation = { username: row.text(1), comment: row.text(2), locationDescription: row.text(5) };
    events[index] = { ...event, annotation };
  }

  const certifications: EldCertification[] = listRows('certifications').map((row) => ({
    sequenceId: row.sequenceId(0),
    code: row.integer(1, 1, 9),
    at: row.dateTime(2, 3),
    certifiedDate: row.date(4),
    cmvOrder: row.order(5, cmvs.length),
  }));

  const malfunctions: EldMalfunction[] = listRows('malfunctions').map((row) => {
    const code = row.oneOf(1, [1, 2, 3, 4] as const);
    const diagnosticCode = row.text(2);
    if (!(code <= 2 ? /^[PETLRSO]$/ : /^[1-6]$/).test(diagnosticCode)) {
      row.fail(2, `${JSON.stringify(diagnosticCode)} is not a ${code <= 2 ? 'malfunction code (P, E, T, L, R, S, O)' : 'data diagnostic code (1-6)'}`);
    }
    return {
      sequenceId: row.sequenceId(0),
      code,
      diagnosticCode,
      at: row.dateTime(3, 4),
      totalVehicleMiles: row.miles(5),
      totalEngineHours: row.hours(6),
      cmvOrder: row.order(7, cmvs.length),
    };
  });

  const loginLogouts: EldLoginLogout[] = listRows('loginLogouts').map((row) => ({
    sequenceId: row.sequenceId(0),
    code: row.oneOf(1, [1, 2] as const),
    username: row.text(2),
    at: row.dateTime(3, 4),
    totalVehicleMiles: row.miles(5),
    totalEngineHours: row.hours(6),
  }));

  const enginePower: EldEnginePower[] = listRows('enginePower').map((row) => ({
    sequenceId: row.sequenceId(0),
    code: row.oneOf(1, [1, 2, 3, 4] as const),
    at: row.dateTime(2, 3),
    totalVehicleMiles: row.miles(4),
    totalEngineHours: row.hours(5),
    position: row.position(6, 7),
    powerUnitNumber: row.text(8),
    vin: row.text(9),
    trailerNumbers: row.trailers(10),
    shippingDocumentNumber: row.text(11),
  }));

  const unidentifiedEvents: EldUnidentifiedEvent[] = listRows('unidentified').map((row) => ({
    ...recorded(row, 14, unidentifiedUsername),
    malfunction: row.flag(13),
  }));

  // ---- end of file: the file data check value over every line check value
  expectTitle('endOfFile');
  const last = lines[cursor];
  if (last === undefined) throw new EldParseError(lastLineNumber, SEGMENT_TITLES.endOfFile, 'File Data Check Value', 'missing');
  const given = last.text.trim();
  if (!/^[0-9A-Fa-f]{4}$/.test(given))
    throw new EldParseError(last.number, SEGMENT_TITLES.endOfFile, 'File Data Check Value', `${JSON.stringify(given)} is not 4 hex digits`);
  const expected = fileDataCheckValue(lineChecks);
  if (given.toUpperCase() !== expected) {
    throw new EldParseError(
      last.number,
      SEGMENT_TITLES.endOfFile,
      'File Data Check Value',
      `is ${given} but the line check values give ${expected}: lines were added, removed or changed`,
    );
  }
  const extra = lines[cursor + 1];
  if (extra !== undefined) throw new EldParseError(extra.number, null, null, 'text after the file data check value');

  return { header, users, cmvs, events, certifications, malfunctions, loginLogouts, enginePower, unidentifiedEvents };
}
