// Reading a stopped server's database from the soak process: the embedded one by opening its data
// directory (openDatabase, as the server does), a PostgreSQL one by its URL. What was stored, what
// was stored twice, and the positions to replay.
import { sql } from 'drizzle-orm';
import { openDatabase, type Database, type Db } from '../../apps/api/src/db/client.ts';
import { rowsOf } from '../../apps/api/src/db/sql/rows.ts';

/** Opens the database a stopped server used (it must be stopped: PGlite is one process's). */
export function openStopped(where: { dataDir: string; databaseUrl?: string }): Promise<Database> {
  return where.databaseUrl
    ? openDatabase({ databaseUrl: where.databaseUrl, dataDir: where.dataDir, poolSize: 2 })
    : openDatabase({ dataDir: where.dataDir, pgliteThread: 'main' });
}

const ms = (v: unknown) => new Date(v as string).getTime();

/** Every stored position of `orgId`: its device's unique id and fix time (epoch ms). */
export async function storedPositions(db: Db, orgId: string): Promise<Array<{ uniqueId: string; time: number }>> {
  const rows = rowsOf<{ unique_id: string; fix_time: string | Date }>(
    await db.execute(sql`select g.unique_id, p.fix_time from positions p join gateways g on g.id = p.gateway_id where p.organization_id = ${orgId}`),
  );
  return rows.map((r) => ({ uniqueId: r.unique_id, time: ms(r.fix_time) }));
}

/** (device, fix time) pairs stored more than once, in the whole table (its key forbids it; counted all the same), and the extra rows. */
export async function storedTwice(db: Db): Promise<{ pairs: number; extraRows: number }> {
  const [r] = rowsOf<{ pairs: number; extra: number }>(
    await db.execute(
      sql`select count(*)::int as pairs, coalesce(sum(n - 1), 0)::int as extra from (select count(*) as n from positions group by gateway_id, fix_time having count(*) > 1) x`,
    ),
  );
  return { pairs: Number(r?.pairs ?? 0), extraRows: Number(r?.extra ?? 0) };
}

/** A stored position as the replay sends it again. */
export interface StoredFix {
  fixTime: Date;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  accuracy: number | null;
  ignition: boolean | null;
  /** Only a GNSS odometer (an engine's is in the attributes, which carry it again). */
  gpsOdometer: number | null;
  attributes: Record<string, unknown>;
}

/** Each device's stored positions of `orgId`, in fix-time order. */
export async function positionsToReplay(db: Db, orgId: string): Promise<Map<string, StoredFix[]>> {
  const rows = rowsOf<{
    unique_id: string;
    fix_time: string | Date;
    latitude: number;
    longitude: number;
    speed: number | null;
    course: number | null;
    altitude: number | null;
    accuracy: number | null;
    ignition: boolean | null;
    odometer: number | null;
    odometer_source: string | null;
    attributes: Record<string, unknown> | string;
  }>(
    await db.execute(sql`select g.unique_id, p.fix_time, p.latitude, p.longitude, p.speed, p.course, p.altitude, p.accuracy, p.ignition, p.odometer, p.odometer_source, p.attributes
      from positions p join gateways g on g.id = p.gateway_id where p.organization_id = ${orgId} order by g.unique_id, p.fix_time`),
  );
  const out = new Map<string, StoredFix[]>();
  for (const r of rows) {
    let list = out.get(r.unique_id);
    if (!list) out.set(r.unique_id, (list = []));
    list.push({
      fixTime: new Date(r.fix_time),
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      speed: r.speed === null ? null : Number(r.speed),
      course: r.course === null ? null : Number(r.course),
      altitude: r.altitude === null ? null : Number(r.altitude),
      accuracy: r.accuracy === null ? null : Number(r.accuracy),
      ignition: r.ignition,
      gpsOdometer: r.odometer_source === 'GPS' && r.odometer !== null ? Number(r.odometer) : null,
      attributes: typeof r.attributes === 'string' ? (JSON.parse(r.attributes) as Record<string, unknown>) : r.attributes,
    });
  }
  return out;
}

/** The organization's id by name. */
export async function organizationId(db: Db, name: string): Promise<string | null> {
  const [r] = rowsOf<{ id: string }>(await db.execute(sql`select id from organizations where name = ${name}`));
  return r?.id ?? null;
}
