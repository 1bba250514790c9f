// The clean replay the soak is compared with: a fresh server (no demo, no faults) with the soak
// organization set up the same way through the API, fed every position the soaked database stored
// for it (each device's in fix-time order, as JSON batches), then stopped gracefully. Its derived
// facts are what the soak's would be had nothing gone wrong.
//
// It is set up while the soak's server seeds, before the first fix: its pairings and driver
// assignments then start before every fix it is fed, as the soak's do, and the replay itself is only
// the feed and a graceful stop. Idle meanwhile, it costs the soak next to nothing.
import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, inPool } from './api-client.ts';
import { readDerivedFacts, type DerivedFacts } from './derived-facts.ts';
import { setUpSoakFleet, type SoakFleet } from './fleet-setup.ts';
import { openStopped, storedPositions, type StoredFix } from './soaked-database.ts';
import { createDatabase, SoakServer } from './soak-server.ts';

export interface ReplayOutcome {
  facts: DerivedFacts;
  fed: number;
  stored: number;
  /** Items a batch answer refused or called duplicates (none expected: they were stored once before). */
  notTaken: string[];
  seconds: number;
}

const batchItem = (f: StoredFix) => ({
  fixTime: f.fixTime.toISOString(),
  latitude: f.latitude,
  longitude: f.longitude,
  ...(f.speed === null ? {} : { speed: f.speed }),
  ...(f.course === null ? {} : { course: f.course }),
  ...(f.altitude === null ? {} : { altitude: f.altitude }),
  ...(f.accuracy === null ? {} : { accuracy: f.accuracy }),
  ...(f.ignition === null ? {} : { ignition: f.ignition }),
  ...(f.gpsOdometer === null ? {} : { odometer: f.gpsOdometer }),
  attributes: f.attributes,
});

export class CleanReplay {
  private constructor(
    private readonly server: SoakServer,
    private readonly fleet: SoakFleet,
    private readonly where: { dataDir: string; databaseUrl?: string },
    private readonly drop: (() => Promise<void>) | null,
  ) {}

  /**
   * Starts the replay's server (on a new data directory under `scratchDir`, or a new database of
   * `serverUrl`) and sets the soak organization up on it.
   */
  static async prepare(input: {
    scratchDir: string;
    serverUrl?: string;
    devices: number;
    runMs: number;
    intervalMs: number;
    dist?: string;
  }): Promise<CleanReplay> {
    const dataDir = path.join(input.scratchDir, 'replay');
    fs.mkdirSync(dataDir, { recursive: true });
    const database = input.serverUrl ? await createDatabase(input.serverUrl, `fleet_soak_replay_${process.pid}`) : null;
    const server = new SoakServer({ dataDir, databaseUrl: database?.url, demo: false, faultInjection: false, dist: input.dist });
    try {
      await server.start();
      const fleet = await setUpSoakFleet(new ApiClient(server.url), { devices: input.devices, runMs: input.runMs, intervalMs: input.intervalMs });
      return new CleanReplay(server, fleet, { dataDir, databaseUrl: database?.url }, database?.drop ?? null);
    } catch (err) {
      server.saveLogs(input.scratchDir, 'replay-server');
      if (server.lives.at(-1)?.endedAt === null) await server.stop('SIGKILL');
      await database?.drop();
      throw err;
    }
  }

  /** Feeds `positions` (unique id → that device's stored fixes in fix-time order), stops gracefully, reads what it derived. */
  async run(positions: ReadonlyMap<string, readonly StoredFix[]>): Promise<ReplayOutcome> {
    const t0 = Date.now();
    const tokens = new Map(this.fleet.devices.map((d) => [d.uniqueId, d.token]));
    const notTaken: string[] = [];
    let fed = 0;
    await inPool([...positions], 8, async ([uniqueId, fixes]) => {
      const token = tokens.get(uniqueId);
      if (!token) {
        notTaken.push(`${uniqueId}: not a device of the replay's organization (${fixes.length} positions)`);
        return;
      }
      for (let i = 0; i < fixes.length; i += 1000) {
        const chunk = fixes.slice(i, i + 1000);
        const res = await fetch(`${this.server.url}/api/v1/ingest/positions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ positions: chunk.map(batchItem) }),
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`replay batch of ${uniqueId}: ${res.status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text) as { accepted: number; duplicates: number; rejected: Array<{ index: number; message: string }> };
        fed += body.accepted;
        for (const r of body.rejected) notTaken.push(`${uniqueId} ${chunk[r.index]!.fixTime.toISOString()}: refused: ${r.message}`);
        if (body.duplicates) notTaken.push(`${uniqueId}: ${body.duplicates} duplicates in a batch of ${chunk.length}`);
      }
    });
    const ending = await this.server.stop('SIGTERM');
    if (ending !== 'SIGTERM exit 0') notTaken.push(`the replay's server ended: ${ending}`);
    const replayed = await openStopped(this.where);
    try {
      const facts = await readDerivedFacts(replayed.db, this.fleet.orgId);
      const stored = (await storedPositions(replayed.db, this.fleet.orgId)).length;
      return { facts, fed, stored, notTaken, seconds: (Date.now() - t0) / 1000 };
    } finally {
      await replayed.close();
    }
  }

  /** Stops the server if it still runs, writes its logs to `dir`, drops its PostgreSQL database unless `keep`. */
  async discard(dir: string, keep: boolean): Promise<void> {
    if (this.server.lives.at(-1)?.endedAt === null) await this.server.stop('SIGKILL');
    this.server.saveLogs(dir, 'replay-server');
    if (!keep) await this.drop?.();
  }
}
