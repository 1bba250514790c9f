import type { QueryOptions, Results } from '@electric-sql/pglite';

// Prepared statements on the embedded database (decision 0170). PGlite's query() parses and plans
// every statement again, and in WebAssembly planning a hot statement costs more than running it:
// the search's union of small lists planned in 0.25-0.3 ms and ran in 0.1 ms. So a statement seen a
// second time is prepared with SQL's PREPARE and from then on run with EXECUTE, its values inlined
// as quoted literals (EXECUTE takes no bound parameters). The group commit binds its values in
// binary instead (pglite-bind.ts, decision 0331). PostgreSQL keeps a generic plan once it costs no
// more than the custom ones. The least recently used beyond a cap are deallocated, so the backend's memory stays bounded.

/** A value as an untyped SQL literal for EXECUTE, or undefined when it is not text, a number or a boolean. */
export function executeLiteral(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? `'${v}'` : undefined;
  if (typeof v === 'boolean') return v ? `'t'` : `'f'`;
  if (typeof v === 'bigint') return `'${v}'`;
  // standard_conforming_strings is on: only a quote ends the literal, and it is doubled.
  if (typeof v === 'string') return v.includes('\0') ? undefined : `'${v.replaceAll("'", "''")}'`;
  return undefined;
}

/** The session's own calls, below the prepared-statement layer. */
export interface Session {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<unknown>;
}

/** Statements kept prepared at most; about 10-50 kB of the backend's memory each. */
export const MAX_PREPARED = 200;
/** Statement texts remembered as seen once, before the memory is cleared. */
const MAX_SEEN = 2000;

/** One session's prepared statements: text -> name (or null when PREPARE refused it), oldest first. */
export class PreparedStatements {
  private readonly names = new Map<string, Promise<string | null>>();
  /**
   * The names whose PREPARE has run. A transaction reads only these: a PREPARE still pending was
   * sent outside the transaction and waits for PGlite's lock, which the transaction holds, so
   * awaiting it there never ends (seen in CI: the embedded database stopped answering).
   */
  private readonly ready = new Map<string, string>();
  private readonly seen = new Set<string>();
  private count = 0;

  constructor(private readonly maxPrepared = MAX_PREPARED) {}

  /**
   * Runs `sql` on `session`, outside a transaction: prepared the second time it is seen, EXECUTEd
   * once prepared. An ordinary query the first time, when a value cannot be a literal, or when
   * PREPARE refused the statement (not a SELECT, INSERT, UPDATE or DELETE; a parameter whose type
   * only its value tells).
   */
  async query<T>(session: Session, sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const literals = params.map(executeLiteral);
    if (literals.some((l) => l === undefined)) return session.query<T>(sql, params, options);
    let name = this.names.get(sql);
    if (name) {
      // Most recently used last.
      this.names.delete(sql);
      this.names.set(sql, name);
    } else {
      if (!this.seen.has(sql)) {
        if (this.seen.size >= MAX_SEEN) this.seen.clear();
        this.seen.add(sql);
        return session.query<T>(sql, params, options);
      }
      this.seen.delete(sql);
      name = this.prepare(session, sql);
    }
    const statement = await name;
    if (!statement) return session.query<T>(sql, params, options);
    try {
      return await session.query<T>(`execute ${statement}${literals.length ? `(${literals.join(', ')})` : ''}`, [], options);
    } catch (err) {
      // Deallocated meanwhile (26000), or a table it reads changed shape (0A000, "cached plan must
      // not change result type"): forgotten, and run as an ordinary query.
      const code = (err as { code?: string }).code;
      if (code !== '26000' && code !== '0A000') throw err;
      if (this.names.get(sql) === name) {
        this.names.delete(sql);
        this.ready.delete(sql);
        await session.exec(`deallocate ${statement}`).catch(() => undefined);
      }
      return session.query<T>(sql, params, options);
    }
  }

  /** A transaction's query: EXECUTE when already prepared (a failed PREPARE would abort the transaction). */
  async queryInTransaction<T>(tx: Session, sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const literals = params.map(executeLiteral);
    const statement = literals.some((l) => l === undefined) ? undefined : this.ready.get(sql);
    if (!statement) return tx.query<T>(sql, params, options);
    return tx.query<T>(`execute ${statement}${literals.length ? `(${literals.join(', ')})` : ''}`, [], options);
  }

  private prepare(session: Session, sql: string): Promise<string | null> {
    const statement = `p${++this.count}`;
    const name = session.exec(`prepare ${statement} as ${sql}`).then(
      () => {
        // Still the text's statement (not evicted or forgotten meanwhile): transactions may use it.
        if (this.names.get(sql) === name) this.ready.set(sql, statement);
        return statement;
      },
      () => null,
    );
    this.names.set(sql, name);
    if (this.names.size > this.maxPrepared) {
      const [oldest, old] = this.names.entries().next().value as [string, Promise<string | null>];
      this.names.delete(oldest);
      this.ready.delete(oldest);
      void old.then((n) => (n ? session.exec(`deallocate ${n}`) : undefined)).catch(() => undefined);
    }
    return name;
  }
}

/** A statement an owner names and types itself, run with `execute` (the group commit's text reference: position-store.ts). */
export interface NamedStatement {
  name: string;
  /** The parameters' types, as PREPARE lists them. */
  paramTypes: string;
  text: string;
}

/**
 * Runs `run`, which uses the named statements `statements`, and when the session answers "does not
 * exist" (26000) prepares them and runs it again. Nothing remembers whether a statement is
 * prepared: a prepared statement belongs to the session it was made in, and the embedded database's
 * session is replaced whenever it opens again (a restarted worker thread).
 */
export async function withPrepared<T>(session: Pick<Session, 'exec'>, statements: readonly NamedStatement[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if ((err as { code?: string }).code !== '26000') throw err;
  }
  for (const st of statements) {
    await session.exec(`prepare ${st.name}${st.paramTypes ? `(${st.paramTypes})` : ''} as ${st.text}`).catch((err: { code?: string }) => {
      // Prepared meanwhile by a concurrent caller on the same session.
      if (err.code !== '42P05') throw err;
    });
  }
  return run();
}

/**
 * Runs `execute <name>(<literals>)` between `before` and `after` (e.g. a planning setting and its
 * reset) as one simple-protocol exec, so one implicit transaction: if the EXECUTE fails, the rest
 * is rolled back with it. Prepared on a session that does not have it (withPrepared). Returns the
 * EXECUTE's results.
 */
export async function execNamed(
  session: Pick<Session, 'exec'>,
  st: NamedStatement,
  literals: readonly string[],
  around: { before?: string; after?: string } = {},
): Promise<Results<unknown>> {
  const before = around.before ? `${around.before}; ` : '';
  const text = `${before}execute ${st.name}(${literals.join(', ')})${around.after ? `; ${around.after}` : ''}`;
  const at = around.before ? 1 : 0;
  return withPrepared(session, [st], async () => ((await session.exec(text)) as Array<Results<unknown>>)[at]!);
}
