import {
  DEFAULT_SAFETY_SETTINGS,
  SPEEDING_BANDS,
  SAFETY_COACHING_DUE_DAYS,
  SAFETY_SOURCE_LABELS,
  SAFETY_TRACE_SECONDS,
  SAFETY_TREND_WEEKS,
  type DriverSafety,
  type Page,
  type SafetyBehaviour,
  type SafetyCoach,
  type SafetyEvent,
  type SafetyEventBrief,
  type SafetyEventDetail,
  type SafetyEventHistory,
  type SafetyGroupBy,
  type SafetyScoreDetail,
  type SafetyScoreRow,
  type SafetyScores,
  type SafetySettings,
  type SafetySummary,
  type SpeedingBand,
  type safetyAcknowledgeSchema,
  type safetyDisputeSchema,
  type safetyEventListQuery,
  type safetyEventReviewSchema,
  type safetyPeriodQuery,
  type safetyScoresQuery,
} from '@fleet/api-contract';
import { describeLocation } from '@fleet/geo/places';
import { speedLimitIndex } from '@fleet/geo/speed-limits';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import {
  findCoach,
  organizationVehicleIds,
  readCoaches,
  readDriverEvents,
  readDriverOfUser,
  readEventPage,
  readNamedEvent,
  readNamedEvents,
  readOpenCounts,
  readScoredEvents,
  readSettings,
  readSubjectNames,
  readSubjectTotals,
  readTallies,
  readTrace,
  readUserNameParts,
  readWeeklyTrips,
  updateEvent,
  writeSettings,
  type Named,
  type ScoredEventRow,
} from './safety.repository.ts';
import {
  addToTally,
  blankTally,
  computeScore,
  countsInScore,
  distributionOf,
  formulaOf,
  mergeTally,
  scoreOfTally,
  type ScoreResult,
  type ScoreTally,
} from './score.ts';

// Safety events, scores and coaching (issue 47, decisions 0194 and 0195): the inbox and an event with
// its speed trace, the review (dismiss, needs coaching with a coach and a due date, coached,
// recognised, defensive), the driver's acknowledgement and dispute, scores per driver or vehicle with
// their formula, trend and events, the settings, and the dashboard's summary. Scores are computed on
// read from the events and the trips, so an event's change changes the score at once. The statements
// are in safety.repository.ts (decision 0255).

type ListQuery = z.output<typeof safetyEventListQuery>;
type Review = z.output<typeof safetyEventReviewSchema>;
type PeriodQuery = z.output<typeof safetyPeriodQuery>;
type ScoresQuery = z.output<typeof safetyScoresQuery>;

const DAY_MS = 86_400_000;
const personName = (first: string | null, last: string | null, email?: string | null): string | null => {
  const n = [first, last].filter(Boolean).join(' ').trim();
  return n || email || null;
};

/** Where, in words ("3 mi NNE of Joliet, IL"), from the bundled places. */
const placeWords = (lat: number, lon: number): string | null => {
  try {
    return describeLocation(lat, lon).text;
  } catch {
    return null;
  }
};

export function presentEvent(n: Named, weights: SafetySettings['weights']): SafetyEvent {
  const r = n.row;
  return {
    id: r.id,
    type: r.type,
    severity: r.severity,
    status: r.status,
    source: r.source,
    sourceLabel: SAFETY_SOURCE_LABELS[r.source],
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt.toISOString(),
    durationS: Math.round((r.endedAt.getTime() - r.startedAt.getTime()) / 1000),
    driverId: r.driverId,
    driverName: personName(n.driverFirst, n.driverLast),
    assetId: r.assetId,
    assetName: n.assetName ?? '?',
    lat: r.latitude,
    lon: r.longitude,
    place: placeWords(r.latitude, r.longitude),
    speedBeforeKph: r.speedBeforeKph,
    speedAfterKph: r.speedAfterKph,
    maxSpeedKph: r.maxSpeedKph,
    limitKph: r.limitKph,
    limitSource: r.limitSource,
    heldSpeedKph: r.heldSpeedKph,
    band: r.band,
    strengthMps2: r.strengthMps2,
    fuelBurnedL: r.fuelBurnedL,
    coachId: r.coachId,
    coachName: r.coachId ? personName(n.coachFirst, n.coachLast, n.coachEmail) : null,
    dueAt: r.dueAt?.toISOString() ?? null,
    note: r.note,
    acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
    disputeNote: r.disputeNote,
    disputedAt: r.disputedAt?.toISOString() ?? null,
    countsInScore: countsInScore(r, weights),
    history: r.history ?? [],
    createdAt: r.createdAt.toISOString(),
  };
}

