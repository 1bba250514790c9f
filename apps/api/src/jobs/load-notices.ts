import type { Database } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { runLoadNotices, trackingKey } from '../modules/tracking/index.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// Customer notices and `load.eta_changed` (issue 69, decision 0283): a pass every 30 seconds on every
// instance, over what the loads module and the live ETAs wrote. Each notice and each announced ETA is
// claimed in the database, so instances and restarts never send one twice.

export const LOAD_NOTICES_JOB = 'load-notices';
export const LOAD_NOTICES_EVERY_MS = 30_000;

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs the pass every 30 s (and 10 s after start, for what came due while down). Returns the stop function. */
export function scheduleLoadNotices(
  database: Database,
  deps: { mailer: Mailer; publicUrl: string; serverKey: Buffer },
  log: JobLog,
  everyMs = LOAD_NOTICES_EVERY_MS,
): () => Promise<void> {
  const key = trackingKey(deps.serverKey);
  const onError = (err: unknown) => log.error({ job: LOAD_NOTICES_JOB, err }, 'load notices pass failed');
  return scheduleRecurring(
    async () => {
      const r = await runLoadNotices({ db: database.db, mailer: deps.mailer, publicUrl: deps.publicUrl, key, log }, Date.now());
      if (r.sent || r.failed || r.etaChanges || r.failedOrganizations) log.info({ job: LOAD_NOTICES_JOB, ...r }, 'load notices sent');
    },
    { everyMs, firstAfterMs: 10_000, onError },
  );
}
