// Writes the ELD output file (Appendix A 4.8.2.1): every segment in order with its title line, every
// data line ending with its line data check value, event list and unidentified rows carrying their
// event data check value, and the file data check value last.

import { eventDataCheckValue, fileDataCheckValue, lineDataCheckValue } from './check-values.ts';
import { EldInputError } from './errors.ts';
import { eldFileName } from './file-name.ts';
import {
  fieldText,
  fileDate,
  fileDateTime,
  fileHours,
  fileMiles,
  filePosition,
  fileSequenceId,
  fileTime,
  isLocalDate,
  isLocalDateTime,
  isLocalTime,
} from './format.ts';
import type { EldFile, EldPosition, EldRecordedEvent, LocalDateTime } from './model.ts';
import { DEFAULT_UNIDENTIFIED_USERNAME, SEGMENT_TITLES } from './segments.ts';

export interface WriteEldFileOptions {
  /**
   * Line terminator. The rule writes `<CR>` and defines it as "a carriage return or new line"
   * (Appendix A 3.2(c)); CR LF (the default) satisfies a reader that splits on either and opens
   * cleanly everywhere. `\r` writes the bare carriage return for a recipient that wants exactly that.
   */
  readonly lineEnding?: '\r\n' | '\r';
  /** Characters 17-25 of the file name (0-9, A-Z); default `000000000`. */
  readonly fileNameSuffix?: string;
  /** ELD username of the unidentified driver profile, part of its records' event check values. */
  readonly unidentifiedUsername?: string;
}

export interface EldFileOutput {
  /** The 25-character name of 4.8.2.2 (no extension). */
  readonly fileName: string;
  readonly text: string;
}

// Lengths from the data dictionary (section 7). Free text longer than its field is cut; identifiers
// that do not fit are refused, since cutting one would name another vehicle or account.
const MAX = { name: 30, username: 60, carrierName: 120, shippingDocument: 40, annotation: 60, location: 60, comment: 60, powerUnit: 10, trailers: 32 };

function fail(path: string, reason: string): never {
  throw new EldInputError(path, reason);
}

function checkAt(path: string, value: LocalDateTime): void {
  if (!isLocalDateTime(value)) fail(path, `${JSON.stringify(value)} is not a local date-time like 2026-06-01T06:30:00`);
}

function checkInteger(path: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) fail(path, `must be an integer from ${min} to ${max}`);
}

function checkAmount(path: string, value: number | null, max: number): void {
  if (value !== null && !(Number.isFinite(value) && value >= 0 && value <= max)) fail(path, `must be empty or a number from 0 to ${max}`);
}

function checkPosition(path: string, position: EldPosition): void {
  if (position.kind !== 'fix') return;
  const { latitude, longitude } = position;
  if (!(Number.isFinite(latitude) && Math.abs(latitude) <= 90)) fail(`${path}.latitude`, 'must be from -90 to 90');
  if (!(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180)) fail(`${path}.longitude`, 'must be from -180 to 180');
}

function identifier(path: string, value: string, max: number): string {
  const text = fieldText(value);
  if (text.length > max) fail(path, `must be at most ${max} characters`);
  return text;
}

function vinField(path: string, vin: string): string {
  const text = fieldText(vin).toUpperCase();
  if (text !== '' && !/^-?[A-Z0-9]{17}$/.test(text)) fail(path, 'must be 17 characters, "-" and 17 characters when not read from the engine, or empty (7.4)');
  return text;
}

function trailersField(path: string, trailers: readonly string[]): string {
  const numbers = trailers.map((t, i) => {
    const text = fieldText(t);
    if (text === '' || /\s/.test(text)) fail(`${path}[${i}]`, 'a trailer number must be non-empty and without spaces (the file separates them with spaces)');
    return text;
  });
  const joined = numbers.join(' ');
  if (joined.length > MAX.trailers) fail(path, `trailer numbers take at most ${MAX.trailers} characters together (7.42)`);
  return joined;
}

function orderField(path: string, order: number | null, listLength: number): string {
  if (order === null) return '';
  if (!Number.isInteger(order) || order < 1 || order > listLength) fail(path, `must refer to an entry of its list (1-${listLength}) or be null`);
  return String(order);
}

const EVENT_CODES: Readonly<Record<number, readonly number[]>> = { 1: [1, 2, 3, 4], 2: [1, 2], 3: [0, 1, 2] };

