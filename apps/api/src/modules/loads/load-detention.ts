// Detention (issue 70): the time a truck waits at a stop beyond the free time the customer grants,
// billed to the customer on the invoice and paid to the driver on the settlement. Both count it the
// same way: from the stop's arrival to its departure, in whole minutes (a started minute is not
// billed), each stop on its own; a stop without both times has no detention.

export interface DetentionStop {
  id: string;
  seq: number;
  arrivedAt: Date | null;
  departedAt: Date | null;
}

export interface StopDetention {
  stopId: string;
  seq: number;
  /** Whole minutes from arrival to departure. */
  dwellMinutes: number;
  /** Minutes beyond the free time (0 when the stop was left in time). */
  billableMinutes: number;
}

/** Each stop with both times, in driving order, with its dwell and its minutes beyond `freeMinutes`. */
export function stopDetention(stops: readonly DetentionStop[], freeMinutes: number): StopDetention[] {
  return [...stops]
    .sort((a, b) => a.seq - b.seq)
    .flatMap((s) => {
      if (!s.arrivedAt || !s.departedAt) return [];
      const dwellMinutes = Math.max(0, Math.floor((s.departedAt.getTime() - s.arrivedAt.getTime()) / 60_000));
      return [{ stopId: s.id, seq: s.seq, dwellMinutes, billableMinutes: Math.max(0, dwellMinutes - freeMinutes) }];
    });
}

/** Cents for `minutes` at `centsPerHour`, rounded to the nearest cent. */
export function detentionCents(minutes: number, centsPerHour: number): number {
  return Math.round((minutes * centsPerHour) / 60);
}
