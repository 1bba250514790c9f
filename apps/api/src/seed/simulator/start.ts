import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { organizations } from '../../db/schema/index.ts';
import { DEMO_ORG_NAME } from '../seed.ts';
import { seedDemoHos } from './demo-hos.ts';
import { demoIftaFrom, fileDemoQuarter, seedDemoIfta } from './demo-ifta.ts';
import { backfillDemoHistory, ensureDemoTrucks, findDemoTrucks, runLiveSimulator, type SimulatorHandle } from './demo-fleet.ts';

/**
 * DEMO=1 with SIMULATOR not 0 (the `npm start` default): the demo organization's 25 trucks get
 * 7 days of history (first start; later starts fill only the gap) and then post live through the
 * real OsmAnd endpoint over loopback; the week's HoS logs are derived from that history first. Runs after the server listens, so start-up stays fast.
 */
export async function startDemoFleet(app: FastifyInstance, config: Config, log: (msg: string) => void): Promise<SimulatorHandle | null> {
  const [org] = await app.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.name, DEMO_ORG_NAME));
  if (!org) return null;
  await ensureDemoTrucks(app.db, org.id);
  const trucks = (await findDemoTrucks(app.db)).filter((t) => t.orgId === org.id);
  const started = Date.now();
  // History first, then its HoS logs, then live: the live fixes continue the derived records
  // from their last event (decision 0095).
  const written = await backfillDemoHistory(app.db, trucks, started);
  if (written) log(`Demo fleet: ${written} historical positions written for ${trucks.length} trucks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const hosStarted = Date.now();
  const events = await seedDemoHos(app.db, org.id, trucks, started - 7 * 86_400_000, started);
  if (events) log(`Demo fleet: ${events} HoS records for the week derived from the history in ${((Date.now() - hosStarted) / 1000).toFixed(1)} s`);
  // IFTA: the weeks before the backfill from the plan, fuel at the fuel stops, then the backfilled
  // positions counted like any ingest (decisions 0121, 0127).
  const iftaStarted = Date.now();
  const [iftaDays, purchases] = await seedDemoIfta(app.db, org.id, trucks, demoIftaFrom(started), started - 7 * 86_400_000, started);
  if (config.iftaMiles) {
    await app.iftaMiles.catchUp();
    await app.iftaMiles.idle();
  }
  const filed = await fileDemoQuarter(app.db, org.id, started);
  if (filed) log(`Demo fleet: IFTA return of ${filed} filed`);
  if (iftaDays || purchases) log(`Demo fleet: IFTA ${iftaDays} vehicle-days and ${purchases} fuel purchases since ${new Date(demoIftaFrom(started)).toISOString().slice(0, 10)} in ${((Date.now() - iftaStarted) / 1000).toFixed(1)} s`);
  // The history went straight to the positions table: its daily statistics are computed here, and
  // the week's violations are notified once (a fresh demo shows a bell with something in it).
  if (written) {
    const days = await app.fleetStats.rebuildRange(org.id, trucks.flatMap((t) => (t.assetId ? [t.assetId] : [])), started - 7 * 86_400_000, started);
    log(`Demo fleet: daily statistics of ${days} vehicle days computed`);
    await app.fleetWatch.check(org.id, { clock: true, now: started, newsMs: 7 * 86_400_000 });
  }
  const target = config.osmandPort ? `http://127.0.0.1:${config.osmandPort}/` : `http://127.0.0.1:${config.port}/api/v1/ingest/osmand`;
  const handle = runLiveSimulator(trucks, target, 10, (err) => app.log.warn({ err }, 'demo fleet simulator: a post failed'));
  log(`Demo fleet: ${trucks.length} trucks driving, posting to ${target}`);
  return handle;
}
