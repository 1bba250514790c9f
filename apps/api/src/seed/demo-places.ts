import { eq, sql } from 'drizzle-orm';
import type { PlaceCategory, PlaceGeometry } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import { places } from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivityBatch } from '../modules/activity-log/index.ts';
import { bboxOf } from '../modules/places/place-geometry.ts';
import { CITIES, roadGeometry } from './simulator/network.ts';

// The demo's places (issue 32, decision 0162). The demo trucks end every trip at a city's centre:
// they idle at the dock, then stand parked while they load, one to three and a half hours (longer
// when the driver's rest falls there), and drive through other cities' centres without stopping.
// So every city is a place: the carrier's terminals at five hubs, a customer's dock everywhere
// else (the stays beyond the two hours of free time are the demo's detention), and a restricted
// work zone on I-40 between Little Rock and Memphis, the link the fleet drives most.

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

/** The carrier's own terminals (its trucks' hubs). */
export const DEMO_TERMINALS = ['DFW', 'IND', 'CHI', 'ATL', 'LAX'] as const;

const CUSTOMERS = [
  'Heartland Foods DC',
  'Summit Paper Co.',
  'Bluewater Beverages',
  'Ironworks Supply',
  'Maple Home Goods DC',
  'Redline Auto Parts',
  'Golden Harvest Produce',
  'Keystone Building Materials',
  'Pioneer Cold Storage',
  'Coastal Furniture DC',
  'Northstar Appliances',
];

export const DEMO_RESTRICTED_NAME = 'I-40 work zone (no oversize loads)';
/** A terminal or customer dock: 300 m around the city point where the trucks stand. */
const DOCK_RADIUS_M = 300;

interface DemoPlace {
  name: string;
  category: PlaceCategory;
  geometry: PlaceGeometry;
  radiusM: number | null;
  arrivalDwellS: number;
  departureDwellS: number;
  address: string | null;
  notes: string | null;
}

/** The demo organization's places, derived from the simulator's network (the same on every start). */
export function demoPlaces(): DemoPlace[] {
  const out: DemoPlace[] = [];
  Object.entries(CITIES).forEach(([code, city], i) => {
    const terminal = (DEMO_TERMINALS as readonly string[]).includes(code);
    out.push({
      name: terminal ? `Demo Freight terminal, ${city.name}` : `${CUSTOMERS[i % CUSTOMERS.length]}, ${city.name}`,
      category: terminal ? 'TERMINAL' : 'CUSTOMER',
      geometry: { type: 'Point', coordinates: [city.lon, city.lat] },
      radiusM: DOCK_RADIUS_M,
      arrivalDwellS: 120,
      departureDwellS: 60,
      address: city.name,
      notes: terminal ? 'Home terminal' : null,
    });
  });
  // A square of ±0.03° around the middle vertex of the road: about 3 minutes of driving through it.
  const road = roadGeometry('LIT', 'MEM');
  const mid = road[Math.floor(road.length / 2)]!;
  const h = 0.03;
  out.push({
    name: DEMO_RESTRICTED_NAME,
    category: 'RESTRICTED',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [mid.lon - h, mid.lat - h],
          [mid.lon + h, mid.lat - h],
          [mid.lon + h, mid.lat + h],
          [mid.lon - h, mid.lat + h],
          [mid.lon - h, mid.lat - h],
        ],
      ],
    },
    radiusM: null,
    // A minute inside is entering it: a truck at speed is through in three.
    arrivalDwellS: 60,
    departureDwellS: 60,
    address: 'I-40, Arkansas',
    notes: 'Oversize loads detour by US-70 while the bridge deck is replaced',
  });
  return out;
}

/** Creates the demo places once (none yet in the organization). Returns how many were created, 0 when there were some. */
export async function ensureDemoPlaces(db: Db, orgId: string): Promise<number> {
  const [has] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(places)
    .where(eq(places.organizationId, orgId));
  if ((has?.n ?? 0) > 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(places)
      .values(demoPlaces().map((p) => ({ organizationId: orgId, ...p, ...bboxOf(p.geometry, p.radiusM) })))
      .returning();
    await recordActivityBatch(
      tx,
      rows.map((p) => ({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'PLACE', entityId: p.id, after: p })),
    );
    return rows.length;
  });
}
