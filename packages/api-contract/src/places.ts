import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';
import { requiredText } from './validation.ts';

// Places and geofences (issue 32, decision 0162): customers, terminals, yards, fuel stops and
// restricted areas drawn as circles or polygons. A vehicle arrives at a place after staying inside it
// for the place's arrival dwell, and departs after staying outside it for its departure dwell, so GPS
// jitter at a fence line gives no events. Distances in the API are metres here (a radius is drawn,
// not driven); screens show them in the organization's units.

defineLabels({
  name: 'Name',
  category: 'Category',
  geometry: 'Shape',
  'geometry.type': 'Shape type',
  'geometry.coordinates': 'Shape coordinates',
  radiusMeters: 'Radius',
  arrivalDwellSeconds: 'Arrival dwell',
  departureDwellSeconds: 'Departure dwell',
  groupId: 'Group',
  address: 'Address',
  notes: 'Notes',
  bbox: 'Map area',
  placeId: 'Place',
});

export const PLACE_CATEGORIES = ['CUSTOMER', 'TERMINAL', 'YARD', 'FUEL', 'RESTRICTED', 'OTHER'] as const;
export type PlaceCategory = (typeof PLACE_CATEGORIES)[number];

export const PLACE_CATEGORY_LABELS: Record<PlaceCategory, string> = {
  CUSTOMER: 'Customer',
  TERMINAL: 'Terminal',
  YARD: 'Yard',
  FUEL: 'Fuel stop',
  RESTRICTED: 'Restricted area',
  OTHER: 'Other',
};

export const PLACE_DEFAULTS = { arrivalDwellSeconds: 120, departureDwellSeconds: 60 } as const;
/** The organization's free time at a customer before waiting counts as detention (settings.detention.freeMinutes). */
export const DEFAULT_DETENTION_FREE_MINUTES = 120;
export const PLACE_RADIUS_LIMITS = { min: 10, max: 50_000 } as const;
/** A polygon's ring: at least 4 positions (closed), at most this many. */
export const PLACE_MAX_VERTICES = 1_000;

const longitude = z.number().min(-180, 'Longitude must be between -180 and 180').max(180, 'Longitude must be between -180 and 180');
const latitude = z.number().min(-90, 'Latitude must be between -90 and 90').max(90, 'Latitude must be between -90 and 90');
/** A GeoJSON position: [longitude, latitude]. */
const position = z.tuple([longitude, latitude]);

export const pointGeometrySchema = z.object({ type: z.literal('Point'), coordinates: position });
/** Square metres a polygon smaller than this encloses are no place a vehicle can be in. */
export const PLACE_MIN_AREA_M2 = 1;

/**
 * The area a ring encloses, in square metres (shoelace formula on an equirectangular projection at
 * the ring's mean latitude: plenty for a geofence). Corners on one line, or a ring crossing itself
 * so that its halves cancel, enclose 0.
 */
