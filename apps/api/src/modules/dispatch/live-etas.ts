import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES } from '@fleet/api-contract';
import { planTrip, type LatLon, type RouteLeg, type RoutingPort, type TripPlan } from '@fleet/dispatch';
import type { Db } from '../../db/client.ts';
import { loads, loadStops } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { planDriversOf } from '../hos/index.ts';
import type { PositionRow } from '../positions/index.ts';
import { remainingStops, type LoadRow, type StopRow } from './dispatch-inputs.ts';
import { planDriver } from './plan.service.ts';
import { metresBetween, remainingLeg, thinLeg } from './remaining-leg.ts';
import { riskNotices, riskWords } from './risk-notice.ts';

// Live ETAs (issue 33, decision 0167): while a load runs (assigned, en route, at a stop, with a
// driver and a vehicle), each new position of its vehicle re-plans the stops still to do from
// there with the driver's real clocks, and writes the ETAs, whether each window is met, and whether
// the load is at risk. On ingest's path only a map lookup happens; the planning runs in rounds, at
// most once a minute per load (sooner never: the ETA of a truck a minute further on moves little),
// and a parked truck's load is re-planned every five minutes (its clocks still run). The road legs
// are routed once per load and followed along their line, so a fix costs no routing.

export interface LiveEtasOptions {
  onError(err: unknown): void;
  /** At most one plan per load this often (ms). */
  minIntervalMs?: number;
  /** A vehicle that moved less than this since the last plan waits for `parkedIntervalMs`. */
  movedM?: number;
  parkedIntervalMs?: number;
  /** How often due loads are worked (ms). */
  tickMs?: number;
  /** How often the running loads are read again (another instance assigns loads too) (ms). */
  refreshMs?: number;
}

interface Running {
  loadId: string;
  orgId: string;
}

interface LoadState {
  plannedAt: number;
  at: LatLon | null;
  /** The legs last routed: origin to the next stop, then stop to stop; and the next stop's id they start for. */
  legs: RouteLeg[] | null;
  nextStopId: string | null;
  stopsKey: string;
}

/** How the last round went (the benchmark and tests read it). */
export interface LiveEtaStats {
  rounds: number;
  plans: number;
  planMs: number;
  routed: number;
}

export class LiveEtas {
  private byAsset = new Map<string, Running>();
  private pending = new Map<string, { orgId: string; fix: LatLon & { t: number } }>();
  private state = new Map<string, LoadState>();
  private timer: NodeJS.Timeout | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private working: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private closed = false;
  readonly stats: LiveEtaStats = { rounds: 0, plans: 0, planMs: 0, routed: 0 };
  private readonly o: Required<LiveEtasOptions>;

  constructor(
    private readonly db: Db,
    private readonly routing: RoutingPort,
    opts: LiveEtasOptions,
    private readonly follows = true,
  ) {
    this.o = { minIntervalMs: 60_000, movedM: 250, parkedIntervalMs: 300_000, tickMs: 2_000, refreshMs: 30_000, ...opts };
    if (follows) {
      this.timer = setInterval(() => void this.work(), this.o.tickMs).unref();
      this.refreshTimer = setInterval(() => void this.refresh(), this.o.refreshMs).unref();
      void this.refresh();
    }
  }

