import Papa from 'papaparse';
import { LOAD_IMPORT_MAX_ROWS, loadInputSchema, type LoadImportResult, type LoadInput, type loadImportBodySchema } from '@fleet/api-contract';
import { restoreCsvCell } from '@fleet/api-contract/csv';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { places } from '../../db/schema/index.ts';
import { badRequest, invalidField } from '../../http/errors.ts';
import type { Scope } from '../auth/index.ts';
import { loadedMetres } from './load-distance.ts';
import { fromCents, toCents } from './load-present.ts';
import { insertLoads } from './loads.service.ts';

// Loads from a CSV (decision 0166): one row per stop, rows with the same `reference` making one load
// in the file's order; the load's own columns (customer, rate, …) come from its first row. Each
// load is checked as the API checks one, every problem answered with its line and field, and the
// file is saved whole or not at all (a half-imported week of loads is worse than none). A stop's
// `place` is a place's name or id; its position defaults to the place's centre.

type Body = z.output<typeof loadImportBodySchema>;
type Errors = LoadImportResult['errors'];

/** Headers, any case and spacing, to fields. */
const ALIASES: Record<string, string> = {
  reference: 'reference',
  ref: 'reference',
  loadreference: 'reference',
  customer: 'customer',
  bol: 'bolNumber',
  bolnumber: 'bolNumber',
  po: 'poNumber',
  ponumber: 'poNumber',
  commodity: 'commodity',
  weight: 'weightKg',
  weightkg: 'weightKg',
  linehaul: 'lineHaul',
  rate: 'lineHaul',
  fuelsurcharge: 'fuelSurcharge',
  fsc: 'fuelSurcharge',
  notes: 'notes',
  kind: 'kind',
  stop: 'kind',
  place: 'place',
  placeid: 'place',
  latitude: 'latitude',
  lat: 'latitude',
  longitude: 'longitude',
  lon: 'longitude',
  lng: 'longitude',
  address: 'address',
  windowstart: 'windowStart',
  from: 'windowStart',
  windowend: 'windowEnd',
  until: 'windowEnd',
  to: 'windowEnd',
  serviceminutes: 'serviceMinutes',
  service: 'serviceMinutes',
};
const NUMERIC = new Set(['weightKg', 'lineHaul', 'fuelSurcharge', 'latitude', 'longitude', 'serviceMinutes']);
const LOAD_FIELDS = ['customer', 'bolNumber', 'poNumber', 'commodity', 'weightKg', 'notes'] as const;
const key = (h: string) =>
  ALIASES[
    h
      .trim()
      .toLowerCase()
      .replace(/[\s_-]/g, '')
  ];

interface Row {
  line: number;
  cells: Record<string, string | number>;
}

