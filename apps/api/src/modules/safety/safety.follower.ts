import { SAFETY_EVENT_TYPE_LABELS, type PlaceGeometry, type SafetySettings } from '@fleet/api-contract';
import { speedLimitIndex } from '@fleet/geo/speed-limits';
import { describeLocation } from '@fleet/geo/places';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { assets } from '../../db/schema/index.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import { PlaceIndex } from '../places/index.ts';
import { fixesElsewhere, QueuedFollower, VehicleQueue, type PositionRow, type Round, type WorkedSpan } from '../positions/index.ts';
import {
  blankSafetyTrack,
  draftKey,
  openDrafts,
  stepSafety,
  type EventDraft,
  type MachineContext,
  type SafetyFix,
  type SafetyTrack,
} from './safety-machine.ts';
import * as repo from './safety.repository.ts';
import { emitSafetyCreated } from './safety-webhooks.ts';
import { signalsOf } from './signals.ts';

// Safety events behind ingest (issue 47, decision 0194), a follower of the position commit like place
// visits: committed fixes go to the vehicle queue and are worked in rounds, in fix-time order, through
// the safety machine. Each vehicle's state is kept in memory; a vehicle without one (a restart), with a
// fix older than what it has worked (late, reversed delivery) or handed late (a pairing, an import) is
// recomputed from stored positions from the last fix before it at which nothing was open: the machine
// is then in the same state as in order, so the replay gives exactly the events an in-order stream
// gives, and the events' key (vehicle, type, source, start) makes writing them twice write them once.

/** Fixes this much older than the clock make events but no notification (history, a catch-up). */
export const NOTIFY_WITHIN_MS = 30 * 60_000;
const MAX_REPLAY_MS = 8 * 86_400_000;
/** Vehicles a server's replay reads and writes together (each read may hold hours of fixes). */
const REPLAY_CHUNK = 10;
const SETTINGS_TTL_MS = 30_000;
const OPEN_WRITE_MS = 30_000;
/** Protocols whose devices have no accelerometer: phones (OsmAnd), batches, the simulator. Harsh events are estimated from their fixes. */
const GPS_ONLY = new Set(['osmand', 'batch', 'simulator']);

interface QueuedFix extends SafetyFix {
  protocol: string;
}

interface OrgSafety {
  settings: SafetySettings;
  classOf: Map<string, SafetySettings['defaultVehicleClass']>;
  yards: PlaceIndex | null;
  loadedAt: number;
}

interface VehicleState {
  track: SafetyTrack;
  /** The vehicle's device has no accelerometer (its last fix's protocol). */
  gpsOnly: boolean;
}

export interface SafetyFollowerOptions {
  onError?: (err: unknown) => void;
  /**
   * Other instances may store this organization's fixes (a shared PostgreSQL or Citus, not the
   * embedded database): a vehicle whose stored fixes since its state include some this instance
   * never heard of steps through every stored fix since then.
   */
  shared?: boolean;
  flushMs?: number;
  now?: () => number;
}

export class SafetyEvents extends QueuedFollower<QueuedFix> {
  protected readonly queue: VehicleQueue<QueuedFix>;
  private readonly vehicles = new Map<string, VehicleState>();
  private readonly orgs = new Map<string, OrgSafety>();
  /**
   * Vehicles with fixes of a failed round, never worked: their next round recomputes them from the
   * first of those on (decision 0328), not from its own first fix.
   */
  private readonly unworked = new Map<string, number>();
  /** Vehicles handed positions late: recomputed from the database whatever their state. */
  private readonly forced = new Set<string>();
  private readonly told = new Set<string>();
  /** Episodes under way: the end last written (fix time). */
  private readonly openWritten = new Map<string, number>();
  private readonly onError: (err: unknown) => void;
  private readonly now: () => number;
  private readonly shared: boolean;
  readonly stats = { rounds: 0, fixes: 0, replays: 0, written: 0, failures: 0 };
  flushMs: number;

