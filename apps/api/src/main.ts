import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { ensureSuperAdmin, SEED_ACCOUNTS_STEP, seed } from './seed/seed.ts';
import { runEmbeddedMaintenance, scheduleEmbeddedMaintenance } from './jobs/embedded-maintenance.ts';
import { scheduleEmbeddedCheckpoint } from './jobs/embedded-checkpoint.ts';
import { loadMallocTrim } from './jobs/malloc-trim.ts';
import { startIdleCollection } from './jobs/idle-collection.ts';
import { scheduleRetentionPurge } from './jobs/retention-purge.ts';
import { scheduleEldDiagnostics } from './jobs/eld-diagnostics.ts';
import { scheduleEldTransferCheck } from './jobs/eld-transfer-check.ts';
import { transferPing } from './modules/eld-transfer/eld-transfer.service.ts';
import { scheduleServiceDue } from './jobs/service-due.ts';
import { scheduleComplianceNotices } from './jobs/compliance-notices.ts';
import { scheduleReportEmails } from './jobs/report-schedule.ts';
import { scheduleLoadNotices } from './jobs/load-notices.ts';
import { buildOsmandServer } from './modules/positions/osmand-server.ts';
import { buildTeltonikaServer, type TeltonikaServer } from './modules/positions/teltonika-server.ts';
import { TeltonikaUdpServer } from './modules/positions/teltonika-udp.ts';
import { DEMO_STEPS, driveDemoFleet, seedDemoHistory } from './seed/simulator/start.ts';
import { forgetSpeedLimitCells } from '@fleet/geo/speed-limits';

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
  const log = (msg: string) => console.log(msg);
  // Instances starting together on one empty database seed one after another (check, then insert).
  // Without demo data that is quick and done before listening. The demo data is seeded after:
  // /readyz says "seeding demo data (n %)" meanwhile, and the super administrator, created first,
  // can sign in at once.
  if (config.demo) {
    await app.database.exclusive(() => ensureSuperAdmin(app.db, config.superAdmin));
    app.startup.begin(demoSeedPlan(config), log);
  } else {
    await app.database.exclusive(() => seed(app.db, config, log));
  }
  // Daily on every instance; each day's run is claimed by exactly one of them.
  const stopPurge = scheduleRetentionPurge(app.database, app.log);
  // Scheduled once start-up's seeding is done (below).
  let stopMaintenance = (): void => undefined;
  // The embedded database has no checkpointer: its log is ended here from the start (seeding writes most).
  const stopCheckpoint = scheduleEmbeddedCheckpoint(app.database, app.log);
  // ELD malfunctions and data diagnostics every 5 minutes, one instance at a time (decision 0114).
  const stopDiagnostics = scheduleEldDiagnostics(app.database, app.log);
  // The weekly self-check of the data transfer to FMCSA, one instance at a time (decision 0185).
  const stopTransferCheck = scheduleEldTransferCheck(app.database, () => transferPing(app.eldTransfer), app.log);
  // Preventive maintenance coming due, notified hourly, one instance at a time (decision 0159).
  const stopServiceDue = scheduleServiceDue(app.database, app.log);
  // Compliance papers expiring and expired, notified hourly, one instance at a time (decision 0302).
  const stopComplianceNotices = scheduleComplianceNotices(app.database, app.log);
  // Scheduled reports every minute on every instance; each schedule is claimed once (decision 0163).
  const stopReportEmails = scheduleReportEmails(app.database, app.mailer, app.log);
  // Customers' load notices and load.eta_changed every 30 s on every instance; each claimed once (decision 0283).
  const stopLoadNotices = scheduleLoadNotices(app.database, { mailer: app.mailer, publicUrl: config.publicUrl, serverKey: app.apiTokenKey }, app.log);

  let osmand: Awaited<ReturnType<typeof buildOsmandServer>> | null = null;
  let teltonika: TeltonikaServer | null = null;
  let teltonikaUdp: TeltonikaUdpServer | null = null;
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
    stopCheckpoint();
    const diagnosticsStopped = stopDiagnostics();
    const transferCheckStopped = stopTransferCheck();
    const serviceDueStopped = stopServiceDue();
    const complianceNoticesStopped = stopComplianceNotices();
    const reportEmailsStopped = stopReportEmails();
    const loadNoticesStopped = stopLoadNotices();
    if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
    // Devices first: the OsmAnd port stops accepting and answers its in-flight requests (each
    // acknowledged only once committed), while ingest is still open for them.
    await Promise.all([osmand?.close(), teltonika?.close(), teltonikaUdp?.close()]);
    app.log.info('shutdown: device ports closed');
    await purgeStopped;
    await diagnosticsStopped;
    await transferCheckStopped;
    await serviceDueStopped;
    await complianceNoticesStopped;
    await reportEmailsStopped;
    await loadNoticesStopped;
    // Then the API: live streams end (clients reconnect, through the load balancer, to another
    // instance), in-flight requests finish, then ingest's group commit flushes and the pool closes.
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Devices (Traccar Client, OsmAnd) talk to their own port, sharing the API's ingest pipeline.
  osmand = config.osmandPort ? await buildOsmandServer(app.ingest) : null;
  if (osmand) {
    await osmand.listen({ port: config.osmandPort, host: config.host });
    console.log(`OsmAnd device protocol on port ${config.osmandPort} (Traccar Client: http://<this server>:${config.osmandPort})`);
  }
  // Teltonika trackers: TCP, each packet acknowledged once committed (decision 0153).
  teltonika = config.teltonikaPort ? buildTeltonikaServer(app.ingest) : null;
  if (teltonika) {
    await teltonika.listen({ port: config.teltonikaPort, host: config.host });
    // And over UDP on the same port number (decision 0323).
    teltonikaUdp = new TeltonikaUdpServer(app.ingest);
    await teltonikaUdp.listen({ port: config.teltonikaPort, host: config.host });
    console.log(`Teltonika devices (codec 7, 8, 8 Extended, 16) on TCP and UDP port ${config.teltonikaPort}`);
  }
  console.log(
    `Fleetline is running on ${config.publicUrl} (database: ${app.database.kind}${app.database.kind === 'pglite' ? `, ${config.dataDir}` : ''})${app.startup.active ? '; seeding the demo data, ready when /readyz says so' : ''}`,
  );
  // What start-up does in the background; once it is all done its garbage is collected.
  const startup: Array<Promise<unknown>> = [];
  if (config.demo) {
    const progress = (step: string, f: number) => app.startup.at(step, f);
    try {
      await app.database.exclusive(() => seed(app.db, config, log, progress));
      const trucks = config.simulator ? await seedDemoHistory(app, config, log, progress) : [];
      // The work behind ingest catches up on what seeding wrote before the server says it is ready.
      progress(SETTLE_STEP, 0);
      await catchUpFresh(app);
      // The planner's statistics for the bulk-loaded tables. (The embedded database is no longer
      // opened again to give back the memory the bulk load grew: a reopen is how ingest once stopped
      // for good, decision 0177.)
      await runEmbeddedMaintenance(app.database);
      // Seeding's garbage is collected before the server says it is ready, not only after: V8 and
      // malloc hand pages back over the minute after a collection, and a collection after ready left
      // the first minute at 260-400 MB (issue 67: under 256 MB from a minute after ready).
      await collectGarbageNow(app);
      app.startup.done();
      if (trucks.length) simulator = driveDemoFleet(app, config, trucks, log);
    } catch (err) {
      // The server goes on serving what is there; /readyz keeps saying it is not ready.
      app.log.error(err, 'seeding the demo data failed');
    }
  } else {
    startup.push(catchUpFresh(app));
  }
  // The embedded database has no autovacuum: statistics kept fresh here (a server has its own).
  stopMaintenance = scheduleEmbeddedMaintenance(app.database, app.log);
  // Notification detectors on the clock (one instance at a time).
  app.fleetWatch.start();
  collectStartupGarbage(app, startup);
}

