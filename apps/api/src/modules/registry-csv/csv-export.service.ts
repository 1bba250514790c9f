import { and, eq, sql } from 'drizzle-orm';
import { assets, drivers, gateways } from '../../db/schema/index.ts';
import { unparseCsv } from '../../lib/csv.ts';
import { invalidField } from '../../http/errors.ts';
import { assetConditions, type AssetFilter, selectAssets } from '../assets/index.ts';
import { driverConditions, type DriverFilter, selectDrivers } from '../drivers/index.ts';
import { gatewayConditions, type GatewayFilter, selectGateways } from '../gateways/index.ts';
import { getOrganizationSettings } from '../organizations/index.ts';
import { assetColumnsOf, driverColumns, gatewayColumns, normalizeHeader, type CsvColumn } from './csv-columns.ts';
import type { ReadScope } from '../auth/index.ts';

/** The export never runs away with memory: a fleet is far smaller than this. */
export const MAX_EXPORT_ROWS = 100_000;
const BATCH = 2000;

/** The chosen columns (by header or field name, any case), all when none is named. */
function pick<R>(columns: CsvColumn<R>[], wanted: string[] | undefined): CsvColumn<R>[] {
  if (!wanted?.length) return columns;
  const out: CsvColumn<R>[] = [];
  for (const w of wanted) {
    const n = normalizeHeader(w);
    const col = columns.find((c) => normalizeHeader(c.header) === n || (c.field !== '' && normalizeHeader(c.field) === n));
    if (!col) throw invalidField('columns', `Unknown column ${w}; use ${columns.map((c) => c.header).join(', ')}`);
    if (!out.includes(col)) out.push(col);
  }
  return out;
}

function toCsv<R>(columns: CsvColumn<R>[], rows: R[]): string {
  // A leading BOM so spreadsheet programs read UTF-8 names correctly.
  return `\uFEFF${unparseCsv(
    columns.map((c) => c.header),
    rows.map((r) => columns.map((c) => c.value(r) ?? '')),
  )}\r\n`;
}

async function all<R>(fetch: (limit: number, offset: number) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += BATCH) {
    const batch = await fetch(BATCH, offset);
    out.push(...batch);
    if (batch.length < BATCH) break;
  }
  return out;
}

/**
 * The filtered asset list as CSV (vehicles or trailers columns by type; vehicles when both), the
 * odometer or length in the organization's units.
 */
export async function exportAssets({ db, orgId }: ReadScope, f: AssetFilter & { columns?: string[] }): Promise<string> {
  const { units } = await getOrganizationSettings(db, orgId);
  const cols = pick(assetColumnsOf(f.type === 'TRAILER' ? 'TRAILER' : 'VEHICLE', units), f.columns);
  const where = assetConditions(orgId, f);
  const rows = await all((limit, offset) => selectAssets(db, orgId, where, { orderBy: [sql`lower(${assets.unitNumber})`, sql`${assets.id}`], limit, offset }));
  return toCsv(cols, rows);
}

export async function exportDrivers({ db, orgId }: ReadScope, f: DriverFilter & { columns?: string[] }): Promise<string> {
  const cols = pick(driverColumns, f.columns);
  const where = driverConditions(orgId, f);
  const rows = await all((limit, offset) =>
    selectDrivers(db, orgId, where, { orderBy: [sql`lower(${drivers.lastName})`, sql`lower(${drivers.firstName})`, sql`${drivers.id}`], limit, offset }),
  );
  return toCsv(cols, rows);
}

export async function exportGateways({ db, orgId }: ReadScope, f: GatewayFilter & { columns?: string[] }): Promise<string> {
  const cols = pick(gatewayColumns, f.columns);
  const where = and(eq(gateways.organizationId, orgId), gatewayConditions(orgId, f));
  const rows = await all((limit, offset) => selectGateways(db, orgId, where, { orderBy: [sql`lower(${gateways.name})`, sql`${gateways.id}`], limit, offset }));
  return toCsv(cols, rows);
}
