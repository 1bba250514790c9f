// The benchmarks' day of history (bench/telematics.ts and bench/history.ts read the same one): one
// vehicle at 1 Hz over 2026-10-15 UTC, moving 6-11 h and 11.5-16.5 h at 87-103 km/h, parked
// otherwise: 86,400 fixes, written in one statement.
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.ts';

export const HISTORY_DAY = Date.UTC(2026, 9, 15);

export async function insertHistoryDay(db: Db, orgId: string, v: { gatewayId: string; assetId: string; driverId: string | null }): Promise<void> {
  const ts: number[] = [];
  const lat: number[] = [];
  const lon: number[] = [];
  const spd: number[] = [];
  let x = -100;
  for (let s = 0; s < 86_400; s++) {
    const h = s / 3600;
    const speed = (h > 6 && h < 11) || (h > 11.5 && h < 16.5) ? 95 + 8 * Math.sin(s / 300) : 0;
    x += speed / 3.6 / 91_000;
    ts.push(HISTORY_DAY / 1000 + s);
    lat.push(35 + 0.05 * Math.sin(s / 2000));
    lon.push(x);
    spd.push(Number(speed.toFixed(2)));
  }
  const arr = (a: number[]) => `{${a.join(',')}}`;
  await db.execute(sql`
    insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, speed, ignition, protocol)
    select ${orgId}::uuid, ${v.gatewayId}::uuid, ${v.assetId}::uuid, ${v.driverId}::uuid, to_timestamp(u.t), u.lat, u.lon, u.speed, true, 'batch'
    from unnest(${arr(ts)}::float8[], ${arr(lat)}::float8[], ${arr(lon)}::float8[], ${arr(spd)}::real[]) as u(t, lat, lon, speed)
    on conflict do nothing`);
}
