import { pgError } from './pg-error.ts';

// A database error's text is the statement, its parameters and the schema's names (Drizzle's
// "Failed query: select … params: …"): it goes to the log, never into an answer, in any mode.

/** Text that reads like SQL: what a database error (or a wrapper of one) says. */
const SQL_TEXT = /Failed query|\bselect\b[\s\S]*\bfrom\b|\binsert\s+into\b|\bupdate\b[\s\S]*\bset\b|\bdelete\s+from\b|\breturning\b/i;

/** True when `err` came from the database: a SQLSTATE (itself or what it wraps), a failed Drizzle query, or text that reads like SQL. */
export function isDatabaseError(err: unknown): boolean {
  if (pgError(err)) return true;
  for (let e: unknown = err, i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { query?: unknown; message?: unknown; cause?: unknown };
    if (typeof rec.query === 'string' || (typeof rec.message === 'string' && SQL_TEXT.test(rec.message))) return true;
    e = rec.cause;
  }
  return false;
}

/**
 * What an answer may say about an unexpected error: its message, or for a database error only its
 * SQLSTATE ("database error 42P01") or system code ("ECONNREFUSED"), never the statement.
 */
export function answerableErrorText(err: unknown): string {
  if (!isDatabaseError(err)) return err instanceof Error ? err.message : String(err);
  const code = pgError(err)?.code ?? systemCode(err);
  return code ? `database error ${code}` : 'database error';
}

function systemCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { code?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && /^E[A-Z]+$/.test(rec.code)) return rec.code;
    e = rec.cause;
  }
  return undefined;
}

/**
 * The embedded database's worker thread stopped under this statement, or its in-memory data is gone
 * (db/pglite-remote.ts's DatabaseUnavailableError, itself or wrapped by Drizzle): its message, else null.
 */
export function databaseUnavailable(err: unknown): string | null {
  for (let e: unknown = err, i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { name?: unknown; message?: unknown; cause?: unknown };
    if (rec.name === 'DatabaseUnavailableError' && typeof rec.message === 'string') return rec.message;
    e = rec.cause;
  }
  return null;
}

/**
 * What a failed statement means for running it again:
 * - `retry`: PostgreSQL aborted it to break a deadlock or a serialisation conflict; nothing of it
 *   was committed, and it may run again at once;
 * - `unavailable`: the session is gone or the server refused work (the embedded thread stopped, a
 *   connection lost or terminated, the server shutting down or out of connections, a statement
 *   cancelled): whether it committed is unknown, and it may run again once the database is back;
 * - `data`: a value the statement's columns cannot hold (class 22) or a constraint it breaks (class
 *   23): the same values fail every time;
 * - `other`: anything else (a bug): not run again.
 */
export type FailureKind = 'retry' | 'unavailable' | 'data' | 'other';

const CONNECTION_LOST =
  /Connection terminated|connection (?:is )?(?:closed|ended|lost)|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed/i;

export function failureKind(err: unknown): FailureKind {
  if (databaseUnavailable(err)) return 'unavailable';
  const code = pgError(err)?.code;
  if (code) {
    if (code === '40P01' || code === '40001') return 'retry';
    if (code.startsWith('08') || code.startsWith('53') || code.startsWith('57') || code === '55P03' || code === '55006') return 'unavailable';
    if (code.startsWith('22') || code.startsWith('23')) return 'data';
    return 'other';
  }
  if (systemCode(err)) return 'unavailable';
  for (let e: unknown = err, i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { message?: unknown; cause?: unknown };
    if (typeof rec.message === 'string' && CONNECTION_LOST.test(rec.message)) return 'unavailable';
    e = rec.cause;
  }
  return 'other';
}
