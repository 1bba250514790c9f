import type { Db, DbOrTx } from '../db/client.ts';

/**
 * Runs `hold` in a transaction of its own and keeps it open (its locks held) until the returned
 * release is called, which commits it. For tests of what another transaction waits for: a server
 * database only, since PGlite is one session and the second transaction would wait forever.
 */
export async function heldTransaction(db: Db, hold: (tx: DbOrTx) => Promise<unknown>): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const isHeld = new Promise<void>((r) => (held = r));
  const done = db.transaction(async (tx) => {
    await hold(tx);
    held();
    await released;
  });
  // A failure of `hold` ends the wait too, and reaches the caller.
  await Promise.race([isHeld, done]);
  return async () => {
    release();
    await done;
  };
}
