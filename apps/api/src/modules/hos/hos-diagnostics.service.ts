import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  ELD_DIAGNOSTIC_NAMES,
  HOS_EVENT_TYPES,
  HOS_RECORD_ORIGINS,
  HOS_RECORD_STATUSES,
  type HosDiagnostic,
  type Page,
  type hosDiagnosticQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { assets, drivers, hosEvents, latestPositions, organizations } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import { notify } from '../notifications/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { lockVehicles } from './auto-duty/auto-duty.repository.ts';
import { MOVING_KMH } from './auto-duty/derive.ts';
import {
  engineFixFacts,
  evaluateVehicle,
  isMalfunction,
  POSITION_EVERY_MS,
  transitions,
  UNIDENTIFIED_WINDOW_MS,
  type EngineFacts,
  type FixFacts,
  type FixPair,
  type FixRun,
  type Interval,
} from './hos-diagnostics.ts';
import { periodStartOf } from './hos.repository.ts';
import { DAY_MS, logDateOf } from './hos.time.ts';
import type { ReadScope } from '../auth/index.ts';

// Malfunctions and data diagnostics as type-7 records of each vehicle's ELD (decision 0114): the job
// (jobs/eld-diagnostics.ts) evaluates every reporting vehicle of an organization and records the
// codes that start or stop; the lists read them back as episodes (logged -> cleared).

const D = 3;
/** A fix whose accuracy is worse than 5 miles is not a valid position (4.6.1.4). */
const VALID_ACCURACY_M = 8047;
/** Longest driving stretch looked back for: a driver's D that started more than this before the 24 hours is not followed further. */
const DRIVE_LOOKBACK_MS = DAY_MS + 14 * 3_600_000;

interface DiagnosticRun {
  vehicles: number;
  logged: number;
  cleared: number;
}

/** Each vehicle's codes in force: its newest type-7 event per code is a "logged" one (1 or 3). */
async function activeCodes(db: DbOrTx, orgId: string, vehicleIds: readonly string[] | null): Promise<Map<string, Map<string, { at: number; id: string }>>> {
  const rows = rowsOf<{ vehicle_id: string; diagnostic_code: string; event_code: number; at: Date | string; id: string }>(
    await db.execute(sql`
      select distinct on (vehicle_id, diagnostic_code) vehicle_id, diagnostic_code, event_code, event_time as at, id from hos_events
      where organization_id = ${orgId}::uuid and event_type = ${HOS_EVENT_TYPES.MALFUNCTION} and vehicle_id is not null and diagnostic_code is not null
        ${vehicleIds ? sql`and vehicle_id = any(${`{${vehicleIds.join(',')}}`}::uuid[])` : sql``}
      order by vehicle_id, diagnostic_code, event_time desc, sequence_id desc`),
  );
  const out = new Map<string, Map<string, { at: number; id: string }>>();
  for (const r of rows) {
    if (Number(r.event_code) !== 1 && Number(r.event_code) !== 3) continue;
    let m = out.get(r.vehicle_id);
    if (!m) out.set(r.vehicle_id, (m = new Map()));
    m.set(r.diagnostic_code, { at: new Date(r.at).getTime(), id: r.id });
  }
  return out;
}

/** Intervals of type-1 events grouped by owner: each D lasts until the owner's next duty status (or `now`). */
function drivingIntervals(rows: ReadonlyArray<{ owner: string; vehicleId: string | null; code: number; at: number }>, now: number): Map<string, Interval[]> {
  const byOwner = new Map<string, (typeof rows)[number][]>();
  for (const r of rows) {
    const list = byOwner.get(r.owner);
    if (list) list.push(r);
    else byOwner.set(r.owner, [r]);
  }
  const byVehicle = new Map<string, Interval[]>();
  for (const list of byOwner.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (e.code !== D || !e.vehicleId) continue;
      const end = list[i + 1]?.at ?? now;
      const iv = byVehicle.get(e.vehicleId);
      if (iv) iv.push([e.at, end]);
      else byVehicle.set(e.vehicleId, [[e.at, end]]);
    }
  }
  return byVehicle;
}