  /** Committed rows: a vehicle on a running load notes its newest fix (nothing else on ingest's path). */
  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.closed) return;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!stored[i] || r.assetId === null) continue;
      const run = this.byAsset.get(r.assetId);
      if (!run) continue;
      const t = r.fixTime.getTime();
      const had = this.pending.get(run.loadId);
      if (!had || had.fix.t <= t) this.pending.set(run.loadId, { orgId: run.orgId, fix: { lat: r.latitude, lon: r.longitude, t } });
    }
  }

  /** Reads which vehicle runs which load (a load without an own vehicle runs on its lead driver's). */
  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      const rows = rowsOf<{ id: string; organization_id: string; asset_id: string | null }>(
        await this.db.execute(sql`select l.id, l.organization_id,
            coalesce(l.asset_id, (select a.id from assets a where a.organization_id = l.organization_id and a.current_driver_id = l.driver_id and a.type = 'VEHICLE' order by a.id limit 1)) as asset_id
          from loads l where l.status in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP') and l.driver_id is not null`),
      );
      const next = new Map<string, Running>();
      for (const r of rows) if (r.asset_id) next.set(r.asset_id, { loadId: r.id, orgId: r.organization_id });
      this.byAsset = next;
      const live = new Set(rows.map((r) => r.id));
      for (const id of this.state.keys()) if (!live.has(id)) this.state.delete(id);
    })()
      .catch(this.o.onError)
      .finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * The road legs a running load was last planned on, followed to `at` (issue 46): candidates and
   * plans of its driver reuse them instead of routing again. Null when the load is not followed here,
   * its stops changed, or `at` is off the route.
   */
  knownLegs(loadId: string, at: LatLon, stopIds: readonly string[]): RouteLeg[] | null {
    const s = this.state.get(loadId);
    if (!s?.legs || s.stopsKey !== stopIds.join(',')) return null;
    const first = remainingLeg(s.legs[0]!, at);
    return first ? [first, ...s.legs.slice(1)] : null;
  }

  /** Works the loads that are due now (and waits for a round already running). */
  async idle(): Promise<void> {
    while (this.working) await this.working;
    await this.work();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    await this.refreshing;
    while (this.working) await this.working;
  }

  /**
   * Re-plans every running load (of one organization, or all) from its vehicle's latest position,
   * whatever the throttle says: at start-up (the demo's loads), and after an assignment.
   */
  async recompute(orgId?: string, now = Date.now()): Promise<number> {
    await this.refresh();
    const rows = rowsOf<{ load_id: string; organization_id: string; lat: number; lon: number; t: string | number }>(
      // The vehicle's latest row, else its newest stored fix (a bulk-loaded history writes no latest rows).
      await this.db.execute(sql`select r.id as load_id, r.organization_id, p.latitude as lat, p.longitude as lon, extract(epoch from p.fix_time) * 1000 as t
        from (select l.id, l.organization_id, coalesce(l.asset_id, (select a.id from assets a where a.organization_id = l.organization_id and a.current_driver_id = l.driver_id and a.type = 'VEHICLE' order by a.id limit 1)) as asset_id
              from loads l where l.status in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP') and l.driver_id is not null ${orgId ? sql`and l.organization_id = ${orgId}` : sql``}) r
        cross join lateral (
          select * from (select latitude, longitude, fix_time from latest_positions where organization_id = r.organization_id and asset_id = r.asset_id
                         union all
                         (select latitude, longitude, fix_time from positions where organization_id = r.organization_id and asset_id = r.asset_id and fix_time <= ${new Date(now).toISOString()}::timestamptz order by fix_time desc limit 1)) x
          order by fix_time desc limit 1) p`),
    );
    const byOrg = new Map<string, Array<[string, LatLon]>>();
    for (const r of rows) {
      this.state.delete(r.load_id);
      const list = byOrg.get(r.organization_id) ?? [];
      list.push([r.load_id, { lat: Number(r.lat), lon: Number(r.lon) }]);
      byOrg.set(r.organization_id, list);
    }
    while (this.working) await this.working;
    for (const [org, list] of byOrg) await this.planOrg(org, list, now);
    return rows.length;
  }

  private work(): Promise<void> {
    if (this.working || this.pending.size === 0) return this.working ?? Promise.resolve();
    this.working = this.round()
      .catch(this.o.onError)
      .finally(() => (this.working = null));
    return this.working;
  }

  /** One round: the loads whose throttle allows, grouped by organization. */
  private async round(): Promise<void> {
    const now = Date.now();
    const byOrg = new Map<string, Array<[string, LatLon]>>();
    for (const [loadId, p] of this.pending) {
      const s = this.state.get(loadId);
      if (s) {
        const since = now - s.plannedAt;
        if (since < this.o.minIntervalMs) continue;
        if (s.at && metresBetween(s.at, p.fix) < this.o.movedM && since < this.o.parkedIntervalMs) continue;
      }
      this.pending.delete(loadId);
      const list = byOrg.get(p.orgId) ?? [];
      list.push([loadId, p.fix]);
      byOrg.set(p.orgId, list);
    }
    if (byOrg.size === 0) return;
    this.stats.rounds++;
    for (const [orgId, list] of byOrg) await this.planOrg(orgId, list, now);
  }

  /** Plans the organization's loads from the given positions and writes the results. */
  private async planOrg(orgId: string, list: Array<[string, LatLon]>, now: number): Promise<void> {
    const ids = list.map(([id]) => id);
    const loadRows = await this.db
      .select()
      .from(loads)
      .where(and(eq(loads.organizationId, orgId), inArray(loads.id, ids), inArray(loads.status, [...ACTIVE_LOAD_STATUSES])));
    if (loadRows.length === 0) return;
    const stopRows = await this.db
      .select()
      .from(loadStops)
      .where(
        inArray(
          loadStops.loadId,
          loadRows.map((l) => l.id),
        ),
      )
      .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
    const stopsOf = new Map<string, StopRow[]>();
    for (const s of stopRows) stopsOf.set(s.loadId, [...(stopsOf.get(s.loadId) ?? []), s]);
    const driverIds = [...new Set(loadRows.flatMap((l) => [l.driverId, l.coDriverId].filter((d): d is string => d !== null)))];
    const drivers = await planDriversOf(this.db, orgId, now, driverIds);
    const at = new Map(list);
    const results: Array<{ load: LoadRow; stops: StopRow[]; plan: TripPlan | null }> = [];
    for (const load of loadRows) {
      const fix = at.get(load.id)!;
      const stops = stopsOf.get(load.id) ?? [];
      const remaining = remainingStops(stops);
      const team = [load.driverId, load.coDriverId].flatMap((d) => (d && drivers.get(d) ? [drivers.get(d)!] : []));
      if (remaining.length === 0 || team.length === 0) {
        results.push({ load, stops, plan: null });
        continue;
      }
      try {
        const legs = await this.legsFor(load.id, fix, remaining);
        const started = performance.now();
        const plan = planTrip({ now, origin: fix, drivers: team.map((r) => planDriver(r, now)), stops: remaining, legs });
        this.stats.planMs += performance.now() - started;
        this.stats.plans++;
        results.push({ load, stops, plan });
        this.state.set(load.id, { ...this.state.get(load.id)!, plannedAt: now, at: fix });
      } catch (err) {
        // Throttled like a plan: a load that cannot be planned is not retried at every fix.
        this.state.set(load.id, { plannedAt: now, at: fix, legs: null, nextStopId: null, stopsKey: '' });
        this.o.onError(err);
      }
    }
    await this.write(orgId, results, now);
  }

  /** The legs from `fix` over the remaining stops: the routed ones followed along their line, routed again only when the stops changed or the vehicle left the route. */
  private async legsFor(loadId: string, fix: LatLon, remaining: Array<LatLon & { stopId: string }>): Promise<RouteLeg[]> {
    const key = remaining.map((s) => s.stopId).join(',');
    const s = this.state.get(loadId);
    if (s?.legs && s.stopsKey === key) {
      const first = remainingLeg(s.legs[0]!, fix);
      if (first) return [first, ...s.legs.slice(1)];
    }
    const legs = (await this.routing.route([fix, ...remaining])).map((l) => thinLeg(l));
    this.stats.routed++;
    this.state.set(loadId, { plannedAt: s?.plannedAt ?? 0, at: s?.at ?? null, legs, nextStopId: remaining[0]!.stopId, stopsKey: key });
    return legs;
  }

  /** ETAs, windows met and the risk, in three statements for the round; the risk told once per load. */
  private async write(orgId: string, results: Array<{ load: LoadRow; stops: StopRow[]; plan: TripPlan | null }>, now: number): Promise<void> {
    const stopIds: string[] = [];
    const etas: Array<string | null> = [];
    const mets: Array<boolean | null> = [];
    const loadIds: string[] = [];
    const risks: boolean[] = [];
    const reasons: Array<string | null> = [];
    const atRisk: Array<{ load: LoadRow; stops: StopRow[]; plan: TripPlan }> = [];
    for (const { load, stops, plan } of results) {
      const byStop = new Map(plan?.stops.map((s) => [s.stopId, s]) ?? []);
      for (const st of stops) {
        const p = st.arrivedAt ? undefined : byStop.get(st.id);
        stopIds.push(st.id);
        etas.push(p ? new Date(p.eta).toISOString() : null);
        mets.push(p ? p.windowMet : null);
      }
      const risky = plan ? plan.stops.some((s) => !s.windowMet) : false;
      loadIds.push(load.id);
      risks.push(risky);
      reasons.push(plan && risky ? riskWords(plan, stops) : null);
      if (plan && risky && !load.riskNotifiedAt) atRisk.push({ load, stops, plan });
    }
    await this.db.transaction(async (tx) => {
      if (stopIds.length) {
        await tx.execute(sql`update load_stops s set eta = v.eta, window_met = v.met
          from (select unnest(${`{${stopIds.join(',')}}`}::uuid[]) as id, unnest(${pgArray(etas)}::timestamptz[]) as eta, unnest(${pgArray(mets)}::boolean[]) as met) v
          where s.id = v.id and s.organization_id = ${orgId}`);
      }
      await tx.execute(sql`update loads l set at_risk = v.risk, risk_reason = v.reason, eta_updated_at = ${new Date(now).toISOString()}::timestamptz
        from (select unnest(${`{${loadIds.join(',')}}`}::uuid[]) as id, unnest(${pgArray(risks)}::boolean[]) as risk, unnest(${pgArray(reasons)}::text[]) as reason) v
        where l.id = v.id and l.organization_id = ${orgId}`);
      if (atRisk.length) {
        // Whoever sets risk_notified_at first tells the dispatchers: once per load, across instances.
        const first = await tx
          .update(loads)
          .set({ riskNotifiedAt: new Date(now) })
          .where(
            and(
              inArray(
                loads.id,
                atRisk.map((r) => r.load.id),
              ),
              isNull(loads.riskNotifiedAt),
            ),
          )
          .returning({ id: loads.id });
        const mine = new Set(first.map((r) => r.id));
        await riskNotices(
          tx,
          orgId,
          atRisk.filter((r) => mine.has(r.load.id)),
        );
      }
    });
  }
}

/** A PostgreSQL array literal of values (null as NULL; text quoted). */
function pgArray(values: ReadonlyArray<string | boolean | null>): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'boolean' ? String(v) : `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}
