import { useEffect, useRef, useState } from 'react';

/** The device's position, or null when the browser gives none (no API, refused, timed out). */
export type BrowserPosition = { latitude: number; longitude: number } | null;

/** How long a status change waits for the device's position before asking for a typed location. */
const POSITION_TIMEOUT_MS = 8_000;

function askPosition(): Promise<BrowserPosition> {
  return new Promise((resolve) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      resolve(null);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: false, maximumAge: 60_000, timeout: POSITION_TIMEOUT_MS },
    );
  });
}

/**
 * The device's position while `active` (a status change being confirmed): asked once each time it
 * becomes active. `state` is 'locating' until the browser answers; `wait()` resolves with the answer
 * (for a Confirm pressed before it came).
 */
export function useBrowserPosition(active: boolean): {
  state: 'locating' | 'located' | 'unavailable';
  position: BrowserPosition;
  wait: () => Promise<BrowserPosition>;
} {
  const [answer, setAnswer] = useState<{ position: BrowserPosition } | null>(null);
  const pending = useRef<Promise<BrowserPosition> | null>(null);
  useEffect(() => {
    if (!active) {
      pending.current = null;
      setAnswer(null);
      return;
    }
    let live = true;
    const asked = askPosition();
    pending.current = asked;
    void asked.then((position) => {
      if (live) setAnswer({ position });
    });
    return () => {
      live = false;
    };
  }, [active]);
  return {
    state: answer === null ? 'locating' : answer.position ? 'located' : 'unavailable',
    position: answer?.position ?? null,
    wait: () => pending.current ?? Promise.resolve(answer?.position ?? null),
  };
}
