// The server under soak: the compiled build run as `npm run serve` runs it (test/server-process.ts),
// on a scratch data directory or a new PostgreSQL database, on free ports that it keeps across a
// SIGKILL and restart. Each life's output is kept (the server log's error lines are read from it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startServer, type ServerProcess } from '../../apps/api/src/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'apps/api/dist/main.js');

/** Newest modification time (ms) of the TypeScript under `dir`, tests left out. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.ts$/.test(e.name) || /\.test\.ts$/.test(e.name)) continue;
    newest = Math.max(newest, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the API (`npm run build -w apps/api`, esbuild: seconds) when its build is missing or older
 * than its sources or the packages', unless `build` is false; the web app is not needed (no browser).
 */
export function ensureApiBuilt(build: boolean, say: (line: string) => void): void {
  const builtAt = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0;
  const packages = fs
    .readdirSync(path.join(root, 'packages'))
    .map((p) => path.join(root, 'packages', p, 'src'))
    .filter((d) => fs.existsSync(d));
  const sourcesAt = Math.max(...[path.join(root, 'apps/api/src'), ...packages].map(newestSource));
  if (builtAt >= sourcesAt) return;
  if (!build) {
    if (!builtAt) throw new Error('apps/api/dist/main.js is missing: run `npm run build` (or leave out --no-build)');
    say('warning: apps/api/dist is older than the sources (--no-build: measuring it as it is)');
    return;
  }
  say(builtAt ? 'apps/api/dist is older than the sources: building the API (npm run build -w apps/api)' : 'building the API (npm run build -w apps/api)');
  execFileSync('npm', ['run', 'build', '-w', 'apps/api'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * A copy of apps/api/dist for this soak (apps/api/dist-soak-<pid>, beside it so its external packages
 * load from the same node_modules): others rebuilding dist in the same tree meanwhile (it is emptied
 * first) would take files from under a running server. Returns its directory and how to remove it.
 */
export function snapshotBuild(): { dir: string; remove: () => void } {
  const dir = path.join(root, `apps/api/dist-soak-${process.pid}`);
  fs.cpSync(path.dirname(dist), dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A new database on the PostgreSQL server `serverUrl` names; its URL and how to drop it. */
export async function createDatabase(serverUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export interface ServerLife {
  /** 1 for the first start, 2 after the first restart… */
  life: number;
  process: ServerProcess;
  startedAt: number;
  /** When it served HTTP (/healthz 200). */
  listeningAt: number;
  /** When /readyz first answered 200; null while it has not. */
  readyAt: number | null;
  /** /readyz answers that changed, as polled every few seconds: when, the status, and the reason a 503 gave. */
  readiness: Array<{ at: number; status: number; reason: string }>;
  endedAt: number | null;
  /** How it ended: 'SIGKILL', 'SIGTERM exit 0', or 'exited by itself (…)'. */
  ending: string | null;
  /** It ended without being asked (a crash): a supervisor restarts it. */
  crashed: boolean;
  /** Set when the soak asks it to end. */
  stopping: boolean;
}

export interface SoakServerOptions {
  dataDir: string;
  /** A PostgreSQL database to run on; unset: the embedded PGlite in dataDir. */
  databaseUrl?: string;
  demo: boolean;
  faultInjection: boolean;
  /** Another build's directory (holding main.js) to run instead of apps/api/dist. */
  dist?: string;
}

export class SoakServer {
  readonly lives: ServerLife[] = [];
  private ports: { PORT: string; OSMAND_PORT: string; TELTONIKA_PORT: string } | null = null;
  private restarting: Promise<ServerLife> | null = null;
  /**
   * Called when a life ends by itself; with `supervise` set the server is then started again on the
   * same data and ports, as systemd or a container runtime would.
   */
  onCrash: ((life: ServerLife) => void) | null = null;
  supervise = false;

  constructor(private readonly opts: SoakServerOptions) {}

  get current(): ServerLife {
    const l = this.lives.at(-1);
    if (!l) throw new Error('the soak server has not started');
    return l;
  }

  get url(): string {
    return this.current.process.url;
  }

  get target() {
    const p = this.current.process;
    return { apiUrl: p.url, osmandPort: p.osmandPort, teltonikaPort: p.teltonikaPort };
  }

  /**
   * Starts a life (the first on free ports, later ones on the same) and resolves once /readyz answers
   * 200, or with `until: 'listening'` once it serves HTTP (a restart: the devices come back at once,
   * readiness follows, see watchReadiness).
   */
  async start(until: 'ready' | 'listening' = 'ready'): Promise<ServerLife> {
    const startedAt = Date.now();
    const proc = await startServer({
      entry: 'compiled',
      until,
      compiledMain: this.opts.dist ? path.join(this.opts.dist, 'main.js') : undefined,
      readyTimeoutMs: 900_000,
      env: {
        DATA_DIR: this.opts.dataDir,
        DATABASE_URL: this.opts.databaseUrl ?? '',
        DEMO: this.opts.demo ? '1' : '0',
        SIMULATOR: this.opts.demo ? '1' : '0',
        FAULT_INJECTION: this.opts.faultInjection ? '1' : '0',
        LOG_LEVEL: 'warn',
        // Followers finish behind the last commit on SIGTERM; the soak waits for them.
        SHUTDOWN_TIMEOUT_MS: '180000',
        ...(this.ports ?? {}),
      },
    });
    this.ports ??= { PORT: String(proc.port), OSMAND_PORT: String(proc.osmandPort), TELTONIKA_PORT: String(proc.teltonikaPort) };
    const now = Date.now();
    const life: ServerLife = {
      life: this.lives.length + 1,
      process: proc,
      startedAt,
      listeningAt: now,
      readyAt: until === 'ready' ? now : null,
      readiness: until === 'ready' ? [{ at: now, status: 200, reason: 'ready' }] : [],
      endedAt: null,
      ending: null,
      crashed: false,
      stopping: false,
    };
    this.lives.push(life);
    proc.child.once('exit', (code, signal) => {
      if (life.stopping) return;
      life.endedAt = Date.now();
      life.crashed = true;
      life.ending = `exited by itself (${signal ?? `exit code ${code}`})`;
      this.onCrash?.(life);
      if (this.supervise) this.restarting = this.start('listening').finally(() => (this.restarting = null));
    });
    return life;
  }

  /**
   * Polls the running life's /readyz every `everyMs` and records each change (a 503 says why: seeding,
   * the database, positions failing to store); `onChange` hears of each. Returns a function that stops it.
   */
  watchReadiness(onChange: (life: ServerLife, status: number, reason: string) => void, everyMs = 5000): () => void {
    let busy = false;
    const timer = setInterval(() => {
      const life = this.lives.at(-1);
      if (busy || !life || life.endedAt) return;
      busy = true;
      void fetch(`${life.process.url}/readyz`, { signal: AbortSignal.timeout(everyMs) })
        .then(async (res) => {
          const body = (await res.json().catch(() => ({}))) as { technicalMessage?: string; message?: string };
          return { status: res.status, reason: res.status === 200 ? 'ready' : (body.technicalMessage ?? body.message ?? '') };
        })
        .catch(() => ({ status: 0, reason: 'no answer within 5 s' }))
        .then(({ status, reason }) => {
          if (life.endedAt) return;
          const last = life.readiness.at(-1);
          if (last && last.status === status && last.reason === reason) return;
          life.readiness.push({ at: Date.now(), status, reason });
          if (status === 200) life.readyAt ??= Date.now();
          onChange(life, status, reason);
        })
        .finally(() => (busy = false));
    }, everyMs);
    return () => clearInterval(timer);
  }

  /** Waits for a supervised restart under way, if any. */
  async settled(): Promise<void> {
    while (this.restarting) await this.restarting.catch(() => undefined);
  }

  /** Ends the current life with `signal` (SIGKILL: at once; SIGTERM: gracefully) and says how it ended. */
  async stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<string> {
    await this.settled();
    const life = this.current;
    if (life.crashed) return life.ending!;
    life.stopping = true;
    const { code, signal: got } = await life.process.stop(signal);
    life.endedAt = Date.now();
    life.ending = got ? got : `${signal} exit ${code}`;
    return life.ending;
  }

  /** Every life's output, one after the other. */
  output(): string {
    return this.lives.map((l) => l.process.output()).join('\n');
  }

  /** Writes each life's output to `dir`/server-<life>.log; the paths written. */
  saveLogs(dir: string, prefix = 'server'): string[] {
    return this.lives.map((l) => {
      const file = path.join(dir, `${prefix}-${l.life}.log`);
      fs.writeFileSync(file, l.process.output());
      return file;
    });
  }
}