const brief = (e: SafetyEvent): SafetyEventBrief => ({
  id: e.id,
  type: e.type,
  severity: e.severity,
  status: e.status,
  startedAt: e.startedAt,
  durationS: e.durationS,
  band: e.band,
  assetName: e.assetName,
  driverName: e.driverName,
  place: e.place,
  maxSpeedKph: e.maxSpeedKph,
  limitKph: e.limitKph,
  heldSpeedKph: e.heldSpeedKph,
  strengthMps2: e.strengthMps2,
});

/** The period asked for, else the rolling window (the settings' weeks) ending now. */
function periodOf(q: PeriodQuery, settings: SafetySettings, now = Date.now()): { from: number; to: number } {
  const to = q.to ? Date.parse(q.to) : now;
  const from = q.from ? Date.parse(q.from) : to - settings.windowWeeks * 7 * DAY_MS;
  if (from >= to) throw invalidField('from', 'from must be before to');
  if (to - from > 366 * DAY_MS) throw invalidField('from', 'The period must be at most a year');
  return { from, to };
}

/** A page of the organization's events, severity first then newest unless `sort` says otherwise. */
export async function listSafetyEvents({ db, orgId }: ReadScope, q: ListQuery): Promise<Page<SafetyEvent>> {
  const settings = await readSettings(db, orgId);
  const { total, rows } = await readEventPage(db, orgId, q);
  return toPage(
    rows.map((r) => presentEvent(r, settings.weights)),
    total,
    q,
  );
}

async function namedEvent(db: DbOrTx, orgId: string, eventId: string): Promise<Named> {
  const r = await readNamedEvent(db, orgId, eventId);
  if (!r) throw notFound('Safety event');
  return r;
}

/** An event with its speed trace: the positions from 60 s before it to 60 s after, with the limit at each. */
export async function getSafetyEvent({ db, orgId }: ReadScope, eventId: string): Promise<SafetyEventDetail> {
  const settings = await readSettings(db, orgId);
  const n = await namedEvent(db, orgId, eventId);
  const event = presentEvent(n, settings.weights);
  const heavy = (settings.vehicleClasses.find((v) => v.assetId === n.row.assetId)?.vehicleClass ?? settings.defaultVehicleClass) !== 'LIGHT';
  const pad = SAFETY_TRACE_SECONDS * 1000;
  const fixes = await readTrace(db, orgId, n.row.assetId, n.row.startedAt.getTime() - pad, n.row.endedAt.getTime() + pad);
  const limits = speedLimitIndex();
  return {
    ...event,
    trace: fixes.map((f) => ({
      at: new Date(f.t).toISOString(),
      lat: f.lat,
      lon: f.lon,
      speedKph: f.speed,
      limitKph: limits.at(f.lat, f.lon, heavy)?.kph ?? null,
    })),
  };
}

const historyEntry = (
  action: SafetyEventHistory['action'],
  status: SafetyEventHistory['status'],
  userId: string | null,
  userName: string | null,
  note: string | null,
): SafetyEventHistory => ({
  at: new Date().toISOString(),
  action,
  status,
  userId,
  userName,
  note,
});

async function userName(db: DbOrTx, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const u = await readUserNameParts(db, userId);
  return u ? personName(u.f, u.l, u.e) : null;
}

/** `GET safety/coaches`: the users a reviewer may ask to coach, by name. */
export async function listCoaches({ db, orgId }: ReadScope): Promise<SafetyCoach[]> {
  const rows = await readCoaches(db, orgId);
  return rows.map((r) => ({ id: r.id, name: personName(r.first, r.last, r.email) ?? r.email, email: r.email }));
}

