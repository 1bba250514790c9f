// What the soak's processes spent: the server's resident memory over time (sampled every 15 s), the
// CPU of each of its lives, of the PostgreSQL backends serving it, and of the soak itself.
import pg from 'pg';
import { cpuSeconds, ownCpuSeconds, rssMb } from '../process-meter.ts';
import type { SoakServer } from './soak-server.ts';

export interface RssSample {
  /** Since the traffic started (ms; negative before). */
  atMs: number;
  life: number;
  rssMb: number;
  /** Where the server's memory was at that moment (its diagnostics endpoint), when it answered. */
  parts?: MemoryParts;
}

/** The parts of `GET /admin/diagnostics/memory` that tell a rise's cause apart. */
export interface MemoryParts {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** Resident pages of the embedded database's WebAssembly memory (null on PostgreSQL). */
  databaseMb: number | null;
  /** Anonymous memory besides the database's: the V8 heap, compiled code, native buffers. */
  anonymousMb: number | null;
}

/** Reads the memory parts from a memory report as the diagnostics endpoint answers it. */
export function memoryPartsOf(report: {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  regions: { databaseMb: number | null; anonymousMb: number } | null;
}): MemoryParts {
  return {
    heapUsedMb: report.heapUsedMb,
    heapTotalMb: report.heapTotalMb,
    externalMb: report.externalMb,
    databaseMb: report.regions?.databaseMb ?? null,
    anonymousMb: report.regions?.anonymousMb ?? null,
  };
}

export const SAMPLE_EVERY_MS = 15_000;

export class Meter {
  readonly rss: RssSample[] = [];
  /** CPU seconds of each server life, as last read while it ran. */
  readonly apiCpu = new Map<number, number>();
  /** CPU seconds of each PostgreSQL backend that served the soak database, as last read. */
  private readonly pgCpu = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private readonly ownCpu0 = ownCpuSeconds();
  private pgClient: pg.Client | null = null;
  private pgReadable = true;
  private readParts: (() => Promise<MemoryParts | null>) | null = null;

  constructor(
    private readonly server: SoakServer,
    private readonly trafficStart: () => number,
    /** The soak database on a PostgreSQL server, to find its backends (unset on PGlite). */
    private readonly databaseUrl?: string,
  ) {}

  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), SAMPLE_EVERY_MS);
  }

  /** Also asks the server where its memory is at each sample (a rise's cause: heap, database, native). */
  watchMemory(read: () => Promise<MemoryParts | null>): void {
    this.readParts = read;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    void this.pgClient?.end().catch(() => undefined);
    this.pgClient = null;
  }

  /** Reads the server's RSS and CPU now (also called just before a kill, so a life's CPU is not lost). */
  async sample(): Promise<void> {
    const life = this.server.lives.at(-1);
    if (!life || life.endedAt) return;
    const pid = life.process.pid;
    try {
      const sample: RssSample = { atMs: Date.now() - this.trafficStart(), life: life.life, rssMb: rssMb(pid) };
      this.rss.push(sample);
      this.apiCpu.set(life.life, cpuSeconds(pid));
      const parts = await this.readParts?.();
      if (parts) sample.parts = parts;
    } catch {
      // the process is gone (killed between the check and the read)
    }
    await this.samplePostgres();
  }

  private async samplePostgres(): Promise<void> {
    if (!this.databaseUrl || !this.pgReadable) return;
    try {
      if (!this.pgClient) {
        const c = new pg.Client({ connectionString: this.databaseUrl });
        c.on('error', () => (this.pgClient = null));
        await c.connect();
        this.pgClient = c;
      }
      const { rows } = await this.pgClient.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      for (const { pid } of rows) {
        const s = cpuSeconds(pid);
        // 0: not a process of this machine (a remote server) or gone; keep the last reading.
        if (s > 0) this.pgCpu.set(pid, Math.max(s, this.pgCpu.get(pid) ?? 0));
      }
    } catch {
      // The connection was terminated (the pg_terminate_backend fault): a new one next time.
      await this.pgClient?.end().catch(() => undefined);
      this.pgClient = null;
    }
  }

  /** CPU seconds: every server life together, the PostgreSQL backends (null on PGlite or a remote server), this process. */
  cpu(): { api: number; postgres: number | null; soak: number } {
    let api = 0;
    for (const s of this.apiCpu.values()) api += s;
    let postgres = 0;
    for (const s of this.pgCpu.values()) postgres += s;
    return { api, postgres: this.databaseUrl && this.pgCpu.size ? postgres : null, soak: ownCpuSeconds() - this.ownCpu0 };
  }
}

/**
 * RSS growth of one server life after its first 5 minutes of traffic: the largest sample after
 * minute 5 against the sample at minute 5 (issue 43's target: under 10 %). Null when the life did not
 * run 5 minutes past minute 5 of the traffic.
 */
export function rssGrowth(
  samples: readonly RssSample[],
  life: number,
  fromMs = 5 * 60_000,
): { atStartMb: number; maxMb: number; medianMb: number; percent: number; minutes: number } | null {
  const own = samples.filter((s) => s.life === life && s.atMs >= fromMs);
  if (own.length < 2) return null;
  const first = own[0]!;
  const last = own[own.length - 1]!;
  if (last.atMs - first.atMs < 5 * 60_000) return null;
  const maxMb = Math.max(...own.map((s) => s.rssMb));
  const sorted = own.map((s) => s.rssMb).sort((a, b) => a - b);
  return {
    atStartMb: first.rssMb,
    maxMb,
    medianMb: sorted[Math.floor(sorted.length / 2)]!,
    percent: ((maxMb - first.rssMb) / first.rssMb) * 100,
    minutes: (last.atMs - first.atMs) / 60_000,
  };
}