/**
 * Vehicles per statement reading a day of fixes: the embedded database has one session, and one
 * statement over a fleet of 1,000 held every position write behind it for seconds (the soak saw
 * ingest stop while it ran); a batch's statement is short, and writes queued meanwhile run between.
 */
const VEHICLES_PER_READ = 50;

function batchesOf<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += VEHICLES_PER_READ) out.push(items.slice(i, i + VEHICLES_PER_READ));
  return out;
}

/**
 * Evaluates every vehicle of the organization that reported in the last 8 days or has a code in force,
 * and records the codes that start (logged) or stop (cleared) as type-7 events of the vehicle's ELD:
 * no driver, origin automatic, the vehicle's own sequence ids (shared with its unidentified records),
 * the measure in the annotation. Returns what it did.
 */
export async function detectDiagnostics(db: Db, orgId: string, now = Date.now()): Promise<DiagnosticRun> {
  const since = new Date(now - UNIDENTIFIED_WINDOW_MS);
  const [latest, active] = await Promise.all([
    db
      .select({
        id: latestPositions.assetId,
        fixTime: latestPositions.fixTime,
        driverId: assets.currentDriverId,
        serverTime: latestPositions.serverTime,
        ignition: latestPositions.ignition,
        speed: latestPositions.speed,
        odometerM: latestPositions.odometer,
        engineHours: sql<
          number | null
        >`case when jsonb_typeof(${latestPositions.attributes}->'engineHours') = 'number' then (${latestPositions.attributes}->>'engineHours')::float8 end`,
      })
      .from(latestPositions)
      .innerJoin(assets, and(eq(assets.id, latestPositions.assetId), eq(assets.organizationId, latestPositions.organizationId)))
      .where(and(eq(latestPositions.organizationId, orgId), eq(assets.type, 'VEHICLE'), sql`${latestPositions.fixTime} > ${since.toISOString()}::timestamptz`)),
    activeCodes(db, orgId, null),
  ]);
  const vehicleIds = [...new Set([...latest.map((v) => v.id), ...active.keys()])];
  if (vehicleIds.length === 0) return { vehicles: 0, logged: 0, cleared: 0 };
  const vehicleArray = `{${vehicleIds.join(',')}}`;
  const driveFrom = new Date(now - DRIVE_LOOKBACK_MS);

  // Drivers' D on these vehicles lately, then those drivers' duty statuses to see where each D ends.
  const driverD = rowsOf<{ driver_id: string }>(
    await db.execute(sql`select distinct driver_id from hos_events
      where organization_id = ${orgId}::uuid and record_status = ${HOS_RECORD_STATUSES.ACTIVE} and event_type = ${HOS_EVENT_TYPES.DUTY_STATUS} and event_code = ${D}
        and driver_id is not null and vehicle_id = any(${vehicleArray}::uuid[]) and event_time > ${driveFrom.toISOString()}::timestamptz`),
  ).map((r) => r.driver_id);
  const assigned = latest.map((v) => v.driverId).filter((d): d is string => !!d);
  const owners = [...new Set([...driverD, ...assigned])];
  const statusRows = owners.length
    ? rowsOf<{ driver_id: string; vehicle_id: string | null; event_code: number; at: Date | string }>(
        await db.execute(sql`
          select driver_id, vehicle_id, event_code, event_time as at from hos_events
          where organization_id = ${orgId}::uuid and driver_id = any(${`{${owners.join(',')}}`}::uuid[]) and record_status = ${HOS_RECORD_STATUSES.ACTIVE} and event_type = ${HOS_EVENT_TYPES.DUTY_STATUS}
            and event_time > ${driveFrom.toISOString()}::timestamptz and event_time <= ${new Date(now).toISOString()}::timestamptz
          union all
          select l.* from unnest(${`{${owners.join(',')}}`}::uuid[]) as o(id) cross join lateral (
            select driver_id, vehicle_id, event_code, event_time as at from hos_events
            where organization_id = ${orgId}::uuid and driver_id = o.id and record_status = ${HOS_RECORD_STATUSES.ACTIVE} and event_type = ${HOS_EVENT_TYPES.DUTY_STATUS} and event_time <= ${driveFrom.toISOString()}::timestamptz
            order by event_time desc limit 1) l`),
      )
    : [];
  const unidentifiedRows = rowsOf<{ vehicle_id: string; event_code: number; at: Date | string }>(
    await db.execute(sql`
      select vehicle_id, event_code, event_time as at from hos_events
      where organization_id = ${orgId}::uuid and driver_id is null and record_status = ${HOS_RECORD_STATUSES.ACTIVE} and event_type = ${HOS_EVENT_TYPES.DUTY_STATUS}
        and vehicle_id = any(${vehicleArray}::uuid[]) and event_time > ${new Date(now - UNIDENTIFIED_WINDOW_MS - DAY_MS).toISOString()}::timestamptz
        and event_time <= ${new Date(now).toISOString()}::timestamptz`),
  );
  const driving = drivingIntervals(
    statusRows.map((r) => ({ owner: r.driver_id, vehicleId: r.vehicle_id, code: Number(r.event_code), at: new Date(r.at).getTime() })),
    now,
  );
  const unidentified = drivingIntervals(
    unidentifiedRows.map((r) => ({ owner: r.vehicle_id, vehicleId: r.vehicle_id, code: Number(r.event_code), at: new Date(r.at).getTime() })),
    now,
  );
  for (const [v, list] of unidentified) driving.set(v, [...(driving.get(v) ?? []), ...list]);

  // Fixes only of vehicles that drove in the last 24 hours (the positioning check).
  const dayAgo = now - DAY_MS;
  const drove = vehicleIds.filter((v) => (driving.get(v) ?? []).some(([, e]) => e > dayAgo));
  // A fix more than 5 minutes before the 24 hours covers none of them: the runs start there.
  const runs = new Map<string, FixRun[]>();
  for (const batch of batchesOf(drove)) for (const [v, r] of await validFixRuns(db, orgId, batch, dayAgo - POSITION_EVERY_MS, now)) runs.set(v, r);
  const engine = await engineFactsOf(db, orgId, vehicleIds, latest, active, now);
  // Each assigned driver's current duty status and since when (on duty or driving only).
  const lastStatus = new Map<string, { code: number; at: number }>();
  for (const r of statusRows) {
    const at = new Date(r.at).getTime();
    const prev = lastStatus.get(r.driver_id);
    if (!prev || at >= prev.at) lastStatus.set(r.driver_id, { code: Number(r.event_code), at });
  }

  const toWrite: Array<{ vehicleId: string; code: string; eventCode: number; detail: string }> = [];
  for (const v of vehicleIds) {
    const pos = latest.find((l) => l.id === v);
    const status = pos?.driverId ? lastStatus.get(pos.driverId) : undefined;
    const onDuty = status && (status.code === D || status.code === 4) ? status.at : null;
    const codes = new Set(active.get(v)?.keys() ?? []);
    const verdicts = evaluateVehicle({
      now,
      driving: driving.get(v) ?? [],
      fixRuns: runs.get(v) ?? [],
      unidentified: unidentified.get(v) ?? [],
      lastFixAt: pos ? pos.fixTime.getTime() : null,
      onDutySince: onDuty,
      active: codes,
      engine: engine.get(v),
    });
    for (const t of transitions(verdicts, codes)) toWrite.push({ vehicleId: v, code: t.code, eventCode: t.eventCode, detail: t.detail });
  }
  const totals = new Map(latest.map((l) => [l.id, { odometerM: l.odometerM, engineHours: l.engineHours === null ? null : Number(l.engineHours) }]));
  if (toWrite.length) await writeDiagnostics(db, orgId, toWrite, now, totals);
  return {
    vehicles: vehicleIds.length,
    logged: toWrite.filter((t) => t.eventCode === 1 || t.eventCode === 3).length,
    cleared: toWrite.filter((t) => t.eventCode === 2 || t.eventCode === 4).length,
  };
}

