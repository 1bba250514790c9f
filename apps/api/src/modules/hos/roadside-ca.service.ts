import { RESTART_MS } from '@fleet/hos';
import {
  ROADSIDE_CA_PREVIOUS_DAYS,
  type HosLogDay,
  type RoadsideCa,
  type RoadsideCaEmail,
  type RoadsideCaQuery,
  type RoadsideCaSent,
} from '@fleet/api-contract';
import { invalidField, notFound } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { cycleInForce } from './hos-audit.ts';
import { availabilityOf, LOOKBACK_MS } from './hos-clocks.service.ts';
import { dayTotals } from './hos-day-totals.ts';
import { getLogDay } from './hos-log-day.service.ts';
import { logsForPeriod } from './hos-period.service.ts';
import { driverRecordsOf, ensureLogDays, fleetDriversOf, fleetStateOf } from './hos.repository.ts';
import { dayStartMs, logDateOf, nextDate, previousDate } from './hos.time.ts';
import { lastResetAt } from './roadside-ca.ts';
import { roadsideCaPdf } from './roadside-ca-pdf.ts';

// The Canadian roadside view of a driver's log (issue 72, decisions 0316-0317): the inspected day and
// the 14 days before it, each with its totals and the cycle totals at its end, as JSON for the
// driver's screen and as a PDF to download or send to the address an officer gives.

const iso = (ms: number) => new Date(ms).toISOString();

/** A name as a file name's ASCII letters, digits and hyphens ("Émilie" → "Emilie"), at most 40. */
export const asciiName = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '')
    .slice(0, 40);

/**
 * The inspected day (default today) and the 14 days before it, newest first: each day's log id
 * (the inspected day's row is made on first need), totals, certification and cycle totals (on duty
 * in the cycle, left, since the last reset) at the day's end, or now for today. 400 for a day after
 * today; 404 for another organization's driver.
 */
export async function roadsideCa({ db, orgId, now = Date.now() }: ReadScope, driverId: string, q: RoadsideCaQuery): Promise<RoadsideCa> {
  const state = await fleetStateOf(db, orgId);
  const [d] = await fleetDriversOf(db, orgId, state, { driverId });
  if (!d) throw notFound('Driver');
  const zone = d.homeTimeZone;
  const { periodStart } = state;
  const today = logDateOf(now, zone, periodStart);
  const date = q.date ?? today;
  if (date > today) throw invalidField('date', 'Date must not be after today');
  let from = date;
  for (let i = 0; i < ROADSIDE_CA_PREVIOUS_DAYS; i++) from = previousDate(from);
  // The inspected day always has a log row, as today's does on the driver's screen.
  const ids = await ensureLogDays(db, orgId, [{ driverId, logDate: date }]);
  const fromMs = dayStartMs(from, zone, periodStart);
  const toMs = dayStartMs(nextDate(date), zone, periodStart);
  const [period, records] = await Promise.all([
    logsForPeriod({ db, orgId, now }, driverId, { from, to: date }),
    driverRecordsOf(db, orgId, [driverId], fromMs - LOOKBACK_MS, toMs, state),
  ]);
  const byDate = new Map(period.days.map((p) => [p.date, p]));
  const facts = records.factsOf(driverId);
  const days: RoadsideCa['days'] = [];
  for (let day = date; day >= from; day = previousDate(day)) {
    const startMs = dayStartMs(day, zone, periodStart);
    const endMs = dayStartMs(nextDate(day), zone, periodStart);
    const atMs = Math.max(startMs, Math.min(endMs, now));
    const periods = records.periodsOf(driverId, atMs);
    const clocks = availabilityOf(d, periods, atMs, periodStart, facts);
    // The cycle in force at the day's end after a declared switch (decision 0314), and its restart length.
    const inForce = cycleInForce(d.ruleset, facts, atMs);
    const reset = lastResetAt(periods, atMs, RESTART_MS[inForce]);
    const p = byDate.get(day);
    days.push({
      id: p?.id ?? (day === date ? (ids.get(`${driverId}|${date}`) ?? null) : null),
      date: day,
      totals: p?.totals ?? dayTotals(undefined, startMs, endMs, now, false),
      certified: p?.certified ?? false,
      cycle: {
        at: iso(atMs),
        onDutyMs: clocks.cycleUsedMs,
        remainingMs: clocks.strict.cycleMs,
        lastResetAt: reset === null ? null : iso(reset),
        sinceResetMs: reset === null ? null : atMs - reset,
        ruleset: inForce,
      },
    });
  }
  return { driver: { id: d.id, firstName: d.firstName, lastName: d.lastName }, ruleset: d.ruleset, timeZone: zone, date, from, days };
}

export interface RoadsideCaFile {
  fileName: string;
  body: Buffer;
  view: RoadsideCa;
}

/** The Canadian roadside view as a PDF: a summary of the 15 days, then each day's header, cycle totals, graph and records. */
export async function roadsideCaFile(scope: ReadScope, driverId: string, q: RoadsideCaQuery): Promise<RoadsideCaFile> {
  const view = await roadsideCa(scope, driverId, q);
  const logDays = new Map<string, HosLogDay>();
  // One day at a time: each reads the driver's records from memory after the first.
  for (const day of view.days) if (day.id) logDays.set(day.date, await getLogDay(scope, day.id));
  const body = await roadsideCaPdf(view, logDays, scope.now ?? Date.now());
  const name = asciiName(`${view.driver.lastName}-${view.driver.firstName}`) || 'driver';
  return { fileName: `daily-log-ca-${name}-${view.date}.pdf`, body, view };
}

/** Sends the Canadian roadside PDF by e-mail to the address an officer gives, and logs who sent it where. */
export async function sendRoadsideCa(
  { db, orgId, actor, now = Date.now() }: Scope,
  { mailer }: { mailer: Mailer },
  driverId: string,
  input: RoadsideCaEmail,
): Promise<RoadsideCaSent> {
  const file = await roadsideCaFile({ db, orgId, now }, driverId, input);
  const who = `${file.view.driver.firstName} ${file.view.driver.lastName}`;
  const { date, from } = file.view;
  await mailer.send({
    to: input.email,
    subject: `Daily log / Fiche journalière: ${who}, ${from} to ${date}`,
    text:
      `The daily log of ${who} for ${date} and the ${ROADSIDE_CA_PREVIOUS_DAYS} days before it (${from} to ${date}) is attached (${file.fileName}).\n` +
      `La fiche journalière de ${who} pour le ${date} et les ${ROADSIDE_CA_PREVIOUS_DAYS} jours précédents (${from} au ${date}) est jointe (${file.fileName}).\n`,
    attachments: [{ filename: file.fileName, content: file.body.toString('base64'), contentType: 'application/pdf', encoding: 'base64' }],
  });
  await recordActivity(db, {
    orgId,
    actor,
    action: 'SEND_ROADSIDE_CA',
    entityType: 'DRIVER',
    entityId: driverId,
    after: { email: input.email, fileName: file.fileName, date, from, driverName: who },
  });
  return { sentTo: input.email, fileName: file.fileName, date, from };
}
