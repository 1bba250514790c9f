import { and, asc, desc, eq, lte } from 'drizzle-orm';
import { STATE_OPTIONS, type IftaRate, type IftaRateImportPreview, type IftaRateMatrix } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { iftaRateQuarters, iftaTaxRates } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { type Actor, sha256 } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { IFTA_2Q2026_CSV, IFTA_2Q2026_SOURCE } from './rates-2q2026.ts';
import { parseRateMatrix, type ParsedMatrix } from './rate-matrix.ts';

// The quarter's tax-rate matrix, shared by every organization: imported by a super administrator
// from the official CSV (decision 0123); the 2Q2026 matrix is bundled as the seed.

const NAMES = new Map<string, { name: string; country: 'US' | 'CA' }>(STATE_OPTIONS.map((s) => [s.code, { name: s.name, country: s.country }]));

const presentRate = (r: typeof iftaTaxRates.$inferSelect): IftaRate => ({
  jurisdiction: r.jurisdiction,
  name: NAMES.get(r.jurisdiction)?.name ?? r.jurisdiction,
  country: NAMES.get(r.jurisdiction)?.country ?? 'US',
  fuelType: r.fuelType,
  kind: r.kind,
  usdPerGallon: r.usdPerGallonE4 === null ? null : r.usdPerGallonE4 / 10_000,
  cadPerLitre: r.cadPerLitreE4 === null ? null : r.cadPerLitreE4 / 10_000,
});

export async function getRateMatrix(db: DbOrTx, quarter: string): Promise<IftaRateMatrix> {
  const [q] = await db.select().from(iftaRateQuarters).where(eq(iftaRateQuarters.quarter, quarter));
  const rates = q
    ? await db
        .select()
        .from(iftaTaxRates)
        .where(eq(iftaTaxRates.quarter, quarter))
        .orderBy(asc(iftaTaxRates.jurisdiction), asc(iftaTaxRates.fuelType), asc(iftaTaxRates.kind))
    : [];
  return {
    quarter,
    source: q?.source ?? null,
    sha256: q?.sha256 ?? null,
    importedAt: q?.importedAt.toISOString() ?? null,
    importedBy: q?.importedBy ?? null,
    rates: rates.map(presentRate),
  };
}

/** The matrix a return of `quarter` uses: its own, else the latest earlier one (the report says which). */
export async function ratesForReturn(
  db: DbOrTx,
  quarter: string,
  fuelType: string,
): Promise<{ ratesQuarter: string | null; rates: Map<string, { rateE4: number | null; surchargeE4: number | null }> }> {
  // The latest imported quarter up to this one and its rates of the fuel type, in one statement: no
  // row when none is imported, one row with no jurisdiction when that quarter has none of this fuel.
  const latest = db
    .select({ quarter: iftaRateQuarters.quarter })
    .from(iftaRateQuarters)
    .where(lte(iftaRateQuarters.quarter, quarter))
    .orderBy(desc(iftaRateQuarters.quarter))
    .limit(1)
    .as('latest');
  const rows = await db
    .select({ quarter: latest.quarter, jurisdiction: iftaTaxRates.jurisdiction, kind: iftaTaxRates.kind, usdPerGallonE4: iftaTaxRates.usdPerGallonE4 })
    .from(latest)
    .leftJoin(iftaTaxRates, and(eq(iftaTaxRates.quarter, latest.quarter), eq(iftaTaxRates.fuelType, fuelType)));
  const rates = new Map<string, { rateE4: number | null; surchargeE4: number | null }>();
  for (const r of rows) {
    if (r.jurisdiction === null) continue;
    const e = rates.get(r.jurisdiction) ?? { rateE4: null, surchargeE4: null };
    if (r.kind === 'BASE') e.rateE4 = r.usdPerGallonE4;
    else e.surchargeE4 = r.usdPerGallonE4;
    rates.set(r.jurisdiction, e);
  }
  return { ratesQuarter: rows[0]?.quarter ?? null, rates };
}

