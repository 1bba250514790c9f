import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, onServer } from './test/helpers.ts';
import { freePort, startServer, type ServerProcess } from './test/server-process.ts';

// A first start with demo data: the server listens before the demo data is seeded and says so on
// /readyz ("seeding demo data (n %)"), while liveness and sign-in already answer (issue 28).

const SUPER = { email: 'first-start-super@fleet.test', password: 'First-Start#2026' };

interface Answer {
  path: string;
  sentAt: number;
  at: number;
  status: number;
  body: { message?: string; status?: string };
}

let server: ServerProcess | undefined;

describe.skipIf(onServer())('first start with demo data (PGlite pass)', () => {
  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('answers /readyz 503 "seeding demo data (n %)" until seeded, then 200; /healthz and a sign-in answer meanwhile', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const answers: Answer[] = [];
    const ask = async (path: string, init?: RequestInit): Promise<Answer | null> => {
      const sentAt = performance.now();
      try {
        const res = await fetch(`${url}${path}`, init);
        const answer = { path, sentAt, at: performance.now(), status: res.status, body: (await res.json()) as Answer['body'] };
        answers.push(answer);
        return answer;
      } catch {
        return null; // not listening yet
      }
    };
    let login: Promise<Answer | null> | null = null;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const [, ready] = await Promise.all([ask('/healthz'), ask('/readyz')]);
        // The super administrator signs in the moment seeding is seen to be under way.
        if (!login && ready?.status === 503) {
          login = ask('/api/v1/auth/authenticate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SUPER) });
        }
        if (ready?.status === 200) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    server = await startServer({
      env: { PORT: String(port), DEMO: '1', SIMULATOR: '0', SUPERADMIN_EMAIL: SUPER.email, SUPERADMIN_PASSWORD: SUPER.password },
      readyTimeoutMs: 400_000,
    });
    await poll.then(() => (polling = false));

    const readyz = answers.filter((a) => a.path === '/readyz');
    const firstReady = readyz.findIndex((a) => a.status === 200);
    const seeding = readyz.slice(0, firstReady);
    expect(seeding.length).toBeGreaterThan(0);
    for (const a of seeding) {
      expect(a.status).toBe(503);
      expect(a.body.message).toMatch(/^seeding demo data \(\d{1,2} %\)$/);
    }
    const lastSeeding = seeding[seeding.length - 1]!;
    // Liveness answered while seeding went on.
    expect(answers.some((a) => a.path === '/healthz' && a.status === 200 && a.at < lastSeeding.sentAt)).toBe(true);
    // The sign-in was sent while seeding was under way (a later /readyz still said so) and answered.
    const signIn = await login!;
    expect(signIn?.status).toBe(200);
    expect(signIn!.sentAt).toBeLessThan(lastSeeding.sentAt);
    // Then ready, with the demo data there.
    expect(readyz[firstReady]!.body.status).toBe('ready');
    const admin = await fetch(`${url}/api/v1/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO.admin),
    });
    expect(admin.status).toBe(200);
  }, 480_000);
});
