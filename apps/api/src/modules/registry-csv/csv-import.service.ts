import { randomUUID } from 'node:crypto';
import { notify } from '../notifications/index.ts';
import Papa from 'papaparse';
import { eq, sql } from 'drizzle-orm';
import { driverInputSchema, trailerInputSchema, vehicleInputSchema, type ImportKind, type ImportPreview, type ImportResult } from '@fleet/api-contract';
import { restoreCsvCell } from '@fleet/api-contract/csv';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers } from '../../db/schema/index.ts';
import { unparseCsv } from '../../lib/csv.ts';
import { conflict, invalidField } from '../../http/errors.ts';
import { uniqueViolation } from '../../db/sql/pg-error.ts';
import { assetValues } from '../assets/index.ts';
import { driverValues } from '../drivers/index.ts';
import { insertWithActivity } from './bulk-insert.ts';
import { getOrganizationSettings } from '../organizations/index.ts';
import { columnsOf, importColumnsOf, normalizeHeader, type CsvColumn } from './csv-columns.ts';
import type { ReadScope, Scope } from '../auth/index.ts';

const SCHEMAS = { vehicles: vehicleInputSchema, trailers: trailerInputSchema, drivers: driverInputSchema } as const;
const REQUIRED: Record<ImportKind, string[]> = {
  vehicles: ['unitNumber', 'vin'],
  trailers: ['unitNumber'],
  drivers: ['firstName', 'lastName', 'licenseNumber', 'licenseState'],
};
const FIXED: Record<ImportKind, Record<string, unknown>> = { vehicles: { type: 'VEHICLE' }, trailers: { type: 'TRAILER' }, drivers: {} };

/** Rows the preview lists at most; the counts always cover the whole file. */
const MAX_REPORTED_ERRORS = 1000;
const SAMPLE_ROWS = 20;
export const MAX_IMPORT_ROWS = 20_000;

type Parsed<K extends ImportKind> = z.output<(typeof SCHEMAS)[K]>;
interface Analysis<K extends ImportKind> extends ImportPreview {
  valid: Array<{ line: number; input: Parsed<K> }>;
}

/** Keys already used in the organization: unit numbers and VINs, or licence state+number. */
async function existingKeys(db: DbOrTx, orgId: string, kind: ImportKind): Promise<{ units: Set<string>; vins: Set<string>; licences: Set<string> }> {
  if (kind === 'drivers') {
    const rows = await db
      .select({ k: sql<string>`${drivers.licenseState} || '|' || upper(${drivers.licenseNumber})` })
      .from(drivers)
      .where(sql`${drivers.organizationId} = ${orgId} and ${drivers.licenseNumber} is not null`);
    return { units: new Set(), vins: new Set(), licences: new Set(rows.map((r) => r.k)) };
  }
  const rows = await db
    .select({ unit: sql<string>`lower(${assets.unitNumber})`, vin: sql<string | null>`upper(${assets.vin})` })
    .from(assets)
    .where(eq(assets.organizationId, orgId));
  return { units: new Set(rows.map((r) => r.unit)), vins: new Set(rows.flatMap((r) => (r.vin ? [r.vin] : []))), licences: new Set() };
}

/**
 * The column a normalized header names: a header first, then an alias, then a field name, so
 * "Odometer (km)" is the km column although "odometerKm" is also the field both odometer columns fill.
 */
function columnFor(columns: ReadonlyArray<CsvColumn<never>>, n: string): CsvColumn<never> | undefined {
  return (
    columns.find((c) => normalizeHeader(c.header) === n) ?? columns.find((c) => c.aliases?.includes(n)) ?? columns.find((c) => normalizeHeader(c.field) === n)
  );
}