/** Records type-7 events under the vehicles' derivation locks (their sequence ids are shared with unidentified records). */
async function writeDiagnostics(
  db: Db,
  orgId: string,
  list: ReadonlyArray<{ vehicleId: string; code: string; eventCode: number; detail: string }>,
  now: number,
  totals: ReadonlyMap<string, { odometerM: number | null; engineHours: number | null }>,
): Promise<void> {
  const [[org], periodStart] = await Promise.all([
    db.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId)),
    periodStartOf(db, orgId),
  ]);
  const logDate = logDateOf(now, org?.zone ?? 'America/Chicago', periodStart);
  await db.transaction(async (tx) => {
    const vehicles = [...new Set(list.map((t) => t.vehicleId))];
    await lockVehicles(tx, vehicles);
    // Stored again under the lock: another instance may have recorded the same change meanwhile.
    const current = await activeCodes(tx, orgId, vehicles);
    const seqRows = rowsOf<{ vehicle_id: string; n: number | null }>(
      await tx.execute(
        sql`select vehicle_id, max(sequence_id) as n from hos_events where organization_id = ${orgId} and driver_id is null and vehicle_id = any(${`{${vehicles.join(',')}}`}::uuid[]) group by vehicle_id`,
      ),
    );
    const seq = new Map(seqRows.map((r) => [r.vehicle_id, Number(r.n ?? 0)]));
    const rows: Array<typeof hosEvents.$inferInsert> = [];
    for (const t of list) {
      const logged = t.eventCode === 1 || t.eventCode === 3;
      if (logged === (current.get(t.vehicleId)?.has(t.code) ?? false)) continue;
      const n = (seq.get(t.vehicleId) ?? 0) + 1;
      seq.set(t.vehicleId, n);
      rows.push({
        organizationId: orgId,
        driverId: null,
        vehicleId: t.vehicleId,
        sequenceId: n,
        eventType: HOS_EVENT_TYPES.MALFUNCTION,
        eventCode: t.eventCode,
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: HOS_RECORD_ORIGINS.AUTOMATIC,
        eventTime: new Date(now),
        logDate,
        diagnosticCode: t.code,
        annotation: t.detail,
        // The vehicle's total miles and engine hours when recorded (4.8.2.1.7), from its latest fix.
        odometerM: totals.get(t.vehicleId)?.odometerM ?? null,
        engineHours: totals.get(t.vehicleId)?.engineHours ?? null,
      });
    }
    if (rows.length) await tx.insert(hosEvents).values(rows);
    // ELD malfunctions (event code 1) as webhooks (issue 48), in the records' transaction.
    const malfunctions = rows.filter((r) => r.eventCode === 1 && r.vehicleId);
    if (malfunctions.length) {
      const unitOf = new Map(
        (
          await tx
            .select({ id: assets.id, unit: assets.unitNumber })
            .from(assets)
            .where(
              and(
                eq(assets.organizationId, orgId),
                inArray(
                  assets.id,
                  malfunctions.map((r) => r.vehicleId!),
                ),
              ),
            )
        ).map((u) => [u.id, u.unit]),
      );
      await emitWebhookEvents(
        tx,
        malfunctions.map((r) => ({
          orgId,
          type: 'eld.malfunction_recorded' as const,
          at: r.eventTime,
          data: {
            assetId: r.vehicleId!,
            unitNumber: unitOf.get(r.vehicleId!) ?? '',
            code: r.diagnosticCode ?? '',
            label: r.annotation ?? r.diagnosticCode ?? '',
            recordedAt: r.eventTime.toISOString(),
          },
        })),
      );
    }
    // Unidentified driving over 30 minutes in 24 hours reaches the office's bell (decision 0130).
    const unidentified = rows.filter((r) => r.diagnosticCode === '5' && r.eventCode === 3).map((r) => r.vehicleId!);
    if (unidentified.length) {
      const units = await tx
        .select({ id: assets.id, unit: assets.unitNumber })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), inArray(assets.id, unidentified)));
      for (const u of units) {
        await notify(tx, {
          organizationId: orgId,
          kind: 'UNIDENTIFIED_DRIVING',
          factKey: `unidentified:${u.id}:${new Date(now).toISOString()}`,
          title: `Vehicle ${u.unit} drove over 30 minutes with nobody logged in`,
          body: "Propose the driving to its driver, or note why it is nobody's (a shop test drive).",
          link: '/hos/unidentified',
          linkLabel: 'Review unidentified driving',
        });
      }
    }
  });
}

