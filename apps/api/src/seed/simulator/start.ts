import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { organizations } from '../../db/schema/index.ts';
import { DEMO_ORG_NAME, type SeedProgress } from '../seed.ts';
import { seedDemoHos } from './demo-hos.ts';
import { demoIftaFrom, fileDemoQuarter, seedDemoIfta } from './demo-ifta.ts';
import { backfillDemoHistory, ensureDemoTrucks, findDemoTrucks, runLiveSimulator, type DemoTruck, type SimulatorHandle } from './demo-fleet.ts';

/** The steps of the demo history, in order, as StartupProgress shows them. */
export const DEMO_STEPS = {
  positions: 'a week of positions',
  hos: 'hours-of-service logs',
  ifta: 'the IFTA quarter',
  iftaMiles: 'IFTA miles',
  statistics: 'daily statistics',
  notifications: 'notifications',
} as const;

/**
 * DEMO=1 with SIMULATOR not 0 (the `npm start` default): the demo organization's 25 trucks get
 * 7 days of history (first start; later starts fill only the gap), the week's HoS logs derived
 * from it, the IFTA quarter and the daily statistics; then driveDemoFleet posts live through the
 * real OsmAnd endpoint over loopback. Runs after the server listens, reporting its progress.
 * Returns the demo trucks.
 */
export async function seedDemoHistory(app: FastifyInstance, config: Config, log: (msg: string) => void, progress: SeedProgress = () => undefined): Promise<DemoTruck[]> {
  const [org] = await app.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.name, DEMO_ORG_NAME));
  if (!org) return [];
  await ensureDemoTrucks(app.db, org.id);
  const trucks = (await findDemoTrucks(app.db)).filter((t) => t.orgId === org.id);
  const started = Date.now();
  // History first, then its HoS logs, then live: the live fixes continue the derived records
  // from their last event (decision 0095).
  const written = await backfillDemoHistory(app.db, trucks, started, 7, (f) => progress(DEMO_STEPS.positions, f));
  if (written) log(`Demo fleet: ${written} historical positions written for ${trucks.length} trucks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const hosStarted = Date.now();
  progress(DEMO_STEPS.hos, 0);
  const events = await seedDemoHos(app.db, org.id, trucks, started - 7 * 86_400_000, started, (f) => progress(DEMO_STEPS.hos, f));
  if (events) log(`Demo fleet: ${events} HoS records for the week derived from the history in ${((Date.now() - hosStarted) / 1000).toFixed(1)} s`);
  // IFTA: the weeks before the backfill from the plan, fuel at the fuel stops, then the backfilled
  // positions counted like any ingest (decisions 0121, 0127).
  const iftaStarted = Date.now();
  progress(DEMO_STEPS.ifta, 0);
  const [iftaDays, purchases] = await seedDemoIfta(app.db, org.id, trucks, demoIftaFrom(started), started - 7 * 86_400_000, started);
  if (config.iftaMiles) {
    progress(DEMO_STEPS.iftaMiles, 0);
    await app.iftaMiles.catchUp();
    await app.iftaMiles.idle();
  }
  const filed = await fileDemoQuarter(app.db, org.id, started);
  if (filed) log(`Demo fleet: IFTA return of ${filed} filed`);
  if (iftaDays || purchases) log(`Demo fleet: IFTA ${iftaDays} vehicle-days and ${purchases} fuel purchases since ${new Date(demoIftaFrom(started)).toISOString().slice(0, 10)} in ${((Date.now() - iftaStarted) / 1000).toFixed(1)} s`);
  // The history went straight to the positions table: its daily statistics are computed here, and
  // the week's violations are notified once (a fresh demo shows a bell with something in it).
  if (written) {
    // A vehicle at a time, so the progress moves and requests are served in between.
    const vehicles = trucks.flatMap((t) => (t.assetId ? [t.assetId] : []));
    let days = 0;
    for (const [i, assetId] of vehicles.entries()) {
      progress(DEMO_STEPS.statistics, i / vehicles.length);
      days += await app.fleetStats.rebuildRange(org.id, [assetId], started - 7 * 86_400_000, started);
    }
    log(`Demo fleet: daily statistics of ${days} vehicle days computed`);
    progress(DEMO_STEPS.notifications, 0);
    await app.fleetWatch.check(org.id, { clock: true, now: started, newsMs: 7 * 86_400_000 });
  }
  return trucks;
}

/** The demo trucks post live through the real OsmAnd endpoint (after seedDemoHistory). */
export function driveDemoFleet(app: FastifyInstance, config: Config, trucks: readonly DemoTruck[], log: (msg: string) => void): SimulatorHandle {
  const target = config.osmandPort ? `http://127.0.0.1:${config.osmandPort}/` : `http://127.0.0.1:${config.port}/api/v1/ingest/osmand`;
  const handle = runLiveSimulator(trucks, target, 10, (err) => app.log.warn({ err }, 'demo fleet simulator: a post failed'));
  log(`Demo fleet: ${trucks.length} trucks driving, posting to ${target}`);
  return handle;
}
