import type { DbOrTx } from '../../db/client.ts';
import { engineFuel, fuelReading, type EnginePiece } from './engine-fuel.ts';
import { readFuelFixes, type VehicleDay } from './fuel-economy.repository.ts';

// The engine fuel of each vehicle-day, folded from its positions once and kept in memory under the
// day's statistics stamp (decision 0280): a finished day is read from the positions table the first
// time it is asked for, and again only when its statistics were written since (late or moved
// positions rebuild them). Each instance keeps its own; the stamp makes any of them right.

/** Vehicle-days kept (least recently used dropped): a quarter of 1,000 vehicles. */
const MAX_DAYS_KEPT = 100_000;
/** Vehicle-days read from the positions in one statement. */
const READ_CHUNK = 40;

const kept = new Map<string, { stamp: string; pieces: EnginePiece[] }>();

/** The engine pieces of each day (key `assetId|day`), from memory or the positions. */
export async function engineFuelOfDays(db: DbOrTx, orgId: string, days: readonly VehicleDay[]): Promise<Map<string, EnginePiece[]>> {
  const out = new Map<string, EnginePiece[]>();
  const missing: VehicleDay[] = [];
  for (const d of days) {
    const key = `${d.assetId}|${d.day}`;
    const hit = kept.get(`${orgId}|${key}`);
    if (hit && hit.stamp === d.stamp) {
      kept.delete(`${orgId}|${key}`);
      kept.set(`${orgId}|${key}`, hit);
      out.set(key, hit.pieces);
    } else missing.push(d);
  }
  for (let i = 0; i < missing.length; i += READ_CHUNK) {
    const chunk = missing.slice(i, i + READ_CHUNK);
    const fixes = await readFuelFixes(db, orgId, chunk);
    for (const d of chunk) {
      const key = `${d.assetId}|${d.day}`;
      const tuples = fixes.get(key) ?? null;
      const pieces = tuples
        ? engineFuel(tuples.map(([t, lat, lon, fuel, driverId]) => ({ t: Math.round(t), lat, lon, fuelL: fuelReading(fuel), driverId })))
        : [];
      out.set(key, pieces);
      kept.set(`${orgId}|${key}`, { stamp: d.stamp, pieces });
      if (kept.size > MAX_DAYS_KEPT) kept.delete(kept.keys().next().value!);
    }
  }
  return out;
}
