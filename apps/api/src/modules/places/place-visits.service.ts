import { randomUUID } from 'node:crypto';
import type { UnitSystem } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { QueuedFollower, type Round, VehicleQueue } from '../positions/index.ts';
import { onPlacesChanged } from './place-changes.ts';
import { PlaceIndex, type IndexedPlace } from './place-index.ts';
import { visitNotices, type NoticeFact } from './place-notices.ts';
import * as repo from './place-visits.repository.ts';
import { blankTrack, isBlank, replayVisits, stepVisits, type DwellPlace, type VehicleTrack, type VisitFix } from './visit-machine.ts';

// Arrivals and departures behind ingest (decision 0162), a follower of the position commit like
// IFTA miles and the daily statistics: committed fixes go to the vehicle queue and are worked in
// rounds, in fix-time order, through the dwell state machine against the organization's spatial
// index of places. Each vehicle's state is kept in memory; a vehicle without one (a restart) or
// with a fix older than what it has worked (a late or out-of-order fix) is recomputed from stored
// positions, from the last fix before the late one at which nothing was open or pending: the
// state there is the same whatever came before, so the replay gives exactly the visits an
// in-order stream gives, and replaying twice gives the same rows.

/** How often another instance's place changes are looked for. */
export const PLACES_RECHECK_MS = 10_000;
/** Fixes this much older than the clock make visits but no notification (history, a catch-up). */
export const NOTIFY_WITHIN_MS = 30 * 60_000;
/** How far back a start-up catch-up or a replay looks at most. */
const MAX_REPLAY_MS = 8 * 86_400_000;

interface OrgPlaces {
  id: string;
  index: PlaceIndex;
  /** Each vehicle's groups (a place with a group applies to that group's vehicles only). */
  assetGroups: Map<string, Set<string>>;
  version: string;
  /** When the version was last compared, and when everything was last read. */
  checkedAt: number;
  loadedAt: number;
  freeMinutes: number;
  units: UnitSystem;
  timeZone: string;
}

export interface PlaceVisitsOptions {
  onError?: (err: unknown) => void;
  /** Pause before each round while fixes gather (default 2 s). */
  flushMs?: number;
  /** The clock (tests pin it). */
  now?: () => number;
  /**
   * Whether other processes may work the same vehicles (PostgreSQL with several instances): then
   * every round writes each vehicle's mark and first checks it, so a vehicle another instance
   * worked meanwhile is recomputed from the database instead of continued from memory.
   */
  shared?: boolean;
}

export class PlaceVisits extends QueuedFollower<VisitFix> {
  protected readonly queue: VehicleQueue<VisitFix>;
  private readonly orgs = new Map<string, OrgPlaces>();
  private readonly stale = new Set<string>();
  private readonly vehicles = new Map<string, VehicleTrack>();
  /**
   * Vehicles with stored fixes nobody worked (a failed round here, or fixes a killed process stored
   * past its mark): their next round recomputes them from this time on (decision 0328).
   */
  private readonly unworked = new Map<string, number>();
  /** Each remembered vehicle's organization (the detention clock). */
  private readonly orgOf = new Map<string, string>();
  private readonly detentionClock: NodeJS.Timeout;
  private readonly marksWrittenAt = new Map<string, number>();
  /** Per organization, the vehicles worked since their marks were last written, and how far. */
  private readonly unmarked = new Map<string, Map<string, number>>();
  private readonly shared: boolean;
  private readonly told = new Set<string>();
  private readonly unsubscribe: () => void;
  private readonly onError: (err: unknown) => void;
  private readonly now: () => number;
  readonly stats = { rounds: 0, fixes: 0, replays: 0, arrivals: 0, departures: 0, failures: 0 };
  /** Told after each round or recompute wrote visits (load stops follow them, decision 0166). */
  private readonly writtenListeners: Array<(orgId: string, assetIds: readonly string[]) => Promise<void>> = [];
  /** Pause before a pass while fixes gather (the ingest bench holds the rounds to measure them apart). */
  flushMs: number;

