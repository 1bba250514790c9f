import { eq } from 'drizzle-orm';
import { baseJurisdictionZone } from '@fleet/geo/zones';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/index.ts';
import { dayClock, type DayClock } from './distance-days.ts';

// IFTA days and quarters are cut in the zone of the carrier's base jurisdiction (issue 46, decision
// 0189): the organization's state (its IFTA base), mapped to that jurisdiction's zone; a carrier
// whose own zone is one of a several-zone jurisdiction's keeps its own.

/** The zone an organization's IFTA days are cut in: its base jurisdiction's (`state`), with its own zone deciding within a several-zone one. */
export function iftaZone(org: { state: string | null; timeZone: string | null }): string {
  return baseJurisdictionZone(org.state, org.timeZone);
}

/** An organization's IFTA calendar, read from its row. */
export async function iftaClockOf(db: DbOrTx, orgId: string): Promise<DayClock> {
  const [o] = await db.select({ state: organizations.state, timeZone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return dayClock(o ? iftaZone(o) : 'UTC');
}
