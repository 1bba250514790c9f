import type { z } from 'zod';
import {
  FUEL_IMPORT_PRESETS,
  FUEL_IMPORT_PRESET_COLUMNS,
  FUEL_JURISDICTION_CODES,
  isValidTimeZone,
  type FuelImportField,
  type FuelImportMapping,
  type FuelImportPreset,
  type FuelImportPresetInfo,
  type FuelImportResult,
  type fuelImportBodySchema,
  type fuelImportPresetInputSchema,
} from '@fleet/api-contract';
import { locateJurisdiction } from '@fleet/geo/jurisdictions';
import { invalidField, notFound } from '../../http/errors.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { zonedToUtc } from '../hos/index.ts';
import { MappingError } from './fuel-csv.ts';
import { parseTransactionCsv } from './fuel-transaction-csv.ts';
import { organizationFacts } from './fuel-purchases.service.ts';
import { deletePreset, presetRows, putPreset, recordedTransactions } from './fuel-transactions.repository.ts';
import { recordTransactions } from './fuel-transactions.service.ts';

// A card portal's export imported as transactions (issue 68): the built-in presets (WEX, EFS,
// Comdata, Fleet One) or one the organization saved, adjusted column by column at upload.

type Body = z.output<typeof fuelImportBodySchema>;
type PresetInput = z.output<typeof fuelImportPresetInputSchema>;

const builtIn = (name: string): name is FuelImportPreset => (FUEL_IMPORT_PRESETS as readonly string[]).includes(name);

function builtInInfo(p: FuelImportPreset): FuelImportPresetInfo {
  if (p === 'CUSTOM') return { name: 'CUSTOM', label: 'Custom', builtIn: true, base: 'CUSTOM', mapping: {}, dateFormat: null, defaultUnit: 'GAL' };
  const c = FUEL_IMPORT_PRESET_COLUMNS[p];
  return { name: p, label: c.label, builtIn: true, base: p, mapping: c.columns as Record<string, string>, dateFormat: c.dateFormat, defaultUnit: 'GAL' };
}

export async function listImportPresets({ db, orgId }: ReadScope): Promise<{ content: FuelImportPresetInfo[] }> {
  const saved = await presetRows(db, orgId);
  return {
    content: [
      ...FUEL_IMPORT_PRESETS.map(builtInInfo),
      ...saved.map((s) => ({
        name: s.name,
        label: s.name,
        builtIn: false,
        base: (builtIn(s.base) ? s.base : 'CUSTOM') as FuelImportPreset,
        mapping: s.mapping as Record<string, string>,
        dateFormat: s.dateFormat,
        defaultUnit: s.defaultUnit,
      })),
    ],
  };
}

export async function saveImportPreset({ db, orgId, actor }: Scope, name: string, input: PresetInput): Promise<FuelImportPresetInfo> {
  if (builtIn(name.toUpperCase().replace(/\s+/g, '_'))) throw invalidField('name', `${name} is a built-in preset: save the adjusted one under another name`);
  // The whole mapping is kept: the preset's columns with the user's changes (an empty column removes one).
  const base = input.base === 'CUSTOM' ? {} : FUEL_IMPORT_PRESET_COLUMNS[input.base].columns;
  const mapping: FuelImportMapping = { ...base };
  for (const [f, h] of Object.entries(input.mapping) as Array<[FuelImportField, string]>) {
    if (h === '') delete mapping[f];
    else mapping[f] = h;
  }
  const dateFormat = input.dateFormat ?? (input.base === 'CUSTOM' ? null : FUEL_IMPORT_PRESET_COLUMNS[input.base].dateFormat);
  await db.transaction(async (tx) => {
    await putPreset(tx, orgId, name, { base: input.base, mapping, dateFormat, defaultUnit: input.defaultUnit });
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'FUEL_IMPORT_PRESET', entityId: null, after: { name, base: input.base, mapping } });
  });
  return { name, label: name, builtIn: false, base: input.base, mapping: mapping as Record<string, string>, dateFormat, defaultUnit: input.defaultUnit };
}

