import { and, eq } from 'drizzle-orm';
import { EldParseError, parseEldFile, SEGMENT_TITLES, utcOffsetHours, type EldFile } from '@fleet/eld';
import { hosImportBodySchema, type HosImportBody, type HosImportResult } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers } from '../../db/schema/index.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { importPeriods } from './hos-import.service.ts';
import { zoneOffsetMs } from './hos.time.ts';
import type { Scope } from '../auth/index.ts';

// `hos_log/import` with an ELD output file (decision 0116): a carrier moving a driver from another ELD
// brings the file that ELD made. Its active duty-status records become the periods the JSON import
// takes, so the same rules hold (append-only, nothing stored when anything is wrong).

type Period = HosImportBody['periods'][number];

/** A home-terminal local date-time of the file (`YYYY-MM-DDTHH:MM:SS`) as an instant in `zone`. */
export function localToInstant(local: string, zone: string): number {
  const asUtc = Date.parse(`${local}Z`);
  let guess = asUtc - zoneOffsetMs(asUtc, zone);
  guess = asUtc - zoneOffsetMs(guess, zone);
  return guess;
}

const iso = (ms: number) => new Date(ms).toISOString();
const bare = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The file's line of header line `n` (1-7): the title is line 1 of the file. */
const headerLine = (n: number) => `Line ${n + 1} (${SEGMENT_TITLES.header.replace(/:$/, '')})`;

/**
 * The periods of a parsed file: each active duty-status record (type 1) lasts until the next, the
 * last one until the file was made; a special category (type 3, PC or YM) in force at a period's
 * start marks it. Checked against the driver: the file must be theirs (licence number) and written in
 * their home terminal's time (the header's offset at the file's time).
 */
export function periodsOfFile(file: EldFile, driver: { licenseNumber: string | null; homeTimeZone: string }): Period[] {
  const h = file.header;
  if (!driver.licenseNumber || bare(h.driver.licenseNumber) !== bare(driver.licenseNumber)) {
    throw invalidField(
      'file',
      `${headerLine(1)}, Driver's License Number: the file is for licence ${h.driver.licenseNumber || '(none)'}, not this driver's ${driver.licenseNumber ?? '(none)'}`,
    );
  }
  const madeAt = localToInstant(h.current.at, driver.homeTimeZone);
  const offset = utcOffsetHours(madeAt, driver.homeTimeZone);
  if (offset !== h.timeZoneOffsetHours) {
    throw invalidField(
      'file',
      `${headerLine(4)}, Time Zone Offset from UTC: the file is written ${h.timeZoneOffsetHours} hours from UTC, the driver's home terminal (${driver.homeTimeZone}) is ${offset}`,
    );
  }
  const active = file.events.filter((e) => e.recordStatus === 1 && (e.type === 1 || e.type === 3));
  const statuses = active.filter((e) => e.type === 1).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.sequenceId - b.sequenceId));
  if (statuses.length === 0) throw invalidField('file', 'ELD Event List: the file holds no active duty-status records to import');
  const specials = active.filter((e) => e.type === 3).sort((a, b) => (a.at < b.at ? -1 : 1));
  const names = ['OFF', 'SB', 'D', 'ON'] as const;
  const out: Period[] = [];
  for (let i = 0; i < statuses.length; i++) {
    const e = statuses[i]!;
    const start = localToInstant(e.at, driver.homeTimeZone);
    const end = i + 1 < statuses.length ? localToInstant(statuses[i + 1]!.at, driver.homeTimeZone) : madeAt;
    if (end <= start) continue;
    const status = names[e.code - 1]!;
    const special = [...specials].reverse().find((s) => s.at <= e.at)?.code;
    const p: Period = { status, start: iso(start), end: iso(end) };
    if (special === 1 && status === 'OFF') p.special = 'PC';
    if (special === 2 && status === 'ON') p.special = 'YM';
    out.push(p);
  }
  if (out.length === 0) throw invalidField('file', 'ELD Event List: the file holds no duty status lasting until it was made');
  return out;
}

/** Parses an ELD output file; a bad one is a 400 naming its line, segment and field. */
export function parseUploadedFile(text: string): EldFile {
  try {
    // Another ELD may have computed the event check values with another username (decision 0110): the line and file values still guard the file.
    return parseEldFile(text, { verifyEventCheckValues: false });
  } catch (err) {
    if (err instanceof EldParseError) {
      throw invalidField(
        'file',
        `Line ${err.line}${err.segment ? ` (${err.segment.replace(/:$/, '')})` : ''}${err.field ? `, ${err.field}` : ''}: ${err.reason}`,
      );
    }
    throw err;
  }
}

/** Imports an ELD output file into a driver's records (refused whole when the file or a period is bad). */
export async function importEldFile({ db, orgId, actor }: Scope, driverId: string, text: string): Promise<HosImportResult> {
  const file = parseUploadedFile(text);
  const d = await driverFor(db, orgId, driverId);
  const periods = periodsOfFile(file, d);
  const source = `ELD ${file.header.eld.identifier} file`.slice(0, 46);
  // The file's last status is the one in force when it was made: it goes on.
  return importPeriods({ db, orgId, actor }, driverId, { source, periods }, { closeLast: false });
}

async function driverFor(db: DbOrTx, orgId: string, driverId: string) {
  const [d] = await db
    .select({ licenseNumber: drivers.licenseNumber, homeTimeZone: drivers.homeTimeZone })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  return d;
}

/**
 * What the import endpoint received: JSON periods, or an ELD output file as the text body
 * (`text/csv`, `text/plain`) or as JSON `{ eldFile }`. JSON periods are checked as the contract
 * says, each bad field named.
 */
export type ImportPayload = { kind: 'file'; text: string } | { kind: 'json'; body: unknown };

export async function importPayload(scope: Scope, driverId: string, payload: ImportPayload): Promise<HosImportResult> {
  if (payload.kind === 'file') return importEldFile(scope, driverId, payload.text);
  const body = payload.body;
  if (body && typeof body === 'object' && typeof (body as { eldFile?: unknown }).eldFile === 'string')
    return importEldFile(scope, driverId, (body as { eldFile: string }).eldFile);
  const parsed = hosImportBodySchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', words: i.message }));
    // The same words the validator gives every other route: message in words, technical `path: words`.
    throw new AppError(400, [...new Set(issues.map((i) => i.words))].join('; '), [...new Set(issues.map((i) => `${i.path}: ${i.words}`))].join('; '));
  }
  return importPeriods(scope, driverId, parsed.data);
}