const ENGINE_CODES = ['P', 'E', '2', '3', 'T'];
/** How recent a live fix must be to say anything of the device's clock. */
const CLOCK_FRESH_MS = 30 * 60_000;

/**
 * The engine checks' facts of the vehicles whose device reported engine data (ECM odometer or engine
 * hours) in the last 24 hours, or that have an engine code in force (decision 0155): their fixes of
 * the 24 hours, their records lacking a required element, and the lag of their newest live fix.
 */
async function engineFactsOf(
  db: DbOrTx,
  orgId: string,
  vehicleIds: readonly string[],
  latest: ReadonlyArray<{ id: string; fixTime: Date; serverTime: Date; ignition: boolean | null; speed: number | null }>,
  active: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
  now: number,
): Promise<Map<string, EngineFacts>> {
  const out = new Map<string, EngineFacts>();
  const dayAgo = now - DAY_MS;
  const recent = latest.filter((l) => l.fixTime.getTime() > dayAgo).map((l) => l.id);
  const facts = new Map<string, FixFacts>();
  const reports = new Set<string>();
  for (const batch of batchesOf(recent)) {
    const part = await engineFixFactsOf(db, orgId, batch, dayAgo - 3_600_000, now);
    for (const [v, f] of part.facts) facts.set(v, f);
    for (const v of part.reports) reports.add(v);
  }
  for (const v of vehicleIds) if (ENGINE_CODES.some((c) => active.get(v)?.has(c))) reports.add(v);
  if (reports.size === 0) return out;
  const ids = [...reports];
  // A duty status without a position and none typed; an automatic record without the engine's totals (4.6.1.5).
  const incomplete = rowsOf<{ vehicle_id: string; at: Date | string }>(
    await db.execute(sql`
      select vehicle_id, event_time as at from hos_events
      where organization_id = ${orgId}::uuid and vehicle_id = any(${`{${ids.join(',')}}`}::uuid[]) and record_status = ${HOS_RECORD_STATUSES.ACTIVE}
        and event_type in (${HOS_EVENT_TYPES.DUTY_STATUS}, ${HOS_EVENT_TYPES.INTERMEDIATE_LOG}, ${HOS_EVENT_TYPES.ENGINE_POWER})
        and event_time > ${new Date(dayAgo).toISOString()}::timestamptz and event_time <= ${new Date(now).toISOString()}::timestamptz
        and ((event_type = ${HOS_EVENT_TYPES.DUTY_STATUS} and latitude is null and coalesce(location_description, '') = '')
          or (record_origin = ${HOS_RECORD_ORIGINS.AUTOMATIC} and (odometer_m is null or engine_hours is null)))`),
  );
  for (const v of ids) {
    const l = latest.find((x) => x.id === v);
    const live = l && now - l.serverTime.getTime() <= CLOCK_FRESH_MS && (l.ignition === true || (l.speed ?? 0) >= MOVING_KMH);
    out.set(v, {
      ...(facts.get(v) ?? engineFixFacts([], now)),
      incompleteRecords: incomplete.filter((r) => r.vehicle_id === v).map((r) => new Date(r.at).getTime()),
      clockLagMs: live ? l.serverTime.getTime() - l.fixTime.getTime() : null,
    });
  }
  return out;
}

