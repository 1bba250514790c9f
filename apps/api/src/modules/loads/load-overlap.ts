import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES, type LoadStatus } from '@fleet/api-contract';
import { formatInstant } from '@fleet/dispatch';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, loadStops, loads, organizations, users } from '../../db/schema/index.ts';
import { conflictOn } from '../../http/errors.ts';
import type { StopRow } from './load-present.ts';

// A driver or tractor is not given a load whose time overlaps one they are on or assigned to (issue
// 46, decision 0187), unless the dispatcher says so (`overlapAllowed`). A load keeps them from its
// first stop to the end of its last: a stop reached by when it was reached, else by its live ETA (or
// its window's opening, whichever is later), and left by its departure, else service minutes later.
// The load being assigned is taken at its appointments' opening: the earliest it could be done.

type SpanStop = Pick<StopRow, 'windowStart' | 'serviceMinutes' | 'arrivedAt' | 'departedAt' | 'eta'>;
const UNDER_WAY: readonly LoadStatus[] = ['EN_ROUTE', 'AT_STOP'];

export interface Span {
  from: number;
  until: number;
}

/** When a load keeps its driver and tractor: its first stop's start to its last stop's end (`withEta`: its live ETAs count). */
export function loadSpan(stops: readonly SpanStop[], withEta: boolean, underWay: boolean, now: number): Span | null {
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return null;
  const begin = (s: SpanStop) => s.arrivedAt?.getTime() ?? Math.max(s.windowStart.getTime(), withEta && s.eta ? s.eta.getTime() : -Infinity);
  const end = (s: SpanStop) => s.departedAt?.getTime() ?? begin(s) + s.serviceMinutes * 60_000;
  // A load under way keeps its driver from now at least until now, whatever its stale ETAs say.
  return underWay ? { from: Math.min(begin(first), now), until: Math.max(end(last), now) } : { from: begin(first), until: end(last) };
}

export const overlaps = (a: Span, b: Span): boolean => a.from < b.until && b.from < a.until;

/**
 * 409 naming the first load (by its number) a newly named driver or the tractor is on or assigned to
 * whose time overlaps this load's: `driverIds: Dana Driver is on load L-1064 until …` (or `assetId: …`).
 */
export async function refuseOverlap(
  tx: DbOrTx,
  orgId: string,
  userId: string | null,
  load: { id: string; status: LoadStatus },
  stops: readonly SpanStop[],
  who: { driverIds: readonly string[]; assetId: string | null },
): Promise<void> {
  if (who.driverIds.length === 0 && !who.assetId) return;
  const now = Date.now();
  const mine = loadSpan(stops, false, UNDER_WAY.includes(load.status), now);
  if (!mine) return;
  const ids = [...who.driverIds];
  const others = await tx
    .select({ id: loads.id, number: loads.number, status: loads.status, driverId: loads.driverId, coDriverId: loads.coDriverId, assetId: loads.assetId })
    .from(loads)
    .where(
      and(
        eq(loads.organizationId, orgId),
        ne(loads.id, load.id),
        inArray(loads.status, [...ACTIVE_LOAD_STATUSES]),
        or(
          ids.length ? inArray(loads.driverId, ids) : undefined,
          ids.length ? inArray(loads.coDriverId, ids) : undefined,
          who.assetId ? eq(loads.assetId, who.assetId) : undefined,
        ),
      ),
    );
  if (others.length === 0) return;
  const stopRows = await tx
    .select()
    .from(loadStops)
    .where(
      and(
        eq(loadStops.organizationId, orgId),
        inArray(
          loadStops.loadId,
          others.map((o) => o.id),
        ),
      ),
    )
    .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
  const stopsOf = new Map<string, StopRow[]>();
  for (const s of stopRows) stopsOf.set(s.loadId, [...(stopsOf.get(s.loadId) ?? []), s]);
  const clashes = others
    .map((o) => ({ o, span: loadSpan(stopsOf.get(o.id) ?? [], true, UNDER_WAY.includes(o.status), now) }))
    .filter((c): c is { o: (typeof others)[number]; span: Span } => c.span !== null && overlaps(mine, c.span))
    .sort((a, b) => a.span.from - b.span.from);
  const clash = clashes[0];
  if (!clash) return;
  const { o, span } = clash;
  const driverId = ids.find((d) => d === o.driverId || d === o.coDriverId);
  const zone = await zoneOf(tx, orgId, userId);
  const when = `until ${formatInstant(span.until, zone)}`;
  const mineFrom = `this load starts ${formatInstant(mine.from, zone)}`;
  const assign = 'Assign anyway only if the loads can really be run one after the other.';
  if (driverId) {
    const [d] = await tx.select({ firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(eq(drivers.id, driverId));
    const name = d ? `${d.firstName} ${d.lastName}`.trim() : 'The driver';
    throw conflictOn(`driverIds.${ids.indexOf(driverId)}`, `${name} is ${verb(o.status)} load ${o.number} ${when}; ${mineFrom}. ${assign}`);
  }
  const [a] = await tx.select({ unit: assets.unitNumber }).from(assets).where(eq(assets.id, who.assetId!));
  throw conflictOn(
    'assetId',
    `Tractor ${a?.unit ?? ''} is ${verb(o.status)} load ${o.number} ${when}; ${mineFrom}. ${assign}`.replace('Tractor  is', 'The tractor is'),
  );
}

const verb = (s: LoadStatus) => (UNDER_WAY.includes(s) ? 'on' : 'assigned to');

async function zoneOf(db: DbOrTx, orgId: string, userId: string | null): Promise<string> {
  if (userId) {
    const [me] = await db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
    if (me?.tz) return me.tz;
  }
  const [o] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return o?.tz ?? 'UTC';
}