/**
 * The followers of a commit catch up on positions stored before this start (a restart, the demo
 * history): each that has a catch-up (pipeline/followers.ts), in the list's order, one after another.
 * Together they kept the database's one connection busy with a queue of statements, and a request
 * made meanwhile waited behind all of them (a dashboard 1.4-1.9 s on a first start); in turn, a
 * request's statements wait for one of theirs at a time.
 */
async function catchUp(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  for (const f of app.ingest.followers) await f.catchUp?.();
}

/**
 * The catch-ups on the embedded database's statistics of now: tables that grew in an earlier life
 * (written, then a crash) are analyzed first, or the catch-ups' reads are planned on the old ones.
 */
async function catchUpFresh(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  await runEmbeddedMaintenance(app.database).catch((err) => app.log.warn({ err }, 'embedded database maintenance failed'));
  await catchUp(app);
}

const SETTLE_STEP = 'catching up and settling';

/** The demo data's seeding steps and their rough shares of its time on a first start. */
function demoSeedPlan(config: Config): Record<string, number> {
  const plan: Record<string, number> = { [SEED_ACCOUNTS_STEP]: 5 };
  if (!config.simulator) return { ...plan, [SETTLE_STEP]: 1 };
  return {
    ...plan,
    [DEMO_STEPS.positions]: 25,
    [DEMO_STEPS.hos]: 20,
    [DEMO_STEPS.maintenance]: 2,
    [DEMO_STEPS.ifta]: 20,
    ...(config.iftaMiles ? { [DEMO_STEPS.iftaMiles]: 15 } : {}),
    [DEMO_STEPS.statistics]: 10,
    [DEMO_STEPS.notifications]: 5,
    [SETTLE_STEP]: 5,
  };
}