export async function deleteImportPreset({ db, orgId, actor }: Scope, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deletePreset(tx, orgId, name))) throw notFound('Import preset');
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'FUEL_IMPORT_PRESET', entityId: null, before: { name } });
  });
}

/** Reads the file through the preset and mapping; unless a dry run, records its valid rows as transactions in one database transaction. */
export async function importTransactionsFile(scope: Scope, body: Body, dryRun: boolean): Promise<FuelImportResult> {
  const { db, orgId } = scope;
  if (body.timeZone && !isValidTimeZone(body.timeZone)) throw invalidField('timeZone', `${body.timeZone} is not a time zone`);
  const presets = (await listImportPresets(scope)).content;
  const preset = presets.find((p) => p.name === body.preset) ?? presets.find((p) => p.builtIn && p.name === body.preset.toUpperCase());
  if (!preset) throw invalidField('preset', `No preset named ${body.preset}`);
  const mapping: FuelImportMapping = { ...(preset.mapping as FuelImportMapping) };
  for (const [f, h] of Object.entries(body.mapping) as Array<[FuelImportField, string]>) {
    if (h === '') delete mapping[f];
    else mapping[f] = h;
  }
  const org = await organizationFacts(db, orgId);
  const zone = body.timeZone ?? org.zone;
  let parsed;
  try {
    parsed = parseTransactionCsv(body.csv, {
      mapping,
      defaultUnit: body.defaultUnit ?? preset.defaultUnit,
      dateFormat: body.dateFormat ?? preset.dateFormat ?? 'MDY',
      fuelType: body.fuelType,
      toUtc: (ms) => zonedToUtc(ms, zone),
    });
  } catch (err) {
    if (err instanceof MappingError) throw invalidField('mapping', err.message);
    throw err;
  }
  const errors = [...parsed.errors];
  const bad = new Set(parsed.badLines);
  const now = Date.now();
  const valid = parsed.rows.filter(({ line, input }) => {
    const fail = (field: string, message: string) => {
      bad.add(line);
      if (errors.length < 1000) errors.push({ line, field, message });
      return false;
    };
    if (Date.parse(input.time) > now + 10 * 60_000) return fail(mapping.dateTime ?? mapping.date ?? 'date', 'The time is in the future');
    if (!input.state) {
      const code = locateJurisdiction(input.latitude!, input.longitude!)?.jurisdiction.code;
      if (!code || !FUEL_JURISDICTION_CODES.has(code)) return fail(mapping.latitude ?? 'latitude', 'The station coordinates are in no IFTA jurisdiction');
    }
    return true;
  });
  errors.sort((a, b) => a.line - b.line);
  const base = {
    totalRows: parsed.totalRows,
    validRows: valid.length,
    invalidRows: bad.size,
    skippedRows: parsed.skipped.length,
    errors,
    skipped: parsed.skipped,
    mapping: parsed.mapping as Record<string, string>,
    headers: parsed.headers,
    unmappedColumns: parsed.unmappedColumns,
  };
  if (dryRun || valid.length === 0) {
    const recorded = await recordedTransactions(
      db,
      orgId,
      valid.map((v) => v.input.transactionId),
    );
    return { ...base, created: 0, duplicates: valid.filter((v) => recorded.has(v.input.transactionId)).length, byVerification: {} };
  }
  const lines = valid.map((v) => v.line);
  const result = await recordTransactions(
    scope,
    valid.map((v) => ({ ...v.input, fuelType: body.fuelType, unit: v.input.unit })) as Parameters<typeof recordTransactions>[1],
    { source: 'FILE', field: (i, name) => `line ${lines[i]}: ${name}` },
  );
  const byVerification: Record<string, number> = {};
  for (const r of result.results) if (!r.duplicate) byVerification[r.verification] = (byVerification[r.verification] ?? 0) + 1;
  return { ...base, created: result.created, duplicates: result.duplicates, byVerification };
}
