import type { HosEvent } from '@fleet/api-contract';

/**
 * The events as the log lists them: each active (or unreplaced) event in time order, followed by the
 * versions it replaced, newest first, following `replacesEventId` back through repeated edits.
 * A replaced version whose successor is missing from the day stays at its own time.
 */
export function withVersions(events: readonly HosEvent[]): HosEvent[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const replacedBy = new Set(events.map((e) => e.replacesEventId).filter((id): id is string => !!id && byId.has(id)));
  const out: HosEvent[] = [];
  const placed = new Set<string>();
  for (const e of events) {
    if (replacedBy.has(e.id)) continue; // shown under the version that replaced it
    out.push(e);
    placed.add(e.id);
    for (let prev = e.replacesEventId ? byId.get(e.replacesEventId) : undefined; prev && !placed.has(prev.id); prev = prev.replacesEventId ? byId.get(prev.replacesEventId) : undefined) {
      out.push(prev);
      placed.add(prev.id);
    }
  }
  return out;
}
