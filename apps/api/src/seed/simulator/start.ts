import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { organizations, users } from '../../db/schema/index.ts';
import { ensureDemoLoads } from '../demo-loads.ts';
import { ensureDemoMessages } from '../demo-messages.ts';
import { ensureDemoMaintenance } from '../demo-maintenance.ts';
import { ensureDemoEngineFaults } from '../demo-engine-faults.ts';
import { routingOf } from '../../modules/dispatch/index.ts';
import { ensureDemoPlaces } from '../demo-places.ts';
import { ensureDemoSafety } from '../demo-safety.ts';
import { DEMO_ORG_NAME, type SeedProgress } from '../seed.ts';
import { seedDemoHos } from './demo-hos.ts';
import { demoIftaFrom, fileDemoQuarter, seedDemoIfta } from './demo-ifta.ts';
import { backfillDemoHistory, ensureDemoTrucks, findDemoTrucks, runLiveSimulator, type DemoTruck } from './demo-fleet.ts';
import { runTeltonikaTrucks } from './teltonika-device.ts';

/** The steps of the demo history, in order, as StartupProgress shows them. */
export const DEMO_STEPS = {
  positions: 'a week of positions',
  hos: 'hours-of-service logs',
  maintenance: 'inspections and maintenance',
  ifta: 'the IFTA quarter',
  iftaMiles: 'IFTA miles',
  statistics: 'daily statistics',
  notifications: 'notifications',
} as const;

