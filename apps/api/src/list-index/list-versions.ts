import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';

/**
 * Moves an organization's list version (list_versions, decision 0083) from the API, in the writing
 * transaction `tx`, for the one change no trigger can follow on Citus: a sign-in account's e-mail
 * (a driver row shows it) lives in `users`, a reference table, whose trigger would run on the
 * workers' copies and cannot write the distributed list_versions (migration 0037). Same rule as the
 * triggers (0035): the greater of the previous version + 1 and the clock in microseconds, the clock
 * passed as a parameter (Citus takes no volatile function in DO UPDATE).
 */
export async function bumpListVersion(tx: DbOrTx, orgId: string, list: 'assets' | 'drivers'): Promise<void> {
  const clock = (BigInt(Date.now()) * 1000n).toString();
  await tx.execute(sql`insert into list_versions as v (organization_id, list, version) values (${orgId}, ${list}, ${clock}::bigint)
    on conflict (organization_id, list) do update set version = greatest(v.version + 1, excluded.version)`);
}
