// The soak's faults, on a schedule spread over the traffic window (the same fractions whatever its
// length, so a short run has them all, closer together): the embedded database's worker thread
// killed, a 10-second database stall, connections cut mid-packet, poisoned fixes from a second
// organization, on PostgreSQL the server's connections terminated, and the server killed with
// SIGKILL and restarted on the same data and ports. Each is printed with its time as it happens.
import pg from 'pg';
import type { ApiClient } from './api-client.ts';
import type { SimDevice } from './device.ts';
import { OTHER_ORG, type OtherOrg } from './fleet-setup.ts';
import type { Meter } from './meter.ts';
import { sendPoison, type PoisonResult } from './poison.ts';
import type { SoakServer } from './soak-server.ts';

export type FaultName = 'kill-database-thread' | 'stall-database' | 'cut-connections' | 'poison' | 'terminate-connections' | 'sigkill-restart';

export interface ScheduledFault {
  name: FaultName;
  /** Fraction of the traffic window at which it strikes. */
  at: number;
}

/** What happened when a fault struck. */
export interface FaultRecord {
  name: FaultName;
  /** Since the traffic started (ms). */
  atMs: number;
  tookMs: number;
  note: string;
  poison?: PoisonResult[];
  /** Resolves when what the fault set going has finished (the poisoned fixes' answers); the schedule does not wait for it. */
  done: Promise<void>;
}

type Outcome = Pick<FaultRecord, 'note'> & { background?: Promise<PoisonResult[]> };

/**
 * The schedule: the SIGKILL last but one, so the first life runs most of the window (its memory
 * growth is measured) and the restarted one still takes traffic and catches up behind it.
 */
export function faultSchedule(database: 'pglite' | 'postgres'): ScheduledFault[] {
  return [
    ...(database === 'pglite' ? [{ name: 'kill-database-thread' as const, at: 0.15 }] : []),
    { name: 'stall-database', at: 0.25 },
    { name: 'cut-connections', at: 0.35 },
    { name: 'poison', at: 0.45 },
    ...(database === 'postgres' ? [{ name: 'terminate-connections' as const, at: 0.55 }] : []),
    { name: 'sigkill-restart', at: 0.7 },
  ];
}

export const STALL_MS = 10_000;

export interface FaultContext {
  server: SoakServer;
  api: ApiClient;
  devices: readonly SimDevice[];
  other: OtherOrg;
  meter: Meter;
  /** The soak database on a PostgreSQL server (the terminate fault); unset on PGlite. */
  databaseUrl?: string;
  /** How many poisoned fixes of each kind. */
  poisonCount: number;
  trafficStart: number;
}

/** Devices of `protocol` to cut: 5 % of them, at least 1 and at most 25, spread over the fleet. */
function pick(devices: readonly SimDevice[], protocol: string): SimDevice[] {
  const of = devices.filter((d) => d.spec.protocol === protocol);
  const n = Math.min(25, Math.max(1, Math.round(of.length * 0.05)));
  return Array.from({ length: Math.min(n, of.length) }, (_, k) => of[Math.floor((k * of.length) / n)]!);
}

async function strike(name: FaultName, ctx: FaultContext): Promise<Outcome> {
  switch (name) {
    case 'kill-database-thread':
      await ctx.api.call('POST', '/admin/diagnostics/faults/kill-database-thread');
      return { note: "the embedded database's worker thread ended" };
    case 'stall-database':
      await ctx.api.call('POST', '/admin/diagnostics/faults/stall-database', { ms: STALL_MS });
      return { note: `database held for ${STALL_MS / 1000} s` };
    case 'cut-connections': {
      const cut = [...pick(ctx.devices, 'teltonika'), ...pick(ctx.devices, 'osmand')];
      for (const d of cut) d.link.cutNextSend();
      const t = cut.filter((d) => d.spec.protocol === 'teltonika').length;
      return { note: `next send cut mid-packet on ${t} Teltonika connections (half an AVL packet) and ${cut.length - t} OsmAnd POSTs (half the body)` };
    }
    case 'poison':
      // In the background: while ingest is jammed their answers take minutes, and the schedule goes on.
      return {
        note: `poisoned fixes sent from "${OTHER_ORG}", ${ctx.poisonCount} of each kind`,
        background: sendPoison(ctx.server.target, ctx.other, ctx.poisonCount),
      };
    case 'terminate-connections': {
      const c = new pg.Client({ connectionString: ctx.databaseUrl });
      await c.connect();
      try {
        const { rows } = await c.query<{ n: number }>(
          'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) t',
        );
        return { note: `${rows[0]?.n ?? 0} server connections terminated (pg_terminate_backend)` };
      } finally {
        await c.end();
      }
    }
    case 'sigkill-restart': {
      await ctx.server.settled();
      await ctx.meter.sample();
      await ctx.server.stop('SIGKILL');
      const t0 = Date.now();
      // Back as soon as it serves HTTP: the devices reconnect then; its readiness is watched apart.
      const life = await ctx.server.start('listening');
      return { note: `killed (SIGKILL); life ${life.life} serving on the same data and ports after ${((Date.now() - t0) / 1000).toFixed(1)} s` };
    }
  }
}

/** Strikes `fault`, prints it and returns what happened (a fault that fails to strike is reported, not thrown). */
export async function runFault(fault: ScheduledFault, ctx: FaultContext, say: (line: string) => void): Promise<FaultRecord> {
  const t0 = Date.now();
  const atMs = t0 - ctx.trafficStart;
  say(`${clock(atMs)}  fault: ${fault.name}`);
  let outcome: Outcome;
  try {
    outcome = await strike(fault.name, ctx);
  } catch (err) {
    outcome = { note: `COULD NOT STRIKE: ${err instanceof Error ? err.message : String(err)}` };
  }
  const record: FaultRecord = { name: fault.name, atMs, tookMs: Date.now() - t0, note: outcome.note, done: Promise.resolve() };
  say(`${clock(Date.now() - ctx.trafficStart)}  fault: ${fault.name}: ${record.note}`);
  if (outcome.background) {
    record.done = outcome.background.then(
      (poison) => {
        record.poison = poison;
        record.note = `${outcome.note}: every answer in after ${((Date.now() - t0) / 1000).toFixed(1)} s`;
        say(`${clock(Date.now() - ctx.trafficStart)}  fault: ${fault.name}: every answer in`);
      },
      (err: unknown) => void (record.note = `${outcome.note}: FAILED: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return record;
}

/** mm:ss since the traffic started. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
