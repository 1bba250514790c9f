// The clean replay the soak is compared with: a fresh server (no demo, no faults), the soak
// organization set up the same way through the API, fed every position the soaked database stored
// for it (each device's in fix-time order, as JSON batches), then stopped gracefully. Its derived
// facts are what the soak's would be had nothing gone wrong.
import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, inPool } from './api-client.ts';
import { readDerivedFacts, type DerivedFacts } from './derived-facts.ts';
import { setUpSoakFleet } from './fleet-setup.ts';
import { backdateAssignments, openStopped, storedPositions, type StoredFix } from './soaked-database.ts';
import { createDatabase, SoakServer } from './soak-server.ts';

export interface ReplayInput {
  scratchDir: string;
  /** The PostgreSQL server to create the replay's database on; unset: PGlite. */
  serverUrl?: string;
  devices: number;
  runMs: number;
  intervalMs: number;
  /** The soak's pairing starts (unique id → ISO) and driver assignment starts (unit number → ISO). */
  pairedFrom: ReadonlyMap<string, string>;
  assignedFrom: ReadonlyMap<string, string>;
  positions: ReadonlyMap<string, readonly StoredFix[]>;
  /** The build the soak ran (the replay runs the same). */
  dist?: string;
  say: (line: string) => void;
}

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

export async function runReplay(input: ReplayInput): Promise<ReplayOutcome> {
  const t0 = Date.now();
  const dataDir = path.join(input.scratchDir, 'replay');
  fs.mkdirSync(dataDir, { recursive: true });
  const database = input.serverUrl ? await createDatabase(input.serverUrl, `fleet_soak_replay_${process.pid}`) : null;
  const where = { dataDir, databaseUrl: database?.url };
  const server = new SoakServer({ dataDir, databaseUrl: database?.url, demo: false, faultInjection: false, dist: input.dist });
  try {
    await server.start();
    const fleet = await setUpSoakFleet(new ApiClient(server.url), { devices: input.devices, runMs: input.runMs, intervalMs: input.intervalMs, pairedFrom: input.pairedFrom });
    await server.stop('SIGTERM');
    // The API starts an assignment when it is made; these positions were recorded before that.
    const db = await openStopped(where);
    try {
      await backdateAssignments(db.db, fleet.orgId, input.assignedFrom);
    } finally {
      await db.close();
    }
    await server.start();
    input.say(`replay: organization set up (${fleet.devices.length} devices); feeding the stored positions`);
    const tokens = new Map(fleet.devices.map((d) => [d.uniqueId, d.token]));
    const notTaken: string[] = [];
    let fed = 0;
    await inPool([...input.positions], 8, async ([uniqueId, fixes]) => {
      const token = tokens.get(uniqueId);
      if (!token) {
        notTaken.push(`${uniqueId}: not a device of the replay's organization (${fixes.length} positions)`);
        return;
      }
      for (let i = 0; i < fixes.length; i += 1000) {
        const chunk = fixes.slice(i, i + 1000);
        const res = await fetch(`${server.url}/api/v1/ingest/positions`, {
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
    await server.stop('SIGTERM');
    const replayed = await openStopped(where);
    try {
      const facts = await readDerivedFacts(replayed.db, fleet.orgId);
      const stored = (await storedPositions(replayed.db, fleet.orgId)).length;
      return { facts, fed, stored, notTaken, seconds: (Date.now() - t0) / 1000 };
    } finally {
      await replayed.close();
    }
  } finally {
    if (server.lives.at(-1)?.endedAt === null) await server.stop('SIGKILL');
    server.saveLogs(input.scratchDir, 'replay-server');
    await database?.drop();
  }
}