function checkRecorded(path: string, e: EldRecordedEvent, cmvCount: number): void {
  checkInteger(`${path}.sequenceId`, e.sequenceId, 0, 0xffff);
  checkInteger(`${path}.recordStatus`, e.recordStatus, 1, 4);
  checkInteger(`${path}.recordOrigin`, e.recordOrigin, 1, 4);
  if (!(e.type in EVENT_CODES)) fail(`${path}.type`, 'must be 1, 2 or 3 in this list');
  if (!EVENT_CODES[e.type]?.includes(e.code)) fail(`${path}.code`, `is not a code of event type ${e.type} (Table 6)`);
  checkAt(`${path}.at`, e.at);
  checkAmount(`${path}.accumulatedVehicleMiles`, e.accumulatedVehicleMiles, 9999);
  checkAmount(`${path}.elapsedEngineHours`, e.elapsedEngineHours, 99999.9);
  checkPosition(`${path}.position`, e.position);
  if (!Number.isInteger(e.distanceSinceLastValidCoordinates) || e.distanceSinceLastValidCoordinates < 0) {
    fail(`${path}.distanceSinceLastValidCoordinates`, 'must be a whole number of miles, 0 or more');
  }
  orderField(`${path}.cmvOrder`, e.cmvOrder, cmvCount);
}

/** Most recent first (4.8.2.1.4-10); at the same time the later record (higher sequence id) first. */
function mostRecentFirst<T extends { readonly at: string; readonly sequenceId: number }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.at < b.item.at ? 1 : a.item.at > b.item.at ? -1 : b.item.sequenceId - a.item.sequenceId || a.index - b.index))
    .map(({ item }) => item);
}

/** Accumulates lines and their check values. */
class FileLines {
  readonly lines: string[] = [];
  private readonly checks: number[] = [];

  title(key: keyof typeof SEGMENT_TITLES): void {
    this.lines.push(SEGMENT_TITLES[key]);
  }

  data(fields: readonly string[]): void {
    const line = fields.join(',');
    const check = lineDataCheckValue(line);
    this.checks.push(parseInt(check, 16));
    this.lines.push(`${line},${check}`);
  }

  end(): void {
    this.title('endOfFile');
    this.lines.push(fileDataCheckValue(this.checks));
  }
}

/**
 * Writes the ELD output file of `input` and names it (4.8.2.2, from the header's driver and current
 * date). Throws EldInputError naming the field for input the file cannot hold.
 */