  constructor(
    private readonly db: Db,
    opts: SafetyFollowerOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.now = opts.now ?? Date.now;
    this.shared = opts.shared ?? false;
    this.flushMs = opts.flushMs ?? 1000;
    this.queue = new VehicleQueue<QueuedFix>({
      fixOf: (r) => fixOf(r),
      pauseMs: () => this.flushMs,
      byOrganization: true,
      passes: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The positions are stored: these vehicles are recomputed from them on their next fixes, from
        // the failed round's first fix on (decision 0328).
        for (const [assetId, { fixes }] of items) {
          this.vehicles.delete(assetId);
          const first = fixes.reduce((m, f) => Math.min(m, f.t), this.unworked.get(assetId) ?? Infinity);
          if (Number.isFinite(first)) this.unworked.set(assetId, first);
        }
        this.stats.failures++;
        this.onError(err);
      },
    });
  }

  /** Positions stored earlier that now belong to a vehicle: recomputed from the database (their attributes are there). */
  enqueueLate(rows: readonly PositionRow[]): void {
    for (const r of rows) if (r.assetId) this.forced.add(r.assetId);
    this.enqueue(
      rows,
      rows.map(() => true),
    );
  }

  /** The organization's settings, vehicle classes and yards (read again every 30 s). */
  async orgOf(orgId: string): Promise<OrgSafety> {
    const known = this.orgs.get(orgId);
    if (known && this.now() - known.loadedAt < SETTINGS_TTL_MS) return known;
    const settings = await repo.readSettings(this.db, orgId);
    const yards = settings.excludeYards ? await repo.readYards(this.db, orgId) : [];
    const org: OrgSafety = {
      settings,
      classOf: new Map(settings.vehicleClasses.map((v) => [v.assetId, v.vehicleClass])),
      yards: yards.length
        ? new PlaceIndex(
            yards.map((y) => ({
              id: y.id,
              name: '',
              category: 'YARD',
              groupId: null,
              geometry: (typeof y.geometry === 'string' ? JSON.parse(y.geometry) : y.geometry) as PlaceGeometry,
              radiusM: y.radius_m === null ? null : Number(y.radius_m),
              arrivalDwellS: 0,
              departureDwellS: 0,
            })),
          )
        : null,
      loadedAt: this.now(),
    };
    this.orgs.set(orgId, org);
    return org;
  }

  /** Settings changed (the PUT): read again on the next round. */
  settingsChanged(orgId: string): void {
    this.orgs.delete(orgId);
  }

  private contextOf(org: OrgSafety, assetId: string, gpsOnly: boolean): MachineContext {
    const vehicleClass = org.classOf.get(assetId) ?? org.settings.defaultVehicleClass;
    const heavy = vehicleClass !== 'LIGHT';
    const limits = speedLimitIndex();
    const yards = org.yards;
    return {
      settings: org.settings,
      thresholds: org.settings.thresholds[vehicleClass],
      gpsHarsh: gpsOnly,
      limitAt: (lat, lon) => limits.at(lat, lon, heavy),
      inYard: (lat, lon) => (yards ? yards.placesAt(lat, lon).length > 0 : false),
    };
  }

  private async round(orgId: string, items: Round<QueuedFix>): Promise<void> {
    this.stats.rounds++;
    const org = await this.orgOf(orgId);
    const drafts: Array<{ assetId: string; draft: EventDraft }> = [];
    const replays: Array<{ assetId: string; from: number }> = [];
    for (const [, { fixes }] of items) fixes.sort((a, b) => a.t - b.t);
    const elsewhere = this.shared ? await this.othersFixes(orgId, items) : new Map<string, QueuedFix[]>();
    for (const [assetId, waiting] of items) {
      // With another instance's fixes among them: every stored fix since the state, in order.
      const fixes = elsewhere.get(assetId) ?? waiting.fixes;
      if (fixes.length === 0) continue;
      this.stats.fixes += fixes.length;
      const state = this.vehicles.get(assetId);
      const unworked = this.unworked.get(assetId);
      if (!state || fixes[0]!.t <= state.track.t || this.forced.has(assetId) || unworked !== undefined) {
        this.forced.delete(assetId);
        replays.push({ assetId, from: Math.min(fixes[0]!.t, state?.track.t ?? Infinity, unworked ?? Infinity) });
        continue;
      }
      state.gpsOnly = GPS_ONLY.has(fixes[fixes.length - 1]!.protocol);
      const ctx = this.contextOf(org, assetId, state.gpsOnly);
      const latest = new Map<string, EventDraft>();
      for (const f of fixes) for (const d of stepSafety(state.track, f, ctx)) latest.set(draftKey(d), d);
      // Episodes under way, as they stand at the round's end (the machine drafts them only when asked).
      for (const d of openDrafts(state.track, ctx)) latest.set(draftKey(d), d);
      for (const draft of latest.values()) {
        // An episode under way is written when it becomes an event, then at most every 30 s of its
        // fixes; its end is always written (so what is stored at the end is the same either way).
        const k = `${assetId}|${draftKey(draft)}`;
        if (draft.open) {
          const at = this.openWritten.get(k);
          if (at !== undefined && draft.endedAt - at < OPEN_WRITE_MS) continue;
          if (this.openWritten.size > 100_000) this.openWritten.clear();
          this.openWritten.set(k, draft.endedAt);
        } else this.openWritten.delete(k);
        drafts.push({ assetId, draft });
      }
    }
    // The events and their webhooks (safety.event_created) in one transaction.
    const written =
      drafts.length === 0
        ? []
        : await this.db.transaction(async (tx) => {
            const w = await repo.upsertEvents(tx, orgId, drafts);
            await emitSafetyCreated(tx, orgId, w);
            return w;
          });
    if (replays.length)
      written.push(
        ...(await this.recomputeMany(
          orgId,
          replays.map((r) => ({ assetId: r.assetId, fromMs: r.from })),
          org,
        )),
      );
    for (const r of replays) this.unworked.delete(r.assetId);
    this.stats.written += written.length;
    const marks = new Map<string, number>();
    for (const [assetId] of items) {
      const t = this.vehicles.get(assetId)?.track.t;
      if (t !== undefined && Number.isFinite(t)) marks.set(assetId, t);
    }
    await repo.writeMarks(this.db, orgId, marks);
    await this.tell(orgId, written);
  }

  /**
   * The round's vehicles another instance stored fixes of since the fix their state ends at (a device
   * behind a load balancer), with every stored fix of theirs from there to the round's newest:
   * stepping through those instead of the round's own keeps the state the in-order one (the state
   * at its last fix is exact, and the fixes after it are all there, in order). Two statements for
   * the round, the second only when some vehicle has such fixes.
   */
  private async othersFixes(orgId: string, items: Round<QueuedFix>): Promise<Map<string, QueuedFix[]>> {
    const spans: WorkedSpan[] = [];
    for (const [assetId, { fixes }] of items) {
      const state = this.vehicles.get(assetId);
      if (!state || !Number.isFinite(state.track.t) || fixes.length === 0 || fixes[0]!.t <= state.track.t || this.forced.has(assetId)) continue;
      spans.push({ assetId, fromMs: state.track.t, toMs: fixes[fixes.length - 1]!.t, n: new Set(fixes.map((f) => f.t)).size });
    }
    const stored = await fixesElsewhere(this.db, orgId, spans, repo.STORED_FIX_TUPLE);
    return new Map([...stored].map(([assetId, tuples]) => [assetId, tuples.map(repo.storedFixOf)]));
  }

  /**
   * The vehicle's events from stored positions, from the last fix before `fromMs` at which nothing was
   * open: its events after that fix are replaced by the replay's, and its state becomes the replay's.
   */
  async recompute(orgId: string, assetId: string, fromMs: number, known?: OrgSafety): Promise<repo.WrittenEvent[]> {
    return this.recomputeMany(orgId, [{ assetId, fromMs }], known);
  }

  /**
   * `recompute` for several vehicles of one organization: their fixes read together (one statement a
   * widening of the window, for the vehicles that need it), their events replaced in one transaction.
   * Up to REPLAY_CHUNK vehicles at a time on a server, where every statement costs a plan and a round
   * trip (on Citus the coordinator's and the worker's: a second instance behind a load balancer replays
   * each vehicle it meets, issue 49); one at a time on the embedded database, whose statements hold
   * ingest while they run.
   */
  async recomputeMany(orgId: string, asks: ReadonlyArray<{ assetId: string; fromMs: number }>, known?: OrgSafety): Promise<repo.WrittenEvent[]> {
    const org = known ?? (await this.orgOf(orgId));
    const chunk = this.shared ? REPLAY_CHUNK : 1;
    const written: repo.WrittenEvent[] = [];
    for (let i = 0; i < asks.length; i += chunk) written.push(...(await this.replayChunk(orgId, asks.slice(i, i + chunk), org)));
    return written;
  }

  private async replayChunk(orgId: string, asks: ReadonlyArray<{ assetId: string; fromMs: number }>, org: OrgSafety): Promise<repo.WrittenEvent[]> {
    this.stats.replays += asks.length;
    const floor = this.now() - MAX_REPLAY_MS;
    const done: Array<{ assetId: string; cutMs: number; drafts: EventDraft[]; state: VehicleState }> = [];
    // Each vehicle's window widens (x4 from an hour) until a blank point before its first new fix is in it.
    let pending = asks.map((a) => ({ ...a, windowMs: 3_600_000 }));
    while (pending.length) {
      const startOf = (a: { fromMs: number; windowMs: number }) => Math.max(a.fromMs - a.windowMs, Math.min(floor, a.fromMs - 3_600_000));
      const read = await repo.readFixesMany(
        this.db,
        orgId,
        pending.map((a) => ({ assetId: a.assetId, fromMs: startOf(a) })),
      );
      const wider: typeof pending = [];
      for (const a of pending) {
        const { fixes, older } = read.get(a.assetId)!;
        if (fixes.length === 0) continue;
        let start = startOf(a);
        const gpsOnly = GPS_ONLY.has(fixes[fixes.length - 1]!.protocol);
        const ctx = this.contextOf(org, a.assetId, gpsOnly);
        const track = blankSafetyTrack();
        const events = new Map<string, EventDraft>();
        let cut = -Infinity;
        let found = false;
        for (let i = 0; i < fixes.length; i++) {
          const f = fixes[i]!;
          for (const d of stepSafety(track, f, ctx)) events.set(draftKey(d), d);
          // A blank point with two fixes before it (the central difference's) and before the first new fix.
          if (i >= 2 && f.t < a.fromMs && !track.speeding && !track.maxSpeed && !track.idling && !track.harsh) {
            cut = f.t;
            found = true;
          }
        }
        for (const d of openDrafts(track, ctx)) events.set(draftKey(d), d);
        const quiet = !fixes.some((f) => f.t < a.fromMs);
        if (!found && !quiet && start > floor) {
          if (older) {
            wider.push({ ...a, windowMs: a.windowMs * 4 });
            continue;
          }
          // Nothing stored before this window: the wider ones would read the same fixes and end at the
          // floor, so cut where the widest would (a vehicle's first day, a bench's one earlier fix).
          let windowMs = a.windowMs;
          while (start > floor) {
            windowMs *= 4;
            start = startOf({ fromMs: a.fromMs, windowMs });
          }
        }
        // Nothing before the new fixes within reach: everything from the window's start is the replay's.
        const cutMs = found ? cut : start - 1;
        const drafts = [...events.values()].filter((d) => d.startedAt > cutMs || (d.source === 'GPS_ESTIMATED' && d.startedAt === cutMs));
        done.push({ assetId: a.assetId, cutMs, drafts, state: { track, gpsOnly } });
      }
      pending = wider;
    }
    if (done.length === 0) return [];
    const written = await this.db.transaction(async (tx) => {
      const w = await repo.replaceEventsMany(tx, orgId, done);
      await emitSafetyCreated(tx, orgId, w);
      return w;
    });
    for (const d of done) this.remember(d.assetId, d.state);
    return written;
  }

  private remember(assetId: string, state: VehicleState): void {
    this.vehicles.delete(assetId);
    this.vehicles.set(assetId, state);
    if (this.vehicles.size > 200_000) this.vehicles.delete(this.vehicles.keys().next().value!);
  }

  /** Crashes and severe events, at once (by each user's notification choices), once per event. */
  private async tell(orgId: string, written: readonly repo.WrittenEvent[]): Promise<void> {
    const now = this.now();
    const severe = written.filter((w) => (w.draft.severity === 'CRITICAL' || w.draft.severity === 'HIGH') && now - w.draft.endedAt <= NOTIFY_WITHIN_MS);
    const fresh = severe.filter((w) => !this.told.has(factKey(w)));
    if (fresh.length === 0) return;
    const units = await this.db
      .select({ id: assets.id, unitNumber: assets.unitNumber })
      .from(assets)
      .where(
        and(
          eq(assets.organizationId, orgId),
          inArray(
            assets.id,
            fresh.map((w) => w.assetId),
          ),
        ),
      );
    const unitOf = new Map(units.map((u) => [u.id, u.unitNumber]));
    const notices: NotifyInput[] = fresh.map((w) => {
      const d = w.draft;
      const where = describeLocation(d.lat, d.lon).text;
      const crash = d.type === 'CRASH';
      return {
        organizationId: orgId,
        kind: crash ? 'SAFETY_CRASH' : 'SAFETY_SEVERE',
        factKey: factKey(w),
        title: `Vehicle ${unitOf.get(w.assetId) ?? '?'}: ${SAFETY_EVENT_TYPE_LABELS[d.type].toLowerCase()}${d.band ? ` (${d.band.toLowerCase()})` : ''}`,
        body: crash
          ? `The device reported a crash ${where}. Call the driver.`
          : `${SAFETY_EVENT_TYPE_LABELS[d.type]} ${where}${d.strengthMps2 ? `, ${d.strengthMps2} m/s²` : ''}.`,
        link: `/safety?event=${w.id}`,
        linkLabel: 'Review the event',
        occurredAt: d.startedAt,
      };
    });
    await notifyMany(this.db, notices);
    for (const w of fresh) this.told.add(factKey(w));
    if (this.told.size > 50_000) this.told.clear();
  }

  /** Vehicles whose positions were stored while nothing followed them (a restart): recomputed from their mark (at most 8 days back). */
  async catchUp(): Promise<number> {
    const behind = await repo.vehiclesBehindMarks(this.db);
    for (const v of behind) {
      const written = await this.recompute(v.orgId, v.assetId, v.mark ?? this.now() - MAX_REPLAY_MS);
      const t = this.vehicles.get(v.assetId)?.track.t;
      if (t !== undefined && Number.isFinite(t)) await repo.writeMarks(this.db, v.orgId, new Map([[v.assetId, t]]));
      await this.tell(v.orgId, written);
    }
    return behind.length;
  }

  /** These vehicles' events from positions since `fromMs` (positions written in bulk: the demo week). */
  async recomputeVehicles(orgId: string, assetIds: readonly string[], fromMs: number): Promise<number> {
    let n = 0;
    for (const assetId of assetIds) n += (await this.recompute(orgId, assetId, fromMs)).length;
    return n;
  }

  /** Forgets every vehicle's state (tests: the next fixes recompute from positions). */
  forget(): void {
    this.vehicles.clear();
  }
}

const factKey = (w: repo.WrittenEvent) => `safety:${w.assetId}:${w.draft.type}:${w.draft.source}:${w.draft.startedAt}`;

function fixOf(r: PositionRow): QueuedFix {
  const s = signalsOf(r.attributes, r.protocol === 'traccar');
  return {
    t: r.fixTime.getTime(),
    lat: r.latitude,
    lon: r.longitude,
    speed: r.speed,
    ignition: r.ignition,
    driverId: r.driverId,
    protocol: r.protocol,
    signals: s.signals,
    idling: s.idling,
    fuelUsedL: s.fuelUsedL,
  };
}
