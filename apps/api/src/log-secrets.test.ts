import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onCitus, readOutbox } from './test/helpers.ts';
import { startServer, type ServerProcess } from './test/server-process.ts';

// The whole server process at LOG_LEVEL=info, driven through everything that handles a credential
// (sign-in, refresh, stream ticket and stream, password reset and its link, device tokens and the
// OsmAnd port), then its entire output searched for every one of them. And the positive: one
// request line for each API request, so switching logging off cannot pass for leaking nothing.

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = null;
});

const fresh = (prefix: string) => `${prefix}${randomBytes(9).toString('base64url')}`;

interface Exercise {
  secrets: Record<string, string>;
  /** The API requests made (method and path as the log should show them, with statuses). */
  requests: Array<{ method: string; path: string; status: number }>;
  streamPath: string;
}

/** Calls the API and notes the request; throws on an unexpected status. */
function client(base: string, requests: Exercise['requests']) {
  return async <T = unknown>(method: string, path: string, opts: { token?: string; body?: unknown; expect?: number } = {}): Promise<T> => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    if (!path.startsWith('/api/v1/ingest/')) requests.push({ method, path, status: res.status });
    if (res.status !== (opts.expect ?? 200)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
  };
}

/** Opens the SSE stream, waits for the snapshot event, closes. */
function readSnapshot(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        const m = /event: snapshot\ndata: (.*)\n\n/.exec(buf);
        if (m) {
          req.destroy();
          resolve(m[1]!);
        }
      });
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
  });
}

async function exercise(s: ServerProcess, superAdmin: { email: string; password: string }): Promise<Exercise> {
  const requests: Exercise['requests'] = [];
  const call = client(s.url, requests);
  const secrets: Record<string, string> = { superAdminPassword: superAdmin.password };

  await call('POST', '/api/v1/auth/authenticate', { body: superAdmin });
  const wrong = fresh('Wrong#1a');
  secrets.wrongPassword = wrong;
  await call('POST', '/api/v1/auth/authenticate', { body: { email: superAdmin.email, password: wrong }, expect: 401 });

  // An organization whose admin has a password this test chose.
  const email = `owner-${Date.now()}@logtest.test`;
  const password = fresh('Pass#1a');
  secrets.password = password;
  await call('POST', '/api/v1/auth/register', { body: { firstname: 'Lena', lastname: 'Log', organizationName: 'Log Test Freight', email, password } });
  const signIn = await call<{ accessToken: string; refreshToken: string; user: { organization: { id: string } } }>('POST', '/api/v1/auth/authenticate', {
    body: { email, password },
  });
  secrets.accessToken = signIn.accessToken;
  secrets.refreshToken = signIn.refreshToken;
  const orgId = signIn.user.organization.id;

  const refreshed = await call<{ accessToken: string; refreshToken: string }>('POST', '/api/v1/auth/refresh-token', { token: signIn.refreshToken });
  secrets.refreshedAccessToken = refreshed.accessToken;
  secrets.refreshedRefreshToken = refreshed.refreshToken;
  const token = refreshed.accessToken;

  // The live stream, with a ticket; and an old client's access token in the URL, refused and not logged.
  const { ticket } = await call<{ ticket: string }>('POST', `/api/v1/organizations/${orgId}/assets/stream/ticket`, { token });
  secrets.ticket = ticket;
  const streamPath = `/api/v1/organizations/${orgId}/assets/stream`;
  const snapshot = await readSnapshot(`${s.url}${streamPath}?ticket=${ticket}`);
  expect(JSON.parse(snapshot)).toEqual({ vehicles: [] });
  requests.push({ method: 'GET', path: streamPath, status: 200 });
  await call('GET', `${streamPath}?access_token=${token}`, { expect: 401 });

  // Password reset: the e-mailed link (opened as a browser would), then the new password.
  await call('POST', '/api/v1/auth/reset-password', { body: { email }, expect: 202 });
  const mail = readOutbox(s.dataDir).find((m) => m.to === email);
  const link = /(http\S+\/create-new-password\/(\S+))/.exec(mail?.text ?? '');
  if (!link) throw new Error('no reset link in the outbox');
  secrets.resetLink = link[1]!;
  secrets.resetToken = link[2]!;
  await call('GET', `/create-new-password/${link[2]}`, { expect: 404 });
  const newPassword = fresh('NewPass#1a');
  secrets.newPassword = newPassword;
  await call('POST', '/api/v1/auth/create-new-password', { body: { token: link[2], password: newPassword }, expect: 204 });
  const again = await call<{ accessToken: string }>('POST', '/api/v1/auth/authenticate', { body: { email, password: newPassword } });
  secrets.newAccessToken = again.accessToken;

  // A device: its batch token, then positions over the batch endpoint and the OsmAnd port and path.
  const uniqueId = fresh('dev');
  const device = await call<{ ingestToken: string }>('POST', `/api/v1/organizations/${orgId}/gateways`, {
    token: again.accessToken,
    body: { uniqueId, name: 'Log test device' },
    expect: 201,
  });
  secrets.deviceToken = device.ingestToken;
  secrets.deviceUniqueId = uniqueId;
  const now = Date.now();
  await call('POST', '/api/v1/ingest/positions', {
    token: device.ingestToken,
    body: { positions: [0, 1].map((k) => ({ fixTime: new Date(now - 60_000 + k * 1000).toISOString(), latitude: 35 + k / 100, longitude: -97, speed: 50 })) },
  });
  const osmand = await fetch(`http://127.0.0.1:${s.osmandPort}/?id=${uniqueId}&lat=35.1&lon=-97.1&timestamp=${Math.floor(now / 1000) - 30}&speed=20`);
  expect(osmand.status).toBe(200);
  await call('POST', `/api/v1/ingest/osmand?id=${uniqueId}&lat=35.2&lon=-97.2&timestamp=${Math.floor(now / 1000) - 20}`);
  return { secrets, requests, streamPath };
}