/**
 * A review: the status, a note, and for NEEDS_COACHING a coach (a user who may coach, else 400)
 * and a due date 14 days on. The score follows at once (it is computed from the events on read).
 */
export async function reviewSafetyEvent({ db, orgId, actor }: Scope, eventId: string, input: Review): Promise<SafetyEvent> {
  return db.transaction(async (tx) => {
    const before = await namedEvent(tx, orgId, eventId);
    let coachId: string | null = null;
    if (input.status === 'NEEDS_COACHING') {
      const c = await findCoach(tx, orgId, input.coachId!);
      if (!c) throw invalidField('coachId', 'Coach must be a user of the organization who may review and coach (SAFETY_UPDATE)');
      coachId = c.id;
    }
    const note = input.note ?? null;
    const by = await userName(tx, actor.userId);
    const now = new Date();
    await updateEvent(
      tx,
      orgId,
      eventId,
      {
        status: input.status,
        note: note ?? before.row.note,
        // The coach stays on record once coached; another status clears the assignment.
        coachId: input.status === 'NEEDS_COACHING' ? coachId : input.status === 'COACHED' ? before.row.coachId : null,
        dueAt: input.status === 'NEEDS_COACHING' ? new Date(now.getTime() + SAFETY_COACHING_DUE_DAYS * DAY_MS) : null,
        acknowledgedAt: input.status === 'NEEDS_COACHING' ? null : before.row.acknowledgedAt,
        updatedAt: now,
      },
      historyEntry('REVIEW', input.status, actor.userId, by, note),
    );
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'SAFETY_EVENT',
      entityId: eventId,
      before: { status: before.row.status, coachId: before.row.coachId, note: before.row.note },
      after: { status: input.status, coachId, note },
    });
    const settings = await readSettings(tx, orgId);
    return presentEvent(await namedEvent(tx, orgId, eventId), settings.weights);
  });
}

/** The driver record of the signed-in user (404 when the account is no driver's). */
export async function ownDriver(db: DbOrTx, orgId: string, userId: string | null): Promise<{ id: string; name: string }> {
  if (!userId) throw notFound('Driver');
  const d = await readDriverOfUser(db, orgId, userId);
  if (!d) throw notFound('Driver');
  return { id: d.id, name: `${d.f} ${d.l}` };
}

/** The driver's own event (another driver's, or another organization's, is not found). */
async function ownEvent(db: DbOrTx, orgId: string, userId: string | null, eventId: string): Promise<Named> {
  const me = await ownDriver(db, orgId, userId);
  const n = await namedEvent(db, orgId, eventId);
  if (n.row.driverId !== me.id) throw notFound('Safety event');
  return n;
}

/** The driver acknowledges a coaching session (their own event asked for coaching or coached). */
export async function acknowledgeSafetyEvent(
  { db, orgId, actor }: Scope,
  eventId: string,
  input: z.output<typeof safetyAcknowledgeSchema>,
): Promise<SafetyEvent> {
  return db.transaction(async (tx) => {
    const n = await ownEvent(tx, orgId, actor.userId, eventId);
    if (n.row.status !== 'NEEDS_COACHING' && n.row.status !== 'COACHED') throw invalidField('status', 'Only an event with coaching can be acknowledged');
    const by = await userName(tx, actor.userId);
    const note = input.note ?? null;
    await updateEvent(
      tx,
      orgId,
      eventId,
      { acknowledgedAt: new Date(), updatedAt: new Date() },
      historyEntry('ACKNOWLEDGED', n.row.status, actor.userId, by, note),
    );
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'SAFETY_EVENT',
      entityId: eventId,
      before: { acknowledgedAt: n.row.acknowledgedAt },
      after: { acknowledgedAt: new Date(), note },
    });
    const settings = await readSettings(tx, orgId);
    return presentEvent(await namedEvent(tx, orgId, eventId), settings.weights);
  });
}