/**
 * Seeding, the demo backfill and the catch-ups leave 100-200 MB of garbage in the old generation,
 * which V8 collects only when allocation grows the heap again: on an idle server, hours later. Once
 * they are done and the work behind ingest has drained, one full compacting collection of each thread
 * and one malloc_trim give it back (idle RSS 422 MB without, decision 0179); `npm run serve` passes
 * --expose-gc, without it nothing happens. After it, a quiet server's heap is collected when it has
 * grown (jobs/idle-collection.ts); a busy server's heap is V8's.
 */
function collectStartupGarbage(app: Awaited<ReturnType<typeof buildApp>>, startup: Array<Promise<unknown>>): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  void Promise.allSettled(startup)
    .then(async () => {
      await Promise.all([app.autoDuty.idle(), app.engineEvents.idle(), app.iftaMiles.idle({ dirty: true }), app.fleetStats.idle()]);
      // The dirty-day recompute and the fleet watch's first look run a few seconds after.
      await new Promise((r) => setTimeout(r, 10_000).unref());
      // The speed-limit cells the catch-ups worked out for the history (2.6 MB on a demo first start):
      // the live fleet works out the few it visits again, the same.
      forgetSpeedLimitCells();
      const collected = await collectGarbageNow(app);
      if (!collected) return;
      // V8 shrinks the young generation (up to 48 MB committed per thread with --max-semi-space-size=16)
      // only in a collection made while allocation is slow; right after seeding it is not. Two more,
      // 15 s apart once the server is quiet, give that back within the first minute after ready.
      for (let i = 0; i < 2; i++) {
        await new Promise((r) => setTimeout(r, 15_000).unref());
        await collectGarbageNow(app);
      }
      // From now on, the old generation's creep on a quiet server (jobs/idle-collection.ts).
      startIdleCollection({
        gc,
        trim: loadMallocTrim(),
        // The database thread's heap creeps the same way (3-4 MB over ten idle minutes).
        alsoCollect: () => app.database.databaseThreadHeap(true),
        onCollected: (freed, ms) => app.log.debug(`idle collection: ${Math.round(freed / 2 ** 20)} MB in ${Math.round(ms)} ms`),
      });
    })
    .catch((err) => app.log.error(err, 'start-up garbage collection failed'));
}

/**
 * One full collection of the API's heap and of the database thread's, then malloc_trim; null without
 * --expose-gc. A plain full collection: it once set --compact-on-every-full-gc around it, but V8's
 * flags are the process's, and changing them while the database's thread runs its own isolate is
 * undefined (the CI soak's database thread stopped answering, for good, about 10 s after a restart's
 * catch-up, in 2 of 4 runs under load: this collection's moment).
 */
async function collectGarbageNow(app: Awaited<ReturnType<typeof buildApp>>): Promise<{ heapMb: number } | null> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  const before = process.memoryUsage();
  const t0 = performance.now();
  // A full collection moves objects off only some fragmented pages; the rest stay committed (heap
  // total 175 MB for 66 MB used at ready) until V8's memory reducer comes back over the next two
  // minutes. Collections one after another, while each still gives pages back, do that at once.
  let committed = before.heapTotal;
  for (let i = 0; i < 4; i++) {
    gc();
    const now = process.memoryUsage().heapTotal;
    if (committed - now < 2 ** 21) break;
    committed = now;
  }
  // The database's worker thread parsed the same seeding's results: its heap too.
  let worker = await app.database.databaseThreadHeap(true);
  for (let i = 0; worker && i < 3; i++) {
    const again = await app.database.databaseThreadHeap(true);
    if (!again || worker.committed - again.committed < 2 ** 21) break;
    worker = again;
  }
  // Then what the collections and the seeding freed through malloc goes back to the system.
  loadMallocTrim()?.();
  const heapMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  const mb = (n: number) => Math.round(n / 2 ** 20);
  app.log.info(
    `garbage collected in ${Math.round(performance.now() - t0)} ms: heap ${mb(before.heapUsed)}/${mb(before.heapTotal)} MB -> ${heapMb}/${mb(process.memoryUsage().heapTotal)} MB${worker ? `, database thread ${mb(worker.used)}/${mb(worker.committed)} MB` : ''}`,
  );
  return { heapMb };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