interface Line {
  level: number;
  msg: string;
  method?: string;
  url?: string;
  statusCode?: number;
  reqId?: string;
  responseTime?: number;
}

/** The request lines of the output (pino JSON). */
function requestLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.msg === 'request completed');
}

async function stopAfterStreamLine(s: ServerProcess, streamPath: string): Promise<string> {
  // The stream's line is written when it closes, just after the client went away.
  await vi
    .waitFor(() => expect(requestLines(s.output()).some((l) => l.url?.startsWith(`${streamPath}?ticket=`))).toBe(true), { timeout: 5000, interval: 50 })
    .catch(() => undefined);
  const end = await s.stop('SIGTERM');
  expect(end.code).toBe(0);
  return s.output();
}

// The server runs on its embedded database in either pass, and each run costs a server start
// from source (20-30 s on the CI machine): the PGlite pass checks development, the PostgreSQL
// pass production, instead of both twice. Without TEST_DATABASE_URL, LOG_TEST_MODES=all runs both.
const modes: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'development', env: {} },
  { name: 'production', env: { NODE_ENV: 'production', JWT_SECRET: fresh('jwt-secret-for-the-log-test-') } },
];
const runs = process.env.LOG_TEST_MODES === 'all' ? modes : modes.filter((m) => (m.name === 'production') === !!process.env.TEST_DATABASE_URL);

// The Citus pass adds nothing here (the server runs on its embedded database): both modes are covered.
describe.skipIf(onCitus())('the server log', () => {
  it.each(runs)(
    'holds no token, ticket, password, reset link or device credential, and one line per API request ($name)',
    async ({ env }) => {
      const superAdmin = { email: 'root@logtest.test', password: fresh('Super#1a') };
      server = await startServer({ env: { ...env, LOG_LEVEL: 'info', SUPERADMIN_EMAIL: superAdmin.email, SUPERADMIN_PASSWORD: superAdmin.password } });
      const { secrets, requests, streamPath } = await exercise(server, superAdmin);
      if (env.JWT_SECRET) secrets.jwtSecret = env.JWT_SECRET;
      const output = await stopAfterStreamLine(server, streamPath);

      const leaked = Object.entries(secrets).filter(([, value]) => output.includes(value));
      expect(leaked.map(([name]) => name)).toEqual([]);
      // The secrets were real values of some length, not empty strings that match anything.
      for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThanOrEqual(12);

      const lines = requestLines(output);
      // Exactly one info line per API request, in order, with its status; ingest and probes not at info.
      expect(lines.every((l) => l.level === 30 && typeof l.reqId === 'string' && typeof l.responseTime === 'number')).toBe(true);
      const seen = lines.map((l) => `${l.method} ${l.url!.split('?')[0]} ${l.statusCode}`);
      const made = requests.map((r) => `${r.method} ${r.path.split('?')[0]!.replace(/create-new-password\/.*/, 'create-new-password/[redacted]')} ${r.status}`);
      expect(seen.sort()).toEqual(made.sort());
      expect(seen).toContain('POST /api/v1/auth/authenticate 200');
      expect(lines.some((l) => l.url?.startsWith('/api/v1/ingest') || l.url?.startsWith('/readyz'))).toBe(false);
      // Credential-bearing query parameters are shown redacted, so a support reader knows they were there.
      expect(lines.find((l) => l.url?.startsWith(`${streamPath}?`) && l.statusCode === 200)?.url).toBe(`${streamPath}?ticket=[redacted]`);
      expect(lines.find((l) => l.url?.startsWith(`${streamPath}?`) && l.statusCode === 401)?.url).toBe(`${streamPath}?access_token=[redacted]`);
      // The outbox e-mail is logged by recipient and file, not by its text.
      expect(output).toContain('e-mail written to the outbox');
    },
    240_000,
  );
});