/**
 * The fixes of a day and a half are summed up in the database with window functions, a few rows a
 * vehicle instead of every fix: a 1 Hz truck has 86,400 fixes a day, 86 million a run for a fleet of
 * 1,000. What comes back is what the checks read (hos-diagnostics.ts): the runs of valid fixes, the
 * silences, the spans without engine data and the newest fixes' facts. Times are the fixes'
 * milliseconds, floored as a Date of the row gave them, and compared as such.
 */
const FIX_MS = sql.raw('floor(extract(epoch from fix_time) * 1000)::float8');
/**
 * Gaps are compared as timestamps, cheaper than numeric epochs on every row: fix times are stored to
 * the millisecond (every ingest path writes a JavaScript Date), so they compare as FIX_MS does.
 */
const EVERY = sql.raw(`interval '${POSITION_EVERY_MS / 1000} seconds'`);
/** A fix carries the engine's data: the ECM odometer and the total engine hours. */
const ENGINE_DATA = sql.raw("odometer_source is not distinct from 'ECM' and engine_hours is not null");

/** Each vehicle's runs of valid fixes (accuracy within 5 miles or not given) in (from, to]: what fixRuns makes of their times. */
export async function validFixRuns(db: DbOrTx, orgId: string, vehicleIds: readonly string[], fromMs: number, toMs: number): Promise<Map<string, FixRun[]>> {
  const rows = rowsOf<{ v: string; starts: string; ends: string }>(
    await db.execute(sql`
      -- A run starts at a fix more than 5 minutes after the one before and ends at one more than 5 minutes before the next.
      select v, (json_agg(${FIX_MS} order by fix_time) filter (where pt is null or fix_time - pt > ${EVERY}))::text as starts,
        (json_agg(${FIX_MS} order by fix_time) filter (where nt is null or nt - fix_time > ${EVERY}))::text as ends
      from (
        select asset_id as v, fix_time, lag(fix_time) over w as pt, lead(fix_time) over w as nt
        from positions
        where organization_id = ${orgId}::uuid and asset_id = any(${`{${vehicleIds.join(',')}}`}::uuid[])
          and fix_time > ${new Date(fromMs).toISOString()}::timestamptz and fix_time <= ${new Date(toMs).toISOString()}::timestamptz
          and (accuracy is null or accuracy <= ${VALID_ACCURACY_M})
        window w as (partition by asset_id order by fix_time)) f
      group by v`),
  );
  return new Map(
    rows.map((r) => {
      const ends = JSON.parse(r.ends) as number[];
      return [r.v, (JSON.parse(r.starts) as number[]).map((s, i) => [s, ends[i]!] as const)];
    }),
  );
}