export function writeEldFile(input: EldFile, options: WriteEldFileOptions = {}): EldFileOutput {
  const { header } = input;
  const out = new FileLines();
  const cmvCount = input.cmvs.length;
  const userCount = input.users.length;
  if (userCount > 99) fail('users', 'the user list holds at most 99 entries (order numbers 1-99)');
  if (cmvCount > 99) fail('cmvs', 'the CMV list holds at most 99 entries (order numbers 1-99)');

  // ---- header (4.8.2.1.1)
  const driverUsername = fieldText(header.driver.username, MAX.username);
  checkAt('header.current.at', header.current.at);
  if (header.multidayBasis !== 7 && header.multidayBasis !== 8) fail('header.multidayBasis', 'must be 7 or 8');
  if (!isLocalTime(header.periodStartTime)) fail('header.periodStartTime', 'must be a time like 00:00:00');
  checkInteger('header.timeZoneOffsetHours', header.timeZoneOffsetHours, 0, 23);
  if (!/^\d{1,9}$/.test(header.carrier.usdotNumber)) fail('header.carrier.usdotNumber', 'must be 1 to 9 digits');
  if (!/^[A-Z0-9]{4}$/.test(header.eld.registrationId)) fail('header.eld.registrationId', 'must be 4 characters A-Z or 0-9 (7.17)');
  if (!/^[A-Z0-9]{6}$/.test(header.eld.identifier)) fail('header.eld.identifier', 'must be 6 characters A-Z or 0-9 (7.15)');
  checkAmount('header.current.totalVehicleMiles', header.current.totalVehicleMiles, 9_999_999);
  checkAmount('header.current.totalEngineHours', header.current.totalEngineHours, 99_999.9);
  checkPosition('header.current.position', header.current.position);

  out.title('header');
  out.data([
    fieldText(header.driver.lastName, MAX.name),
    fieldText(header.driver.firstName, MAX.name),
    driverUsername,
    fieldText(header.driver.licenseState),
    fieldText(header.driver.licenseNumber),
  ]);
  const co = header.coDriver;
  out.data(co ? [fieldText(co.lastName, MAX.name), fieldText(co.firstName, MAX.name), fieldText(co.username, MAX.username)] : ['', '', '']);
  out.data([
    identifier('header.cmv.powerUnitNumber', header.cmv.powerUnitNumber, MAX.powerUnit),
    vinField('header.cmv.vin', header.cmv.vin),
    trailersField('header.cmv.trailerNumbers', header.cmv.trailerNumbers),
  ]);
  out.data([
    header.carrier.usdotNumber,
    fieldText(header.carrier.name, MAX.carrierName),
    String(header.multidayBasis),
    fileTime(header.periodStartTime),
    String(header.timeZoneOffsetHours).padStart(2, '0'),
  ]);
  out.data([fieldText(header.shippingDocumentNumber, MAX.shippingDocument), header.exempt ? 'E' : '0']);
  out.data([
    ...fileDateTime(header.current.at),
    ...filePosition(header.current.position),
    fileMiles(header.current.totalVehicleMiles),
    fileHours(header.current.totalEngineHours),
  ]);
  out.data([header.eld.registrationId, header.eld.identifier, fieldText(header.eld.authenticationValue), fieldText(header.outputFileComment, MAX.comment)]);

  // ---- user list and CMV list, in the order given (4.8.2.1.2-3)
  out.title('users');
  input.users.forEach((u, i) => {
    if (u.accountType !== 'D' && u.accountType !== 'S') fail(`users[${i}].accountType`, 'must be D or S');
    out.data([String(i + 1), u.accountType, fieldText(u.lastName, MAX.name), fieldText(u.firstName, MAX.name)]);
  });
  out.title('cmvs');
  const powerUnits = input.cmvs.map((c, i) => identifier(`cmvs[${i}].powerUnitNumber`, c.powerUnitNumber, MAX.powerUnit));
  input.cmvs.forEach((c, i) => out.data([String(i + 1), powerUnits[i] ?? '', vinField(`cmvs[${i}].vin`, c.vin)]));

  // The fields of an event list or unidentified row up to its CMV order, and its event check value.
  const recorded = (path: string, e: EldRecordedEvent, username: string): { head: string[]; check: string } => {
    checkRecorded(path, e, cmvCount);
    const [date, time] = fileDateTime(e.at);
    const [lat, lon] = filePosition(e.position);
    const miles = fileMiles(e.accumulatedVehicleMiles);
    const hours = fileHours(e.elapsedEngineHours);
    const powerUnit = e.cmvOrder === null ? '' : (powerUnits[e.cmvOrder - 1] ?? '');
    const head = [
      fileSequenceId(e.sequenceId),
      String(e.recordStatus),
      String(e.recordOrigin),
      String(e.type),
      String(e.code),
      date,
      time,
      miles,
      hours,
      lat,
      lon,
      String(Math.min(6, e.distanceSinceLastValidCoordinates)),
      orderField(`${path}.cmvOrder`, e.cmvOrder, cmvCount),
    ];
    return { head, check: eventDataCheckValue([String(e.type), String(e.code), date, time, miles, hours, lat, lon, powerUnit, username]) };
  };

  // ---- ELD event list (4.8.2.1.4) and its annotations (4.8.2.1.5)
  const events = mostRecentFirst(input.events.map((e, index) => ({ ...e, index })));
  out.title('events');
  for (const e of events) {
    const path = `events[${e.index}]`;
    const { head, check } = recorded(path, e, driverUsername);
    const user = orderField(`${path}.userOrder`, e.userOrder, userCount);
    out.data([...head, user, e.malfunction ? '1' : '0', e.dataDiagnostic ? '1' : '0', check]);
  }
  out.title('annotations');
  for (const e of events) {
    if (e.annotation === null) continue;
    const [date, time] = fileDateTime(e.at);
    out.data([
      fileSequenceId(e.sequenceId),
      fieldText(e.annotation.username, MAX.username),
      fieldText(e.annotation.comment, MAX.annotation),
      date,
      time,
      fieldText(e.annotation.locationDescription, MAX.location),
    ]);
  }

  // ---- certifications (4.8.2.1.6)
  out.title('certifications');
  for (const c of mostRecentFirst(input.certifications.map((c, index) => ({ ...c, index })))) {
    const path = `certifications[${c.index}]`;
    checkInteger(`${path}.sequenceId`, c.sequenceId, 0, 0xffff);
    checkInteger(`${path}.code`, c.code, 1, 9);
    checkAt(`${path}.at`, c.at);
    if (!isLocalDate(c.certifiedDate)) fail(`${path}.certifiedDate`, 'must be a date like 2026-06-01');
    out.data([
      fileSequenceId(c.sequenceId),
      String(c.code),
      ...fileDateTime(c.at),
      fileDate(c.certifiedDate),
      orderField(`${path}.cmvOrder`, c.cmvOrder, cmvCount),
    ]);
  }

  // ---- malfunctions and data diagnostics (4.8.2.1.7)
  out.title('malfunctions');
  for (const m of mostRecentFirst(input.malfunctions.map((m, index) => ({ ...m, index })))) {
    const path = `malfunctions[${m.index}]`;
    checkInteger(`${path}.sequenceId`, m.sequenceId, 0, 0xffff);
    checkInteger(`${path}.code`, m.code, 1, 4);
    const pattern = m.code <= 2 ? /^[PETLRSO]$/ : /^[1-6]$/;
    if (!pattern.test(m.diagnosticCode))
      fail(`${path}.diagnosticCode`, m.code <= 2 ? 'a malfunction code is P, E, T, L, R, S or O' : 'a data diagnostic code is 1 to 6');
    checkAt(`${path}.at`, m.at);
    checkAmount(`${path}.totalVehicleMiles`, m.totalVehicleMiles, 9_999_999);
    checkAmount(`${path}.totalEngineHours`, m.totalEngineHours, 99_999.9);
    out.data([
      fileSequenceId(m.sequenceId),
      String(m.code),
      m.diagnosticCode,
      ...fileDateTime(m.at),
      fileMiles(m.totalVehicleMiles),
      fileHours(m.totalEngineHours),
      orderField(`${path}.cmvOrder`, m.cmvOrder, cmvCount),
    ]);
  }

  // ---- login/logout (4.8.2.1.8)
  out.title('loginLogouts');
  for (const l of mostRecentFirst(input.loginLogouts.map((l, index) => ({ ...l, index })))) {
    const path = `loginLogouts[${l.index}]`;
    checkInteger(`${path}.sequenceId`, l.sequenceId, 0, 0xffff);
    checkInteger(`${path}.code`, l.code, 1, 2);
    checkAt(`${path}.at`, l.at);
    checkAmount(`${path}.totalVehicleMiles`, l.totalVehicleMiles, 9_999_999);
    checkAmount(`${path}.totalEngineHours`, l.totalEngineHours, 99_999.9);
    out.data([
      fileSequenceId(l.sequenceId),
      String(l.code),
      fieldText(l.username, MAX.username),
      ...fileDateTime(l.at),
      fileMiles(l.totalVehicleMiles),
      fileHours(l.totalEngineHours),
    ]);
  }

  // ---- engine power-up and shut-down (4.8.2.1.9)
  out.title('enginePower');
  for (const p of mostRecentFirst(input.enginePower.map((p, index) => ({ ...p, index })))) {
    const path = `enginePower[${p.index}]`;
    checkInteger(`${path}.sequenceId`, p.sequenceId, 0, 0xffff);
    checkInteger(`${path}.code`, p.code, 1, 4);
    checkAt(`${path}.at`, p.at);
    checkAmount(`${path}.totalVehicleMiles`, p.totalVehicleMiles, 9_999_999);
    checkAmount(`${path}.totalEngineHours`, p.totalEngineHours, 99_999.9);
    checkPosition(`${path}.position`, p.position);
    out.data([
      fileSequenceId(p.sequenceId),
      String(p.code),
      ...fileDateTime(p.at),
      fileMiles(p.totalVehicleMiles),
      fileHours(p.totalEngineHours),
      ...filePosition(p.position),
      identifier(`${path}.powerUnitNumber`, p.powerUnitNumber, MAX.powerUnit),
      vinField(`${path}.vin`, p.vin),
      trailersField(`${path}.trailerNumbers`, p.trailerNumbers),
      fieldText(p.shippingDocumentNumber, MAX.shippingDocument),
    ]);
  }

  // ---- unidentified driver profile records (4.8.2.1.10)
  const unidentifiedUsername = fieldText(options.unidentifiedUsername ?? DEFAULT_UNIDENTIFIED_USERNAME, MAX.username);
  out.title('unidentified');
  for (const e of mostRecentFirst(input.unidentifiedEvents.map((e, index) => ({ ...e, index })))) {
    const { head, check } = recorded(`unidentifiedEvents[${e.index}]`, e, unidentifiedUsername);
    out.data([...head, e.malfunction ? '1' : '0', check]);
  }

  out.end();
  const lineEnding = options.lineEnding ?? '\r\n';
  const fileName = eldFileName({
    lastName: header.driver.lastName,
    licenseNumber: header.driver.licenseNumber,
    createdOn: header.current.at.slice(0, 10),
    ...(options.fileNameSuffix === undefined ? {} : { suffix: options.fileNameSuffix }),
  });
  return { fileName, text: out.lines.join(lineEnding) + lineEnding };
}