  constructor(
    private readonly db: Db,
    opts: PlaceVisitsOptions = {},
  ) {
    super();
    this.onError = opts.onError ?? (() => undefined);
    this.now = opts.now ?? Date.now;
    this.flushMs = opts.flushMs ?? 2000;
    this.shared = opts.shared ?? false;
    this.unsubscribe = onPlacesChanged((orgId) => this.stale.add(orgId));
    // A vehicle at a customer that stops reporting is still told once its free time runs out.
    this.detentionClock = setInterval(() => void this.detentionNow().catch(this.onError), 60_000);
    this.detentionClock.unref();
    this.queue = new VehicleQueue<VisitFix>({
      fixOf: (r) => ({ t: r.fixTime.getTime(), lat: r.latitude, lon: r.longitude, driverId: r.driverId }),
      pauseMs: () => this.flushMs,
      byOrganization: true,
      // A pass serves every waiting vehicle after one pause; idle() (tests, shutdown) ends the pause.
      passes: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The fixes are stored: these vehicles are recomputed from positions on their next fix, from
        // the failed round's first fix on (decision 0328: its fixes were never worked).
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

  override async close(): Promise<void> {
    await super.close();
    this.unsubscribe();
    clearInterval(this.detentionClock);
    for (const orgId of this.unmarked.keys()) await this.writeMarks(orgId, true).catch(this.onError);
  }

  /** The organization's places (reloaded when they changed here, or elsewhere within PLACES_RECHECK_MS). */
  async placesOf(orgId: string): Promise<OrgPlaces> {
    const known = this.orgs.get(orgId);
    const now = Date.now();
    if (known && !this.stale.has(orgId) && now - known.checkedAt < PLACES_RECHECK_MS) return known;
    this.stale.delete(orgId);
    const version = await repo.placesVersion(this.db, orgId);
    // The vehicles' groups and the settings carry no version: read again at least every minute.
    if (known && known.version === version && now - known.loadedAt < 6 * PLACES_RECHECK_MS) {
      known.checkedAt = now;
      return known;
    }
    const rows = await repo.readOrgPlaces(this.db, orgId);
    const org: OrgPlaces = {
      id: orgId,
      index: new PlaceIndex(rows.places),
      assetGroups: rows.assetGroups,
      version,
      checkedAt: now,
      loadedAt: now,
      freeMinutes: rows.freeMinutes,
      units: rows.units,
      timeZone: rows.timeZone,
    };
    this.orgs.set(orgId, org);
    return org;
  }

  /** The places of the organization whose shape holds the fix and that apply to the vehicle. */
  private insideOf(org: OrgPlaces, assetId: string): (f: VisitFix) => IndexedPlace[] {
    const groups = org.assetGroups.get(assetId);
    return (f) => {
      const hits = org.index.placesAt(f.lat, f.lon);
      return hits.length === 0 || !hits.some((p) => p.groupId) ? hits : hits.filter((p) => !p.groupId || groups?.has(p.groupId));
    };
  }

  private async round(orgId: string, items: Round<VisitFix>): Promise<void> {
    this.stats.rounds++;
    const org = await this.placesOf(orgId);
    if (org.index.size === 0) {
      for (const [assetId] of items) this.vehicles.delete(assetId);
      return;
    }
    const dwellOf = (id: string): DwellPlace | undefined => org.index.byId.get(id);
    const arrivals: Array<{ id: string; placeId: string; assetId: string; driverId: string | null; arrivedAt: number }> = [];
    const departures: Array<{ id: string; departedAt: number }> = [];
    const facts: NoticeFact[] = [];
    const replays: Array<{ assetId: string; from: number }> = [];
    /** Vehicles that left a place this round (their visits changed without an arrival row). */
    const departed = new Set<string>();
    if (this.shared) await this.dropOthers(orgId, items);
    await this.warm(org, items);
    for (const [assetId, { fixes }] of items) {
      if (fixes.length === 0) continue;
      fixes.sort((a, b) => a.t - b.t);
      this.stats.fixes += fixes.length;
      const track = this.vehicles.get(assetId);
      if (!track || fixes[0]!.t <= track.t) {
        replays.push({ assetId, from: Math.min(fixes[0]!.t, track?.t ?? Infinity, this.unworked.get(assetId) ?? Infinity) });
        continue;
      }
      const insideOf = this.insideOf(org, assetId);
      for (const f of fixes) {
        const events = stepVisits(track, f, insideOf(f), dwellOf);
        if (track.places.size) facts.push(...this.detentionFacts(org, assetId, track, f.t));
        for (const e of events) {
          if (e.kind === 'ARRIVAL') {
            e.track.visitId = randomUUID();
            arrivals.push({ id: e.track.visitId, placeId: e.placeId, assetId, driverId: e.driverId, arrivedAt: e.arrivedAt });
            facts.push({
              kind: 'ARRIVAL',
              placeId: e.placeId,
              assetId,
              driverId: e.driverId,
              at: e.arrivedAt,
              confirmedAt: e.confirmedAt,
              visitId: e.track.visitId,
            });
            this.stats.arrivals++;
          } else {
            if (e.visitId) departures.push({ id: e.visitId, departedAt: e.departedAt });
            departed.add(assetId);
            facts.push({
              kind: 'DEPARTURE',
              placeId: e.placeId,
              assetId,
              driverId: e.driverId,
              at: e.departedAt,
              arrivedAt: e.arrivedAt,
              confirmedAt: e.confirmedAt,
              ...(e.visitId ? { visitId: e.visitId } : {}),
            });
            this.stats.departures++;
          }
        }
      }
    }
    await repo.writeRound(this.db, orgId, arrivals, departures);
    for (const r of replays) {
      // A replay corrects history: only what its fixes say after the newest fix already worked is news.
      const newsAfter = this.vehicles.get(r.assetId)?.t ?? -Infinity;
      facts.push(...(await this.recompute(orgId, r.assetId, r.from, org)).filter((f) => f.confirmedAt > newsAfter));
      this.unworked.delete(r.assetId);
    }
    const worked = this.unmarked.get(orgId) ?? new Map<string, number>();
    this.unmarked.set(orgId, worked);
    for (const [assetId] of items) {
      const t = this.vehicles.get(assetId)?.t;
      if (t !== undefined && Number.isFinite(t)) worked.set(assetId, t);
    }
    await this.writeMarks(orgId, this.shared);
    await this.tell(orgId, org, facts);
    // Only the vehicles whose visits this round wrote or rewrote.
    const touched = new Set([...arrivals.map((a) => a.assetId), ...departed, ...replays.map((r) => r.assetId)]);
    if (touched.size) await this.written(orgId, [...touched]);
  }

  /**
   * Vehicles of the round with no state here (a restart, new vehicles) whose last stored fix before
   * their new ones left them blank: outside every place, no visit open or inside its departure
   * dwell. They start blank at that fix, read for all of them in two statements; the others are
   * recomputed from their positions. Without this, a restart's first round reads hours of
   * positions for every vehicle.
   */
  private async warm(org: OrgPlaces, items: Round<VisitFix>): Promise<void> {
    const cold = items.filter(([assetId, w]) => w.fixes.length > 0 && !this.vehicles.has(assetId) && !this.unworked.has(assetId));
    if (cold.length === 0) return;
    const ids = cold.map(([assetId]) => assetId);
    const firsts = cold.map(([, w]) => w.fixes.reduce((m, f) => Math.min(m, f.t), Infinity));
    const newest = new Map(cold.map(([assetId, w]) => [assetId, w.fixes.reduce((m, f) => Math.max(m, f.t), -Infinity)]));
    const starts = await repo.readColdStarts(this.db, org.id, ids, firsts);
    const visits = await repo.readRecentVisits(this.db, org.id, ids);
    const marks = await repo.readMarks(this.db, org.id, ids);
    for (const assetId of ids) {
      const { last: f = null, newest: stored = null } = starts.get(assetId) ?? {};
      const at = f?.t ?? -Infinity;
      // That fix past the vehicle's mark: stored but maybe never worked (the process that stored it
      // was killed first, decision 0328), so it is no blank point: recomputed from the mark on.
      const mark = marks.get(assetId);
      if (mark !== undefined && at > mark) {
        this.unworked.set(assetId, mark + 1);
        continue;
      }
      // Stored fixes newer than the round's (its fixes are late), a visit open or pending at that
      // fix, or one after it: recomputed instead.
      if (stored !== null && stored > newest.get(assetId)!) continue;
      if (visits.some((v) => v.assetId === assetId && (v.arrivedAt > at || openAt(v, at, org)))) continue;
      if (f && this.insideOf(org, assetId)(f).length > 0) continue;
      const track = blankTrack();
      track.t = at;
      this.remember(assetId, track, org);
    }
  }

  /** Detention beyond the free time at customer places the vehicle is at, as of its fix at `t` (told once per visit). */
  private detentionFacts(org: OrgPlaces, assetId: string, track: VehicleTrack, t: number): NoticeFact[] {
    const out: NoticeFact[] = [];
    for (const [placeId, tr] of track.places) {
      if (tr.arrivedAt === null || tr.since !== null) continue;
      if (org.index.byId.get(placeId)?.category !== 'CUSTOMER' || t - tr.arrivedAt <= org.freeMinutes * 60_000) continue;
      const fact: NoticeFact = { kind: 'DETENTION', placeId, assetId, driverId: tr.driverId, at: tr.arrivedAt, confirmedAt: t, freeMinutes: org.freeMinutes };
      if (!this.told.has(factKeyOf(fact))) out.push(fact);
    }
    return out;
  }

  /**
   * Detention on the clock (every minute): vehicles remembered here that are still at a customer
   * place past the free time, whether or not they still report. Told once per visit.
   */
  async detentionNow(now = this.now()): Promise<number> {
    const byOrg = new Map<string, NoticeFact[]>();
    for (const [assetId, track] of this.vehicles) {
      if (track.places.size === 0) continue;
      const orgId = this.orgOf.get(assetId);
      const org = orgId ? this.orgs.get(orgId) : undefined;
      if (!org) continue;
      const facts = this.detentionFacts(org, assetId, track, now);
      if (facts.length) byOrg.set(org.id, [...(byOrg.get(org.id) ?? []), ...facts]);
    }
    let n = 0;
    for (const [orgId, facts] of byOrg) {
      await this.tell(orgId, this.orgs.get(orgId)!, facts);
      n += facts.length;
    }
    return n;
  }

  /**
   * The vehicle's visits from stored positions, from the last fix before `fromMs` at which nothing
   * was open or pending: visits that began after it are replaced by the replay's, and the vehicle's
   * state becomes the replay's. Returns the facts the replay found (the caller tells recent ones).
   */
  async recompute(orgId: string, assetId: string, fromMs: number, known?: OrgPlaces): Promise<NoticeFact[]> {
    const org = known ?? (await this.placesOf(orgId));
    this.stats.replays++;
    const dwellOf = (id: string): DwellPlace | undefined => org.index.byId.get(id);
    const insideOf = this.insideOf(org, assetId);
    const floor = this.now() - MAX_REPLAY_MS;
    for (let windowMs = 6 * 3_600_000; ; windowMs *= 4) {
      const start = fromMs - windowMs;
      const fixes = await repo.readFixes(this.db, orgId, assetId, start);
      const visits = await repo.readVisitsAround(this.db, orgId, assetId, fromMs, start - 86_400_000);
      let cut = -1;
      for (let i = fixes.length - 1; i >= 0; i--) {
        const f = fixes[i]!;
        if (f.t >= fromMs) continue;
        if (insideOf(f).length > 0) continue;
        if (!visits.some((v) => v.arrivedAt <= f.t && openAt(v, f.t, org))) {
          cut = i;
          break;
        }
      }
      // No fix in the window before the late one, and no visit open then: nothing could be pending (a
      // dwell longer than the window aside), so the replay starts blank at the window's start.
      const quiet = cut < 0 && !fixes.some((f) => f.t < fromMs) && !visits.some((v) => v.arrivedAt <= fromMs && openAt(v, fromMs, org));
      if (cut < 0 && !quiet && start > floor) continue;
      // From the blank point on (or, with none within reach, from the window's start).
      const cutMs = cut >= 0 ? fixes[cut]!.t : start - 1;
      const replayed = replayVisits(fixes.slice(cut + 1), insideOf, dwellOf);
      // Visits found again keep their ids (a restart's catch-up rewrites nothing, decision 0238).
      const ids = await repo.replaceVisits(this.db, orgId, assetId, cutMs, replayed.visits);
      const rows = replayed.visits.map((v, i) => ({ ...v, id: ids[i]! }));
      for (const v of rows) if (v.track) v.track.visitId = v.id || null;
      const track = replayed.track;
      if (fixes.length && !Number.isFinite(track.t)) track.t = fixes[fixes.length - 1]!.t;
      if (fixes.length) this.remember(assetId, track, org);
      const facts: NoticeFact[] = [];
      for (const v of rows) {
        facts.push({ kind: 'ARRIVAL', placeId: v.placeId, assetId, driverId: v.driverId, at: v.arrivedAt, confirmedAt: v.arrivalConfirmedAt, visitId: v.id });
        if (v.departedAt !== null)
          facts.push({
            kind: 'DEPARTURE',
            placeId: v.placeId,
            assetId,
            driverId: v.driverId,
            at: v.departedAt,
            arrivedAt: v.arrivedAt,
            confirmedAt: v.departureConfirmedAt ?? v.departedAt,
            visitId: v.id,
          });
      }
      // Detention of the replayed visits at customer places: the moment the free time ran out, if the vehicle was still there.
      const free = org.freeMinutes * 60_000;
      const lastFix = fixes.length ? fixes[fixes.length - 1]!.t : -Infinity;
      for (const v of rows) {
        if (org.index.byId.get(v.placeId)?.category !== 'CUSTOMER') continue;
        const until = v.departedAt ?? lastFix;
        if (until - v.arrivedAt > free)
          facts.push({
            kind: 'DETENTION',
            placeId: v.placeId,
            assetId,
            driverId: v.driverId,
            at: v.arrivedAt,
            confirmedAt: v.arrivedAt + free,
            freeMinutes: org.freeMinutes,
          });
      }
      return facts;
    }
  }

  private remember(assetId: string, track: VehicleTrack, org: OrgPlaces): void {
    this.vehicles.delete(assetId);
    this.vehicles.set(assetId, track);
    this.orgOf.set(assetId, org.id);
    // A vehicle forgotten here is recomputed from positions on its next fix.
    if (this.vehicles.size > 200_000) {
      const oldest = this.vehicles.keys().next().value!;
      this.vehicles.delete(oldest);
      this.orgOf.delete(oldest);
    }
  }

  /** How far each vehicle is worked, per organization at most every 30 s (the start-up catch-up begins there). */
  private async writeMarks(orgId: string, force = false): Promise<void> {
    const now = Date.now();
    const worked = this.unmarked.get(orgId);
    if (!worked?.size || (!force && now - (this.marksWrittenAt.get(orgId) ?? 0) < 30_000)) return;
    this.marksWrittenAt.set(orgId, now);
    const marks = new Map(worked);
    worked.clear();
    await repo.writeMarks(this.db, orgId, marks);
  }

  /** Shared database: vehicles another instance worked past what this one holds are forgotten (recomputed from the database). */
  private async dropOthers(orgId: string, items: Round<VisitFix>): Promise<void> {
    const known = items.filter(([assetId]) => this.vehicles.has(assetId)).map(([assetId]) => assetId);
    if (known.length === 0) return;
    for (const [assetId, mark] of await repo.readMarks(this.db, orgId, known))
      if (mark > (this.vehicles.get(assetId)?.t ?? Infinity)) this.vehicles.delete(assetId);
  }

  /** Notifies the facts that happened recently (once each: the fact key). */
  private async tell(orgId: string, org: OrgPlaces, facts: NoticeFact[]): Promise<void> {
    const now = this.now();
    const byKey = new Map<string, NoticeFact>();
    for (const f of facts) if (now - f.confirmedAt <= NOTIFY_WITHIN_MS && !this.told.has(factKeyOf(f)) && !byKey.has(factKeyOf(f))) byKey.set(factKeyOf(f), f);
    const recent = [...byKey.values()];
    if (recent.length === 0) return;
    await visitNotices(this.db, orgId, org.index, { units: org.units, timeZone: org.timeZone }, recent);
    for (const f of recent) this.told.add(factKeyOf(f));
    if (this.told.size > 50_000) this.told.clear();
  }

  /**
   * Vehicles whose positions were stored while nothing followed them (before a restart; the demo
   * history): every vehicle of an organization with places whose newest fix is past its mark is
   * recomputed from there (at most 8 days back). Returns the vehicles recomputed.
   */
  async catchUp(): Promise<number> {
    const behind = await repo.vehiclesBehindMarks(this.db);
    for (const v of behind) await this.recomputeVehicles(v.orgId, [v.assetId], v.mark ?? this.now() - MAX_REPLAY_MS);
    return behind.length;
  }

  /** These vehicles' visits from positions since `fromMs` (positions written in bulk, such as the demo week). */
  async recomputeVehicles(orgId: string, assetIds: readonly string[], fromMs: number): Promise<void> {
    const org = await this.placesOf(orgId);
    if (org.index.size === 0) return;
    const facts: NoticeFact[] = [];
    for (const assetId of assetIds) facts.push(...(await this.recompute(orgId, assetId, fromMs, org)));
    const marks = new Map<string, number>();
    for (const a of assetIds) {
      const t = this.vehicles.get(a)?.t;
      if (t !== undefined && Number.isFinite(t)) marks.set(a, t);
    }
    await repo.writeMarks(this.db, orgId, marks);
    await this.tell(orgId, org, facts);
    await this.written(orgId, assetIds);
  }

  /** Calls `listener` after every round or recompute with the vehicles whose visits it worked (its failure is its own). */
  onWritten(listener: (orgId: string, assetIds: readonly string[]) => Promise<void>): void {
    this.writtenListeners.push(listener);
  }

  private async written(orgId: string, assetIds: readonly string[]): Promise<void> {
    for (const listener of this.writtenListeners) await listener(orgId, assetIds).catch(this.onError);
  }

  /** Forgets every vehicle's state (tests: the next fixes recompute from positions). */
  forget(): void {
    this.vehicles.clear();
    this.orgOf.clear();
  }

  /** Whether the vehicle's state is blank (tests). */
  blank(assetId: string): boolean {
    const t = this.vehicles.get(assetId);
    return !t || isBlank(t);
  }
}

export const factKeyOf = (f: NoticeFact): string =>
  f.kind === 'DEPARTURE'
    ? `place-departure:${f.placeId}:${f.assetId}:${f.at}`
    : f.kind === 'ARRIVAL'
      ? `place-arrival:${f.placeId}:${f.assetId}:${f.at}`
      : `detention:${f.placeId}:${f.assetId}:${f.at}`;

/** Whether a stored visit is open at `t`, or departed less than its place's departure dwell before (a departure then still pending). */
function openAt(v: repo.StoredVisit, t: number, org: { index: PlaceIndex }): boolean {
  return v.departedAt === null || t < v.departedAt + (org.index.byId.get(v.placeId)?.departureDwellS ?? 0) * 1000;
}
