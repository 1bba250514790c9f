// Ports and server processes for the benchmarks: a bench listens where the kernel says a port is
// free, or on a port it was explicitly given once that port is checked free, and a server it spawns
// is recognised by its own banner (apps/api/src/test/server-process.ts), so a figure is never taken
// from some other process that happened to answer on a fixed port.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { assertPortFree, startServer, type ServerProcess, type StartOptions } from '../apps/api/src/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * The port named by `value` (a `--port` argument or an environment variable, `source` says which),
 * checked free; undefined when none was given, for the kernel to choose. Stops the bench with a
 * message when the value is not a port or something already listens there.
 */
export async function requestedPort(value: string | undefined, source: string): Promise<number | undefined> {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) stop(`${source}: "${value}" is not a port number (1-65535)`);
  try {
    await assertPortFree(port);
  } catch (err) {
    stop(`${source}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return port;
}

/** The port a listening server is bound to (after `listen({ port: 0 })`). */
export function boundPort(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return address.port;
}

/**
 * How the bench runs the API: `BENCH_ENTRY=compiled` runs `npm run build`'s output as `npm start`
 * does; otherwise `fallback`, the entry the bench has always measured (TypeScript through tsx), so
 * its figures stay comparable with the recorded ones. Stops with the build hint when the compiled
 * entry is asked for and not built.
 */
export function benchEntry(fallback: 'source' | 'compiled' = 'source'): 'source' | 'compiled' {
  const asked = process.env.BENCH_ENTRY || fallback;
  if (asked !== 'source' && asked !== 'compiled') stop(`BENCH_ENTRY: "${asked}" is neither "source" nor "compiled"`);
  if (asked === 'compiled' && !fs.existsSync(path.join(root, 'apps/api/dist/main.js'))) stop('apps/api/dist/main.js is missing: run `npm run build` first');
  return asked;
}

/**
 * A production server's settings (NODE_ENV=production with a secret of its own), for the benches
 * that measure what a carrier's server pays: development adds checks that cost CPU on every request
 * (decision 0334). The demo and the simulator stay as each bench sets them.
 */
export function productionEnv(): Record<string, string> {
  return { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex') };
}

/**
 * The real server in its own process (startServer: free ports unless `env.PORT` names one, which
 * the caller has checked with requestedPort; ready once /readyz answers and the process has printed
 * its own banner). Its stderr is passed on, so a crash in the middle of a run shows.
 */
export async function startBenchServer(opts: StartOptions & { entry: 'source' | 'compiled' }): Promise<ServerProcess> {
  const server = await startServer(opts);
  server.child.stderr?.pipe(process.stderr);
  return server;
}

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}
