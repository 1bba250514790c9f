import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { FleetWatch } from '../jobs/fleet-watch.ts';
import type { EngineFaults } from '../modules/engine-faults/index.ts';
import type { FleetStats } from '../modules/fleet-stats/index.ts';
import type { AutoDuty, BorderCrossings, EngineEvents } from '../modules/hos/index.ts';
import type { FuelEvents, IftaMiles } from '../modules/ifta/index.ts';
import type { PlaceVisits } from '../modules/places/index.ts';
import { RefusedFixes, startFollowers } from '../modules/positions/index.ts';
import { watchIngestHealth } from '../modules/positions/ingest-alerts.ts';
import { LiveHub } from '../modules/positions/live.service.ts';
import { ensurePositionPartitions, schedulePartitionMaintenance } from '../modules/positions/partitions.ts';
import { createIngest, type Ingest } from '../modules/positions/pipeline/ingest.service.ts';
import type { TripsStops } from '../modules/reports/index.ts';
import type { SafetyEvents } from '../modules/safety/index.ts';
import { FOLLOWERS, tieFollowers } from './followers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ingest: Ingest;
    autoDuty: AutoDuty;
    /** Engine power-up and shut-down records behind ingest (decision 0155). */
    engineEvents: EngineEvents;
    /** Engine fault codes behind ingest (decision 0191). */
    engineFaults: EngineFaults;
    iftaMiles: IftaMiles;
    /** Arrivals and departures at places behind ingest (decision 0162). */
    placeVisits: PlaceVisits;
    /** Harsh driving, speeding, idling and crashes behind ingest (decision 0194). */
    safetyEvents: SafetyEvents;
    /** Refuels and drops from the fuel level behind ingest (decision 0276). */
    fuelEvents: FuelEvents;
    /** This instance's live-map fan-out (the map benchmark publishes through it). */
    liveHub: LiveHub;
    /** Vehicle daily statistics kept behind ingest (decision 0131). */
    fleetStats: FleetStats;
    /** Trips and stops behind ingest (decision 0163). */
    tripsStops: TripsStops;
    /** Notification detectors behind ingest and on the clock (decision 0130); main.ts starts its clock. */
    fleetWatch: FleetWatch;
    /** US-Canada border crossings of drivers behind ingest (issue 72, decision 0313). */
    borderCrossings: BorderCrossings;
  }
}

/** The started pipeline: what the routes serve, and what the server stops when it closes (app.ts keeps the order). */
export interface PositionPipeline {
  ingest: Ingest;
  liveHub: LiveHub;
  /** Stops its clocks: positions partition upkeep, then ingest-health alerts. */
  stopTimers(): void;
}

/**
 * The position pipeline wired once (modules/positions/pipeline): decode -> check -> group commit,
 * and the followers of a commit behind it, listed in followers.ts. Each follower's object is
 * decorated under its name; device ingest is shared with the OsmAnd port that main.ts opens.
 */
export async function startPositionPipeline(app: FastifyInstance, db: Database, config: Config): Promise<PositionPipeline> {
  const followers = startFollowers(FOLLOWERS, {
    database: db,
    config,
    onError: (what) => (err) => app.log.error(err, `${what} failed`),
    info: (message) => app.log.info(message),
  });
  tieFollowers(db.db, followers.byName);
  // PGlite is one connection in this process: a second writer would only queue behind the first.
  const ingest = createIngest(db.db, {
    writers: db.kind === 'pglite' ? 1 : config.ingestWriters,
    deviceCacheEntries: config.deviceCacheEntries,
    followers: followers.following,
    refusedFixes: new RefusedFixes(db.db, { onError: (err, what) => app.log.error(err, `${what} failed`) }),
    logError: (err, message) => app.log.error(err, message),
  });
  // Organizations whose positions fail to store for a minute: their administrators are told.
  const stopIngestAlerts = watchIngestHealth(ingest.health, db.db, (err) => app.log.error(err, 'ingest health notification failed'));
  app.decorate('ingest', ingest);
  for (const [name, it] of Object.entries(followers.byName) as Array<[string, unknown]>) app.decorate(name, it);
  await ensurePositionPartitions(db.db);
  const stopPartitions = schedulePartitionMaintenance(db.db, (err) => app.log.error(err, 'positions partition maintenance failed'));
  const liveHub = new LiveHub(db, (err) => app.log.error(err, 'live map fan-out failed'));
  await liveHub.start();
  app.decorate('liveHub', liveHub);
  return {
    ingest,
    liveHub,
    stopTimers: () => {
      stopPartitions();
      stopIngestAlerts();
    },
  };
}
