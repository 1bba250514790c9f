import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { migrationsFolder } from '../../db/client.ts';
import { answerableErrorText } from '../../db/sql/database-error.ts';
import { rowsOf } from '../../db/sql/rows.ts';

/** The newest migration this build ships (drizzle records its `when` as created_at once applied). */
function newestShippedMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

const NEWEST = newestShippedMigration();

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Ready when the database answers and holds every migration this build ships. */
export async function readiness(db: Db): Promise<Readiness> {
  let applied: number;
  try {
    const rows = rowsOf<{ newest: string | number | null }>(await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`));
    applied = Number(rows[0]?.newest ?? 0);
  } catch (err) {
    // The code only: a failed query's text carries its SQL, and this answer is public.
    return { ready: false, reason: `database unreachable: ${answerableErrorText(err)}` };
  }
  if (applied < NEWEST) return { ready: false, reason: 'database migrations not applied yet' };
  return { ready: true };
}
