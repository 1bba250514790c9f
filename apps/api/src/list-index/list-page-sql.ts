import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page } from '@fleet/api-contract';
import type { DbOrTx } from '../db/client.ts';
import { listIndexOf, type IndexedList } from './list-index.ts';
import type { IndexQuery } from './list-index-page.ts';
import { BROAD_SEARCH_MATCHES, toPage } from '../http/paging.ts';
import { PreparedCache } from '../db/sql/prepared-sql.ts';

// A registry list page in two statements (docs/decisions/0043, 0047, 0048): the page's ids are
// chosen and counted on the list's own table, then only those rows are joined to their links.

/** The list's table, its id, and the columns a searched page sorts its matches on. */
export interface ListTable {
  table: PgTable;
  id: AnyPgColumn;
  /** Every column a sort may name (read into the narrow set of matches). */
  sortable: AnyPgColumn[];
}

const ph = (name: string) => sql.placeholder(name);

/**
 * The ids of one page in order, each with the total count. With a search the matches are counted
 * first (through the trigram index, or a scan when they are most of the table), so totalElements
 * stays exact. The page then comes from one of two branches, the other skipped by its one-time
 * filter on the count (decision 0047): a broad search (more than BROAD_SEARCH_MATCHES) walks the
 * sort index testing the stored search text and stops at the page, instead of sorting thousands of
 * matches; a narrower one reads its matches into a narrow set (materialized, so the planner cannot
 * swap it for a walk of the sort index, which costs the whole index when the matches sort late)
 * and takes the top N. The CTE is only computed when that branch runs. Without a search the page
 * walks the sort index and a separate count scans. `matches AS <table>` lets the sort expressions,
 * written against the table, name the matched rows.
 */
export function pageIdsSql(t: ListTable, where: SQL, searched: boolean, order: SQL[]): SQL {
  const orderSql = sql.join(order, sql`, `);
  const page = sql`order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')}`;
  if (!searched) return sql`select ${t.id} as id, (select count(*) from ${t.table} where ${where})::int as total from ${t.table} where ${where} ${page}`;
  const broad = sql.raw(String(BROAD_SEARCH_MATCHES));
  return sql`with matches as materialized (select ${sql.join([t.id, ...t.sortable], sql`, `)} from ${t.table} where ${where}),
counted as (select count(*)::int as n from ${t.table} where ${where})
(select ${t.id} as id, (select n from counted) as total from ${t.table}
  where ${where} and (select n from counted) > ${broad} ${page})
union all
(select ${t.id} as id, (select n from counted) as total from matches as ${t.table}
  where (select n from counted) <= ${broad} ${page})`;
}

/**
 * The statements of one list, rendered once per shape. With the app's in-memory index (decision
 * 0083) a page comes from memory, checked by one short statement. Without it (a list too large
 * to keep, a transaction, or one that kept changing while it was read): the page's ids and count
 * (unnamed, so PostgreSQL plans them for each term, decision 0048), the count alone past the last
 * page, and the rows of the page's ids (named: one reused plan, no join planning per request).
 */
export class ListPageQueries<Row extends { id: string }, Item> {
  private readonly ids: PreparedCache<{ id: string; total: number }>;
  private readonly counts: PreparedCache<{ n: number }>;
  private readonly rows: PreparedCache<Row>;
  private readonly allRows: PreparedCache<Row & { listVersion: string }>;

  /** `rowsSql()` selects the rows of the `ids` placeholder (and `org`), in the ids' order. */
  constructor(
    prefix: string,
    private readonly t: ListTable,
    private readonly rowsSql: () => SQL,
    private readonly present: (row: Row) => Item,
    private readonly indexed?: IndexedList<Item>,
  ) {
    this.ids = new PreparedCache(`${prefix}_ids`, false);
    this.counts = new PreparedCache(`${prefix}_count`);
    this.rows = new PreparedCache(`${prefix}_rows`);
    this.allRows = new PreparedCache(`${prefix}_all`);
  }

  /** The presented rows of these ids of the organization, in the ids' order (a detail view's record). */
  async rowsOf(db: DbOrTx, org: string, ids: string[]): Promise<Item[]> {
    const rows = await this.rows.get('', this.rowsSql).run(db, { ids: `{${ids.join(',')}}`, org });
    return rows.map(this.present);
  }

  /**
   * One page. `shape` names which filters are present and the sort (a cache key); `where` builds
   * their conditions with placeholders bound from `values` (`org` is the organization); `index` is
   * the same request for the in-memory index.
   */
  async page(
    db: DbOrTx,
    shape: string,
    where: () => SQL,
    values: Record<string, unknown> & { org: string; search?: string },
    q: { page: number; size: number; sortKey: string; order: SQL[] },
    index?: IndexQuery,
  ): Promise<Page<Item>> {
    const list = this.indexed;
    const store = list && index ? listIndexOf(db) : undefined;
    if (store && list && index) {
      const load = async () => {
        const rows = await this.allRows.get('', () => list.allRowsSql).run(db, { org: values.org });
        return { byId: new Map(rows.map((r) => [r.id, this.present(r)])), version: rows[0]?.listVersion };
      };
      const found = await store.page(db, list, values.org, { ...index, sortKey: q.sortKey, order: q.order, offset: q.page * q.size, limit: q.size }, load);
      if (found) return toPage(found.items, found.total, q);
    }
    const searched = values.search !== undefined;
    const ids = await this.ids.get(shape, () => pageIdsSql(this.t, where(), searched, q.order)).run(db, { ...values, limit: q.size, offset: q.page * q.size });
    if (ids.length === 0) {
      // Past the last page (or nothing matches) there is no row to carry the count.
      const [c] = q.page > 0 ? await this.counts.get(shape, () => sql`select count(*)::int as n from ${this.t.table} where ${where()}`).run(db, values) : [];
      return toPage([], c?.n ?? 0, q);
    }
    return toPage(
      await this.rowsOf(
        db,
        values.org,
        ids.map((r) => r.id),
      ),
      ids[0]?.total ?? 0,
      q,
    );
  }
}
