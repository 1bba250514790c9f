import { DEFAULT_TANK_CAPACITY_L } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import { fixesElsewhere, QueuedFollower, VehicleQueue, type PositionRow, type Round, type WorkedSpan } from '../positions/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import { organizationFacts } from './fuel-purchases.service.ts';
import { eventDescription, pctText, placeText } from './fuel-event-words.ts';
import { blankFuelTrack, stepFuel, type FuelEventDraft, type FuelFix, type FuelTrack } from './fuel-level-machine.ts';
import {
  FUEL_FIX_TUPLE,
  markedVehicles,
  readFuelFixes,
  readTanks,
  replaceFuelEvents,
  storedFuelFixOf,
  unitNumbers,
  upsertFuelEvents,
  vehiclesBehindFuelMarks,
  writeFuelMarks,
  type FuelEventValues,
  type WrittenFuelEvent,
} from './fuel-events.repository.ts';
import { reverifyAroundRefuels } from './fuel-transactions.service.ts';

// Refuels and drops behind ingest (issue 68, decision 0276), a follower of the position commit like
// the safety events: committed fixes go to the vehicle queue and are worked in rounds, in fix-time
// order, through the fuel-level machine (fuel-level-machine.ts). Each vehicle's track is kept in
// memory. A vehicle with no track that reports a level (a restart), a fix older than what was worked
// (late, reversed), or positions handed late is replayed from its stored positions from the last
// moving fix before them: the machine is blank there, so the replay gives the events an in-order
// stream gives, and their key (vehicle, type, start) makes writing them again write nothing.
// A vehicle that never reported a level costs a track in memory and no statement.

/** Drops this much older than the clock are recorded (and sent as webhooks) but notify nobody: history, a catch-up. */
export const NOTIFY_WITHIN_MS = 6 * 3_600_000;
const MAX_REPLAY_MS = 8 * 86_400_000;
const ORG_TTL_MS = 30_000;

interface OrgFuel {
  tanks: Map<string, number | null>;
  /** Vehicles known to report a level (they have a mark). */
  marked: Set<string>;
  loadedAt: number;
}

const hasLevel = (f: FuelFix) => f.levelPct !== null || f.levelL !== null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A committed row as the machine reads it: speed as stored (a real), the level attributes when they are numbers. */
export function fuelFixOf(r: PositionRow): FuelFix {
  return {
    t: r.fixTime.getTime(),
    lat: r.latitude,
    lon: r.longitude,
    speed: r.speed === null ? null : Math.fround(r.speed),
    ignition: r.ignition,
    driverId: r.driverId,
    levelPct: num(r.attributes.fuelLevel),
    levelL: num(r.attributes.fuelLevelLitres),
  };
}

export interface FuelEventsOptions {
  onError?: (err: unknown) => void;
  /** Other instances may store this organization's fixes (a shared PostgreSQL or Citus): see safety.follower.ts. */
  shared?: boolean;
  flushMs?: number;
  now?: () => number;
}

export class FuelEvents extends QueuedFollower<FuelFix> {
  protected readonly queue: VehicleQueue<FuelFix>;
  private readonly vehicles = new Map<string, FuelTrack>();
  private readonly orgs = new Map<string, OrgFuel>();
  /**
   * Vehicles with fixes of a failed round, never worked: their next round replays them from the
   * first of those on (decision 0328), not from its own first fix.
   */
  private readonly unworked = new Map<string, number>();
  /** Vehicles handed positions late: replayed whatever their track. */
  private readonly forced = new Set<string>();
  private readonly onError: (err: unknown) => void;
  private readonly now: () => number;
  private readonly shared: boolean;
  readonly stats = { rounds: 0, replays: 0, written: 0, failures: 0 };
  flushMs: number;