/** Parses and validates the whole file without writing anything. */
export async function analyseCsv<K extends ImportKind>(db: DbOrTx, orgId: string, kind: K, csv: string): Promise<Analysis<K>> {
  const { units } = await getOrganizationSettings(db, orgId);
  const columns = importColumnsOf(kind, units).filter((c) => c.field !== '');
  // An exported file imports back as it was: the `'` the export put before a formula-like cell goes.
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transform: (v) => restoreCsvCell(v.trim()),
  });
  const headers = (parsed.meta.fields ?? []).filter((h) => h.trim() !== '');
  const mapping = new Map<string, CsvColumn<never>>();
  const unknownColumns: string[] = [];
  for (const h of headers) {
    const col = columnFor(columns, normalizeHeader(h));
    // One column per field: a second odometer column (miles beside km) is ignored, not mixed in.
    if (col && ![...mapping.values()].some((c) => c.field === col.field)) mapping.set(h, col);
    else unknownColumns.push(h);
  }
  const mappedFields = new Set([...mapping.values()].map((c) => c.field));
  const missing = REQUIRED[kind].filter((f) => !mappedFields.has(f)).map((f) => columns.find((c) => c.field === f)?.header ?? f);
  if (missing.length) throw invalidField('csv', `The file is missing the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (parsed.data.length > MAX_IMPORT_ROWS) throw invalidField('csv', `The file can hold at most ${MAX_IMPORT_ROWS} rows`);

  const headerOf = (field: string) => columns.find((c) => c.field === field)?.header ?? field;
  const schema = SCHEMAS[kind];
  const taken = await existingKeys(db, orgId, kind);
  const seen = { units: new Map<string, number>(), vins: new Map<string, number>(), licences: new Map<string, number>() };
  const errors: ImportPreview['errors'] = [];
  const valid: Analysis<K>['valid'] = [];
  const badLines = new Set<number>();
  const fail = (line: number, field: string, message: string) => {
    badLines.add(line);
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, field, message });
  };
  for (const e of parsed.errors) {
    if (e.row !== undefined && e.code !== 'UndetectableDelimiter') fail(e.row + 2, 'row', e.message);
  }

  parsed.data.forEach((record, i) => {
    const line = i + 2;
    if (badLines.has(line)) return;
    const raw: Record<string, unknown> = { ...FIXED[kind] };
    for (const [h, col] of mapping) {
      const cell = record[h] ?? '';
      const value = col.parse ? col.parse(cell) : cell;
      if (value !== undefined) raw[col.field] = value;
    }
    const result = schema.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) fail(line, headerOf(String(issue.path[0] ?? 'row')), issue.message);
      return;
    }
    const input = result.data as Parsed<K>;
    const dup = (field: string, key: string, set: Set<string>, within: Map<string, number>, what: string) => {
      if (set.has(key)) return (fail(line, headerOf(field), `${what} already exists in this organization`), true);
      const first = within.get(key);
      if (first !== undefined) return (fail(line, headerOf(field), `${what} repeats line ${first}`), true);
      within.set(key, line);
      return false;
    };
    if ('unitNumber' in input) {
      const a = input as { unitNumber: string; vin: string | null };
      const unitDup = dup('unitNumber', a.unitNumber.toLowerCase(), taken.units, seen.units, `Unit number ${a.unitNumber}`);
      const vinDup = a.vin ? dup('vin', a.vin, taken.vins, seen.vins, `VIN ${a.vin}`) : false;
      if (unitDup || vinDup) return;
    } else {
      const d = input as { licenseNumber: string; licenseState: string };
      if (dup('licenseNumber', `${d.licenseState}|${d.licenseNumber}`, taken.licences, seen.licences, `Licence ${d.licenseNumber} (${d.licenseState})`)) return;
    }
    valid.push({ line, input });
  });

  return {
    totalRows: parsed.data.length,
    validRows: valid.length,
    invalidRows: badLines.size,
    errors,
    // Keyed by the file's columns, each value as it will be saved in that column's unit (the preview
    // table). A parsed input has the record's field names for every importable column, which is all `value` reads.
    sample: valid
      .slice(0, SAMPLE_ROWS)
      .map((v) => ({ line: v.line, ...Object.fromEntries([...mapping.values()].map((c) => [c.header, c.value(v.input as never)])) })),
    columns: [...mapping.values()].map((c) => c.header),
    unknownColumns,
    valid,
  };
}

export async function previewImport({ db, orgId }: ReadScope, kind: ImportKind, csv: string): Promise<ImportPreview> {
  const { valid: _valid, ...preview } = await analyseCsv(db, orgId, kind, csv);
  return preview;
}

/**
 * Imports the valid rows of the file in one transaction (invalid rows are reported, not
 * imported). Checks run again inside the transaction; a clash with a record saved since the
 * preview rolls everything back with a 409.
 */
export async function commitImport({ db, orgId, actor }: Scope, kind: ImportKind, csv: string): Promise<ImportResult> {
  let result: ImportResult;
  try {
    result = await db.transaction(async (tx) => {
      const { valid, ...preview } = await analyseCsv(tx, orgId, kind, csv);
      const rows = valid.map((v) => ({
        values: kind === 'drivers' ? driverValues(v.input as Parsed<'drivers'>) : assetValues(v.input as Parsed<'vehicles'> | Parsed<'trailers'>),
        after: { ...(v.input as object), source: 'CSV import', line: v.line },
      }));
      await insertWithActivity(tx, kind === 'drivers' ? drivers : assets, rows, {
        orgId,
        actor,
        action: 'IMPORT',
        entityType: kind === 'drivers' ? 'DRIVER' : 'ASSET',
      });
      // The importer hears of it (bell, e-mail) as they chose, committed with the rows (decision 0130).
      if (actor.userId && valid.length > 0) {
        const list = kind === 'drivers' ? 'all-drivers' : kind;
        await notify(tx, {
          organizationId: orgId,
          kind: 'IMPORT_FINISHED',
          factKey: `import:${kind}:${randomUUID()}`,
          title: `Import finished: ${valid.length} ${valid.length === 1 ? kind.replace(/s$/, '') : kind} added`,
          body: preview.invalidRows > 0 ? `${preview.invalidRows} rows of the file had errors and were not imported.` : 'Every row of the file was imported.',
          link: `/settings/organization-settings/${list}`,
          linkLabel: `Open ${kind}`,
          userIds: [actor.userId],
        });
      }
      return { ...preview, imported: valid.length };
    });
  } catch (err) {
    if (uniqueViolation(err))
      throw conflict(
        'Some rows clash with records saved since the preview; preview the file again',
        'A unique value is already used by a record saved since the preview',
      );
    throw err;
  }
  // A bulk load changes the table's shape at once; fresh statistics keep the list queries on
  // their indexes, and a vacuum marks the new pages all-visible so counts can be index-only scans
  // (the embedded database has no autovacuum to do either later; a server's comes minutes after).
  if (result.imported >= ANALYZE_AFTER_ROWS) await db.execute(kind === 'drivers' ? sql`vacuum (analyze) ${drivers}` : sql`vacuum (analyze) ${assets}`);
  return result;
}

const ANALYZE_AFTER_ROWS = 200;

/** A CSV with the import columns (odometer and length in the organization's units), one example row, for the template download. */
export async function templateCsv({ db, orgId }: ReadScope, kind: ImportKind): Promise<string> {
  const { units } = await getOrganizationSettings(db, orgId);
  const cols = columnsOf(kind, units).filter((c) => c.field !== '');
  return unparseCsv(
    cols.map((c) => c.header),
    [cols.map((c) => c.example)],
  );
}
