import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY_SETTINGS, SAFETY_STATUSES, SPEEDING_BANDS, type SafetyScores } from '@fleet/api-contract';
import { createMailer } from '../../mail/mailer.ts';
import { runReportSchedule } from '../../jobs/report-schedule.ts';
import { createTestApp, readOutbox, type TestContext } from '../../test/helpers.ts';
import { pdfText } from '../../test/pdf.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { refreshTripDailyTotals } from '../../db/sql/trip-daily-totals.ts';
import { computeScore, type ScoredEvent } from './score.ts';

// Decision 0199: the scores read per-day totals of the trips and count the events in SQL. On random
// trips and events, over periods that start and end mid-day, they equal the plain computation (every
// trip summed, every event through computeScore), and the totals stay the trips' sums when a vehicle's
// trips are replaced from a cut, as the trips writer does on late or reversed fixes.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const DAY = 86_400_000;

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const base = Math.floor(Date.now() / DAY) * DAY - 30 * DAY;
let assetIds: string[] = [];
let driverIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const vs = await Promise.all([1, 2, 3].map((i) => createTestVehicle(t.app.db, a.orgId, { uniqueId: `score-fast-${i}`, unitNumber: `SF-${i}` })));
  assetIds = vs.map((v) => v.assetId);
  driverIds = vs.map((v) => v.driverId!);
  const more = await sql<{ id: string }>(
    `insert into drivers (organization_id, first_name, last_name) select '${a.orgId}', 'Random', 'Driver ' || g from generate_series(1, 4) g returning id`,
  );
  driverIds.push(...more.map((d) => d.id));
  const r = rng(47);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const trips: string[] = [];
  for (let i = 0; i < 240; i++) {
    const start = base + Math.floor(r() * 29 * DAY);
    const end = start + Math.floor(600_000 + r() * 5 * 3_600_000);
    const driver = r() < 0.1 ? 'null' : `'${pick(driverIds)}'`;
    trips.push(
      `('${a.orgId}', '${pick(assetIds)}', ${driver}, '${new Date(start).toISOString()}', '${new Date(end).toISOString()}', 41, -87, 41, -88, ${(20_000 + r() * 400_000).toFixed(3)}, 110, 90)`,
    );
  }
  await sql(
    `insert into trips (organization_id, asset_id, driver_id, started_at, ended_at, start_lat, start_lon, end_lat, end_lon, distance_m, max_speed_kmh, avg_speed_kmh) values ${trips.join(', ')}`,
  );
  await refreshTripDailyTotals(t.database.db, a.orgId, JSON.stringify(assetIds.map((id) => ({ asset_id: id, from_at: new Date(0).toISOString() }))));
  const types = ['HARSH_ACCELERATION', 'HARSH_BRAKING', 'HARSH_CORNERING', 'SPEEDING', 'SPEEDING', 'MAX_SPEED', 'IDLING', 'CRASH'] as const;
  const events: string[] = [];
  for (let i = 0; i < 400; i++) {
    const type = pick(types);
    const at = base + Math.floor(r() * 29 * DAY);
    const band = type === 'SPEEDING' && r() < 0.85 ? pick(SPEEDING_BANDS) : null;
    const bs = band ? `'${JSON.stringify(Object.fromEntries(SPEEDING_BANDS.filter(() => r() < 0.6).map((b) => [b, Math.round(r() * 300)])))}'::jsonb` : 'null';
    const driver = r() < 0.1 ? 'null' : `'${pick(driverIds)}'`;
    events.push(
      `('${a.orgId}', '${pick(assetIds)}', ${driver}, '${type}', '${r() < 0.5 ? 'DEVICE' : 'GPS_ESTIMATED'}', 'MEDIUM', '${pick(SAFETY_STATUSES)}', '${new Date(at).toISOString()}', '${new Date(at + 60_000).toISOString()}', 41, -87, ${band ? `'${band}'` : 'null'}, ${bs})`,
    );
  }
  await sql(`insert into safety_events (organization_id, asset_id, driver_id, type, source, severity, status, started_at, ended_at, latitude, longitude, band, band_seconds) values ${events.join(', ')}
    on conflict do nothing`);
});
afterAll(() => t?.close());