type SilenceEnd = [number, number, number, boolean | null, boolean, boolean];

/** Each vehicle's engine facts of its fixes in (from, to] (what engineFixFacts makes of them), and the vehicles whose device reported engine data. */
export async function engineFixFactsOf(
  db: DbOrTx,
  orgId: string,
  vehicleIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<{ facts: Map<string, FixFacts>; reports: Set<string> }> {
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  const rows = rowsOf<{
    v: string;
    reports: boolean | null;
    silences: string | null;
    starts: string | null;
    ends: string | null;
    last_ign: string;
    last_on_data: boolean | null;
  }>(
    await db.execute(sql`
      select v, bool_or(reports) as reports,
          -- The fixes on either side of a silence, flagged [before one, after one].
          (json_agg(json_build_array(${FIX_MS}, lat, lon, ign, nt - fix_time > ${EVERY}, fix_time - pt > ${EVERY}) order by fix_time) filter (where fix_time - pt > ${EVERY} or nt - fix_time > ${EVERY}))::text as silences,
          -- Spans without engine data: from the first fix of a stretch lacking them to the fix after its last.
          (json_agg(${FIX_MS} order by fix_time) filter (where not data and pdata is distinct from false))::text as starts,
          (json_agg(coalesce(floor(extract(epoch from nt) * 1000)::float8, ${toMs}::float8) order by fix_time) filter (where not data and ndata is distinct from false))::text as ends,
          (json_agg(ign) filter (where nt is null))::text as last_ign,
          -- The newest fix with the engine on (ignition on or not reported): the greatest [time, data]
          -- of those. (A probe of the index per vehicle did this once; on statistics that did not yet
          -- know a new fleet's vehicles it scanned the organization's whole day for each: minutes.)
          (max(array[${FIX_MS}, data::int]) filter (where ign is not false))[2] = 1 as last_on_data
        from (
          select asset_id as v, fix_time, latitude as lat, longitude as lon, ignition as ign,
            ${ENGINE_DATA} as data, odometer_source = 'ECM' or engine_hours is not null as reports,
            lag(fix_time) over w as pt, lead(fix_time) over w as nt, lag(${ENGINE_DATA}) over w as pdata, lead(${ENGINE_DATA}) over w as ndata
          from positions
          where organization_id = ${orgId}::uuid and asset_id = any(${`{${vehicleIds.join(',')}}`}::uuid[]) and fix_time > ${from}::timestamptz and fix_time <= ${to}::timestamptz
          window w as (partition by asset_id order by fix_time)) x
        group by v`),
  );
  const facts = new Map<string, FixFacts>();
  const reports = new Set<string>();
  for (const r of rows) {
    if (r.reports) reports.add(r.v);
    const ends = r.silences ? (JSON.parse(r.silences) as SilenceEnd[]) : [];
    const silences: FixPair[] = [];
    const befores: SilenceEnd[] = [];
    for (const e of ends) {
      const [time, lat, lon, ignition, before, after] = e;
      // A fix after a silence pairs with the last fix before one at an earlier time (two devices on a truck may share a time).
      let i = befores.length - 1;
      while (i >= 0 && befores[i]![0] >= time) i--;
      const b = befores[i];
      if (after && b)
        silences.push([
          { time: b[0], lat: b[1], lon: b[2], ignition: b[3] },
          { time, lat, lon, ignition },
        ]);
      if (before) befores.push(e);
    }
    const starts = r.starts ? (JSON.parse(r.starts) as number[]) : [];
    const spanEnds = r.ends ? (JSON.parse(r.ends) as number[]) : [];
    facts.set(r.v, {
      silences,
      withoutData: starts.map((s, i) => [s, spanEnds[i]!] as const),
      lastIgnition: (JSON.parse(r.last_ign) as Array<boolean | null>)[0] ?? null,
      lastOnEngineData: r.last_on_data,
    });
  }
  return { facts, reports };
}

type Row = {
  id: string;
  vehicleId: string | null;
  code: string | null;
  eventCode: number;
  at: Date;
  detail: string | null;
  unitNumber: string | null;
  type: 'VEHICLE' | 'TRAILER' | null;
  /** A driver's own ELD record (the data transfer codes, decision 0185). */
  driver?: { id: string | null; firstName: string | null; lastName: string | null } | null;
};

/** Episodes (logged -> cleared) from a vehicle's or a driver's type-7 events in time order. */
function episodes(rows: readonly Row[]): HosDiagnostic[] {
  const open = new Map<string, HosDiagnostic>();
  const out: HosDiagnostic[] = [];
  for (const r of rows) {
    if (!r.code) continue;
    const key = `${r.vehicleId}|${r.driver?.id ?? ''}|${r.code}`;
    const logged = r.eventCode === 1 || r.eventCode === 3;
    const current = open.get(key);
    if (logged) {
      if (current) continue;
      const d: HosDiagnostic = {
        id: r.id,
        vehicle: r.vehicleId && r.unitNumber && r.type ? { id: r.vehicleId, unitNumber: r.unitNumber, type: r.type } : null,
        driver: r.driver?.id ? { id: r.driver.id, firstName: r.driver.firstName ?? '', lastName: r.driver.lastName ?? '' } : null,
        kind: isMalfunction(r.code) ? 'MALFUNCTION' : 'DIAGNOSTIC',
        code: r.code,
        name: ELD_DIAGNOSTIC_NAMES[r.code] ?? `Diagnostic ${r.code}`,
        loggedAt: r.at.toISOString(),
        clearedAt: null,
        active: true,
        detail: r.detail,
      };
      open.set(key, d);
      out.push(d);
    } else if (current) {
      current.clearedAt = r.at.toISOString();
      current.active = false;
      open.delete(key);
    }
  }
  return out;
}

/** The vehicles' malfunctions and diagnostics in force at some time in [fromMs, toMs), oldest first. */
export async function vehicleDiagnostics(
  db: DbOrTx,
  orgId: string,
  vehicleIds: readonly string[] | null,
  fromMs: number,
  toMs: number,
): Promise<HosDiagnostic[]> {
  if (vehicleIds && vehicleIds.length === 0) return [];
  const rows = await db
    .select({
      id: hosEvents.id,
      vehicleId: hosEvents.vehicleId,
      code: hosEvents.diagnosticCode,
      eventCode: hosEvents.eventCode,
      at: hosEvents.eventTime,
      detail: hosEvents.annotation,
      unitNumber: assets.unitNumber,
      type: assets.type,
    })
    .from(hosEvents)
    .leftJoin(assets, and(eq(assets.id, hosEvents.vehicleId), eq(assets.organizationId, hosEvents.organizationId)))
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        eq(hosEvents.eventType, HOS_EVENT_TYPES.MALFUNCTION),
        // The vehicles' ELD records; a driver's own (driverDiagnostics) have a driver.
        isNull(hosEvents.driverId),
        vehicleIds ? inArray(hosEvents.vehicleId, [...vehicleIds]) : undefined,
        sql`${hosEvents.eventTime} < ${new Date(toMs).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId));
  return episodes(rows).filter((d) => (d.clearedAt === null || Date.parse(d.clearedAt) > fromMs) && Date.parse(d.loggedAt) < toMs);
}

/**
 * The drivers' own malfunctions and diagnostics (the data transfer codes of 4.6.1.7, decision 0185:
 * type-7 records with the driver and no vehicle) in force at some time in [fromMs, toMs), oldest first.
 */
export async function driverDiagnostics(
  db: DbOrTx,
  orgId: string,
  driverIds: readonly string[] | null,
  fromMs: number,
  toMs: number,
): Promise<HosDiagnostic[]> {
  if (driverIds && driverIds.length === 0) return [];
  const rows = await db
    .select({
      id: hosEvents.id,
      vehicleId: hosEvents.vehicleId,
      code: hosEvents.diagnosticCode,
      eventCode: hosEvents.eventCode,
      at: hosEvents.eventTime,
      detail: hosEvents.annotation,
      unitNumber: sql<string | null>`null`,
      type: sql<'VEHICLE' | 'TRAILER' | null>`null`,
      driver: { id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName },
    })
    .from(hosEvents)
    .leftJoin(drivers, and(eq(drivers.id, hosEvents.driverId), eq(drivers.organizationId, hosEvents.organizationId)))
    .where(
      and(
        eq(hosEvents.organizationId, orgId),
        eq(hosEvents.eventType, HOS_EVENT_TYPES.MALFUNCTION),
        isNotNull(hosEvents.driverId),
        isNull(hosEvents.vehicleId),
        driverIds ? inArray(hosEvents.driverId, [...driverIds]) : undefined,
        sql`${hosEvents.eventTime} < ${new Date(toMs).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(hosEvents.eventTime), asc(hosEvents.sequenceId));
  return episodes(rows).filter((d) => (d.clearedAt === null || Date.parse(d.clearedAt) > fromMs) && Date.parse(d.loggedAt) < toMs);
}

/** `GET hos_log/diagnostics`: episodes in the range (default the last 8 days), newest first, paged. */
export async function listDiagnostics({ db, orgId, now = Date.now() }: ReadScope, q: z.output<typeof hosDiagnosticQuery>): Promise<Page<HosDiagnostic>> {
  const toMs = q.to ? Date.parse(q.to) : now;
  const fromMs = q.from ? Date.parse(q.from) : toMs - 8 * DAY_MS;
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (q.assetId) {
    const [v] = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.id, q.assetId), eq(assets.organizationId, orgId)));
    if (!v) throw invalidField('assetId', 'Vehicle must be a vehicle of the organization');
  }
  // A vehicle's when one is asked for; else the vehicles' and the drivers' own (data transfer), by time.
  const [vehicles, ofDrivers] = await Promise.all([
    vehicleDiagnostics(db, orgId, q.assetId ? [q.assetId] : null, fromMs, toMs),
    q.assetId ? [] : driverDiagnostics(db, orgId, null, fromMs, toMs),
  ]);
  let list = [...vehicles, ...ofDrivers].sort((x, y) => (x.loggedAt < y.loggedAt ? -1 : x.loggedAt > y.loggedAt ? 1 : 0));
  if (q.active) list = list.filter((d) => d.active === (q.active === 'true'));
  list.reverse();
  return toPage(list.slice(q.page * q.size, (q.page + 1) * q.size), list.length, q);
}