export async function importLoads(s: Scope, body: Body): Promise<LoadImportResult> {
  const parsed = Papa.parse<Record<string, string>>(body.content.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transform: (v) => restoreCsvCell(v.trim()),
  });
  const headers = parsed.meta.fields ?? [];
  const known = headers.map(key);
  for (const need of ['reference', 'customer', 'kind', 'windowStart', 'windowEnd']) {
    if (!known.includes(need))
      throw invalidField(
        'content',
        `The CSV needs the columns reference, customer, kind, windowStart and windowEnd (and place, or latitude and longitude); ${need} is missing`,
      );
  }
  if (parsed.data.length > LOAD_IMPORT_MAX_ROWS) throw badRequest(`A file holds at most ${LOAD_IMPORT_MAX_ROWS.toLocaleString('en-US')} stops`);
  const rows: Row[] = parsed.data.map((record, i) => {
    const cells: Record<string, string | number> = {};
    for (const h of headers) {
      const field = key(h);
      const v = record[h];
      if (!field || v === undefined || v === '') continue;
      cells[field] = NUMERIC.has(field) && Number.isFinite(Number(v)) ? Number(v) : v;
    }
    return { line: i + 2, cells };
  });

  const errors: Errors = [];
  const placeRows = await s.db
    .select({ id: places.id, name: places.name, minLat: places.minLat, maxLat: places.maxLat, minLon: places.minLon, maxLon: places.maxLon })
    .from(places)
    .where(eq(places.organizationId, s.orgId));
  const byId = new Map(placeRows.map((p) => [p.id, p]));
  const byName = new Map<string, typeof placeRows>();
  for (const p of placeRows) byName.set(p.name.toLowerCase(), [...(byName.get(p.name.toLowerCase()) ?? []), p]);

  // Rows by reference, in the file's order.
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const ref = String(r.cells.reference ?? '');
    if (!ref) {
      errors.push({ line: r.line, field: 'reference', message: 'Reference is a required field' });
      continue;
    }
    groups.set(ref, [...(groups.get(ref) ?? []), r]);
  }

  const valid: Array<{ reference: string; input: LoadInput }> = [];
  for (const [reference, group] of groups) {
    const first = group[0]!.cells;
    const stops = group.map((r) => {
      const c = r.cells;
      const stop: Record<string, unknown> = {
        kind: typeof c.kind === 'string' ? c.kind.toUpperCase().replace(/[\s-]/g, '') : c.kind,
        latitude: c.latitude,
        longitude: c.longitude,
        address: c.address,
        windowStart: c.windowStart,
        windowEnd: c.windowEnd,
        serviceMinutes: c.serviceMinutes ?? 0,
      };
      if (c.place !== undefined) {
        const text = String(c.place);
        const hits = byId.has(text) ? [byId.get(text)!] : (byName.get(text.toLowerCase()) ?? []);
        if (hits.length !== 1) {
          errors.push({
            line: r.line,
            field: 'place',
            message: hits.length ? `More than one place is named ${text}: give its id` : `No place of this organization is named ${text}`,
          });
        } else {
          const p = hits[0]!;
          stop.placeId = p.id;
          stop.latitude ??= (p.minLat + p.maxLat) / 2;
          stop.longitude ??= (p.minLon + p.maxLon) / 2;
        }
      }
      return stop;
    });
    const raw: Record<string, unknown> = { stops, rate: { lineHaul: first.lineHaul ?? 0, fuelSurcharge: first.fuelSurcharge ?? 0 } };
    for (const f of LOAD_FIELDS) if (first[f] !== undefined) raw[f] = first[f];
    const r = loadInputSchema.safeParse(raw);
    if (!r.success) {
      const seen = new Set<string>();
      for (const issue of r.error.issues) {
        const [head, index, ...rest] = issue.path.map(String);
        const stopRow = head === 'stops' && index !== undefined && /^\d+$/.test(index) ? group[Number(index)] : undefined;
        const field = stopRow
          ? rest.join('.') || 'stop'
          : head === 'rate'
            ? issue.path[1] === 'fuelSurcharge'
              ? 'fuelSurcharge'
              : 'lineHaul'
            : issue.path.join('.') || 'row';
        const line = (stopRow ?? group[0]!).line;
        if (seen.has(`${line}:${field}`)) continue;
        seen.add(`${line}:${field}`);
        errors.push({ line, field, message: issue.message });
      }
      continue;
    }
    valid.push({ reference, input: r.data });
  }
  errors.sort((a, b) => a.line - b.line);

  const sample = valid.slice(0, 20).map((v) => ({
    reference: v.reference,
    customer: v.input.customer ?? '',
    stops: v.input.stops.length,
    total: fromCents(toCents(v.input.rate.lineHaul) + toCents(v.input.rate.fuelSurcharge)),
  }));
  let numbers: string[] = [];
  if (!body.dryRun && errors.length === 0 && valid.length) {
    const items = valid.map((v) => ({ input: v.input, loadedM: loadedMetres(v.input.stops) }));
    numbers = await s.db.transaction(async (tx) => (await insertLoads(tx, s.orgId, s.actor, items, 'IMPORT')).map((l) => l.number));
  }
  return { dryRun: body.dryRun, totalRows: rows.length, totalLoads: groups.size, errors, sample, imported: numbers.length, numbers };
}
