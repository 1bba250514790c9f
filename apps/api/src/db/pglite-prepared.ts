import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

// Prepared statements on the embedded database (decision 0170). PGlite's query() parses and plans
// every statement again, and in WebAssembly planning a hot statement cost more than running it:
// the search's union of small lists planned in 0.25-0.3 ms and ran in 0.1 ms. A statement the app
// names (PreparedSql) is prepared once per session with SQL's PREPARE and run with EXECUTE, its
// values inlined as quoted literals (EXECUTE takes no bound parameters), as the position writes do
// (position-store.ts). PostgreSQL then keeps a generic plan once it is no worse than the custom ones.

/** A value as an untyped SQL literal for EXECUTE, or undefined when it is not plain text or a number. */
export function executeLiteral(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? `'${v}'` : undefined;
  if (typeof v === 'boolean') return v ? `'true'` : `'false'`;
  if (typeof v === 'bigint') return `'${v}'`;
  // standard_conforming_strings is on: only a quote ends the literal, and it is doubled.
  if (typeof v === 'string') return v.includes('\0') ? undefined : `'${v.replaceAll("'", "''")}'`;
  return undefined;
}

/** One session's prepared statements: statement text -> its name, or null when PREPARE refused it. */
export class PreparedStatements {
  private readonly names = new Map<string, Promise<string | null>>();
  private count = 0;

  /**
   * Runs `sql` with `params` as a prepared statement: prepared on its first run outside a
   * transaction, then EXECUTEd. An ordinary query when a value cannot be a literal, when PREPARE
   * refused the statement (a parameter whose type only its value tells), or inside a transaction
   * before it is prepared (a failed PREPARE would abort the transaction).
   */
  async query<T>(db: PGlite, tx: Transaction | undefined, sql: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const target = tx ?? db;
    const literals = params.map(executeLiteral);
    if (literals.some((l) => l === undefined)) return target.query<T>(sql, params, options);
    let name = this.names.get(sql);
    if (!name) {
      if (tx) return tx.query<T>(sql, params, options);
      const statement = `p${++this.count}`;
      name = db.exec(`prepare ${statement} as ${sql}`).then(
        () => statement,
        () => null,
      );
      this.names.set(sql, name);
    }
    const statement = await name;
    if (!statement) return target.query<T>(sql, params, options);
    const execute = `execute ${statement}${literals.length ? `(${literals.join(', ')})` : ''}`;
    try {
      return await target.query<T>(execute, [], options);
    } catch (err) {
      // "cached plan must not change result type": a table the statement reads changed shape.
      if ((err as { code?: string }).code !== '0A000' || tx) throw err;
      await db.exec(`deallocate ${statement}; prepare ${statement} as ${sql}`);
      return db.query<T>(execute, [], options);
    }
  }
}
