import type { HosEvent } from '@fleet/api-contract';

/** A version that took effect (the active one, or one an edit replaced), as opposed to a proposal. */
const tookEffect = (e: HosEvent) => e.recordStatus === 'ACTIVE' || e.recordStatus === 'INACTIVE_CHANGED';

/**
 * The events as the log lists them: each active (or unreplaced) event in time order, followed by the
 * versions it replaced, newest first, following `replacesEventId` back through repeated edits.
 * A proposal still waiting or rejected (decision 0112) follows the record it would replace, which
 * stays in force; a replaced version whose successor is missing from the day stays at its own time.
 */
export function withVersions(events: readonly HosEvent[]): HosEvent[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const replacedBy = new Set(
    events
      .filter(tookEffect)
      .map((e) => e.replacesEventId)
      .filter((id): id is string => !!id && byId.has(id)),
  );
  const proposalsOf = new Map<string, HosEvent[]>();
  for (const e of events) {
    if (tookEffect(e) || !e.replacesEventId || !byId.has(e.replacesEventId)) continue;
    proposalsOf.set(e.replacesEventId, [...(proposalsOf.get(e.replacesEventId) ?? []), e]);
  }
  const out: HosEvent[] = [];
  const placed = new Set<string>();
  const place = (e: HosEvent) => {
    out.push(e);
    placed.add(e.id);
    for (const p of proposalsOf.get(e.id) ?? []) {
      if (placed.has(p.id)) continue;
      out.push(p);
      placed.add(p.id);
    }
  };
  for (const e of events) {
    if (replacedBy.has(e.id) || placed.has(e.id)) continue; // shown under the version that replaced it
    if (!tookEffect(e) && e.replacesEventId && byId.has(e.replacesEventId)) continue; // shown under its record
    place(e);
    for (
      let prev = e.replacesEventId ? byId.get(e.replacesEventId) : undefined;
      prev && !placed.has(prev.id);
      prev = prev.replacesEventId ? byId.get(prev.replacesEventId) : undefined
    ) {
      place(prev);
    }
  }
  // Anything left (a proposal whose record was placed before it appeared): at its own time.
  for (const e of events) if (!placed.has(e.id)) out.push(e);
  return out;
}