/** The plain computation: the period's trips summed and its events scored one by one. */
async function plain(groupBy: 'driver' | 'vehicle', from: number, to: number) {
  const key = groupBy === 'driver' ? 'driver_id' : 'asset_id';
  const range = `organization_id = '${a.orgId}' and started_at >= '${new Date(from).toISOString()}' and started_at < '${new Date(to).toISOString()}' and ${key} is not null`;
  const totals = await sql<{ id: string; km: number; s: number }>(
    `select ${key} as id, sum(distance_m)::float8 / 1000 as km, sum(extract(epoch from ended_at - started_at))::float8 as s from trips where ${range} group by 1`,
  );
  const events = await sql<ScoredEvent & { subject: string; bandSeconds: ScoredEvent['bandSeconds'] }>(
    `select id, ${key} as subject, type, status, band, band_seconds as "bandSeconds" from safety_events where ${range}`,
  );
  const ids = groupBy === 'driver' ? driverIds : assetIds;
  return new Map(
    ids.map((id) => {
      const tt = totals.find((x) => x.id === id);
      const evs = events.filter((e) => e.subject === id);
      const r = computeScore(Number(tt?.km ?? 0), Math.round(Number(tt?.s ?? 0)), evs, DEFAULT_SAFETY_SETTINGS.weights);
      return [
        id,
        {
          r,
          newEvents: evs.filter((e) => e.status === 'NEW').length,
          openCoaching: evs.filter((e) => e.status === 'NEEDS_COACHING').length,
          km: Number(tt?.km ?? 0),
        },
      ];
    }),
  );
}

async function fast(groupBy: 'driver' | 'vehicle', from: number, to: number): Promise<SafetyScores> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/organizations/${a.orgId}/safety/scores?groupBy=${groupBy}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    headers: a.admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as SafetyScores;
}

async function expectSame(groupBy: 'driver' | 'vehicle', from: number, to: number) {
  const want = await plain(groupBy, from, to);
  const got = await fast(groupBy, from, to);
  for (const [id, w] of want) {
    const row = got.rows.find((x) => x.id === id);
    expect(row, `${groupBy} ${id}`).toBeDefined();
    expect(row!.distanceKm).toBeCloseTo(Math.round(w.km * 10) / 10, 6);
    expect({
      score: row!.score,
      miles: row!.miles,
      events: row!.events,
      speedingSeconds: row!.speedingSeconds,
      pointsLost: row!.pointsLost,
      behaviours: row!.behaviours,
    }).toEqual({
      score: w.r.score,
      miles: w.r.miles,
      events: w.r.events,
      speedingSeconds: w.r.speedingSeconds,
      pointsLost: w.r.pointsLost,
      behaviours: w.r.behaviours,
    });
    expect({ newEvents: row!.newEvents, openCoaching: row!.openCoaching }).toEqual({ newEvents: w.newEvents, openCoaching: w.openCoaching });
  }
}

describe('safety scores from daily totals and counted events', () => {
  it('equal the plain computation over random periods that start and end mid-day, by driver and by vehicle', async () => {
    const r = rng(2026);
    for (let i = 0; i < 6; i++) {
      const from = base + Math.floor(r() * 12 * DAY);
      const to = from + Math.floor(r() * 18 * DAY) + 3_600_000;
      await expectSame(i % 2 ? 'vehicle' : 'driver', from, to);
    }
    // Whole days, and a period inside one day.
    await expectSame('driver', base + 2 * DAY, base + 20 * DAY);
    await expectSame('vehicle', base + 5 * DAY + 3_600_000, base + 5 * DAY + 20 * 3_600_000);
  });

  it('keep the totals equal to the trips when a vehicle’s trips are replaced from a cut (late or reversed fixes)', async () => {
    const cutAt = base + 10 * DAY + 7 * 3_600_000;
    const asset = assetIds[0]!;
    // The writer deletes the vehicle's trips from the cut on and inserts them again, some different.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(
        `delete from trips where organization_id = '${a.orgId}' and asset_id = '${asset}' and started_at >= '${new Date(cutAt).toISOString()}'` as never,
      );
      await tx.execute(
        `insert into trips (organization_id, asset_id, driver_id, started_at, ended_at, start_lat, start_lon, end_lat, end_lon, distance_m, max_speed_kmh, avg_speed_kmh)
        values ('${a.orgId}', '${asset}', '${driverIds[1]}', '${new Date(cutAt + 3_600_000).toISOString()}', '${new Date(cutAt + 5 * 3_600_000).toISOString()}', 41, -87, 41, -88, 250000, 110, 90)` as never,
      );
      await refreshTripDailyTotals(tx, a.orgId, JSON.stringify([{ asset_id: asset, from_at: new Date(cutAt).toISOString() }]));
    });
    const sums = await sql<{
      d: string;
      m: number;
      s: number;
      n: number;
    }>(`select coalesce(driver_id::text, '-') || day::text as d, sum(distance_m)::float8 as m, sum(driving_s)::float8 as s, sum(trips)::int as n
      from safety_daily_totals where organization_id = '${a.orgId}' group by 1 order by 1`);
    const fromTrips = await sql<{
      d: string;
      m: number;
      s: number;
      n: number;
    }>(`select coalesce(driver_id::text, '-') || (started_at at time zone 'UTC')::date::text as d, sum(distance_m)::float8 as m,
      sum(extract(epoch from ended_at - started_at))::float8 as s, count(*)::int as n from trips where organization_id = '${a.orgId}' group by 1 order by 1`);
    expect(sums.map((x) => [x.d, Math.round(x.m * 1000), Math.round(x.s), x.n])).toEqual(
      fromTrips.map((x) => [x.d, Math.round(x.m * 1000), Math.round(x.s), x.n]),
    );
    await expectSame('driver', base + DAY / 3, base + 28 * DAY);
  });
});