function previewOf(parsed: ParsedMatrix, quarter: string, replaces: boolean): IftaRateImportPreview {
  const jurisdictions = new Set(parsed.rates.map((r) => r.jurisdiction));
  return {
    quarter,
    jurisdictions: jurisdictions.size,
    rates: parsed.rates.length,
    surcharges: parsed.rates
      .filter((r) => r.kind === 'SURCHARGE')
      .map((r) => ({ jurisdiction: r.jurisdiction, fuelType: r.fuelType, usdPerGallon: r.usdPerGallonE4 === null ? null : r.usdPerGallonE4 / 10_000 })),
    skipped: parsed.skipped,
    errors: parsed.errors,
    missing: parsed.missing,
    replaces,
    sample: parsed.rates
      .filter((r) => r.fuelType === 'DIESEL' || r.kind === 'SURCHARGE')
      .slice(0, 80)
      .map((r) => presentRate({ quarter, ...r })),
  };
}

/** Parses a matrix and checks it is whole; a file the parser cannot place is a 400 naming the line. */
function parseChecked(csv: string, quarter: string | undefined): { parsed: ParsedMatrix; quarter: string } {
  const parsed = parseRateMatrix(csv);
  const q = quarter ?? parsed.quarter;
  if (!q) throw invalidField('csv', 'The file does not say its quarter on its first line ("2nd Quarter 2026"); choose the quarter');
  if (quarter && parsed.quarter && parsed.quarter !== quarter) throw invalidField('quarter', `The file is the matrix of ${parsed.quarter}, not ${quarter}`);
  if (parsed.rates.length === 0) throw invalidField('csv', 'No rates found: this is not the IFTA tax-rate matrix CSV (TaxDownload.php, CSV)');
  return { parsed, quarter: q };
}

export async function previewRateImport(db: Db, csv: string, quarter: string | undefined): Promise<IftaRateImportPreview> {
  const { parsed, quarter: q } = parseChecked(csv, quarter);
  const [existing] = await db.select({ q: iftaRateQuarters.quarter }).from(iftaRateQuarters).where(eq(iftaRateQuarters.quarter, q));
  return previewOf(parsed, q, Boolean(existing));
}

/**
 * Imports (or replaces) a quarter's matrix in one transaction. A file with unreadable rows is
 * refused whole (400 with the first error's line and column): half a matrix would tax some
 * jurisdictions at 0.
 */
export async function importRates(
  db: Db,
  actor: Actor | null,
  csv: string,
  opts: { quarter?: string; source?: string },
): Promise<IftaRateImportPreview & { imported: number }> {
  const { parsed, quarter } = parseChecked(csv, opts.quarter);
  const first = parsed.errors[0];
  if (first) throw invalidField(`csv.line ${first.line}.${first.field}`, `Line ${first.line}, ${first.field}: ${first.message}`);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(iftaRateQuarters).where(eq(iftaRateQuarters.quarter, quarter));
    await tx.delete(iftaRateQuarters).where(eq(iftaRateQuarters.quarter, quarter));
    await tx.insert(iftaRateQuarters).values({ quarter, source: opts.source ?? null, sha256: sha256(csv), importedBy: actor?.email ?? 'system' });
    for (let i = 0; i < parsed.rates.length; i += 500) await tx.insert(iftaTaxRates).values(parsed.rates.slice(i, i + 500).map((r) => ({ quarter, ...r })));
    if (actor) {
      await recordActivity(tx, {
        orgId: null,
        actor,
        action: before ? 'UPDATE' : 'CREATE',
        entityType: 'IFTA_RATES',
        entityId: null,
        before: before ? { quarter, source: before.source, sha256: before.sha256 } : undefined,
        after: { quarter, source: opts.source ?? null, rates: parsed.rates.length, sha256: sha256(csv) },
      });
    }
    return { ...previewOf(parsed, quarter, Boolean(before)), imported: parsed.rates.length };
  });
}

/** Seeds the bundled 2Q2026 matrix once (every start; nothing when it is there). */
export async function ensureBundledRates(db: Db): Promise<boolean> {
  const [existing] = await db.select({ q: iftaRateQuarters.quarter }).from(iftaRateQuarters).where(eq(iftaRateQuarters.quarter, '2026Q2'));
  if (existing) return false;
  await importRates(db, null, IFTA_2Q2026_CSV, { quarter: '2026Q2', source: IFTA_2Q2026_SOURCE });
  return true;
}
