// The soak with faults (issue 43): `npm run soak -- [--minutes 30] [--devices 1000] [--interval-s 10]
// [--ci] [--no-demo] [--keep] [--skip-build]`, DATABASE_URL=<PostgreSQL server> to run on a new database of it.
// 1. The compiled server starts with the demo fleet and its simulator (a first start seeds for about a
//    minute), on free ports, on a scratch data directory (or a new PostgreSQL database).
// 2. Through the API: "Soak Freight" with one vehicle per device, drivers, places at the stops and a
//    Traccar token; "Soak Other Carrier" with three devices for the poisoned fixes.
// 3. The devices drive (bench/soak/truck-motion.ts) for `--minutes`, one fix every `--interval-s`
//    each, a quarter each over OsmAnd, Teltonika TCP, JSON batches and Traccar forwarding, each
//    sending its next fix only once the previous was acknowledged, resending until it is. Meanwhile the
//    faults strike on their schedule (bench/soak/faults.ts).
// 4. The devices send what they still hold; the server stops gracefully (SIGTERM); the soak reads its
//    database: acknowledged against stored, stored twice, and the facts derived from the positions,
//    compared with a clean replay of the same stored positions on a fresh server.
// Exit code 0 only when every check passes (bench/soak/report.ts).
import { setMaxListeners } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { compareStored, Ledger } from './soak/accounting.ts';
import { ApiClient } from './soak/api-client.ts';
import { compareFacts, readDerivedFacts } from './soak/derived-facts.ts';
import { linkFor, SimDevice, type Window } from './soak/device.ts';
import { clock, faultSchedule, runFault, type FaultRecord } from './soak/faults.ts';
import { OTHER_ORG, setUpOtherOrg, setUpSoakFleet, SOAK_ORG } from './soak/fleet-setup.ts';
import { Meter, memoryPartsOf } from './soak/meter.ts';
import { parseSoakOptions } from './soak/options.ts';
import { CleanReplay, type ReplayOutcome } from './soak/replay.ts';
import { printReport } from './soak/report.ts';
import { groupLogLines } from './soak/server-log.ts';
import { openStopped, organizationId, positionsToReplay, storedPositions, storedTwice } from './soak/soaked-database.ts';
import { createDatabase, ensureApiBuilt, snapshotBuild, SoakServer } from './soak/soak-server.ts';

const opts = parseSoakOptions(process.argv.slice(2));
const say = (line: string) => console.log(line);
const kind = opts.serverUrl ? 'PostgreSQL' : 'PGlite';
const windowMs = opts.minutes * 60_000;
const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
say(
  `Soak${opts.ci ? ' (CI flavour)' : ''}: ${opts.devices} devices × one fix every ${opts.intervalS} s for ${opts.minutes} minutes on ${kind}, ${opts.demo ? 'beside the demo fleet' : 'no demo fleet'}, with faults; ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`,
);

