import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { gateways } from '../../../db/schema/index.ts';
import type { PositionWriter } from './group-committer.ts';

// The devices' last-seen time, written behind the group commit (decision 0327): every device whose
// rows were committed is noted here, and the times are written once a second, one statement per
// organization. Inside the group commit's statement, the update of `gateways` cost about a
// millisecond a commit whatever it updated (opening the table and its indexes), a quarter of the
// embedded database's time per position.

/** How often the noted times are written. The devices' screens count a device offline after hours. */
export const LAST_SEEN_EVERY_MS = 1000;

/**
 * Each device's newest time seen, by organization, written on a timer. A write never moves a time
 * back (two instances, or a flush that failed and is retried after a newer one). A failed write
 * keeps its times for the next round: the positions are stored whatever happens here, and a time
 * lost to a killed process is at most a second old.
 */
export class LastSeen {
  /** organization → device → newest time noted (ms since the epoch). */
  private pending = new Map<string, Map<string, number>>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  /** After close: nothing more is noted, and a failed write is not tried again. */
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly logError: (err: unknown, message: string) => void,
    private readonly everyMs = LAST_SEEN_EVERY_MS,
  ) {}

  /** A device of the organization was heard from at `at` (ms). */
  note(orgId: string, gatewayId: string, at: number): void {
    if (this.closed) return;
    let org = this.pending.get(orgId);
    if (!org) this.pending.set(orgId, (org = new Map()));
    if ((org.get(gatewayId) ?? 0) < at) org.set(gatewayId, at);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.everyMs).unref();
  }

  /** Writes every time noted so far; resolves once they are written (or have failed and wait for the next round). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.write(batch);
    try {
      await this.writing;
    } finally {
      this.writing = null;
    }
  }

  /** Stops the timer and writes what is noted (the server's close, after the group commit's). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async write(batch: Map<string, Map<string, number>>): Promise<void> {
    for (const [orgId, devices] of batch) {
      try {
        await this.db.execute(lastSeenSql(orgId, devices));
      } catch (err) {
        const again = this.closed ? 'not tried again (shutting down)' : 'tried again in a second';
        this.logError(err, `positions: writing the last-seen time of ${devices.size} devices of organization ${orgId} failed; ${again}`);
        for (const [id, at] of devices) this.note(orgId, id, at);
      }
    }
  }
}

/**
 * One organization's devices and times in one statement; the organization named, so Citus routes it
 * to the organization's shard (decision 0204).
 */
function lastSeenSql(orgId: string, devices: ReadonlyMap<string, number>) {
  const ids = `{${[...devices.keys()].join(',')}}`;
  const times = `{${[...devices.values()].map((t) => new Date(t).toISOString()).join(',')}}`;
  return sql`update ${gateways} g set last_seen_at = v.t
    from unnest(${ids}::uuid[], ${times}::timestamptz[]) as v(id, t)
    where g.organization_id = ${orgId} and g.id = v.id and (g.last_seen_at is null or g.last_seen_at < v.t)`;
}

/** The writer with the devices of every committed write noted as seen at its answer. */
export function seenBehind(writer: PositionWriter, lastSeen: LastSeen): PositionWriter {
  return {
    async write(rows) {
      const r = await writer.write(rows);
      const at = Date.now();
      for (const row of rows) lastSeen.note(row.organizationId, row.gatewayId, at);
      return r;
    },
    late: writer.late?.bind(writer),
    close: () => writer.close(),
    get transactions() {
      return writer.transactions;
    },
  };
}