export function ringAreaM2(ring: ReadonlyArray<readonly [number, number]>): number {
  if (ring.length < 3) return 0;
  const metresPerDegree = 111_320;
  const meanLat = ring.reduce((sum, p) => sum + p[1], 0) / ring.length;
  const kx = metresPerDegree * Math.cos((meanLat * Math.PI) / 180);
  // Metres from the first corner: small numbers, so corners on one line cancel to (nearly) 0.
  const [x0, y0] = ring[0]!;
  const at = (i: number) => [(ring[i % ring.length]![0] - x0) * kx, (ring[i % ring.length]![1] - y0) * metresPerDegree] as const;
  let twice = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = at(i);
    const [x2, y2] = at(i + 1);
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

/** One outer ring, closed (first position equals last), no holes (the API also checks its corners, edges and area). */
export const polygonGeometrySchema = z.object({
  type: z.literal('Polygon'),
  coordinates: z
    .array(z.array(position).min(4, 'A polygon needs at least 3 corners').max(PLACE_MAX_VERTICES, `A polygon has at most ${PLACE_MAX_VERTICES} corners`))
    .length(1, 'A polygon has one outer ring and no holes')
    .refine((rings) => {
      const ring = rings[0] ?? [];
      const [a, b] = [ring[0], ring[ring.length - 1]];
      return !!a && !!b && a[0] === b[0] && a[1] === b[1];
    }, 'A polygon ring must end where it starts'),
});
export const placeGeometrySchema = z.discriminatedUnion('type', [pointGeometrySchema, polygonGeometrySchema], {
  error: () => 'Shape must be a GeoJSON Point (with a radius) or Polygon',
});
export type PlaceGeometry = z.infer<typeof placeGeometrySchema>;

export const placeInputSchema = z
  .object({
    name: requiredText('Name', 120),
    category: z.enum(PLACE_CATEGORIES, { error: () => `Category must be one of ${PLACE_CATEGORIES.join(', ')}` }),
    geometry: placeGeometrySchema,
    /** Required for a Point: the circle's radius in metres. Ignored (null) for a Polygon. */
    radiusMeters: z
      .number()
      .min(PLACE_RADIUS_LIMITS.min, `Radius must be at least ${PLACE_RADIUS_LIMITS.min} m`)
      .max(PLACE_RADIUS_LIMITS.max, `Radius must be at most ${PLACE_RADIUS_LIMITS.max} m`)
      .nullable()
      .optional(),
    arrivalDwellSeconds: z.number().int().min(0, 'Arrival dwell must be 0 or more').max(86_400).default(PLACE_DEFAULTS.arrivalDwellSeconds),
    departureDwellSeconds: z.number().int().min(0, 'Departure dwell must be 0 or more').max(86_400).default(PLACE_DEFAULTS.departureDwellSeconds),
    /** Only this group's vehicles and users see the place and its events; null for the whole organization. */
    groupId: z.uuid('Group must be a group id').nullable().optional(),
    address: optionalText(300),
    notes: optionalText(2000),
  })
  .refine((p) => p.geometry.type !== 'Point' || (p.radiusMeters ?? null) !== null, { path: ['radiusMeters'], message: 'Radius is required for a circle' });
export type PlaceInput = z.input<typeof placeInputSchema>;

export const placeSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  category: z.enum(PLACE_CATEGORIES),
  geometry: placeGeometrySchema,
  radiusMeters: z.number().nullable(),
  arrivalDwellSeconds: z.number().int(),
  departureDwellSeconds: z.number().int(),
  groupId: z.string().nullable(),
  address: z.string().nullable(),
  notes: z.string().nullable(),
  /** The shape's centre (the circle's, or the polygon's bounding-box centre): where a label goes. */
  center: z.object({ latitude: z.number(), longitude: z.number() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Place = z.infer<typeof placeSchema>;
export const placePageSchema = pageSchema(placeSchema);

/** `bbox=minLon,minLat,maxLon,maxLat`: places whose shape meets that area. */
export const bboxParam = z
  .string()
  .regex(/^-?\d+(\.\d+)?(,-?\d+(\.\d+)?){3}$/, 'bbox must be minLon,minLat,maxLon,maxLat')
  .transform((v) => v.split(',').map(Number) as [number, number, number, number])
  .refine(([w, s, e, n]) => w <= e && s <= n && w >= -180 && e <= 180 && s >= -90 && n <= 90, 'bbox must be minLon,minLat,maxLon,maxLat within the world');

export const placeListQuery = pageQuerySchema.extend({
  category: z.enum(PLACE_CATEGORIES, { error: () => `category must be one of ${PLACE_CATEGORIES.join(', ')}` }).optional(),
  groupId: z.uuid('groupId must be a group id').optional(),
  bbox: bboxParam.optional(),
});
export const placeIdParams = z.object({ orgId: z.uuid(), placeId: z.uuid('placeId must be a place id') });

/** `GET places/current`: where each vehicle is now (the live map's "at <place>"). */
export const vehiclePlaceSchema = z.object({
  assetId: z.string(),
  placeId: z.string(),
  placeName: z.string(),
  category: z.enum(PLACE_CATEGORIES),
  arrivedAt: z.string(),
});
export const vehiclePlacesSchema = z.object({ content: z.array(vehiclePlaceSchema) });
export type VehiclePlace = z.infer<typeof vehiclePlaceSchema>;

/** Sort fields of the places list. */
export const PLACE_SORTS = ['name', 'category', 'createdAt', 'updatedAt'] as const;

/** `GET places/export?format=geojson`: the listed places as a GeoJSON FeatureCollection (circles are Points with `radiusMeters`). */
export const placeExportQuery = placeListQuery.omit({ page: true, size: true, sort: true }).extend({
  format: z.enum(['geojson'], { error: () => 'format must be geojson' }).default('geojson'),
});

defineLabels({ content: 'File', format: 'Format', dryRun: 'Dry run' });

export const PLACE_IMPORT_FORMATS = ['csv', 'geojson'] as const;
/**
 * `POST places/import`: a CSV (columns name, category, latitude, longitude, radiusMeters,
 * arrivalDwellSeconds, departureDwellSeconds, groupId, address, notes, or instead of
 * latitude/longitude/radiusMeters a `polygon` column holding WKT `POLYGON((lon lat, …))` or a GeoJSON
 * Polygon) or a GeoJSON FeatureCollection (Point features with a `radiusMeters` property, or
 * Polygon features; the other fields as properties). `dryRun`: check only, nothing saved.
 */
export const placeImportBodySchema = z.object({
  /** Taken from the content when absent (a JSON object is GeoJSON). */
  format: z.enum(PLACE_IMPORT_FORMATS, { error: () => 'format must be csv or geojson' }).optional(),
  content: z
    .string({ error: () => 'File is a required field' })
    .min(1, 'File is a required field')
    .max(8_000_000, 'The file is too large (8 MB at most)'),
  dryRun: z.boolean().default(false),
});
export const PLACE_IMPORT_MAX_ROWS = 10_000;

export const placeImportErrorSchema = z.object({
  /** CSV: the 1-based line in the file (the header is line 1); GeoJSON: the 1-based feature number. */
  line: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export const placeImportResultSchema = z.object({
  format: z.enum(PLACE_IMPORT_FORMATS),
  dryRun: z.boolean(),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  errors: z.array(placeImportErrorSchema),
  /** The first valid places as they will be saved (at most 20). */
  sample: z.array(
    z.object({
      line: z.number().int(),
      name: z.string(),
      category: z.enum(PLACE_CATEGORIES),
      geometry: placeGeometrySchema,
      radiusMeters: z.number().nullable(),
    }),
  ),
  /** Places saved (0 on a dry run). */
  imported: z.number().int(),
});
export type PlaceImportResult = z.infer<typeof placeImportResultSchema>;

/** `GET places/current?groupId=`: the vehicles now at a place (a group's vehicles only, with `groupId`). */
export const placeCurrentQuery = z.object({ groupId: z.uuid('groupId must be a group id').optional() });
