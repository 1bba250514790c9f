import { getTableColumns, type Column, type Table } from 'drizzle-orm';

// A multi-row INSERT … VALUES without Drizzle building it row by row. Drizzle renders a statement
// by walking every parameter (entity checks, typing, a driver value each): for a round's 1,000
// vehicle days of 13 columns that was 8 % of the API's CPU under 1,000 Teltonika devices (issue
// 74). Here Drizzle renders the statement once, for one row, and its VALUES tuple is repeated with
// the parameters renumbered: the same text and values Drizzle gives for the rows (the test
// compares the two on random rows), so Citus still routes it to one shard (db/sql/routed-insert.ts).

/** A rendered statement: its text and its values, as Drizzle's `toSQL()` gives them. */
export interface RenderedQuery {
  sql: string;
  params: unknown[];
}

/**
 * The statement Drizzle rendered for one row with every column of `table` given (`one`), as a
 * function of rows: the text for n rows and their driver values, column by column in the table's
 * order. Throws when `one` is not `… values ($1, …, $k) …` with the table's k columns and no other
 * parameter.
 */
export function repeatedValues(table: Table, one: RenderedQuery): (rows: ReadonlyArray<Record<string, unknown>>) => RenderedQuery {
  const columns = Object.entries(getTableColumns(table)) as Array<[string, Column]>;
  const k = columns.length;
  const tuple = `(${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
  const at = one.sql.indexOf(` values ${tuple}`);
  if (at < 0 || one.params.length !== k || one.sql.indexOf(tuple, at + 8 + tuple.length) >= 0) {
    throw new Error(`repeatedValues: the statement is not one VALUES row of the table's ${k} columns`);
  }
  const head = one.sql.slice(0, at);
  const tail = one.sql.slice(at + 8 + tuple.length);
  return (rows) => {
    const params: unknown[] = [];
    const tuples: string[] = [];
    for (const row of rows) {
      const n = params.length;
      tuples.push(`(${columns.map((_, i) => `$${n + i + 1}`).join(', ')})`);
      for (const [key, column] of columns) {
        const v = row[key];
        if (v === undefined) throw new Error(`repeatedValues: the row has no ${key}`);
        params.push(v === null ? null : column.mapToDriverValue(v));
      }
    }
    return { sql: `${head} values ${tuples.join(', ')}${tail}`, params };
  };
}
