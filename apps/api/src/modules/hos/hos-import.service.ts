import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import { dailyTotals, HosInputError, type DutyPeriod } from '@fleet/hos';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS, HOS_RECORD_STATUSES, type HosImportBody, type HosImportResult } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, hosEvents } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import type { Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { specialCode, statusCode, type SpecialCategory } from './hos.periods.ts';
import { driverHosColumns, engineOptions, ensureLogDays, nextSequenceId, periodStartOf, type DriverHos } from './hos.repository.ts';
import { logDateOf, nextDate } from './hos.time.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';

const when = (ms: number) => new Date(ms).toISOString();

/** The engine's own input checks (sorted, contiguous, end after start) as a 400 naming period and field. */
function checkWithEngine(periods: DutyPeriod[], d: DriverHos, periodStart: string): void {
  try {
    dailyTotals(periods, engineOptions(d, periodStart));
  } catch (err) {
    if (!(err instanceof HosInputError)) throw err;
    const words = err.message.replace(/^periods\[\d+\]: /, '');
    if (err.periodIndex === null) throw invalidField(err.field ?? 'periods', words);
    throw invalidField(`periods.${err.periodIndex}.${err.field ?? 'start'}`, `Period ${err.periodIndex}: ${words}`);
  }
}

/** The annotation of the off-duty record that closes imported periods (see importPeriods). */
const endAnnotation = (source: string) => `End of periods imported from ${source}`.slice(0, 60);
const END_PREFIX = 'End of periods imported from ';

/**
 * Refuses periods that overlap the driver's active records or leave a gap before the next one.
 * Recorded statuses run until the next record, so an import may only come after the last record
 * (which it ends) or end exactly where the first record starts. The off-duty record that closed an
 * earlier import, when it is the driver's last record and this import starts at it, gives way: the
 * import continues that one (it is marked inactive-changed). Answers whether a record follows the
 * periods (then their last status ends there, not with an off-duty record of this import's own).
 */
async function checkAgainstRecords(tx: DbOrTx, orgId: string, driverId: string, periods: DutyPeriod[]): Promise<{ followed: boolean }> {
  const startMs = Date.parse(periods[0]!.start);
  const endMs = Date.parse(periods[periods.length - 1]!.end);
  const active = and(
    eq(hosEvents.organizationId, orgId),
    eq(hosEvents.driverId, driverId),
    eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
    eq(hosEvents.eventType, HOS_EVENT_TYPES.DUTY_STATUS),
  );
  const read = () =>
    Promise.all([
      tx
        .select({ at: hosEvents.eventTime })
        .from(hosEvents)
        .where(and(active, lt(hosEvents.eventTime, new Date(startMs))))
        .orderBy(desc(hosEvents.eventTime))
        .limit(1),
      tx
        .select({ id: hosEvents.id, at: hosEvents.eventTime, origin: hosEvents.recordOrigin, code: hosEvents.eventCode, annotation: hosEvents.annotation })
        .from(hosEvents)
        .where(and(active, gte(hosEvents.eventTime, new Date(startMs))))
        .orderBy(asc(hosEvents.eventTime))
        .limit(2),
    ]);
  const first = await read();
  let [[prev], [next]] = first;
  const afterNext = first[1][1];
  if (
    next &&
    !afterNext &&
    next.at.getTime() === startMs &&
    next.origin === HOS_RECORD_ORIGINS.OTHER &&
    next.code === statusCode('OFF') &&
    next.annotation?.startsWith(END_PREFIX)
  ) {
    // The closing record and the special-category event written with it.
    await tx
      .update(hosEvents)
      .set({ recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED })
      .where(
        and(
          eq(hosEvents.driverId, driverId),
          eq(hosEvents.recordStatus, HOS_RECORD_STATUSES.ACTIVE),
          eq(hosEvents.eventTime, next.at),
          eq(hosEvents.recordOrigin, HOS_RECORD_ORIGINS.OTHER),
          eq(hosEvents.annotation, next.annotation),
        ),
      );
    [[prev], [next]] = await read();
  }
  if (!next) return { followed: false };
  const nextMs = next.at.getTime();
  if (nextMs < endMs) {
    const i = periods.findIndex((p) => Date.parse(p.end) > nextMs);
    throw invalidField(`periods.${i}.start`, `Period ${i} overlaps the driver's records: a duty status is recorded at ${when(nextMs)}`);
  }
  if (prev) {
    throw invalidField('periods.0.start', `Period 0 overlaps the driver's records: they run from ${when(prev.at.getTime())} to ${when(nextMs)}`);
  }
  if (nextMs > endMs) {
    const i = periods.length - 1;
    throw invalidField(`periods.${i}.end`, `Period ${i} leaves a gap before the driver's next record at ${when(nextMs)}`);
  }
  return { followed: true };
}

/**
 * Whether the import records the end of its last period, a driving one: recorded statuses run until
 * the next record, so without one imported driving would run on until now, where the periods (and
 * the engine judging them, which counts time after them as off duty) say it ended, and become hours
 * of driving past every limit. Driving is what limits judge and what no one records by hand here
 * (the vehicle's motion does), so only driving is closed; another last status is the status in
 * force and goes on. Not when a record follows, when the driving ends about now (the truck still
 * moving), or for an ELD file (its last status is the one in force when the file was made).
 */
function closesAt(periods: DutyPeriod[], followed: boolean, closeLast: boolean, now: number): boolean {
  const last = periods[periods.length - 1]!;
  if (followed || !closeLast || last.status !== 'D') return false;
  return Date.parse(last.end) < now - CURRENT_MS;
}

type NewEvent = typeof hosEvents.$inferInsert;

/**
 * The events of the periods: a duty-status change at each start, special categories set and
 * cleared; with `end`, an off-duty record at the end of the last period (see closesAt).
 */
function eventsOf(
  periods: DutyPeriod[],
  base: Omit<NewEvent, 'sequenceId' | 'eventType' | 'eventCode' | 'eventTime' | 'logDate'>,
  firstSeq: number,
  dayOf: (ms: number) => string,
  end: { annotation: string } | null,
): NewEvent[] {
  const out: NewEvent[] = [];
  let special: SpecialCategory | null = null;
  const push = (eventType: number, eventCode: number, ms: number, annotation = base.annotation) =>
    out.push({ ...base, annotation, sequenceId: firstSeq + out.length, eventType, eventCode, eventTime: new Date(ms), logDate: dayOf(ms) });
  for (const p of periods) {
    const ms = Date.parse(p.start);
    push(HOS_EVENT_TYPES.DUTY_STATUS, statusCode(p.status), ms);
    const want = p.special ?? null;
    if (want !== special) push(HOS_EVENT_TYPES.SPECIAL_CATEGORY, specialCode(want), ms);
    special = want;
  }
  if (end) {
    const ms = Date.parse(periods[periods.length - 1]!.end);
    push(HOS_EVENT_TYPES.DUTY_STATUS, statusCode('OFF'), ms, end.annotation);
    if (special !== null) push(HOS_EVENT_TYPES.SPECIAL_CATEGORY, specialCode(null), ms, end.annotation);
  }
  return out;
}

/** Driving that ended this close to now is the status in force: it goes on (the ELD's own 5 minutes, 4.4.1.2). */
const CURRENT_MS = 5 * 60_000;

/**
 * Imports duty-status periods into a driver's records in one transaction: events with origin
 * "other" and the annotation "Imported from {source}", the log days they touch, one activity row.
 * A last driving period that ended before now is closed by an off-duty record (closesAt), so the API
 * judges the periods as the engine does. Nothing is stored when a period is unsorted, gapped, overlapping,
 * or overlaps the driver's records.
 */
export async function importPeriods(
  { db, orgId, actor, now = Date.now() }: Scope,
  driverId: string,
  body: HosImportBody,
  { closeLast = true }: { closeLast?: boolean } = {},
): Promise<HosImportResult> {
  const periods: DutyPeriod[] = body.periods.map((p) => ({ status: p.status, start: p.start, end: p.end, ...(p.special ? { special: p.special } : {}) }));
  const periodStart = await periodStartOf(db, orgId);
  return db.transaction(async (tx) => {
    // The driver row lock serializes imports and edits of one driver (sequence ids, overlap check).
    const [d] = await tx
      .select(driverHosColumns)
      .from(drivers)
      .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)))
      .for('no key update');
    if (!d) throw notFound('Driver');
    checkWithEngine(periods, d, periodStart);
    const { followed } = await checkAgainstRecords(tx, orgId, driverId, periods);
    const firstSeq = await nextSequenceId(tx, driverId);
    const dayOf = (ms: number) => logDateOf(ms, d.homeTimeZone, periodStart);
    const rows = eventsOf(
      periods,
      {
        organizationId: orgId,
        driverId,
        recordStatus: HOS_RECORD_STATUSES.ACTIVE,
        recordOrigin: HOS_RECORD_ORIGINS.OTHER,
        annotation: `Imported from ${body.source}`,
        createdByUserId: actor.userId,
      },
      firstSeq,
      dayOf,
      closesAt(periods, followed, closeLast, now) ? { annotation: endAnnotation(body.source) } : null,
    );
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(hosEvents).values(rows.slice(i, i + 1000));
    await notifyHosChange(tx, orgId);
    const startMs = Date.parse(periods[0]!.start);
    const endMs = Date.parse(periods[periods.length - 1]!.end);
    const days: string[] = [];
    for (let day = dayOf(startMs), last = dayOf(endMs - 1); day <= last; day = nextDate(day)) days.push(day);
    // The record closing the periods may fall in the next log day.
    for (const r of rows) if (!days.includes(r.logDate)) days.push(r.logDate);
    const ids = await ensureLogDays(
      tx,
      orgId,
      days.map((logDate) => ({ driverId, logDate })),
    );
    const logs = days.map((date) => ({ id: ids.get(`${driverId}|${date}`)!, date }));
    const result = { driverId, events: rows.length, from: when(startMs), to: when(endMs), logs };
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'IMPORT_HOS_LOG',
      entityType: 'DRIVER',
      entityId: driverId,
      after: { source: body.source, periods: periods.length, from: result.from, to: result.to, driverName: `${d.firstName} ${d.lastName}` },
    });
    return result;
  });
}
