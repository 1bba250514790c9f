import { useEffect, useState } from 'react';
import type { HistoryRoute } from '@fleet/api-contract';
import { playbackPosition } from './playback.ts';

/** One second of playback covers this much track time at 1x (a day plays in about 24 minutes at 1x, 90 s at 16x). */
const TRACK_SECONDS_PER_SECOND = 60;
type Track = HistoryRoute['track'];

/**
 * Playback along a track: the position is a fractional index into the track, advanced each animation
 * frame at `rate` until `end` (the chosen trip's last fix, else the track's). A new track starts
 * again at its first fix, paused.
 */
export function usePlayback(track: Track, end: number) {
  const [pos, setPos] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1);
  const [shown, setShown] = useState(track);
  if (shown !== track) {
    // Reset while rendering (React's way to adjust state to a new prop): no frame with the old position.
    setShown(track);
    setPos(0);
    setPlaying(false);
  }

  useEffect(() => {
    if (!playing || track.length < 2) return;
    let raf = 0;
    let last = performance.now();
    const step = (now: number) => {
      const dt = (now - last) / 1000;
      last = now;
      setPos((p) => {
        const next = Math.min(end, playbackPosition(track, p, dt * rate * TRACK_SECONDS_PER_SECOND));
        if (next >= end) setPlaying(false);
        return next;
      });
      raf = requestAnimationFrame(step);
    };
    raf = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf);
  }, [playing, rate, track, end]);

  const idx = Math.min(Math.floor(pos), Math.max(0, track.length - 1));
  const cur = track[idx];
  const nxt = track[Math.min(idx + 1, track.length - 1)];
  const f = pos - idx;
  return {
    playing,
    rate,
    setRate,
    /** The fix at or before the position. */
    index: idx,
    current: cur,
    /** Where the marker is: between the fix and the next one. */
    marker: cur && nxt ? { lon: cur.longitude + (nxt.longitude - cur.longitude) * f, lat: cur.latitude + (nxt.latitude - cur.latitude) * f } : null,
    seek: setPos,
    /** Plays from `from` (a trip's first fix). */
    playFrom: (from: number) => {
      setPos(from);
      setPlaying(true);
    },
    /** Play or pause; at the end, plays again from `start`. */
    toggle: (start: number) => {
      if (pos >= end) setPos(start);
      setPlaying((p) => !p);
    },
  };
}
