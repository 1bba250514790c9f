import { useEffect, useMemo, useState } from 'react';
import type { LocalChange } from '@fleet/hos';
import type { Availability, HosDriverStatus } from '@fleet/api-contract';
import { loadChunk } from '../../../lib/preload-error.ts';
import type { OutboxRecord } from '../../../lib/outbox.ts';
import type * as OfflineEngine from './offline-engine.ts';

// The phone's own clocks while duty-status changes wait to be sent (issue 44, decision 0184): the
// same engine the server runs, on the periods it last answered with, continued by those changes.
// The engine (packages/hos) loads only when a change waits (issue 67): the home screen's first load
// shows the server's clocks and does without it.

/**
 * The duty-status changes among the phone's records that the server's answer of `syncedAt` does not
 * hold yet, oldest first: waiting ones, and those sent after that answer was given.
 */
export function waitingChanges(records: readonly OutboxRecord[], syncedAt: number): LocalChange[] {
  return records
    .filter((r) => r.kind === 'STATUS' && (r.state === 'WAITING' || (r.state === 'SENT' && (r.sentAt ?? 0) > syncedAt)))
    .map((r) => {
      const body = r.body as { status: LocalChange['status']; special?: LocalChange['special'] };
      return { status: body.status, special: body.special ?? null, at: r.madeAt };
    })
    .sort((a, b) => a.at - b.at);
}

let engine: typeof OfflineEngine | null = null;
const loadEngine = () => loadChunk(() => import('./offline-engine.ts'));

/** The driver's clocks at `nowMs` with the changes not yet sent (null: none waits, or the engine is still loading). */
export function useClocksWithChanges(s: Pick<HosDriverStatus, 'clocks' | 'engine'>, changes: readonly LocalChange[], nowMs: number): Availability | null {
  const [loaded, setLoaded] = useState(engine);
  const needed = changes.length > 0;
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    void loadEngine().then((m) => {
      engine = m;
      if (live) setLoaded(m);
    });
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return useMemo(() => (needed && loaded ? loaded.clocksWithChanges(s, changes, nowMs) : null), [needed, loaded, s, changes, nowMs]);
}
