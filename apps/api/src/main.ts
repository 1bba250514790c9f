import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { seed } from './seed/seed.ts';
import { scheduleRetentionPurge } from './jobs/retention-purge.ts';
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
  await seed(app.db, config, (msg) => console.log(msg));
  // Daily on every instance; pg_try_advisory_lock lets exactly one of them purge.
  const stopPurge = scheduleRetentionPurge(app.database, app.log);

  let osmand: Awaited<ReturnType<typeof buildOsmandServer>> | null = null;
  let simulator: { stop(): void } | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing (finishing in-flight requests)`);
    // close() stops accepting, waits for in-flight requests, then runs onClose hooks (database).
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    stopPurge();
    simulator?.stop();
    await osmand?.close();
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
  if (config.demo && config.simulator) {
    startDemoFleet(app, config, (msg) => console.log(msg))
      .then((h) => (simulator = h))
      .catch((err) => app.log.error(err, 'demo fleet simulator failed to start'));
  }
  console.log(`Fleetline is running on ${config.publicUrl} (database: ${app.database.kind}${app.database.kind === 'pglite' ? `, ${config.dataDir}` : ''})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
