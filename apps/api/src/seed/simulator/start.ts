import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { loads, organizations, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { ensureDemoLoads } from '../demo-loads.ts';
import { ensureDemoCustomers } from '../demo-customers.ts';
import { ensureDemoMessages } from '../demo-messages.ts';
import { ensureDemoTracking } from '../demo-tracking.ts';
import { ensureDemoInvoices } from '../demo-invoices.ts';
import { ensureDemoSettlements } from '../demo-settlements.ts';
import { ensureDemoCompliance } from '../demo-compliance.ts';
import { ensureDemoMaintenance } from '../demo-maintenance.ts';
import { ensureDemoEngineFaults } from '../demo-engine-faults.ts';
import { routingOf } from '../../modules/dispatch/index.ts';
import { ensureDemoPlaces } from '../demo-places.ts';
import { ensureDemoSafety } from '../demo-safety.ts';
import { DEMO_ORG_NAME, type SeedProgress } from '../seed.ts';
import { SeedMarks } from '../seed-marks.ts';
import { seedDemoHos } from './demo-hos.ts';
import { detectCrossings } from '../../modules/hos/index.ts';
import { DEMO_BORDER_TRUCK } from './truck-plan.ts';
import { ensureDemoFuelCards } from '../demo-fuel-cards.ts';
import { ensureDemoFuelLevel } from '../demo-fuel-level.ts';
import { ensureDemoReefers } from '../demo-reefers.ts';
import { ensureDemoDriverCards } from '../demo-driver-cards.ts';
import { demoIftaFrom, fileDemoQuarter, seedDemoIfta } from './demo-ifta.ts';
import { backfillDemoHistory, ensureDemoTrucks, findDemoTrucks, runLiveSimulator, type DemoTruck } from './demo-fleet.ts';
import { runTeltonikaTrucks } from './teltonika-device.ts';

/** The steps of the demo history, in order, as StartupProgress shows them. */
/** The parts of the demo history marked done once seeded (seed-marks.ts), in order. */
export const DEMO_PARTS = {
  hos: 'hos',
  crossings: 'crossings',
  safety: 'safety',
  maintenance: 'maintenance',
  ifta: 'ifta',
  fuelLevel: 'fuel-level',
  fuelCards: 'fuel-cards',
  statistics: 'statistics',
  notifications: 'notifications',
  places: 'places',
  customers: 'customers',
  loads: 'loads',
  messages: 'messages',
  tracking: 'tracking',
  invoices: 'invoices',
  settlements: 'settlements',
  compliance: 'compliance',
  reefers: 'reefers',
  driverCards: 'driver-cards',
} as const;

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
export async function seedDemoHistory(
  app: FastifyInstance,
  config: Config,
  log: (msg: string) => void,
  progress: SeedProgress = () => undefined,
): Promise<DemoTruck[]> {
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
  // Each part once (decision 0239): a start after a kill resumes at the first part not marked done,
  // and a later start makes none again (the positions of the gap above are new time: the followers'
  // catch-ups derive what follows from them, as from any positions stored while no one followed).
  const marks = await SeedMarks.load(app.db, org.id);
  // A database seeded before the marks: its loads are the history's last part.
  if (marks.empty && (await hasLoads(app.db, org.id))) for (const part of Object.values(DEMO_PARTS)) await marks.mark(part);
  const from = started - 7 * 86_400_000;
  await marks.once(DEMO_PARTS.hos, async () => {
    const hosStarted = Date.now();
    progress(DEMO_STEPS.hos, 0);
    const events = await seedDemoHos(app.db, org.id, trucks, from, started, (f) => progress(DEMO_STEPS.hos, f));
    if (events) log(`Demo fleet: ${events} HoS records for the week derived from the history in ${((Date.now() - hosStarted) / 1000).toFixed(1)} s`);
  });
  // The border crossings of the driver who runs Detroit to Toronto and back (issue 72): the history
  // went straight to the positions table, past the follower that finds them live.
  await marks.once(DEMO_PARTS.crossings, async () => {
    const border = trucks.find((t) => t.index === DEMO_BORDER_TRUCK);
    if (!border?.driverId) return;
    const crossings = await detectCrossings(app.db, org.id, border.driverId, from, started);
    if (crossings) log(`Demo fleet: ${crossings} border crossings of the Detroit-Toronto run`);
  });
  // The week's safety events from the history: speeding, harsh events, idling, and a coaching inbox
  // (issue 47). Before the statistics, the trips and the visits: it holds the history to the limits and
  // switches engines off at stops first, and those are derived from the positions.
  await marks.once(DEMO_PARTS.safety, async () => {
    const safetyStarted = Date.now();
    const [admin] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, config.demoAdmin.email));
    const safety = await ensureDemoSafety(app.db, org.id, trucks, app.safetyEvents, from, admin?.id ?? null, marks);
    if (safety) log(`Demo fleet: ${safety} safety events derived from the week in ${((Date.now() - safetyStarted) / 1000).toFixed(1)} s`);
  });
  // The week's inspection reports sit where the logs begin and end each shift (decision 0160).
  await marks.once(DEMO_PARTS.maintenance, async () => {
    const maintenanceStarted = Date.now();
    progress(DEMO_STEPS.maintenance, 0);
    const maintenance = await ensureDemoMaintenance(app.db, org.id, started);
    if (maintenance)
      log(
        `Demo fleet: ${maintenance.reports} inspection reports, ${maintenance.defects} defects, ${maintenance.workOrders} work orders and ${maintenance.schedules} maintenance schedules in ${((Date.now() - maintenanceStarted) / 1000).toFixed(1)} s`,
      );
    // Tractor 108's engine fault and the grounding codes (decision 0191).
    const faults = await ensureDemoEngineFaults(app.db, org.id, started);
    if (faults) log(`Demo fleet: ${faults} engine faults on tractor 108 (one active)`);
  });
  // IFTA: the weeks before the backfill from the plan, fuel at the fuel stops, then the backfilled
  // positions counted like any ingest (decisions 0121, 0127).
  await marks.once(DEMO_PARTS.ifta, async () => {
    const iftaStarted = Date.now();
    progress(DEMO_STEPS.ifta, 0);
    const [iftaDays, purchases] = await seedDemoIfta(app.db, org.id, trucks, demoIftaFrom(started), from, started);
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
    if (iftaDays || purchases)
      log(
        `Demo fleet: IFTA ${iftaDays} vehicle-days and ${purchases} fuel purchases since ${new Date(demoIftaFrom(started)).toISOString().slice(0, 10)} in ${((Date.now() - iftaStarted) / 1000).toFixed(1)} s`,
      );
  });
  // Tractors 110 and 116's fuel levels: the week's refuels, a night's drop and a cash refuel (issue 68).
  await marks.once(DEMO_PARTS.fuelLevel, async () => {
    const events = await ensureDemoFuelLevel(app.db, org.id, trucks, app.fuelEvents, from);
    if (events) log(`Demo fleet: ${events} refuels and drops found in the week's fuel levels`);
  });
  // The week's fuel-card transactions, checked against the backfilled positions (issue 68).
  await marks.once(DEMO_PARTS.fuelCards, async () => {
    const cards = await ensureDemoFuelCards(app.db, org.id, trucks, from, started);
    if (cards) log(`Demo fleet: ${cards} fuel-card transactions of the week verified against the trucks`);
  });
  // The history went straight to the positions table: its daily statistics are computed here, a
  // vehicle at a time (each marked), so the progress moves and requests are served in between.
  const vehicles = trucks.flatMap((t) => (t.assetId ? [t.assetId] : []));
  await marks.once(DEMO_PARTS.statistics, async () => {
    let days = 0;
    for (const [i, assetId] of vehicles.entries()) {
      progress(DEMO_STEPS.statistics, i / vehicles.length);
      days += (await marks.once(`${DEMO_PARTS.statistics}:${assetId}`, () => app.fleetStats.rebuildRange(org.id, [assetId], from, started))) ?? 0;
    }
    // A start that resumes after a kill between the last vehicle's mark and this part's finds every
    // vehicle done: nothing computed, nothing to say.
    if (days) log(`Demo fleet: daily statistics of ${days} vehicle days computed`);
  });
  // The week's violations are notified once (a fresh demo shows a bell with something in it).
  await marks.once(DEMO_PARTS.notifications, async () => {
    progress(DEMO_STEPS.notifications, 0);
    await app.fleetWatch.check(org.id, { clock: true, now: started, newsMs: 7 * 86_400_000 });
  });
  // Its terminals and customers, then the week's visits to them from the history (decision 0162):
  // done here, so they are there when /readyz says ready (the catch-up goes by latest rows, which
  // the backfill does not write).
  await marks.once(DEMO_PARTS.places, async () => {
    const placesStarted = Date.now();
    const made = await ensureDemoPlaces(app.db, org.id);
    await app.placeVisits.recomputeVehicles(org.id, vehicles, from);
    log(`Demo fleet: ${made} places, the week's visits to them in ${((Date.now() - placesStarted) / 1000).toFixed(1)} s`);
  });
  // The customers the loads are billed to (issue 70; a demo seeded before them gets them too).
  await marks.once(DEMO_PARTS.customers, async () => {
    const made = await ensureDemoCustomers(app.db, org.id);
    if (made) log(`Demo fleet: ${made} customers (shippers and brokers) with their billing and detention terms`);
  });
  // The week's loads from those visits, loads on the trucks driving now, and some to assign (issue 33).
  await marks.once(DEMO_PARTS.loads, async () => {
    const loadsStarted = Date.now();
    const l = await ensureDemoLoads(app.db, org.id, trucks, Date.now(), routingOf(config));
    if (l.delivered + l.running + l.unassigned) {
      log(
        `Demo fleet: ${l.delivered} delivered loads, ${l.running} running (${l.atRisk} at risk), ${l.unassigned} to assign in ${((Date.now() - loadsStarted) / 1000).toFixed(1)} s`,
      );
    }
  });
  // The drivers' conversations with dispatch, about those loads (issue 44).
  await marks.once(DEMO_PARTS.messages, async () => {
    const m = await ensureDemoMessages(app.db, org.id);
    if (m) log(`Demo fleet: ${m} messages between drivers and dispatch`);
  });
  // A running load's customer contacts and tracking link (issue 69).
  await marks.once(DEMO_PARTS.tracking, async () => {
    const made = await ensureDemoTracking(app.db, org.id, app.apiTokenKey, config.publicUrl);
    if (made) log(`Demo fleet: load ${made.loadNumber} has two customer contacts and a tracking link: ${made.url}`);
  });
  // A month of invoices of the delivered loads, some paid, some late (issue 70).
  await marks.once(DEMO_PARTS.invoices, async () => {
    const made = await ensureDemoInvoices(app.db, org.id);
    if (made)
      log(
        `Demo fleet: ${made.invoices} invoices (${made.paid} paid, ${made.late} past due) of the delivered loads, ${made.loads} of them delivered before the simulated week`,
      );
  });
  // Pay profiles, a lease and an advance, and last week's settlements from those loads (issue 70).
  await marks.once(DEMO_PARTS.settlements, async () => {
    const [admin] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, config.demoAdmin.email));
    const pay = await ensureDemoSettlements(app.db, org.id, admin?.id ?? null);
    if (pay.settlements.length) log(`Demo fleet: ${pay.profiles} pay profiles, last week's settlements ${pay.settlements.join(', ')}`);
  });
  // Qualification files and the units' papers (issue 71): 101's driver's medical certificate runs out
  // in 5 days (a renewal waits for approval), 104's annual inspection has lapsed, 105's driver has no
  // Clearinghouse full query.
  await marks.once(DEMO_PARTS.compliance, async () => {
    const made = await ensureDemoCompliance(app.db, org.id);
    if (made.items) log(`Demo fleet: ${made.items} compliance papers of the drivers and units, ${made.pending} renewal waiting for approval`);
  });
  // Two reefer loads with their trailers' temperatures, one with an excursion last night (issue 73).
  await marks.once(DEMO_PARTS.reefers, async () => {
    const made = await ensureDemoReefers(app.db, org.id, trucks, Date.now());
    if (made.loads.length) log(`Demo fleet: reefer loads ${made.loads.join(' and ')}: ${made.readings} temperature readings, ${made.excursions} excursion`);
  });
  // A driver's card read by their truck's Teltonika device, and a card no driver has read by another (issue 73).
  await marks.once(DEMO_PARTS.driverCards, async () => {
    const made = await ensureDemoDriverCards(app.db, org.id, trucks, Date.now());
    if (made)
      log(
        `Demo fleet: ${made.driver}'s driver card read on vehicle ${made.vehicle}${made.unknownOn ? `; an unknown card read on vehicle ${made.unknownOn}` : ''}`,
      );
  });
  return trucks;
}

async function hasLoads(db: Db, orgId: string): Promise<boolean> {
  return (await db.select({ id: loads.id }).from(loads).where(eq(loads.organizationId, orgId)).limit(1)).length > 0;
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