/** The driver disputes their own event with a note (it goes back to review when it was not). */
export async function disputeSafetyEvent({ db, orgId, actor }: Scope, eventId: string, input: z.output<typeof safetyDisputeSchema>): Promise<SafetyEvent> {
  return db.transaction(async (tx) => {
    const n = await ownEvent(tx, orgId, actor.userId, eventId);
    const by = await userName(tx, actor.userId);
    await updateEvent(
      tx,
      orgId,
      eventId,
      { disputeNote: input.note, disputedAt: new Date(), updatedAt: new Date() },
      historyEntry('DISPUTED', n.row.status, actor.userId, by, input.note),
    );
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'SAFETY_EVENT',
      entityId: eventId,
      before: { disputeNote: n.row.disputeNote },
      after: { disputeNote: input.note },
    });
    const settings = await readSettings(tx, orgId);
    return presentEvent(await namedEvent(tx, orgId, eventId), settings.weights);
  });
}

// ---------------------------------------------------------------------------------------------------
// Scores

interface Subject {
  id: string;
  name: string;
  distanceKm: number;
  drivingSeconds: number;
}

/**
 * Each driver's (or vehicle's) distance and driving time in the period (trips by their start): the
 * whole UTC days from the daily totals, the partial days at either end from the trips (decision 0199).
 */
async function subjectsOf(db: DbOrTx, orgId: string, groupBy: SafetyGroupBy, from: number, to: number, only?: string, groupId?: string): Promise<Subject[]> {
  const totals = await readSubjectTotals(db, orgId, groupBy, from, to, only, groupId);
  const names = await readSubjectNames(db, orgId, groupBy, only, groupId);
  const byId = new Map(totals.map((t) => [t.id, t]));
  return names.map((n) => ({
    id: n.id,
    name: n.name,
    distanceKm: Number(byId.get(n.id)?.km ?? 0),
    drivingSeconds: Math.round(Number(byId.get(n.id)?.s ?? 0)),
  }));
}

interface SubjectTally {
  tally: ScoreTally;
  newEvents: number;
  openCoaching: number;
}

/** The events of each driver (or vehicle) in the period counted by SQL per type and band (decision 0199). */
async function tallies(db: DbOrTx, orgId: string, groupBy: SafetyGroupBy, from: number, to: number): Promise<Map<string, SubjectTally>> {
  const rows = await readTallies(db, orgId, groupBy, from, to);
  const out = new Map<string, SubjectTally>();
  for (const r of rows) {
    let t = out.get(r.id);
    if (!t) out.set(r.id, (t = { tally: blankTally(), newEvents: 0, openCoaching: 0 }));
    const seconds: Partial<Record<SpeedingBand, number>> = {};
    for (const b of SPEEDING_BANDS) if (r[b] !== null && r[b] !== undefined) seconds[b] = Number(r[b]);
    addToTally(t.tally, r.type, r.band, Number(r.n), seconds);
    t.newEvents += Number(r.nw);
    t.openCoaching += Number(r.nc);
  }
  return out;
}

function rowOf(s: Subject, events: readonly ScoredEventRow[], settings: SafetySettings): SafetyScoreRow & { eventIds: Map<SafetyBehaviour, string[]> } {
  const r = computeScore(s.distanceKm, s.drivingSeconds, events, settings.weights);
  const open = { newEvents: events.filter((e) => e.status === 'NEW').length, openCoaching: events.filter((e) => e.status === 'NEEDS_COACHING').length };
  return { ...scoreRow(s, r, open), eventIds: r.eventIds };
}

/** A subject's row of the scores from its score and its events still open. */
function scoreRow(s: Subject, r: Omit<ScoreResult, 'eventIds'>, open: { newEvents: number; openCoaching: number }): SafetyScoreRow {
  return {
    id: s.id,
    name: s.name,
    score: r.score,
    miles: r.miles,
    distanceKm: Math.round(s.distanceKm * 10) / 10,
    drivingSeconds: s.drivingSeconds,
    events: r.events,
    speedingSeconds: r.speedingSeconds,
    speedingShare: r.speedingShare,
    pointsLost: r.pointsLost,
    behaviours: r.behaviours,
    newEvents: open.newEvents,
    openCoaching: open.openCoaching,
  };
}