  constructor(
    private readonly db: Db,
    opts: FuelEventsOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.now = opts.now ?? Date.now;
    this.shared = opts.shared ?? false;
    this.flushMs = opts.flushMs ?? 1000;
    this.queue = new VehicleQueue<FuelFix>({
      fixOf: fuelFixOf,
      pauseMs: () => this.flushMs,
      byOrganization: true,
      passes: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The positions are stored: these vehicles are replayed from them on their next fixes, from
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

  /** Positions stored earlier that now belong to a vehicle: replayed from the database (their attributes are there). */
  enqueueLate(rows: readonly PositionRow[]): void {
    for (const r of rows) if (r.assetId) this.forced.add(r.assetId);
    this.enqueue(
      rows,
      rows.map(() => true),
    );
  }

  private async orgOf(orgId: string): Promise<OrgFuel> {
    const known = this.orgs.get(orgId);
    if (known && this.now() - known.loadedAt < ORG_TTL_MS) return known;
    const org: OrgFuel = { tanks: await readTanks(this.db, orgId), marked: new Set((await markedVehicles(this.db, orgId)).keys()), loadedAt: this.now() };
    this.orgs.set(orgId, org);
    return org;
  }

  /** A vehicle's tank changed (the registry's PUT): read again on the next round. */
  tanksChanged(orgId: string): void {
    this.orgs.delete(orgId);
  }

  private tankOf(org: OrgFuel, assetId: string): { capacityL: number; assumed: boolean } {
    const tank = org.tanks.get(assetId) ?? null;
    return tank !== null && tank > 0 ? { capacityL: tank, assumed: false } : { capacityL: DEFAULT_TANK_CAPACITY_L, assumed: true };
  }

  private async round(orgId: string, items: Round<FuelFix>): Promise<void> {
    this.stats.rounds++;
    const org = await this.orgOf(orgId);
    const events: FuelEventValues[] = [];
    const replays: Array<{ assetId: string; fromMs: number }> = [];
    for (const [, w] of items) w.fixes.sort((a, b) => a.t - b.t);
    const elsewhere = this.shared ? await this.othersFixes(orgId, items, org) : new Map<string, FuelFix[]>();
    for (const [assetId, waiting] of items) {
      const fixes = elsewhere.get(assetId) ?? waiting.fixes;
      if (fixes.length === 0) continue;
      let track = this.vehicles.get(assetId);
      const unworked = this.unworked.get(assetId);
      if (
        this.forced.has(assetId) ||
        unworked !== undefined ||
        (track && fixes[0]!.t <= track.t) ||
        (!track && (org.marked.has(assetId) || fixes.some(hasLevel)))
      ) {
        this.forced.delete(assetId);
        replays.push({ assetId, fromMs: Math.min(fixes[0]!.t, track?.t ?? Infinity, unworked ?? Infinity) });
        continue;
      }
      // Never a level heard of: a blank track goes on from these fixes.
      if (!track) this.remember(assetId, (track = blankFuelTrack()));
      const tank = this.tankOf(org, assetId);
      for (const f of fixes) for (const d of stepFuel(track, f, tank)) events.push(valuesOf(assetId, d, tank));
    }
    const written = events.length ? await this.db.transaction((tx) => this.write(tx, orgId, (db) => upsertFuelEvents(db, orgId, events))) : [];
    for (const r of replays) {
      written.push(...(await this.replay(orgId, r.assetId, r.fromMs, org)));
      this.unworked.delete(r.assetId);
    }
    this.stats.written += written.length;
    await this.mark(
      orgId,
      org,
      items.map(([assetId]) => assetId),
    );
    await this.tell(orgId, written);
  }

  /** Events written in a transaction with what follows them: drops' webhooks, refuels' card transactions checked again. */
  private async write(tx: DbOrTx, orgId: string, put: (db: DbOrTx) => Promise<WrittenFuelEvent[]>): Promise<WrittenFuelEvent[]> {
    const written = await put(tx);
    const drops = written.filter((w) => w.type === 'DROP' && w.inserted);
    if (drops.length) {
      const units = await unitNumbers(
        tx,
        orgId,
        drops.map((d) => d.assetId),
      );
      const { units: system } = await organizationFacts(tx, orgId);
      await emitWebhookEvents(
        tx,
        drops.map((d) => ({
          orgId,
          type: 'fuel.drop_detected' as const,
          at: d.startedAt,
          data: {
            id: d.id,
            assetId: d.assetId,
            unitNumber: units.get(d.assetId) ?? '',
            driverId: d.driverId,
            startedAt: new Date(d.startedAt).toISOString(),
            endedAt: new Date(d.endedAt).toISOString(),
            lat: d.lat,
            lon: d.lon,
            place: placeText(d.lat, d.lon, system),
            quantityL: d.quantityL,
            levelBeforePct: d.levelBeforePct,
            levelAfterPct: d.levelAfterPct,
            levelBeforeL: d.levelBeforeL,
            levelAfterL: d.levelAfterL,
            ignitionOff: d.ignitionOff,
          },
        })),
      );
    }
    const refuels = written.filter((w) => w.type === 'REFUEL');
    if (refuels.length) await reverifyAroundRefuels(tx, orgId, refuels);
    return written;
  }

  /**
   * The round's vehicles another instance stored fixes of since their track's last fix, with every
   * stored fix of theirs from there (safety.follower.ts's othersFixes): only vehicles that report a
   * level are asked about, so a fleet without sensors costs no statement here.
   */
  private async othersFixes(orgId: string, items: Round<FuelFix>, org: OrgFuel): Promise<Map<string, FuelFix[]>> {
    const spans: WorkedSpan[] = [];
    for (const [assetId, { fixes }] of items) {
      const track = this.vehicles.get(assetId);
      if (!track || !Number.isFinite(track.t) || fixes.length === 0 || fixes[0]!.t <= track.t || this.forced.has(assetId)) continue;
      if (!track.sensor && !org.marked.has(assetId) && !fixes.some(hasLevel)) continue;
      spans.push({ assetId, fromMs: track.t, toMs: fixes[fixes.length - 1]!.t, n: new Set(fixes.map((f) => f.t)).size });
    }
    const stored = await fixesElsewhere(this.db, orgId, spans, FUEL_FIX_TUPLE);
    return new Map([...stored].map(([assetId, tuples]) => [assetId, tuples.map(storedFuelFixOf)]));
  }

  /**
   * A vehicle's events from its stored positions, from the last moving fix before `fromMs` (the
   * machine is blank there): its events after that fix become exactly the replay's, and its track the
   * replay's. The window read widens (x4 from an hour) until it holds such a fix, nothing older is
   * stored, or it reaches 8 days back.
   */
  async replay(orgId: string, assetId: string, fromMs: number, known?: OrgFuel): Promise<WrittenFuelEvent[]> {
    this.stats.replays++;
    const org = known ?? (await this.orgOf(orgId));
    const tank = this.tankOf(org, assetId);
    const floor = Math.min(this.now(), fromMs) - MAX_REPLAY_MS;
    for (let windowMs = 3_600_000; ; windowMs *= 4) {
      const start = Math.max(fromMs - windowMs, floor);
      const { fixes, older } = await readFuelFixes(this.db, orgId, assetId, start);
      const track = blankFuelTrack();
      const drafts: FuelEventDraft[] = [];
      let cut = -Infinity;
      for (const f of fixes) {
        drafts.push(...stepFuel(track, f, tank));
        if (f.t < fromMs && track.stop === null) cut = f.t;
      }
      if (cut === -Infinity && older && start > floor) continue;
      // Nothing moving before within reach: everything from the window's start is the replay's.
      const cutMs = cut === -Infinity ? start - 1 : cut;
      const events = drafts.filter((d) => d.startedAt > cutMs).map((d) => valuesOf(assetId, d, tank));
      const written = await this.db.transaction((tx) => this.write(tx, orgId, (db) => replaceFuelEvents(db, orgId, assetId, cutMs, events)));
      if (fixes.length) this.remember(assetId, track);
      return written;
    }
  }

  private remember(assetId: string, track: FuelTrack): void {
    this.vehicles.delete(assetId);
    this.vehicles.set(assetId, track);
    if (this.vehicles.size > 200_000) this.vehicles.delete(this.vehicles.keys().next().value!);
  }

  /** Marks for the round's vehicles that report a level: how far they were worked (the start-up catch-up reads them). */
  private async mark(orgId: string, org: OrgFuel, assetIds: readonly string[]): Promise<void> {
    const marks = new Map<string, number>();
    for (const assetId of assetIds) {
      const track = this.vehicles.get(assetId);
      if (track?.sensor && Number.isFinite(track.t)) {
        marks.set(assetId, track.t);
        org.marked.add(assetId);
      }
    }
    await writeFuelMarks(this.db, orgId, marks);
  }

  /** Drops, at once, by each user's notification choices: once per drop, and not for history. */
  private async tell(orgId: string, written: readonly WrittenFuelEvent[]): Promise<void> {
    const now = this.now();
    const fresh = written.filter((w) => w.type === 'DROP' && w.inserted && now - w.endedAt <= NOTIFY_WITHIN_MS);
    if (fresh.length === 0) return;
    const units = await unitNumbers(
      this.db,
      orgId,
      fresh.map((w) => w.assetId),
    );
    const { units: system, zone } = await organizationFacts(this.db, orgId);
    const when = (ms: number) =>
      new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
        ms,
      );
    const notices: NotifyInput[] = fresh.map((w) => {
      const where = placeText(w.lat, w.lon, system);
      return {
        organizationId: orgId,
        kind: 'FUEL_DROP',
        factKey: `fuel-drop:${w.id}`,
        // The title is kept and read after the organization may have changed its units: a share of
        // the tank, in no unit; the quantity in the units of now is on the linked page.
        title: `Vehicle ${units.get(w.assetId) ?? '?'}: fuel level dropped ${pctText(w.levelBeforePct - w.levelAfterPct)} of the tank`,
        body: `${eventDescription(w, system)}${where ? ` ${where},` : ''} ${when(w.startedAt)}. A possible theft: check the truck and ask its driver.`,
        link: `/fuel-events?vehicleId=${w.assetId}`,
        linkLabel: 'See the drop',
        occurredAt: w.startedAt,
        about: { assetId: w.assetId, driverId: w.driverId },
      };
    });
    await notifyMany(this.db, notices);
  }

  /** Vehicles whose positions were stored while nothing followed them (a restart): replayed from their mark, at most 8 days back. */
  async catchUp(): Promise<number> {
    const behind = await vehiclesBehindFuelMarks(this.db);
    for (const v of behind) {
      const written = await this.replay(v.orgId, v.assetId, v.mark ?? this.now() - MAX_REPLAY_MS);
      const org = await this.orgOf(v.orgId);
      await this.mark(v.orgId, org, [v.assetId]);
      await this.tell(v.orgId, written);
    }
    return behind.length;
  }

  /** These vehicles' events from their positions since `fromMs` (positions written in bulk: the demo week). */
  async recomputeVehicles(orgId: string, assetIds: readonly string[], fromMs: number): Promise<number> {
    let n = 0;
    const org = await this.orgOf(orgId);
    for (const assetId of assetIds) {
      n += (await this.replay(orgId, assetId, fromMs, org)).length;
      await this.mark(orgId, org, [assetId]);
    }
    return n;
  }

  /** Forgets every vehicle's track (tests: the next fixes replay from positions). */
  forget(): void {
    this.vehicles.clear();
    this.orgs.clear();
  }
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** A draft with its litres through the tank it was read with. */
function valuesOf(assetId: string, d: FuelEventDraft, tank: { capacityL: number; assumed: boolean }): FuelEventValues {
  const litres = (pct: number) => r2((pct * tank.capacityL) / 100);
  return {
    assetId,
    driverId: d.driverId,
    type: d.type,
    startedAt: d.startedAt,
    endedAt: d.endedAt,
    lat: d.lat,
    lon: d.lon,
    quantityL: r2((Math.abs(d.levelAfterPct - d.levelBeforePct) * tank.capacityL) / 100),
    levelBeforePct: r2(d.levelBeforePct),
    levelAfterPct: r2(d.levelAfterPct),
    levelBeforeL: litres(d.levelBeforePct),
    levelAfterL: litres(d.levelAfterPct),
    tankCapacityL: tank.capacityL,
    capacityAssumed: tank.assumed,
    ignitionOff: d.ignitionOff,
  };
}
