import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  lengthToM,
  PLACE_IMPORT_MAX_ROWS,
  PLACE_RADIUS_LIMITS,
  placeInputSchema,
  type PlaceImportResult,
  type placeImportBodySchema,
  type UnitSystem,
} from '@fleet/api-contract';
import { restoreCsvCell } from '@fleet/api-contract/csv';
import type { z } from 'zod';
import { organizations, places } from '../../db/schema/index.ts';
import { badRequest, invalidField } from '../../http/errors.ts';
import { recordActivityBatch } from '../activity-log/index.ts';
import type { Scope } from '../auth/index.ts';
import { assertGroup } from '../groups/index.ts';
import { placesChanged } from './place-changes.ts';
import { radiusWords } from './place-notices.ts';
import { columnsOf, type PlaceInputValues } from './places.service.ts';
import { AppError } from '../../http/errors.ts';

// Places from a file (decision 0162): a CSV with a point and radius, or a polygon (WKT or GeoJSON)
// per row, or a GeoJSON FeatureCollection. Every row is checked as the API checks one place, and
// answered with its line and field; the valid rows are saved in one transaction unless `dryRun`.

type Body = z.output<typeof placeImportBodySchema>;
interface Candidate {
  line: number;
  raw: Record<string, unknown>;
}

/** CSV headers, any case and spacing, to the input's fields. */
const CSV_ALIASES: Record<string, string> = {
  name: 'name',
  category: 'category',
  latitude: 'latitude',
  lat: 'latitude',
  longitude: 'longitude',
  lon: 'longitude',
  lng: 'longitude',
  radius: 'radiusMeters',
  radiusmeters: 'radiusMeters',
  radiusm: 'radiusMeters',
  radiusfeet: 'radiusFeet',
  radiusft: 'radiusFeet',
  polygon: 'polygon',
  geometry: 'polygon',
  wkt: 'polygon',
  arrivaldwellseconds: 'arrivalDwellSeconds',
  arrivaldwell: 'arrivalDwellSeconds',
  departuredwellseconds: 'departureDwellSeconds',
  departuredwell: 'departureDwellSeconds',
  groupid: 'groupId',
  group: 'groupId',
  address: 'address',
  notes: 'notes',
};

const NUMERIC = new Set(['latitude', 'longitude', 'radiusMeters', 'radiusFeet', 'arrivalDwellSeconds', 'departureDwellSeconds']);

/** `POLYGON((lon lat, lon lat, …))` (one ring) as GeoJSON coordinates, or null when it is not that. */
export function parseWktPolygon(text: string): number[][][] | null {
  const m = /^\s*POLYGON\s*\(\s*\(([^()]*)\)\s*\)\s*$/i.exec(text);
  if (!m) return null;
  const ring = m[1]!.split(',').map((pair) => pair.trim().split(/\s+/).map(Number));
  return ring.every((p) => p.length === 2 && p.every(Number.isFinite)) ? [ring] : null;
}

function polygonOf(text: string): { type: 'Polygon'; coordinates: unknown } | string {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const g = JSON.parse(t) as { type?: unknown; coordinates?: unknown };
      if (g.type === 'Polygon') return { type: 'Polygon', coordinates: g.coordinates };
    } catch {
      // Reported below as not a polygon.
    }
    return 'Polygon must be WKT POLYGON((lon lat, …)) or a GeoJSON Polygon';
  }
  const coordinates = parseWktPolygon(t);
  return coordinates ? { type: 'Polygon', coordinates } : 'Polygon must be WKT POLYGON((lon lat, …)) or a GeoJSON Polygon';
}

function csvCandidates(csv: string): { rows: Candidate[]; errors: PlaceImportResult['errors'] } {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transform: (v) => restoreCsvCell(v.trim()),
  });
  const headers = (parsed.meta.fields ?? []).map((h) => h.trim()).filter(Boolean);
  const known = headers.map((h) => CSV_ALIASES[h.toLowerCase().replace(/[\s_-]/g, '')]);
  if (!known.includes('name')) throw invalidField('content', 'The CSV needs a name column (and latitude, longitude and radiusMeters, or polygon)');
  const rows: Candidate[] = [];
  const errors: PlaceImportResult['errors'] = [];
  parsed.data.forEach((record, i) => {
    const line = i + 2;
    const raw: Record<string, unknown> = {};
    (parsed.meta.fields ?? []).forEach((h) => {
      const field =
        CSV_ALIASES[
          h
            .trim()
            .toLowerCase()
            .replace(/[\s_-]/g, '')
        ];
      const v = record[h];
      if (!field || v === undefined || v === '') return;
      raw[field] = NUMERIC.has(field) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    });
    if (typeof raw.category === 'string') raw.category = raw.category.toUpperCase().replace(/\s+/g, '_');
    if (typeof raw.polygon === 'string') {
      const g = polygonOf(raw.polygon);
      if (typeof g === 'string') {
        errors.push({ line, field: 'polygon', message: g });
        return;
      }
      raw.geometry = g;
    } else if (raw.latitude !== undefined || raw.longitude !== undefined) {
      raw.geometry = { type: 'Point', coordinates: [raw.longitude, raw.latitude] };
    }
    // A radius in feet (an Imperial carrier's own list) is kept in metres, as the form does.
    if (typeof raw.radiusFeet === 'number' && raw.radiusMeters === undefined) raw.radiusMeters = Math.round(lengthToM(raw.radiusFeet, 'IMPERIAL') * 100) / 100;
    delete raw.radiusFeet;
    delete raw.polygon;
    delete raw.latitude;
    delete raw.longitude;
    rows.push({ line, raw });
  });
  return { rows, errors };
}