/** Scores of every driver (or vehicle) over the period, with the fleet's score and distribution. */
export async function computeScores(
  db: DbOrTx,
  orgId: string,
  q: { from?: string; to?: string; groupBy: SafetyGroupBy; groupId?: string },
  now = Date.now(),
): Promise<SafetyScores> {
  const settings = await readSettings(db, orgId);
  const { from, to } = periodOf(q, settings, now);
  const subjects = await subjectsOf(db, orgId, q.groupBy, from, to, undefined, q.groupId);
  const counted = await tallies(db, orgId, q.groupBy, from, to);
  const fleetTally = blankTally();
  const rows: SafetyScoreRow[] = subjects.map((s) => {
    const t = counted.get(s.id) ?? { tally: blankTally(), newEvents: 0, openCoaching: 0 };
    mergeTally(fleetTally, t.tally);
    return scoreRow(s, scoreOfTally(s.distanceKm, s.drivingSeconds, t.tally, settings.weights), t);
  });
  rows.sort(
    (a, b) => (a.score === null ? 1 : 0) - (b.score === null ? 1 : 0) || (a.score ?? 0) - (b.score ?? 0) || b.miles - a.miles || a.name.localeCompare(b.name),
  );
  const fleet = scoreOfTally(
    subjects.reduce((a, s) => a + s.distanceKm, 0),
    subjects.reduce((a, s) => a + s.drivingSeconds, 0),
    fleetTally,
    settings.weights,
  );
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    groupBy: q.groupBy,
    fleet: {
      score: fleet.score,
      miles: fleet.miles,
      drivingSeconds: subjects.reduce((a, s) => a + s.drivingSeconds, 0),
      scored: rows.filter((r) => r.score !== null).length,
      unscored: rows.filter((r) => r.score === null).length,
      distribution: distributionOf(rows.map((r) => r.score)),
    },
    rows,
  };
}

export async function listScores({ db, orgId }: ReadScope, q: ScoresQuery): Promise<SafetyScores> {
  return computeScores(db, orgId, q);
}

/** Monday 00:00 UTC of the week holding `ms`. */
const weekStart = (ms: number): number => {
  const d = new Date(ms);
  const day = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
};

/** One driver's or vehicle's score: the row, the formula filled in, 12 weeks of trend and the events behind each point lost. */
export async function scoreDetail({ db, orgId }: ReadScope, groupBy: SafetyGroupBy, id: string, q: PeriodQuery, now = Date.now()): Promise<SafetyScoreDetail> {
  const settings = await readSettings(db, orgId);
  const { from, to } = periodOf(q, settings, now);
  const [subject] = await subjectsOf(db, orgId, groupBy, from, to, id);
  if (!subject) throw notFound(groupBy === 'driver' ? 'Driver' : 'Vehicle');
  const events = await readScoredEvents(db, orgId, groupBy, from, to, id);
  const row = rowOf(subject, events, settings);
  // The trend: 12 weeks ending with the period's last week.
  const lastWeek = weekStart(to - 1);
  const trendFrom = lastWeek - (SAFETY_TREND_WEEKS - 1) * 7 * DAY_MS;
  const trendTrips = await readWeeklyTrips(db, orgId, groupBy, id, trendFrom, lastWeek + 7 * DAY_MS);
  const trendEvents = await readScoredEvents(db, orgId, groupBy, trendFrom, lastWeek + 7 * DAY_MS, id);
  const trend = Array.from({ length: SAFETY_TREND_WEEKS }, (_, i) => {
    const w = trendFrom + i * 7 * DAY_MS;
    const t = trendTrips.find((x) => Math.round(Number(x.w)) === w);
    const ev = trendEvents.filter((e) => weekStart(e.startedAt) === w);
    const r = computeScore(Number(t?.km ?? 0), Math.round(Number(t?.s ?? 0)), ev, settings.weights);
    return { weekStart: new Date(w).toISOString().slice(0, 10), score: r.score, miles: r.miles, events: r.events };
  });
  // The events behind each behaviour, presented briefly.
  const allIds = [...row.eventIds.values()].flat();
  const presented = new Map<string, SafetyEventBrief>();
  if (allIds.length) {
    const rows = await readNamedEvents(db, orgId, allIds);
    for (const r of rows) presented.set(r.row.id, brief(presentEvent(r, settings.weights)));
  }
  const { eventIds, ...plain } = row;
  const result = computeScore(subject.distanceKm, subject.drivingSeconds, events, settings.weights);
  return {
    ...plain,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    groupBy,
    formula: formulaOf(result),
    trend,
    eventsByBehaviour: [...eventIds].map(([behaviour, ids]) => ({
      behaviour,
      events: ids.flatMap((x) => presented.get(x) ?? []).sort((a, b) => b.startedAt.localeCompare(a.startedAt)),
    })),
  };
}

