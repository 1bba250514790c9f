import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { seed } from './seed/seed.ts';
import { scheduleRetentionPurge } from './jobs/retention-purge.ts';

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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing (finishing in-flight requests)`);
    // close() stops accepting, waits for in-flight requests, then runs onClose hooks (database).
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    stopPurge();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  console.log(`Fleetline is running on ${config.publicUrl} (database: ${app.database.kind}${app.database.kind === 'pglite' ? `, ${config.dataDir}` : ''})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
