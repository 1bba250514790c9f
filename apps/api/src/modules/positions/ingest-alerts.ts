import type { Db } from '../../db/client.ts';
import { notify, type NotifyInput } from '../notifications/index.ts';
import { FAILING_ALERT_MS, type FailingEpisode, type IngestHealth } from './pipeline/ingest-health.ts';

// Positions that fail to store reach no screen by themselves: devices just send again. An
// organization whose positions have failed for a minute is told (POSITIONS_FAILING), once per
// episode; when the database was what failed, the notice waits until it can be written, and then
// says when the failure began and, if it is over, when it ended.

const CHECK_MS = 15_000;

/** The notice of one episode (its fact key is the episode's start, so a retried notify adds nothing). */
export function failingNotice(e: FailingEpisode, over: boolean): NotifyInput {
  const since = new Date(e.since).toISOString();
  const minutes = Math.max(1, Math.round((e.lastAt - e.since) / 60_000));
  return {
    organizationId: e.orgId,
    kind: 'POSITIONS_FAILING',
    factKey: `positions-failing:${since}`,
    title: over ? `Positions could not be stored for about ${minutes} min` : 'Positions are not being stored',
    body: `From ${since} (UTC) the server could not store ${e.rows} positions of your devices (cause: ${e.cause}). Nothing is lost: the devices keep them and send them again until they are stored.${over ? ` Positions have been stored again since ${new Date(e.lastAt).toISOString()} (UTC).` : ''}`,
    link: '/settings/organization-settings/devices',
    linkLabel: 'Devices',
  };
}

/** Checks every 15 s; returns its stop. */
export function watchIngestHealth(health: IngestHealth, db: Db, onError: (err: unknown) => void, clock: () => number = Date.now): () => void {
  const told = new Set<string>();
  const keyOf = (e: FailingEpisode) => `${e.orgId} ${e.since}`;
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const due = [
        ...[...health.failing.values()].filter((e) => clock() - e.since >= FAILING_ALERT_MS).map((e) => ({ e, over: false })),
        ...health.ended.filter((e) => e.lastAt - e.since >= FAILING_ALERT_MS).map((e) => ({ e, over: true })),
      ].filter(({ e }) => e.orgId !== '' && !told.has(keyOf(e)));
      for (const { e, over } of due) {
        await notify(db, failingNotice(e, over));
        told.add(keyOf(e));
      }
      health.ended.length = 0;
      if (told.size > 1000) told.clear();
    } catch (err) {
      onError(err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check(), CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
