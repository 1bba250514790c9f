import type { CommitReport } from './group-committer.ts';

// The ingest's health on this instance: failed commits counted by cause, and whether positions have
// stopped being stored. Before this, a whole fleet froze with every counter at zero: a commit that
// fails now shows here, in /readyz, on the administrator's screen and in the organization's
// notifications (ingest-alerts.ts).

/** Positions failing to store for this long make the instance unready and notify the administrators. */
export const FAILING_ALERT_MS = 60_000;

/** An organization whose positions fail to store: since when, and the last cause. */
export interface FailingEpisode {
  orgId: string;
  since: number;
  lastAt: number;
  cause: string;
  rows: number;
}

export class IngestHealth {
  /** Failed organization writes since start, by cause (a SQLSTATE, or "unavailable: …"). */
  readonly failedCommits = new Map<string, number>();
  /** Rows whose commit failed (their requests were not acknowledged: the devices send them again). */
  failedRows = 0;
  storedRows = 0;
  /** Statements run again after a deadlock or the database unavailable for a moment. */
  retries = 0;
  /** 5xx answers and unacknowledged packets, by way in ('osmand', 'teltonika', 'api'). */
  readonly serverErrors = new Map<string, number>();
  lastStoredAt: number | null = null;
  lastFailure: { at: number; cause: string } | null = null;
  /** First failure since a row was last stored: positions stopped being stored altogether. */
  private failingSince: number | null = null;
  /** Organizations whose writes fail, until one of theirs succeeds. */
  readonly failing = new Map<string, FailingEpisode>();
  /** Episodes that ended (an organization's rows stored again), for the alerts to report once. */
  readonly ended: FailingEpisode[] = [];

  /** Since when the oldest positions not yet answered have waited to be stored (the writers say). */
  waitingSince: () => number | null = () => null;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Told by the group commit after each commit. */
  record(report: CommitReport): void {
    const now = this.clock();
    this.retries += report.retries;
    if (report.rows > 0) {
      this.storedRows += report.rows;
      this.lastStoredAt = now;
      this.failingSince = null;
    }
    for (const orgId of report.succeeded) {
      const episode = this.failing.get(orgId);
      if (!episode) continue;
      this.failing.delete(orgId);
      this.ended.push(episode);
      if (this.ended.length > 100) this.ended.shift();
    }
    for (const f of report.failures) {
      this.failedCommits.set(f.cause, (this.failedCommits.get(f.cause) ?? 0) + 1);
      this.failedRows += f.rows;
      this.lastFailure = { at: now, cause: f.cause };
      if (report.rows === 0) this.failingSince ??= now;
      const episode = this.failing.get(f.orgId);
      if (episode) Object.assign(episode, { lastAt: now, cause: f.cause, rows: episode.rows + f.rows });
      else this.failing.set(f.orgId, { orgId: f.orgId, since: now, lastAt: now, cause: f.cause, rows: f.rows });
    }
  }

  /** A 5xx answered or a packet left unacknowledged on a way in. */
  serverError(way: string): void {
    this.serverErrors.set(way, (this.serverErrors.get(way) ?? 0) + 1);
  }

  /**
   * Why the instance should not get traffic, or null: no position stored for a minute while commits
   * fail, or positions waiting a minute for a database that does not answer (the soak saw ingest
   * held up for minutes with no failure to count).
   */
  problem(): string | null {
    const now = this.clock();
    const waiting = this.waitingSince();
    if (waiting !== null && now - waiting >= FAILING_ALERT_MS)
      return `positions have waited ${Math.round((now - waiting) / 1000)} s to be stored (the database does not answer)`;
    if (this.failingSince === null || !this.lastFailure) return null;
    if (now - this.failingSince < FAILING_ALERT_MS) return null;
    // Devices stopped sending (or were sent elsewhere): the failure is over as far as anyone can tell.
    if (now - this.lastFailure.at > FAILING_ALERT_MS) return null;
    return `positions have failed to store for ${Math.round((now - this.failingSince) / 1000)} s (${this.lastFailure.cause})`;
  }
}