/** The signed-in driver's own score and events. */
export async function driverOwnSafety(scope: Scope, q: PeriodQuery): Promise<DriverSafety> {
  const me = await ownDriver(scope.db, scope.orgId, scope.actor.userId);
  const score = await scoreDetail(scope, 'driver', me.id, q);
  const settings = await readSettings(scope.db, scope.orgId);
  const rows = await readDriverEvents(scope.db, scope.orgId, me.id, score.from, score.to);
  const events = rows.map((r) => presentEvent(r, settings.weights));
  return {
    driverId: me.id,
    driverName: me.name,
    score,
    events,
    toAcknowledge: events.filter((e) => (e.status === 'NEEDS_COACHING' || e.status === 'COACHED') && !e.acknowledgedAt).length,
  };
}

/** The dashboard's card: the fleet's score, the inbox and coaching counts, and the drivers most in need of coaching. */
export async function safetySummary({ db, orgId }: ReadScope, q: PeriodQuery & { groupId?: string }): Promise<SafetySummary> {
  const settings = await readSettings(db, orgId);
  const scores = { ...(await computeScores(db, orgId, { ...q, groupBy: 'driver' })), weightsIdling: settings.weights.IDLING };
  // Events to review: those the score weighs (idling, weighted 0 by default, is reported, not reviewed).
  const c = await readOpenCounts(db, orgId, scores.weightsIdling, q.groupId);
  const drivers = scores.rows
    .filter((r) => r.score !== null && (r.score < 100 || r.openCoaching > 0))
    .slice(0, 5)
    .map((r) => ({ driverId: r.id, driverName: r.name, score: r.score, events: r.events, newEvents: r.newEvents, openCoaching: r.openCoaching }));
  return {
    from: scores.from,
    to: scores.to,
    fleet: scores.fleet,
    newEvents: Number(c?.n ?? 0),
    needsCoaching: Number(c?.c ?? 0),
    overdueCoaching: Number(c?.o ?? 0),
    drivers,
  };
}

// ---------------------------------------------------------------------------------------------------
// Settings

export async function getSafetySettings({ db, orgId }: ReadScope): Promise<SafetySettings> {
  return readSettings(db, orgId);
}

/** Replaces the settings (vehicles named must be the organization's vehicles, else 400). */
export async function putSafetySettings({ db, orgId, actor }: Scope, input: SafetySettings): Promise<SafetySettings> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.vehicleClasses.map((v) => v.assetId))];
    if (ids.length) {
      const known = new Set(await organizationVehicleIds(tx, orgId, ids));
      const bad = input.vehicleClasses.findIndex((v) => !known.has(v.assetId));
      if (bad >= 0) throw invalidField(`vehicleClasses.${bad}.assetId`, `Vehicle class (item ${bad + 1}): the vehicle is not one of the organization's`);
    }
    const before = await readSettings(tx, orgId);
    await writeSettings(tx, orgId, input);
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'SAFETY_SETTINGS', entityId: orgId, before, after: input });
    return input;
  });
}

export { DEFAULT_SAFETY_SETTINGS };
