import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Page, RefusedFix } from '@fleet/api-contract';
import { countAll } from '../../db/sql/count-all.ts';
import { gateways, refusedFixes } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { offsetWords, refusalHint } from '../positions/index.ts';

// The device page's "Refused fixes (24 h)" (issue 43): what ingest answered as received but did not
// store, recorded by the positions module's RefusedFixes, one row per minute and reason.

const DAY_MS = 86_400_000;

const SORTS = {
  receivedAt: refusedFixes.receivedAt,
  reason: refusedFixes.reason,
  count: refusedFixes.count,
};

/** One row as the device page shows it: the device clock's offset and what to do, in words. */
export function presentRefusedFix(r: typeof refusedFixes.$inferSelect, since: Date | null = null): RefusedFix {
  const offsetMs = r.fixTime ? r.fixTime.getTime() - r.receivedAt.getTime() : null;
  return {
    receivedAt: r.receivedAt.toISOString(),
    fixTime: r.fixTime?.toISOString() ?? null,
    fixTimeText: r.fixTimeText,
    reason: r.reason,
    message: r.message,
    field: r.field,
    protocol: r.protocol,
    count: r.count,
    offsetMs,
    offset: offsetWords(offsetMs),
    hint: refusalHint(r.reason, offsetMs),
    since: since?.toISOString() ?? null,
  };
}

/** A device's refused fixes of the last 24 hours, newest first by default; another organization's device is a 404. */
export async function listRefusedFixes(
  { db, orgId }: ReadScope,
  gatewayId: string,
  q: { page: number; size: number; sort?: string },
): Promise<Page<RefusedFix>> {
  const [device] = await db
    .select({ id: gateways.id })
    .from(gateways)
    .where(and(eq(gateways.organizationId, orgId), eq(gateways.id, gatewayId)));
  if (!device) throw notFound('Device');
  const where = and(
    eq(refusedFixes.organizationId, orgId),
    eq(refusedFixes.gatewayId, gatewayId),
    gte(refusedFixes.receivedAt, sql`now() - make_interval(secs => ${DAY_MS / 1000})`),
  );
  const [total] = await db.select({ n: countAll }).from(refusedFixes).where(where);
  const n = total?.n ?? 0;
  if (n === 0) return toPage([], 0, q);
  const order = q.sort
    ? orderBy(q.sort, SORTS, 'receivedAt', sql`${refusedFixes.minute} desc, ${refusedFixes.reason}`)
    : [desc(refusedFixes.receivedAt), desc(refusedFixes.reason)];
  const rows = await db
    .select()
    .from(refusedFixes)
    .where(where)
    .orderBy(...order)
    .limit(q.size)
    .offset(q.page * q.size);
  // Frames the server cannot read: since when the device has sent them, per message (decision 0323).
  const firstOf = new Map<string, Date>();
  if (rows.some((r) => r.reason === 'undecodable')) {
    const firsts = await db
      .select({ message: refusedFixes.message, first: sql<string>`min(${refusedFixes.receivedAt})` })
      .from(refusedFixes)
      .where(and(where, eq(refusedFixes.reason, 'undecodable')))
      .groupBy(refusedFixes.message);
    for (const f of firsts) firstOf.set(f.message, new Date(f.first));
  }
  return toPage(
    rows.map((r) => presentRefusedFix(r, r.reason === 'undecodable' ? (firstOf.get(r.message) ?? r.receivedAt) : null)),
    n,
    q,
  );
}
