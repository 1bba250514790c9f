import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { rowsOf } from './rows.ts';

// Per-organization numbers (L-1001 loads, INV-1001 invoices, S-1001 settlements): each kind keeps
// the last number given in a table of its own `(organization_id primary key, last)`. One upsert
// takes `count` numbers at once, safe under concurrency (the row is locked by the update).

/** The next `count` numbers of the organization from `table`, the first being 1001. */
export async function nextOrgNumbers(
  db: DbOrTx,
  table: 'load_counters' | 'invoice_counters' | 'settlement_counters',
  orgId: string,
  count = 1,
): Promise<number[]> {
  const t = sql.identifier(table);
  const result = await db.execute(sql`insert into ${t} as c (organization_id, last) values (${orgId}, ${1000 + count})
    on conflict (organization_id) do update set last = c.last + ${count} returning last`);
  const last = Number(rowsOf<{ last: number | string }>(result)[0]!.last);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
