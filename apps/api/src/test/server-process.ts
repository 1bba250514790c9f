import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SignInResponse } from '@fleet/api-contract';

// Real server processes for tests and benchmarks that need what app.inject cannot show: several
// instances on one database, signals, the process's own log, its memory.

const root = path.resolve(import.meta.dirname, '../../../..');

/** A TCP port nothing listens on right now (the kernel picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** n distinct free ports: all listened on at once, then released. */
async function freePorts(n: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const srv = net.createServer();
          srv.once('error', reject);
          srv.listen(0, host, () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  return ports;
}

/** Throws, naming the port, when something already listens on it: a benchmark must not measure a stranger. */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `port ${port} is already in use: stop whatever listens there or choose another port` : err.message)),
    );
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  osmandPort: number;
  /** Teltonika's TCP port (TELTONIKA_PORT): a free one unless env names it. */
  teltonikaPort: number;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends the signal and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** Environment on top of quiet defaults (no demo, no simulator, LOG_LEVEL warn, free ports). */
  env?: Record<string, string>;
  /** 'source' runs TypeScript through tsx; 'compiled' runs `npm run build`'s output as `npm run serve` does. */
  entry?: 'source' | 'compiled';
  readyTimeoutMs?: number;
  /** Node options put before the entry's own (e.g. --heapsnapshot-signal=SIGUSR2). */
  nodeArgs?: string[];
  /** With entry 'compiled': another build's main.js to run instead of apps/api/dist/main.js (the soak compares commits with it). */
  compiledMain?: string;
  /** Resolve once /readyz answers 200 (default), or once the process serves HTTP (/healthz 200: a restart that must not wait for readiness). */
  until?: 'ready' | 'listening';
}

/**
 * The production launch, read from the root package.json's `serve` script (`VAR=value … node
 * <flags> apps/api/dist/main.js`), so tests and benchmarks run exactly what `npm start` runs.
 */
export function serveCommand(): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts.serve ?? '').trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [k, ...v] = words.shift()!.split('=');
    env[k!] = v.join('=');
  }
  if (words.shift() !== 'node') throw new Error('package.json: the serve script must be `[VAR=value …] node <flags> <file>`');
  return { env, args: words };
}

/**
 * `npm test` builds the API before the tests and sets TEST_SERVER_ENTRY=compiled: a test's server
 * then runs that build instead of compiling every source file through tsx on its own start (about
 * 10 CPU-seconds a server on the 2-core CI machine). A run of vitest alone keeps the sources.
 */
function defaultEntry(): 'source' | 'compiled' {
  return process.env.TEST_SERVER_ENTRY === 'compiled' && fs.existsSync(path.join(root, 'apps/api/dist/main.js')) ? 'compiled' : 'source';
}

function entryCommand(entry: 'source' | 'compiled', compiledMain?: string): { env: Record<string, string>; args: string[] } {
  if (entry !== 'compiled') return { env: {}, args: ['--import', 'tsx', 'apps/api/src/main.ts'] };
  const serve = serveCommand();
  return compiledMain ? { env: serve.env, args: [...serve.args.slice(0, -1), compiledMain] } : serve;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** The child exited because a port it was given (picked by freePort) was taken meanwhile. */
class PortTakenError extends Error {}

/**
 * Starts `main` in its own process and resolves once /readyz answers 200. A port picked here can be
 * taken by another process (a parallel test file, the other server of a pair) between freePort and
 * the child's listen: that start is retried on fresh ports, never one the caller named.
 */
export async function startServer(opts: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= 3) throw err;
    }
  }
}

async function startOnce(opts: StartOptions): Promise<ServerProcess> {
  // Three distinct ports, held open together while the kernel picks them.
  const picked = await freePorts(3);
  const port = opts.env?.PORT ? Number(opts.env.PORT) : picked[0]!;
  const osmandPort = opts.env?.OSMAND_PORT ? Number(opts.env.OSMAND_PORT) : picked[1]!;
  // Never the default 5027: two servers (tests, benchmarks, developers) would collide on it.
  const teltonikaPort = opts.env?.TELTONIKA_PORT !== undefined ? Number(opts.env.TELTONIKA_PORT) : picked[2]!;
  const dataDir = opts.env?.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-server-'));
  const command = entryCommand(opts.entry ?? defaultEntry(), opts.compiledMain);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...command.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DEMO: '0',
    SIMULATOR: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
    DATABASE_URL: '',
    ...opts.env,
    PORT: String(port),
    OSMAND_PORT: String(osmandPort),
    TELTONIKA_PORT: String(teltonikaPort),
    DATA_DIR: dataDir,
  };
  if (opts.env?.PORT) await assertPortFree(port);
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...command.args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const chunks: string[] = [];
  child.stdout!.on('data', (b: Buffer) => chunks.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => chunks.push(b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    pid: child.pid!,
    port,
    osmandPort,
    teltonikaPort,
    url,
    dataDir,
    output: () => chunks.join(''),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const until = Date.now() + (opts.readyTimeoutMs ?? 120_000);
  let ended = false;
  void exited.then(() => (ended = true));
  while (Date.now() < until && !ended) {
    try {
      // Ready, and it is our child that answers: it prints its banner only once it listens.
      if ((await fetch(`${url}/${opts.until === 'listening' ? 'healthz' : 'readyz'}`)).status === 200 && server.output().includes('Fleetline is running'))
        return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  // Whether it ended by itself, read before the kill below ends it: a timeout is not an exit.
  const exitedByItself = ended;
  await server.stop('SIGKILL');
  const anyPicked = !opts.env?.PORT || !opts.env?.OSMAND_PORT || opts.env?.TELTONIKA_PORT === undefined;
  if (exitedByItself && anyPicked && /EADDRINUSE/.test(server.output())) {
    if (!opts.env?.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    throw new PortTakenError(`a picked port was taken before the server listened:\n${server.output().slice(-1000)}`);
  }
  const why = exitedByItself ? 'it exited' : `not ready within ${((opts.readyTimeoutMs ?? 120_000) / 1000).toFixed(0)} s`;
  throw new Error(`server did not become ready (${why}):\n${server.output().slice(-4000)}`);
}

/** Signs in through a server process's HTTP API. */
export async function signIn(server: Pick<ServerProcess, 'url'>, who: { email: string; password: string }): Promise<SignInResponse> {
  const res = await fetch(`${server.url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (res.status !== 200) throw new Error(`sign-in ${who.email} on ${server.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as SignInResponse;
}
