import { sql } from 'drizzle-orm';

// What travels through the pipeline: a fix checked and attributed (a PositionRow), from the commit
// to its followers; and the same row as SQL hands it back when positions are written outside the
// group commit (attribution after a pairing, a GPS history import).

/** How a fix reached us; 'import' marks positions imported from another system's GPS history. */
export type Protocol = 'osmand' | 'batch' | 'simulator' | 'import' | 'teltonika' | 'traccar';

/** ECM: the engine's own total vehicle distance; GPS: the device's GNSS odometer. */
export type OdometerSource = 'ECM' | 'GPS';

/** A fix checked and attributed, ready to store. */
export interface PositionRow {
  organizationId: string;
  gatewayId: string;
  assetId: string | null;
  driverId: string | null;
  fixTime: Date;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  accuracy: number | null;
  /** Metres: the engine's total distance when the device reports it, else its GNSS odometer. */
  odometer: number | null;
  /** Which odometer `odometer` is (null when there is none). */
  odometerSource: OdometerSource | null;
  /** The engine's total hours, when the device reports them. */
  engineHours: number | null;
  ignition: boolean | null;
  protocol: Protocol;
  attributes: Record<string, unknown>;
}

/** What the followers of a commit are told about positions stored earlier that now belong to a vehicle. */
export interface LatePositionsOptions {
  /** Whether automatic duty status derives them (not imported history: another ELD recorded those days). */
  duty: boolean;
}

/** A column's name in SQL: `organizationId` -> `organization_id`. */
type Column<K extends string> = K extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Column<T>}` : K;

/** A `positions` row as `RETURNING_POSITION` hands it back: the row's columns, the fix time as `t` in epoch ms. */
export type ReturnedPosition = { [K in Exclude<keyof PositionRow, 'fixTime' | 'attributes'> as Column<K>]: PositionRow[K] } & { t: number | string };

/**
 * The `returning` list of a statement that writes positions outside the group commit, read by
 * `returnedPosition`. The epoch of the fix time read at UTC: extract from a timestamptz is only
 * stable, which Citus refuses in a RETURNING; from the UTC timestamp it is immutable and the same.
 */
export const RETURNING_POSITION =
  sql.raw(`organization_id, gateway_id, asset_id, driver_id, extract(epoch from fix_time at time zone 'UTC') * 1000 as t, latitude, longitude,
  speed, course, altitude, accuracy, odometer, odometer_source, engine_hours, ignition, protocol`);

/** A returned row as the followers take it (attributes are not handed back: no follower reads them). */
export const returnedPosition = (r: ReturnedPosition): PositionRow => ({
  organizationId: r.organization_id,
  gatewayId: r.gateway_id,
  assetId: r.asset_id,
  driverId: r.driver_id,
  fixTime: new Date(Math.round(Number(r.t))),
  latitude: r.latitude,
  longitude: r.longitude,
  speed: r.speed,
  course: r.course,
  altitude: r.altitude,
  accuracy: r.accuracy,
  odometer: r.odometer,
  odometerSource: r.odometer_source,
  engineHours: r.engine_hours,
  ignition: r.ignition,
  protocol: r.protocol,
  attributes: {},
});
