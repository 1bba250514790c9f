import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import type { PingResult } from '../modules/eld-transfer/eld-soap.ts';
import { EldTransferError } from '../modules/eld-transfer/eld-transfer.errors.ts';
import { failingSince, insertCheck, latestCheck } from '../modules/eld-transfer/eld-transfer.repository.ts';
import { recordTransferDiagnostics, transferVerdict } from '../modules/eld-transfer/eld-transfer-diagnostics.ts';
import { runExclusive } from './exclusive-run.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// The self-check of the data transfer mechanism (49 CFR 395 Appendix A 4.6.1.7; decision 0185): a
// Ping of FMCSA's web service at least once every 7 days, and again every 24 hours after a failure.
// A failed check is the data transfer data diagnostic (4) for every organization's drivers, the next
// success clears it; failing still 3 days after the first failed check it becomes the data transfer
// compliance malfunction (S), cleared by a success too. One runner at a time across instances (a
// session advisory lock, job_runs row `eld-transfer-check`). The clock is a parameter: the tests
// drive it over days. Each run also brings every driver to the latest verdict (a driver added while
// the mechanism is failing gets the diagnostic), so a missed run is made good by the next.

export const ELD_TRANSFER_CHECK_JOB = 'eld-transfer-check';
/** Arbitrary constant key of the advisory lock. */
export const ELD_TRANSFER_CHECK_LOCK_KEY = 724_311_185;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Within the rule's 7 days with a day to spare: a run missed while every instance was down is made good in time. */
export const CHECK_EVERY_MS = 6 * DAY_MS;
/** After a failed check, the next one a day later (the 3 days to the malfunction are counted in checks). */
export const RECHECK_AFTER_FAILURE_MS = DAY_MS;
/** How often each instance looks whether a check is due. */
export const ELD_TRANSFER_CHECK_TICK_MS = HOUR_MS;

export interface TransferCheckDeps {
  /** The Ping of the configured web service; null when it is not set up here (no check is made then). */
  ping: (() => Promise<PingResult>) | null;
}

export interface TransferCheckResult {
  ran: boolean;
  /** A Ping was made this run. */
  checked: boolean;
  /** The latest check's outcome (null before the first). */
  ok: boolean | null;
  organizations: number;
  logged: number;
  cleared: number;
}

/** A check is due: none yet, the last success 6 days old, the last failure a day old. */
export function checkDue(last: { checkedAt: number; ok: boolean } | null, now: number): boolean {
  if (!last) return true;
  return now - last.checkedAt >= (last.ok ? CHECK_EVERY_MS : RECHECK_AFTER_FAILURE_MS);
}

/** One run (tests call it with `now`): a Ping when due, then every organization's drivers brought to the verdict. */
export async function runEldTransferCheck(database: Database, deps: TransferCheckDeps, now = Date.now()): Promise<TransferCheckResult> {
  const idle: TransferCheckResult = { ran: false, checked: false, ok: null, organizations: 0, logged: 0, cleared: 0 };
  const ran = await runExclusive(database, { name: ELD_TRANSFER_CHECK_JOB, lockKey: ELD_TRANSFER_CHECK_LOCK_KEY }, async (db) => {
    const result: TransferCheckResult = { ...idle, ran: true };
    let last = await latestCheck(db);
    if (deps.ping && checkDue(last && { checkedAt: last.checkedAt.getTime(), ok: last.ok }, now)) {
      let status: string;
      let detail: string | null;
      try {
        const answer = await deps.ping();
        status = answer.status;
        detail = answer.detail;
      } catch (err) {
        if (!(err instanceof EldTransferError)) throw err;
        status = 'FAILED';
        detail = err.message;
      }
      await insertCheck(db, { checkedAt: new Date(now), status, detail, ok: status === 'Success' });
      result.checked = true;
      last = await latestCheck(db);
    }
    result.ok = last?.ok ?? null;
    const verdict = transferVerdict(
      last && { checkedAt: last.checkedAt.getTime(), ok: last.ok, detail: last.detail },
      last && !last.ok ? await failingSince(db) : null,
    );
    if (!verdict) return result;
    const orgs = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE')).orderBy(asc(organizations.id));
    for (const { id } of orgs) {
      const r = await recordTransferDiagnostics(db, id, verdict, now);
      result.organizations++;
      result.logged += r.logged;
      result.cleared += r.cleared;
    }
    return result;
  });
  return ran ?? idle;
}

type JobLog = { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };

/**
 * Looks every ELD_TRANSFER_CHECK_TICK_MS whether a check is due, on every instance (one at a time
 * runs it), the first time soon after start: a server that was down past the 7 days checks at once.
 * `deps` is asked each time (a certificate installed meanwhile is used). Returns the stop function.
 */
export function scheduleEldTransferCheck(
  database: Database,
  deps: () => Promise<TransferCheckDeps>,
  log: JobLog,
  everyMs = ELD_TRANSFER_CHECK_TICK_MS,
): () => Promise<void> {
  let warned = false;
  const onError = (err: unknown) => log.error({ job: ELD_TRANSFER_CHECK_JOB, err }, 'ELD data transfer check failed');
  return scheduleRecurring(
    async () => {
      const d = await deps();
      if (!d.ping && !warned) {
        warned = true;
        log.warn(
          { job: ELD_TRANSFER_CHECK_JOB },
          "FMCSA's web service is not set up (ELD_CLIENT_CERT and ELD_CLIENT_KEY, or ELD_CLIENT_PFX): the data transfer self-check is not made",
        );
      }
      const r = await runEldTransferCheck(database, d);
      if (r.checked || r.logged || r.cleared) log.info({ job: ELD_TRANSFER_CHECK_JOB, ...r }, 'ELD data transfer checked');
    },
    { everyMs, firstAfterMs: 60_000, onError },
  );
}
