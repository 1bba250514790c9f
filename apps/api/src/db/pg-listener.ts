import pg from 'pg';

/** A LISTEN subscription (see Database.listen). */
export interface Listener {
  /** Stops listening and gives the connection back. */
  stop(): Promise<void>;
  /**
   * Resolves once every notification committed before the call has been passed to the handler.
   * Rejects while the connection is lost (the caller must not trust what notifications maintain).
   */
  sync(): Promise<void>;
}

/**
 * Wraps a round trip so that each call resolves after a round trip *sent after the call*, while
 * concurrent callers share them: when one is under way (it may have been sent before a caller
 * arrived), later callers wait for the next one, sent as soon as it returns. At most one round trip
 * is in flight and one queued, whatever the number of callers.
 */
export function sharedRoundTrips(roundTrip: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const send = (): Promise<void> => {
    const p = roundTrip().finally(() => {
      if (inFlight === p) inFlight = null;
    });
    inFlight = p;
    return p;
  };
  return () => {
    if (!inFlight) return send();
    queued ??= inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return send();
      });
    return queued;
  };
}

export interface ListenOptions {
  onMessage(payload: string): void;
  /** A sync slower than this counts the connection as lost (a silently dropped network path). Default 3 s. */
  syncTimeoutMs?: number;
  /** Called after the connection was lost and listening resumed: notifications in between were missed. */
  onReconnect?(): void;
  log?(message: string): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * LISTEN on a connection of the pool held for it. PostgreSQL hands a session its pending
 * notifications before it answers the session's next query (the committing session signals the
 * listeners before its commit returns), so `sync` is one query on this connection: an empty one,
 * which the server answers without parsing or planning anything (half the server CPU of
 * `select 1`). When the connection is lost (server restart, failover, pg_terminate_backend) or a
 * sync goes unanswered, it listens again on a new one, retrying with backoff, and calls
 * `onReconnect`.
 */
/** How long stop() waits for UNLISTEN before it destroys the connection. */
const STOP_TIMEOUT_MS = 2000;

export async function listenOnPool(pool: pg.Pool, channel: string, opts: ListenOptions): Promise<Listener> {
  const log = opts.log ?? ((m: string) => console.warn(m));
  let current: { client: pg.PoolClient; drop(err?: Error): void } | null = null;
  let stopped = false;

  /** A new connection listening on the channel; a failure while setting it up releases it and throws. */
  const connect = async (): Promise<void> => {
    const client = await pool.connect();
    let released = false;
    let live = false;
    const drop = (err?: Error) => {
      if (released) return;
      released = true;
      // An error destroys the connection instead of returning it to the pool.
      client.release(err ?? true);
      if (current?.client === client) current = null;
      if (live && !stopped) {
        log(`database: LISTEN ${channel} connection lost (${err?.message ?? 'ended'}); listening again`);
        void reconnect();
      }
    };
    client.on('error', (err) => drop(err));
    client.on('end', () => drop(new Error('connection ended')));
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) opts.onMessage(msg.payload);
    });
    try {
      // Named, so that pg_stat_activity shows what this long-lived connection is.
      await client.query(`SET application_name = ${pg.escapeLiteral(`fleetline listen ${channel}`)}`);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      drop(err as Error);
      throw err;
    }
    if (stopped) {
      drop();
      return;
    }
    live = true;
    current = { client, drop };
  };

  let reconnecting = false;
  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    for (let delay = 100; !stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        await connect();
        if (!stopped) opts.onReconnect?.();
        break;
      } catch {
        await sleep(delay);
      }
    }
    reconnecting = false;
  };

  await connect();
  return {
    sync: sharedRoundTrips(async () => {
      const c = current;
      if (!c) throw new Error(`not listening on ${channel}: the connection was lost`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`LISTEN ${channel} connection did not answer within ${opts.syncTimeoutMs ?? 3000} ms`)),
          opts.syncTimeoutMs ?? 3000,
        );
      });
      try {
        await Promise.race([c.client.query(''), timeout]);
      } catch (err) {
        // A connection that does not answer is replaced (its late answer is ignored).
        c.drop(err as Error);
        throw err;
      } finally {
        clearTimeout(timer);
      }
    }),
    async stop() {
      stopped = true;
      const c = current;
      current = null;
      if (!c) return;
      // Bounded: on a connection whose server went away unseen (or behind a round trip that never
      // came back) UNLISTEN would wait forever, and with it the pool's end and the app's close.
      let timer: NodeJS.Timeout | undefined;
      const unlisten = c.client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).then(
        () => true,
        () => false,
      );
      const answered = await Promise.race([unlisten, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS)))]);
      clearTimeout(timer);
      // Not answered: the connection is destroyed rather than given back to the pool.
      c.drop(answered ? undefined : new Error(`UNLISTEN ${channel} did not answer`));
    },
  };
}