/**
 * DEMO=1 with SIMULATOR not 0 (the `npm start` default): the demo organization's 25 trucks get
 * 7 days of history (first start; later starts fill only the gap), the week's HoS logs derived
 * from it, the IFTA quarter and the daily statistics; then driveDemoFleet reports live through the
 * real OsmAnd endpoint and Teltonika port over loopback. Runs after the server listens, reporting its progress.
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
  // The Teltonika devices went on recording from there (they send what they hold once live).
  for (const t of trucks) t.historyUntil = started;
  if (written) log(`Demo fleet: ${written} historical positions written for ${trucks.length} trucks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const hosStarted = Date.now();
  progress(DEMO_STEPS.hos, 0);
  const events = await seedDemoHos(app.db, org.id, trucks, started - 7 * 86_400_000, started, (f) => progress(DEMO_STEPS.hos, f));
  if (events) log(`Demo fleet: ${events} HoS records for the week derived from the history in ${((Date.now() - hosStarted) / 1000).toFixed(1)} s`);
  // The week's safety events from the history: speeding, harsh events, idling, and a coaching inbox
  // (issue 47). Before the statistics, the trips and the visits: it holds the history to the limits and
  // switches engines off at stops first, and those are derived from the positions.
  const safetyStarted = Date.now();
  const [admin] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, config.demoAdmin.email));
  const safety = await ensureDemoSafety(app.db, org.id, trucks, app.safetyEvents, started - 7 * 86_400_000, admin?.id ?? null);
  if (safety) log(`Demo fleet: ${safety} safety events derived from the week in ${((Date.now() - safetyStarted) / 1000).toFixed(1)} s`);
  // The week's inspection reports sit where the logs begin and end each shift (decision 0160).
  const maintenanceStarted = Date.now();
  progress(DEMO_STEPS.maintenance, 0);
  const maintenance = await ensureDemoMaintenance(app.db, org.id, started);
  if (maintenance) log(`Demo fleet: ${maintenance.reports} inspection reports, ${maintenance.defects} defects, ${maintenance.workOrders} work orders and ${maintenance.schedules} maintenance schedules in ${((Date.now() - maintenanceStarted) / 1000).toFixed(1)} s`);
  // Tractor 108's engine fault and the grounding codes (decision 0191).
  const faults = await ensureDemoEngineFaults(app.db, org.id, started);
  if (faults) log(`Demo fleet: ${faults} engine faults on tractor 108 (one active)`);
  // IFTA: the weeks before the backfill from the plan, fuel at the fuel stops, then the backfilled
  // positions counted like any ingest (decisions 0121, 0127).
  const iftaStarted = Date.now();
  progress(DEMO_STEPS.ifta, 0);
  const [iftaDays, purchases] = await seedDemoIfta(app.db, org.id, trucks, demoIftaFrom(started), started - 7 * 86_400_000, started);
  if (config.iftaMiles) {
    progress(DEMO_STEPS.iftaMiles, 0);
    await app.iftaMiles.catchUp();
    // The backfill wrote positions without the vehicles' latest rows, which the catch-up goes by:
    // its trucks are queued here, so their week is counted now and not by the first live rounds.
    for (const t of trucks) if (t.assetId) app.iftaMiles.touch(t.assetId, org.id, started);
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
  // Its terminals and customers, then the week's visits to them from the history (decision 0162):
  // done here, so they are there when /readyz says ready (the catch-up goes by latest rows, which
  // the backfill does not write).
  const placesStarted = Date.now();
  const made = await ensureDemoPlaces(app.db, org.id);
  if (made || written) {
    await app.placeVisits.recomputeVehicles(org.id, trucks.flatMap((t) => (t.assetId ? [t.assetId] : [])), started - 7 * 86_400_000);
    log(`Demo fleet: ${made} places, the week's visits to them in ${((Date.now() - placesStarted) / 1000).toFixed(1)} s`);
  }
  // The week's loads from those visits, loads on the trucks driving now, and some to assign (issue 33).
  const loadsStarted = Date.now();
  const l = await ensureDemoLoads(app.db, org.id, trucks, Date.now(), routingOf(config));
  if (l.delivered + l.running + l.unassigned) {
    log(`Demo fleet: ${l.delivered} delivered loads, ${l.running} running (${l.atRisk} at risk), ${l.unassigned} to assign in ${((Date.now() - loadsStarted) / 1000).toFixed(1)} s`);
  }
  // The drivers' conversations with dispatch, about those loads (issue 44).
  const m = await ensureDemoMessages(app.db, org.id);
  if (m) log(`Demo fleet: ${m} messages between drivers and dispatch`);
  return trucks;
}

/**
 * The demo trucks report live (after seedDemoHistory): the phones post through the real OsmAnd
 * endpoint; the Teltonika trucks record from where their history ends and send codec 8E packets to
 * the server's own Teltonika port, or to ingest in process when TELTONIKA_PORT is 0 (decision 0156).
 */
export function driveDemoFleet(app: FastifyInstance, config: Config, trucks: readonly DemoTruck[], log: (msg: string) => void): { stop(): void } {
  const phones = trucks.filter((t) => !t.engine);
  const engines = trucks.flatMap((t) => (t.engine ? [{ index: t.index, engine: t.engine, recordingFrom: t.historyUntil }] : []));
  const target = config.osmandPort ? `http://127.0.0.1:${config.osmandPort}/` : `http://127.0.0.1:${config.port}/api/v1/ingest/osmand`;
  const osmand = runLiveSimulator(phones, target, 10, (err) => app.log.warn({ err }, 'demo fleet simulator: a post failed'));
  const teltonika = runTeltonikaTrucks(engines, config.teltonikaPort ? { port: config.teltonikaPort } : { ingest: app.ingest }, (err) =>
    app.log.warn({ err }, 'demo fleet simulator: a Teltonika packet was not acknowledged'),
  );
  const tcp = config.teltonikaPort ? `Teltonika port ${config.teltonikaPort}` : 'ingest in process (TELTONIKA_PORT=0)';
  log(`Demo fleet: ${trucks.length} trucks driving, ${phones.length} posting to ${target}, ${engines.length} Teltonika FMC650s sending to ${tcp}`);
  return {
    stop: () => {
      osmand.stop();
      teltonika.stop();
    },
  };
}
