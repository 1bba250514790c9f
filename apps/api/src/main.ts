import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { seed } from './seed/seed.ts';
import { scheduleEmbeddedMaintenance } from './jobs/embedded-maintenance.ts';
import { scheduleRetentionPurge } from './jobs/retention-purge.ts';
import { scheduleEldDiagnostics } from './jobs/eld-diagnostics.ts';
import { buildOsmandServer } from './modules/positions/osmand-server.ts';
import { startDemoFleet } from './seed/simulator/start.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp({ config });
  // Instances starting together on one empty database seed one after another (check, then insert).
  await app.database.exclusive(() => seed(app.db, config, (msg) => console.log(msg)));
  // Daily on every instance; each day's run is claimed by exactly one of them.
  const stopPurge = scheduleRetentionPurge(app.database, app.log);
  // The embedded database has no autovacuum: statistics kept fresh here (a server has its own).
  const stopMaintenance = scheduleEmbeddedMaintenance(app.database, app.log);
  // ELD malfunctions and data diagnostics every 5 minutes, one instance at a time (decision 0114).
  const stopDiagnostics = scheduleEldDiagnostics(app.database, app.log);

  let osmand: Awaited<ReturnType<typeof buildOsmandServer>> | null = null;
  let simulator: { stop(): void } | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // /readyz answers 503 from now on; everything else is still served while the load balancer
    // notices (SHUTDOWN_DRAIN_MS), so no request is refused that it could have sent elsewhere.
    app.draining = true;
    app.log.info(`${signal}: draining for ${config.shutdownDrainMs} ms, then closing (finishing in-flight requests)`);
    const timer = setTimeout(() => {
      app.log.error(`shutdown did not finish within ${config.shutdownTimeoutMs} ms; exiting`);
      process.exit(1);
    }, config.shutdownDrainMs + config.shutdownTimeoutMs).unref();
    simulator?.stop();
    // A purge under way stops before its next batch (each is its own short transaction).
    const purgeStopped = stopPurge();
    stopMaintenance();
    const diagnosticsStopped = stopDiagnostics();
    if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
    // Devices first: the OsmAnd port stops accepting and answers its in-flight requests (each
    // acknowledged only once committed), while ingest is still open for them.
    await osmand?.close();
    app.log.info('shutdown: OsmAnd port closed');
    await purgeStopped;
    await diagnosticsStopped;
    // Then the API: live streams end (clients reconnect, through the load balancer, to another
    // instance), in-flight requests finish, then ingest's group commit flushes and the pool closes.
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Notification detectors on the clock (one instance at a time), and statistics of positions
  // stored before this start.
  app.fleetWatch.start();
  // What start-up does in the background; once it is all done its garbage is collected.
  const startup: Array<Promise<unknown>> = [];
  startup.push(app.fleetStats
    .catchUp()
    .then((n) => n && app.log.info(`fleet statistics: ${n} vehicle days computed from stored positions`))
    .catch((err) => app.log.error(err, 'fleet statistics catch-up failed')));
  // Devices (Traccar Client, OsmAnd) talk to their own port, sharing the API's ingest pipeline.
  osmand = config.osmandPort ? await buildOsmandServer(app.ingest) : null;
  if (osmand) {
    await osmand.listen({ port: config.osmandPort, host: config.host });
    console.log(`OsmAnd device protocol on port ${config.osmandPort} (Traccar Client: http://<this server>:${config.osmandPort})`);
  }
  // Positions stored before a restart but not yet derived into HoS records (decision 0095).
  if (config.hosAutoDuty) {
    startup.push(app.autoDuty
      .catchUp()
      .then((n) => n && app.log.info(`automatic duty status: ${n} records derived from positions stored before the restart`))
      .catch((err) => app.log.error(err, 'automatic duty status catch-up failed')));
  }
  // Positions stored before the restart but not yet counted into the IFTA miles (decision 0121).
  if (config.iftaMiles) {
    // The boundary index is built once, off the first ingest round's path.
    setTimeout(() => app.iftaMiles.loadBoundaries(), 100).unref();
    startup.push(app.iftaMiles
      .catchUp()
      .then((n) => n && app.log.info(`IFTA miles: ${n} vehicles with positions to count since the last start`))
      .catch((err) => app.log.error(err, 'IFTA miles catch-up failed')));
  }
  if (config.demo && config.simulator) {
    startup.push(startDemoFleet(app, config, (msg) => console.log(msg))
      .then((h) => (simulator = h))
      .catch((err) => app.log.error(err, 'demo fleet simulator failed to start')));
  }
  collectStartupGarbage(app, startup);
  console.log(`Fleetline is running on ${config.publicUrl} (database: ${app.database.kind}${app.database.kind === 'pglite' ? `, ${config.dataDir}` : ''})`);
}

/**
 * Seeding, the demo backfill and the catch-ups leave 100-200 MB of garbage in the old generation,
 * which V8 collects only when allocation grows the heap again: on an idle server, hours later.
 * Once they are done and the work behind ingest has drained, one full collection gives it back
 * (`npm run serve` passes --expose-gc; without it nothing happens). Decision 0089.
 */
function collectStartupGarbage(app: Awaited<ReturnType<typeof buildApp>>, startup: Array<Promise<unknown>>): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  void Promise.allSettled(startup)
    .then(async () => {
      await Promise.all([app.autoDuty.idle(), app.iftaMiles.idle({ dirty: true }), app.fleetStats.idle()]);
      // The dirty-day recompute and the fleet watch's first look run a few seconds after.
      await new Promise((r) => setTimeout(r, 10_000).unref());
      const before = process.memoryUsage().heapUsed;
      gc();
      app.log.info(`start-up garbage collected: heap ${Math.round(before / 2 ** 20)} MB -> ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
    })
    .catch((err) => app.log.error(err, 'start-up garbage collection failed'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
