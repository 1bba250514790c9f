import { useMemo, useState } from 'react';
import type { HistoryRoute, TripRow } from '@fleet/api-contract';
import { tripSpan } from './playback.ts';

type Track = HistoryRoute['track'];

/** The trip chosen in the trips panel and its stretch of the track (indexes); a new track clears it. */
export function useTripChoice(track: Track, trips: readonly TripRow[] | undefined) {
  const [tripId, setTripId] = useState<string | null>(null);
  const [shown, setShown] = useState(track);
  if (shown !== track) {
    setShown(track);
    setTripId(null);
  }
  const trip = trips?.find((t) => t.id === tripId) ?? null;
  const span = useMemo(() => (trip ? tripSpan(track, trip.startedAt, trip.endedAt) : null), [trip, track]);
  return {
    tripId,
    span,
    /** Chooses a trip; its stretch of the track, or null when the track has no fix in it. */
    choose(id: string) {
      const t = trips?.find((x) => x.id === id);
      setTripId(id);
      return t ? tripSpan(track, t.startedAt, t.endedAt) : null;
    },
  };
}