if (opts.dist) say(`soaking the build in ${opts.dist}`);
else ensureApiBuilt(opts.build, say);
// The servers run a copy of the build: others may rebuild apps/api/dist in this tree meanwhile.
const build = opts.dist ? { dir: opts.dist, remove: () => undefined } : snapshotBuild();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-soak-'));
const dataDir = path.join(scratch, 'soak');
fs.mkdirSync(dataDir);
const database = opts.serverUrl ? await createDatabase(opts.serverUrl, `fleet_soak_${process.pid}`) : null;
const server = new SoakServer({ dataDir, databaseUrl: database?.url, demo: opts.demo, faultInjection: true, dist: build.dir });
// The clean replay's server is set up while this one seeds (bench/soak/replay.ts).
const replayReady = CleanReplay.prepare({
  scratchDir: scratch,
  serverUrl: opts.serverUrl,
  devices: opts.devices,
  runMs: windowMs,
  intervalMs: opts.intervalS * 1000,
  dist: build.dir,
}).then(
  (r) => ({ replay: r, error: null }),
  (err: unknown) => ({ replay: null, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
);
let windowStart = 0;
const meter = new Meter(server, () => windowStart, database?.url);

// A crash is a finding: printed, counted as a MISS, and the server restarted as a supervisor would.
server.supervise = true;
server.onCrash = (life) =>
  say(`${clock(Date.now() - (windowStart || Date.now()))}  SERVER CRASHED: life ${life.life} ${life.ending}; restarting it on the same data and ports`);

try {
  await server.start();
  say(`${since()}: server ready (${server.url}; ${opts.demo ? 'demo fleet seeded and driving' : 'no demo fleet'}; data in ${scratch})`);
  const api = new ApiClient(server.url);
  meter.watchMemory(async () => {
    const report = await api.tryGet<Parameters<typeof memoryPartsOf>[0]>('/admin/diagnostics/memory');
    return report && memoryPartsOf(report);
  });
  const fleet = await setUpSoakFleet(api, { devices: opts.devices, runMs: windowMs, intervalMs: opts.intervalS * 1000 });
  const other = await setUpOtherOrg(api);
  const byProtocol = new Map<string, number>();
  for (const d of fleet.devices) byProtocol.set(d.protocol, (byProtocol.get(d.protocol) ?? 0) + 1);
  say(
    `${since()}: "${SOAK_ORG}" set up: ${fleet.devices.length} vehicles and devices (${[...byProtocol].map(([p, c]) => `${p} ${c}`).join(', ')}), ${fleet.drivers} drivers, ${fleet.places} places; "${OTHER_ORG}" with 3 devices`,
  );
  // Its pairings and driver assignments must start before the first fix it will be fed, as the soak's do.
  const prepared = await replayReady;
  say(
    `${since()}: ${prepared.replay ? "the clean replay's server is set up the same way, idle until the end" : 'the clean replay could not be set up (see the report)'}`,
  );

  // 2. Traffic, with the faults on their schedule.
  const ledger = new Ledger(path.join(scratch, 'acknowledged.csv'));
  windowStart = Math.ceil((Date.now() + 2000) / 1000) * 1000;
  const window: Window = { start: windowStart, end: windowStart + windowMs, intervalMs: opts.intervalS * 1000 };
  const devices = fleet.devices.map((spec) => new SimDevice(spec, linkFor(spec, server.target, fleet.ingestToken), ledger, window));
  const unwatch = server.watchReadiness((life, status, reason) =>
    say(`${clock(Date.now() - windowStart)}  life ${life.life} /readyz ${status || 'no answer'}${status === 200 ? '' : `: ${reason}`}`),
  );
  const stop = new AbortController();
  // Every device waits on it between sends.
  setMaxListeners(devices.length + 10, stop.signal);
  meter.start();
  const running = Promise.all(devices.map((d) => d.run(stop.signal)));
  let lastFailures = 0;
  const progress = setInterval(() => {
    const recent = ledger.failures.slice(lastFailures);
    lastFailures = ledger.failures.length;
    const causes = new Map<string, number>();
    for (const f of recent) causes.set(f.cause, (causes.get(f.cause) ?? 0) + 1);
    const held = devices.reduce((a, d) => a + d.holding, 0);
    say(
      `${clock(Date.now() - windowStart)}  acknowledged ${ledger.ackedCount}, held by devices ${held}, RSS ${meter.rss.at(-1)?.rssMb.toFixed(0) ?? '?'} MB` +
        (recent.length ? `; not acknowledged in the last minute: ${[...causes].map(([c, k]) => `${c} ×${k}`).join(', ')}` : ''),
    );
  }, 60_000);
  const faults: FaultRecord[] = [];
  for (const f of faultSchedule(database ? 'postgres' : 'pglite')) {
    await sleep(Math.max(0, windowStart + f.at * windowMs - Date.now()));
    faults.push(
      await runFault(f, { server, api, devices, other, meter, databaseUrl: database?.url, poisonCount: opts.poisonCount, trafficStart: windowStart }, say),
    );
  }
  await sleep(Math.max(0, window.end - Date.now()));
  say(`${clock(Date.now() - windowStart)}  window over: devices send what they still hold (up to ${opts.drainMs / 1000} s)`);
  const drained = await Promise.race([running.then(() => true), sleep(opts.drainMs).then(() => false)]);
  stop.abort();
  await running;
  clearInterval(progress);
  const neverAcknowledged = devices.reduce((a, d) => a + d.holding, 0);
  for (const d of devices) d.link.close();
  await ledger.close();
  say(
    `${clock(Date.now() - windowStart)}  ${drained ? 'every device sent what it held' : `drain over: ${neverAcknowledged} fixes never acknowledged`}; stopping the server (SIGTERM)`,
  );

  // 3. The graceful stop, then the stored positions and derived facts.
  await Promise.all(faults.map((f) => f.done));
  server.supervise = false;
  unwatch();
  await server.settled();
  await meter.sample();
  meter.stop();
  const stopT0 = Date.now();
  const ending = await server.stop('SIGTERM');
  const gracefulStop = { ending, seconds: (Date.now() - stopT0) / 1000 };
  say(`${since()}: server stopped (${ending}, ${gracefulStop.seconds.toFixed(1)} s); reading its database`);
  const soaked = await openStopped({ dataDir, databaseUrl: database?.url });
  let read;
  try {
    const otherId = (await organizationId(soaked.db, OTHER_ORG))!;
    read = {
      stored: await storedPositions(soaked.db, fleet.orgId),
      twice: await storedTwice(soaked.db),
      facts: await readDerivedFacts(soaked.db, fleet.orgId),
      toReplay: await positionsToReplay(soaked.db, fleet.orgId),
      otherStored: new Set((await storedPositions(soaked.db, otherId)).map((p) => p.time)),
    };
  } finally {
    await soaked.close();
  }
  const poisonStored = new Map<string, number>();
  for (const p of faults.flatMap((f) => f.poison ?? [])) poisonStored.set(p.kind, p.fixTimes.filter((t) => read.otherStored.has(t)).length);

  // 4. The clean replay.
  say(`${since()}: clean replay: ${read.stored.length} stored positions fed to the replay's server`);
  let replay: ReplayOutcome | null = null;
  let replayError = prepared.error;
  if (prepared.replay) {
    try {
      replay = await prepared.replay.run(read.toReplay);
    } catch (err) {
      replayError = err instanceof Error ? (err.stack ?? err.message) : String(err);
    }
  }

  const logs = server.saveLogs(scratch);
  const checks = printReport(
    {
      demo: opts.demo,
      title: `Soak on ${kind}: ${opts.devices} devices${opts.demo ? ' beside the demo fleet' : ''}, one fix every ${opts.intervalS} s, ${opts.minutes} minutes of traffic, ${faults.length} faults (${(Date.now() - t0) / 60_000 < 1 ? '<1' : ((Date.now() - t0) / 60_000).toFixed(1)} minutes in all)`,
      windowStart,
      windowMs,
      ledger,
      stored: compareStored(ledger, read.stored),
      storedTwice: read.twice,
      neverAcknowledged,
      faults,
      poisonStored,
      lives: server.lives,
      gracefulStop,
      logGroups: groupLogLines(server.output()),
      rss: meter.rss,
      cpu: meter.cpu(),
      facts: replay ? compareFacts(read.facts, replay.facts) : null,
      replay,
      replayError,
    },
    say,
  );
  const pass = checks.every((c) => c.ok);
  const keep = opts.keep || !pass;
  say(
    `\n${pass ? 'PASS' : 'MISS'}: ${checks.filter((c) => !c.ok).length} of ${checks.length} checks missed; ${keep ? `server logs, databases and acknowledged fixes kept in ${scratch} (${logs.map((l) => path.basename(l)).join(', ')})` : 'scratch directory removed'}`,
  );
  await prepared.replay?.discard(scratch, opts.keep);
  if (!keep) fs.rmSync(scratch, { recursive: true, force: true });
  if (database && !opts.keep) await database.drop();
  process.exitCode = pass ? 0 : 1;
} catch (err) {
  meter.stop();
  console.error(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  console.error(`scratch directory kept: ${scratch}`);
  try {
    server.saveLogs(scratch);
    if (server.lives.at(-1)?.endedAt === null) await server.stop('SIGKILL');
    await (await replayReady).replay?.discard(scratch, opts.keep);
    if (database && !opts.keep) await database.drop();
  } catch {
    // best effort
  }
  process.exitCode = 2;
} finally {
  build.remove();
}
// Keep-alive sockets of the devices' HTTP client would hold the process a few seconds more.
process.exit(process.exitCode ?? 0);