describe('scheduled safety reports (report subscriptions)', () => {
  type Mail = { subject: string; attachments: Array<{ filename: string; content: string; contentType: string; encoding?: string }> };
  it('e-mail the safety events of the day just ended and the week’s scores per vehicle as CSV and PDF, with the right rows', async () => {
    const create = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/report-subscriptions`, headers: a.admin, payload });
    const events = await create({ report: 'SAFETY_EVENTS', filters: { driverId: driverIds[0] }, frequency: 'DAILY', timeOfDay: '05:00', timeZone: 'UTC' });
    expect(events.statusCode, events.body).toBe(201);
    const scores = await create({ report: 'SAFETY_SCORES', filters: { by: 'vehicle' }, frequency: 'WEEKLY', weekday: 1, timeOfDay: '05:00', timeZone: 'UTC' });
    expect(scores.statusCode, scores.body).toBe(201);
    expect(scores.json()).toMatchObject({ report: 'SAFETY_SCORES', filters: { by: 'vehicle' } });
    // Both due at 05:00 UTC the day after `day`: the events cover `day`, the scores the 7 days to it.
    const day = base + 12 * DAY;
    const runAt = day + DAY + 5 * 3_600_000;
    await sql(`update report_subscriptions set next_run_at = '${new Date(runAt).toISOString()}' where id in ('${events.json().id}', '${scores.json().id}')`);
    const mailer = createMailer({ from: 'fleet@test', outboxDir: `${t.dataDir}/outbox`, log: t.app.log });
    const result = await runReportSchedule(t.database, mailer, runAt + 10_000);
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    const mails = readOutbox(t.dataDir) as unknown as Mail[];
    const mailOf = (subject: string) => mails.find((m) => m.subject.startsWith(subject))!;
    const csvLines = (m: Mail) =>
      m.attachments
        .find((x) => x.filename.endsWith('.csv'))!
        .content.trim()
        .split('\r\n');

    const ev = mailOf('Safety events report');
    expect(ev.attachments.map((x) => x.contentType)).toEqual(['application/pdf', 'text/csv; charset=utf-8']);
    const [{ n } = { n: 0 }] = await sql<{
      n: number;
    }>(`select count(*)::int as n from safety_events where organization_id = '${a.orgId}' and driver_id = '${driverIds[0]}'
      and started_at >= '${new Date(day).toISOString()}' and started_at < '${new Date(day + DAY).toISOString()}'`);
    expect(n).toBeGreaterThan(0);
    expect(csvLines(ev)).toHaveLength(1 + n);
    expect(pdfText(Buffer.from(ev.attachments[0]!.content, 'base64'))).toContain('Safety events');

    const sc = mailOf('Safety scores report');
    const lines = csvLines(sc);
    expect(lines[0]).toMatch(/^"?Vehicle"?,/);
    const [{ v } = { v: 0 }] = await sql<{ v: number }>(
      `select count(*)::int as v from assets where organization_id = '${a.orgId}' and type = 'VEHICLE' and status = 'ACTIVE'`,
    );
    expect(lines).toHaveLength(1 + v);
    for (let i = 1; i <= 3; i++) expect(lines.some((l) => l.includes(`SF-${i}`))).toBe(true);
    // The same rows as the API's scores for the week.
    const week = await fast('vehicle', day + DAY - 7 * DAY, day + DAY);
    const sf1 = week.rows.find((r) => r.name === 'SF-1')!;
    expect(lines.find((l) => l.includes('SF-1'))).toContain(sf1.score === null ? 'Under 100 mi' : String(sf1.score));
  });
});
