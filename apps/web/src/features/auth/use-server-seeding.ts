import { useEffect, useState } from 'react';

/** How often the login page asks again while the server seeds its demo data. */
const POLL_MS = 2_000;

/**
 * "seeding demo data (40 %)" while a first start seeds the demo data (the server's /readyz answers
 * 503 with it), null otherwise: the login page says so instead of failing sign-ins of accounts that
 * do not exist yet. Asks again until the server is ready.
 */
export function useServerSeeding(): string | null {
  const [seeding, setSeeding] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      let message: string | null = null;
      try {
        const res = await fetch('/readyz');
        if (res.status === 503) {
          const body = (await res.json()) as { message?: unknown };
          if (typeof body.message === 'string' && body.message.startsWith('seeding demo data')) message = body.message;
        }
      } catch {
        // Not reachable: the sign-in itself will say so.
      }
      if (stopped) return;
      setSeeding(message);
      if (message) timer = setTimeout(() => void check(), POLL_MS);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return seeding;
}
