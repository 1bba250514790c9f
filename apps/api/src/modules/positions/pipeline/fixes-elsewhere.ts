import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/sql/rows.ts';

/** What a follower worked of one vehicle since it last looked: fixes after `fromMs` up to `toMs`, `n` of them (distinct times). */
export interface WorkedSpan {
  assetId: string;
  fromMs: number;
  toMs: number;
  n: number;
}

/**
 * On a shared database another instance may have stored fixes of the same vehicle (a device behind
 * a load balancer), which this instance's follower never heard of (or this process, before a kill,
 * stored fixes its followers never worked): the vehicles of these spans with
 * more stored fixes in (fromMs, toMs] than this instance worked there. One statement per
 * organization, naming it, so that Citus routes it, correlated subquery and all, to its shard.
 */
export async function vehiclesWithFixesElsewhere(db: DbOrTx, orgId: string, spans: readonly WorkedSpan[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (spans.length === 0) return out;
  const keys = spans.map((s) => ({ a: s.assetId, from: new Date(s.fromMs).toISOString(), to: new Date(s.toMs).toISOString(), n: s.n }));
  const rows = rowsOf<{ a: string }>(
    await db.execute(sql`select k.a from json_to_recordset(${JSON.stringify(keys)}::json) as k(a uuid, "from" timestamptz, "to" timestamptz, n int)
      where (select count(*) from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time > k."from" and p.fix_time <= k."to") > k.n`),
  );
  for (const r of rows) out.add(r.a);
  return out;
}

/**
 * What a follower needs to go on in order with fixes another instance stored: for the spans'
 * vehicles that have such fixes (vehiclesWithFixesElsewhere), every stored fix in (fromMs, toMs], in
 * fix-time order, as the follower's `tuple` (a JSON array built over the positions row `p`). Two
 * statements for a round's spans, the second only when some vehicle has such fixes; both name the
 * organization, so Citus routes them to its shard.
 */
export async function fixesElsewhere(db: DbOrTx, orgId: string, spans: readonly WorkedSpan[], tuple: SQL): Promise<Map<string, unknown[][]>> {
  const out = new Map<string, unknown[][]>();
  const ids = await vehiclesWithFixesElsewhere(db, orgId, spans);
  const keys = spans.filter((s) => ids.has(s.assetId)).map((s) => ({ a: s.assetId, f: new Date(s.fromMs).toISOString(), t: new Date(s.toMs).toISOString() }));
  if (keys.length === 0) return out;
  const rows = rowsOf<{ a: string; j: string | null }>(
    await db.execute(sql`select k.a, (select json_agg(${tuple} order by p.fix_time)
        from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time > k.f and p.fix_time <= k.t)::text as j
      from json_to_recordset(${JSON.stringify(keys)}::json) as k(a uuid, f timestamptz, t timestamptz)`),
  );
  for (const r of rows) out.set(r.a, r.j ? (JSON.parse(r.j) as unknown[][]) : []);
  return out;
}
