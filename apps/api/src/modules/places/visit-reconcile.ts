// A recompute's visits against the stored ones (decision 0238), pure: a visit once recorded keeps
// its id, and its values unless the recompute finds different ones, which is then a correction
// (before and after) rather than a silent rewrite. A restart's catch-up replays the same fixes and
// so finds the same visits: nothing is written.

/** A visit as stored or replayed (ms). */
export interface VisitValues {
  placeId: string;
  driverId: string | null;
  arrivedAt: number;
  departedAt: number | null;
}

export interface StoredVisitRow extends VisitValues {
  id: string;
}

export interface VisitCorrection {
  before: StoredVisitRow;
  /** null: the recompute found no such visit (withdrawn). */
  after: StoredVisitRow | null;
}

export interface VisitReconciliation {
  /** The replayed visits' ids, in their order: a stored visit's where it matched, a new one otherwise. */
  ids: string[];
  inserts: StoredVisitRow[];
  updates: StoredVisitRow[];
  deletes: string[];
  corrections: VisitCorrection[];
}

const same = (a: VisitValues, b: VisitValues) =>
  a.placeId === b.placeId && a.driverId === b.driverId && a.arrivedAt === b.arrivedAt && a.departedAt === b.departedAt;
const overlaps = (a: VisitValues, b: VisitValues) => a.arrivedAt <= (b.departedAt ?? Infinity) && b.arrivedAt <= (a.departedAt ?? Infinity);

/**
 * Matches each replayed visit to a stored one of the same place: the one that began at the same
 * moment, else one whose time overlaps. A matched visit that only went on (open, now departed, its
 * other values the same) is progress, not a correction.
 */
export function reconcileVisits(stored: readonly StoredVisitRow[], replayed: readonly VisitValues[], newId: () => string): VisitReconciliation {
  const free = new Map(stored.map((s) => [s.id, s]));
  const out: VisitReconciliation = { ids: [], inserts: [], updates: [], deletes: [], corrections: [] };
  const take = (pred: (s: StoredVisitRow) => boolean) => {
    for (const s of free.values()) if (pred(s)) return (free.delete(s.id), s);
    return null;
  };
  const matched: Array<StoredVisitRow | null> = replayed.map((v) => take((s) => s.placeId === v.placeId && s.arrivedAt === v.arrivedAt));
  for (const [i, v] of replayed.entries()) matched[i] ??= take((s) => s.placeId === v.placeId && overlaps(s, v));
  for (const [i, v] of replayed.entries()) {
    const s = matched[i];
    if (!s) {
      const row = { ...v, id: newId() };
      out.inserts.push(row);
      out.ids.push(row.id);
      continue;
    }
    out.ids.push(s.id);
    if (same(s, v)) continue;
    const after = { ...v, id: s.id };
    out.updates.push(after);
    const progress = s.departedAt === null && s.placeId === v.placeId && s.driverId === v.driverId && s.arrivedAt === v.arrivedAt;
    if (!progress) out.corrections.push({ before: s, after });
  }
  for (const s of free.values()) {
    out.deletes.push(s.id);
    out.corrections.push({ before: s, after: null });
  }
  return out;
}
