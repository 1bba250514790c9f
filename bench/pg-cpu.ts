// CPU time the PostgreSQL server spends for one database: the summed utime+stime (from /proc) of
// the backend processes connected to it. On a shared server this counts only our own sessions,
// not other databases' work or the server's background processes (checkpointer, WAL writer),
// which a bench of reads barely moves. Backends that appear meanwhile count from zero; the
// pools of the benches keep their connections open across a run, so none are lost on exit.
import fs from 'node:fs';
import pg from 'pg';

const ticks = (pid: number): number => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0; // exited
  }
};

export interface PgCpuMeter {
  /** CPU seconds of the database's backends since the last call (or since open). */
  lap(): Promise<number>;
  close(): Promise<void>;
}

/** A meter of the backends of `databaseUrl`'s database; null on PGlite (no URL). */
export async function pgCpuMeter(databaseUrl: string | undefined): Promise<PgCpuMeter | null> {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const pids = async () =>
    (await client.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)).rows.map(
      (r) => r.pid,
    );
  let last = new Map<number, number>();
  for (const pid of await pids()) last.set(pid, ticks(pid));
  return {
    async lap() {
      const now = new Map<number, number>();
      for (const pid of await pids()) now.set(pid, ticks(pid));
      let delta = 0;
      for (const [pid, t] of now) delta += t - (last.get(pid) ?? 0);
      last = now;
      return delta / 100;
    },
    close: () => client.end(),
  };
}