function geojsonCandidates(text: string): Candidate[] {
  let doc: { type?: unknown; features?: unknown };
  try {
    doc = JSON.parse(text);
  } catch {
    throw invalidField('content', 'The file is not valid JSON');
  }
  if (doc?.type !== 'FeatureCollection' || !Array.isArray(doc.features)) throw invalidField('content', 'GeoJSON must be a FeatureCollection');
  return (doc.features as Array<{ geometry?: unknown; properties?: Record<string, unknown> | null }>).map((f, i) => {
    const p = f?.properties ?? {};
    const raw: Record<string, unknown> = { ...p, geometry: f?.geometry };
    if (raw.radiusMeters === undefined && typeof p.radius === 'number') raw.radiusMeters = p.radius;
    if (typeof raw.category === 'string') raw.category = raw.category.toUpperCase();
    delete raw.id;
    delete raw.radius;
    delete raw.center;
    delete raw.organizationId;
    delete raw.createdAt;
    delete raw.updatedAt;
    return { line: i + 1, raw };
  });
}

/** Checks a file's places and, unless a dry run, saves the valid ones. */
export async function importPlaces(s: Scope, body: Body): Promise<PlaceImportResult> {
  const format = body.format ?? (body.content.trimStart().startsWith('{') ? 'geojson' : 'csv');
  const parsed = format === 'csv' ? csvCandidates(body.content) : { rows: geojsonCandidates(body.content), errors: [] };
  const total = parsed.rows.length + new Set(parsed.errors.map((e) => e.line)).size;
  if (total > PLACE_IMPORT_MAX_ROWS) throw badRequest(`A file holds at most ${PLACE_IMPORT_MAX_ROWS.toLocaleString('en-US')} places`);
  const errors = [...parsed.errors];
  const valid: Array<{ line: number; input: PlaceInputValues; columns: ReturnType<typeof columnsOf> }> = [];
  const groupsOk = new Map<string, boolean>();
  const units = parsed.rows.length ? await orgUnits(s) : DEFAULT_ORGANIZATION_SETTINGS.units;
  for (const c of parsed.rows) {
    const r = placeInputSchema.safeParse(c.raw);
    if (!r.success) {
      const first = new Set<string>();
      for (const issue of r.error.issues) {
        const field = issue.path.join('.') || 'row';
        if (first.has(field)) continue;
        first.add(field);
        errors.push({
          line: c.line,
          field,
          message: field === 'radiusMeters' && units === 'IMPERIAL' ? (radiusLimitWords(issue.code) ?? issue.message) : issue.message,
        });
      }
      continue;
    }
    try {
      const columns = columnsOf(r.data);
      if (r.data.groupId) {
        if (!groupsOk.has(r.data.groupId)) groupsOk.set(r.data.groupId, await groupExists(s, r.data.groupId));
        if (!groupsOk.get(r.data.groupId)) {
          errors.push({ line: c.line, field: 'groupId', message: 'Group is not a group of this organization' });
          continue;
        }
      }
      valid.push({ line: c.line, input: r.data, columns });
    } catch (err) {
      if (err instanceof AppError && err.status === 400)
        errors.push({ line: c.line, field: err.technicalMessage.split(':')[0] ?? 'geometry', message: err.message });
      else throw err;
    }
  }
  errors.sort((a, b) => a.line - b.line);
  let imported = 0;
  if (!body.dryRun && valid.length) {
    await s.db.transaction(async (tx) => {
      const rows = await tx
        .insert(places)
        .values(valid.map((v) => ({ organizationId: s.orgId, ...v.columns })))
        .returning();
      await recordActivityBatch(
        tx,
        rows.map((p) => ({ orgId: s.orgId, actor: s.actor, action: 'IMPORT', entityType: 'PLACE', entityId: p.id, after: p })),
      );
      imported = rows.length;
    });
    placesChanged(s.orgId);
  }
  return {
    format,
    dryRun: body.dryRun,
    totalRows: total,
    validRows: valid.length,
    invalidRows: total - valid.length,
    errors,
    sample: valid
      .slice(0, 20)
      .map((v) => ({ line: v.line, name: v.input.name, category: v.input.category, geometry: v.input.geometry, radiusMeters: v.columns.radiusM ?? null })),
    imported,
  };
}

async function orgUnits(s: Scope): Promise<UnitSystem> {
  const [o] = await s.db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, s.orgId));
  return o?.settings.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
}

/** The radius limits in feet or miles for an Imperial organization (the contract words them in metres). */
function radiusLimitWords(code: string): string | null {
  if (code === 'too_small') return `Radius must be at least ${radiusWords(PLACE_RADIUS_LIMITS.min, 'IMPERIAL')}`;
  if (code === 'too_big') return `Radius must be at most ${radiusWords(PLACE_RADIUS_LIMITS.max, 'IMPERIAL')}`;
  return null;
}

async function groupExists(s: Scope, groupId: string): Promise<boolean> {
  try {
    await assertGroup(s.db, s.orgId, groupId);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return false;
    throw err;
  }
}
