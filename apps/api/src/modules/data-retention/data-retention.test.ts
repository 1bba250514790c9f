import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_MIN_RETENTION_DAYS, RETENTION_KINDS } from '@fleet/api-contract';
import { runRetentionPurge, PURGE_LOCK_KEY } from '../../jobs/retention-purge.ts';
import { bearer, createTestApp, DEMO, expectFieldErrors, login, onServer, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { nextPurgeRun } from './data-retention.service.ts';
import { RETENTION_TARGETS } from './retention-kinds.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  // The scratch table goes: on the Citus pass the next file reuses this database.
  await t?.database.db.execute(sql`drop table if exists purge_scratch`);
  await t?.close();
});

const url = (orgId: string | undefined) => `/api/v1/organizations/${orgId}/data-retention`;
const rows = async <T>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const DAY = 86_400_000;

describe('data retention settings', () => {
  it('shows every kind with its default, legal minimum and whether it is stored yet, and the next run', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({ method: 'GET', url: url(a.user.organization?.id), headers: bearer(a.accessToken) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.policies.map((p: { kind: string }) => p.kind)).toEqual([...RETENTION_KINDS]);
    expect(body.policies.find((p: { kind: string }) => p.kind === 'HOS_RECORDS')).toMatchObject({ minimumDays: 183, retentionDays: 400 });
    expect(body.policies.find((p: { kind: string }) => p.kind === 'FUEL_IFTA')).toMatchObject({ minimumDays: 1461 });
    expect(body.policies.find((p: { kind: string }) => p.kind === 'ACTIVITY_LOG').stored).toBe(true);
    expect(body.job).toMatchObject({ lastRunStartedAt: null, lastRunStatus: null });
    expect(Date.parse(body.job.nextRunAt)).toBeGreaterThan(Date.now());
  });

  it('enforces the legal minimums (6 months of HoS, 4 years of IFTA) with a 400 naming the field, and changes nothing', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'PUT',
      url: url(a.user.organization?.id),
      headers: bearer(a.accessToken),
      payload: {
        policies: [
          { kind: 'HOS_RECORDS', retentionDays: 90 },
          { kind: 'FUEL_IFTA', retentionDays: 365 },
          { kind: 'NOTIFICATIONS', retentionDays: 30 },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, {
      'policies.0.retentionDays': 'Hours-of-service records must be kept at least 183 days',
      'policies.1.retentionDays': 'Fuel and IFTA records must be kept at least 1461 days',
    });
    const now = await t.app.inject({ method: 'GET', url: url(a.user.organization?.id), headers: bearer(a.accessToken) });
    expect(now.json().policies.find((p: { kind: string }) => p.kind === 'NOTIFICATIONS').retentionDays).toBe(90);
    const twice = await t.app.inject({
      method: 'PUT',
      url: url(a.user.organization?.id),
      headers: bearer(a.accessToken),
      payload: {
        policies: [
          { kind: 'POSITIONS', retentionDays: 60 },
          { kind: 'POSITIONS', retentionDays: 90 },
          { kind: 'NOPE', retentionDays: 9 },
        ],
      },
    });
    expect(twice.statusCode).toBe(400);
    expectFieldErrors(twice.json(), 400, {
      'policies.2.kind': 'Data kind must be one of POSITIONS, HOS_RECORDS, INSPECTIONS, ACTIVITY_LOG, FUEL_IFTA or NOTIFICATIONS',
    });
  });

  it('saves periods (null keeps forever), logs before and after, and needs RET_UPDATE', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const res = await t.app.inject({
      method: 'PUT',
      url: url(orgId),
      headers: bearer(a.accessToken),
      payload: {
        policies: [
          { kind: 'HOS_RECORDS', retentionDays: 183 },
          { kind: 'POSITIONS', retentionDays: null },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const byKind = Object.fromEntries(res.json().policies.map((p: { kind: string; retentionDays: number | null }) => [p.kind, p.retentionDays]));
    expect(byKind).toMatchObject({ HOS_RECORDS: 183, POSITIONS: null, ACTIVITY_LOG: 730 });
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/activity-logs?entityType=DATA_RETENTION`,
      headers: bearer(a.accessToken),
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/activity-logs/${log.json().content[0].id}`,
      headers: bearer(a.accessToken),
    });
    expect(detail.json().changes).toEqual(
      expect.arrayContaining([
        { field: 'HOS_RECORDS', before: 400, after: 183 },
        { field: 'POSITIONS', before: 400, after: null },
      ]),
    );
    const { session: reader } = await memberWithRole(t.app, t.dataDir, a, ['RET_READ', 'ORG_READ'], 'retreader');
    expect((await t.app.inject({ method: 'GET', url: url(orgId), headers: bearer(reader.accessToken) })).statusCode).toBe(200);
    const denied = await t.app.inject({
      method: 'PUT',
      url: url(orgId),
      headers: bearer(reader.accessToken),
      payload: { policies: [{ kind: 'POSITIONS', retentionDays: 30 }] },
    });
    expect(denied.statusCode).toBe(403);
    const d = await login(t.app, DEMO.dispatcher);
    expect((await t.app.inject({ method: 'GET', url: url(orgId), headers: bearer(d.accessToken) })).statusCode).toBe(403);
    const other = await registerOrganization(t.app, 'Rival Retention');
    expect((await t.app.inject({ method: 'GET', url: url(other.user.organization?.id), headers: bearer(a.accessToken) })).statusCode).toBe(404);
  });
});

describe('retention purge job', () => {
  it('schedules the next run within a day', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const next = nextPurgeRun(now);
    expect(next.getTime()).toBeGreaterThan(now.getTime());
    expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(DAY);
  });

  it('removes, per organization and in batches, only rows older than each policy; skips kinds not stored yet; logs what it removed', async () => {
    const db = t.database.db;
    const a = await login(t.app, DEMO.admin);
    const demo = a.user.organization?.id ?? '';
    const other = await registerOrganization(t.app, 'Purge Peer');
    const peer = other.user.organization?.id ?? '';
    // A scratch table standing in for positions (the real table lands with telematics).
    await db.execute(sql`drop table if exists purge_scratch`);
    await db.execute(sql`create table purge_scratch (id bigserial primary key, organization_id uuid not null, fix_time timestamptz not null)`);
    const now = new Date();
    const seedRows = async (orgId: string, ages: number[]) => {
      for (const days of ages)
        await db.execute(
          sql`insert into purge_scratch (organization_id, fix_time) values (${orgId}, ${new Date(now.getTime() - days * DAY).toISOString()}::timestamptz)`,
        );
    };
    // Demo keeps positions 60 days; the peer keeps the default 400.
    await t.app.inject({
      method: 'PUT',
      url: url(demo),
      headers: bearer(a.accessToken),
      payload: {
        policies: [
          { kind: 'POSITIONS', retentionDays: 60 },
          { kind: 'ACTIVITY_LOG', retentionDays: 365 },
        ],
      },
    });
    await seedRows(demo, [1, 30, 59, 61, 70, 100, 200, 500, 800]);
    await seedRows(peer, [1, 61, 100, 399, 401, 900]);
    // Old activity-log rows of the demo organization (two years) and a recent one.
    for (const days of [800, 700, 400, 10]) {
      await db.execute(
        sql`insert into activity_log (organization_id, action, entity_type, created_at) values (${demo}, 'SEEDED', 'TEST', ${new Date(now.getTime() - days * DAY).toISOString()}::timestamptz)`,
      );
    }
    // HoS events (kept 400 days by default): one past the policy, one within it.
    for (const days of [500, 10]) {
      await db.execute(
        sql`insert into hos_events (organization_id, sequence_id, event_type, event_code, record_origin, event_time, log_date) values (${demo}, ${days}, 1, 1, 4, ${new Date(now.getTime() - days * DAY).toISOString()}::timestamptz, '2026-01-01')`,
      );
    }
    const targets = { ...RETENTION_TARGETS, POSITIONS: [{ table: 'purge_scratch', timeColumn: 'fix_time' }] };

    const result = await runRetentionPurge(t.database, { batchSize: 2, now, targets });

    expect(result.ran).toBe(true);
    expect(result.removed.POSITIONS).toBe(6 + 2);
    expect(result.removed.ACTIVITY_LOG).toBe(3);
    expect(result.removed.HOS_RECORDS).toBe(1);
    // Every kind's tables exist now that their domains have landed.
    expect(result.skippedKinds).toEqual([]);
    const left = await rows<{ org: string; days: number }>(
      sql`select organization_id::text as org, round(extract(epoch from (${now.toISOString()}::timestamptz - fix_time)) / 86400)::int as days from purge_scratch order by 1, 2`,
    );
    expect(left.filter((r) => r.org === demo).map((r) => r.days)).toEqual([1, 30, 59]);
    expect(left.filter((r) => r.org === peer).map((r) => r.days)).toEqual([1, 61, 100, 399]);
    const seeded = await rows<{ n: number }>(sql`select count(*)::int as n from activity_log where action = 'SEEDED'`);
    expect(seeded[0]?.n).toBe(1);

    // What was removed is in each organization's activity log and on the retention page.
    const log = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${demo}/activity-logs?action=PURGE`, headers: bearer(a.accessToken) });
    expect(log.json().content[0]).toMatchObject({ entityType: 'DATA_RETENTION', actor: { email: 'system', role: 'SYSTEM' } });
    const page = await t.app.inject({ method: 'GET', url: url(demo), headers: bearer(a.accessToken) });
    expect(page.json().job).toMatchObject({ lastRunStatus: 'OK', lastRemoved: { POSITIONS: 6, ACTIVITY_LOG: 3 } });
    expect(page.json().job.lastRunFinishedAt).not.toBeNull();
    const peerPage = await t.app.inject({ method: 'GET', url: url(peer), headers: bearer(other.accessToken) });
    expect(peerPage.json().job.lastRemoved).toEqual({ POSITIONS: 2 });

    // A second run has nothing left to remove and logs nothing new.
    const again = await runRetentionPurge(t.database, { batchSize: 2, now, targets });
    expect(again.removed.POSITIONS).toBe(0);
    const purges = await rows<{ n: number }>(sql`select count(*)::int as n from activity_log where action = 'PURGE'`);
    expect(purges[0]?.n).toBe(2);
  });

  it('keeps everything of a kind whose period is null (keep forever)', async () => {
    const db = t.database.db;
    const a = await login(t.app, DEMO.admin);
    const demo = a.user.organization?.id ?? '';
    await t.app.inject({ method: 'PUT', url: url(demo), headers: bearer(a.accessToken), payload: { policies: [{ kind: 'POSITIONS', retentionDays: null }] } });
    await db.execute(sql`insert into purge_scratch (organization_id, fix_time) values (${demo}, now() - interval '3000 days')`);
    const targets = { ...RETENTION_TARGETS, POSITIONS: [{ table: 'purge_scratch', timeColumn: 'fix_time' }] };
    const result = await runRetentionPurge(t.database, { targets });
    expect(result.removed.POSITIONS).toBe(0);
  });

  it('runs once at a time: a concurrent run in this process skips', async () => {
    const [one, two] = await Promise.all([runRetentionPurge(t.database), runRetentionPurge(t.database)]);
    expect([one.ran, two.ran].sort()).toEqual([false, true]);
  });

  it.skipIf(!onServer())('skips while another database session holds the advisory lock (another instance)', async () => {
    await t.database.session(async (other) => {
      await other.execute(sql`select pg_advisory_lock(${PURGE_LOCK_KEY})`);
      try {
        expect((await runRetentionPurge(t.database)).ran).toBe(false);
      } finally {
        await other.execute(sql`select pg_advisory_unlock(${PURGE_LOCK_KEY})`);
      }
    });
    expect((await runRetentionPurge(t.database)).ran).toBe(true);
  });

  it('runs each daily slot once: a later attempt at the same slot skips, the next day runs, a run on request always runs', async () => {
    const slot = nextPurgeRun(new Date(Date.now() + 2 * DAY));
    const first = await runRetentionPurge(t.database, { slot });
    expect(first.ran).toBe(true);
    // Another instance whose timer fired late, or that started after the run.
    expect(await runRetentionPurge(t.database, { slot })).toMatchObject({ ran: false, skipped: 'done' });
    const [run] = await rows<{ started: Date; ranBy: string }>(
      sql`select started_at as started, summary->>'ranBy' as "ranBy" from job_runs where name = 'retention-purge'`,
    );
    expect(new Date(run!.started).getTime()).toBe(slot.getTime());
    expect(run!.ranBy).toMatch(new RegExp(` pid ${process.pid}$`));
    expect((await runRetentionPurge(t.database, { slot: new Date(slot.getTime() + DAY) })).ran).toBe(true);
    expect((await runRetentionPurge(t.database)).ran).toBe(true);
  });

  it('stops before its next batch when the instance shuts down and records the run as interrupted', async () => {
    const stopping = new AbortController();
    stopping.abort();
    const result = await runRetentionPurge(t.database, { signal: stopping.signal });
    expect(result).toMatchObject({ ran: true, interrupted: true, organizations: 0 });
    const [run] = await rows<{ status: string; error: string }>(sql`select status, summary->>'error' as error from job_runs where name = 'retention-purge'`);
    expect(run).toEqual({ status: 'FAILED', error: 'interrupted: the instance was shutting down' });
  });
});

describe('inspection reports (49 CFR 396.11(a)(4))', () => {
  it('are kept at least 92 days and a year by default: a shorter period is a 400 naming the field, and changes nothing', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const before = await t.app.inject({ method: 'GET', url: url(orgId), headers: bearer(a.accessToken) });
    const kept = before.json().policies.find((p: { kind: string }) => p.kind === 'INSPECTIONS');
    expect(kept).toMatchObject({ label: 'Vehicle inspection reports', minimumDays: DVIR_MIN_RETENTION_DAYS, defaultDays: 365, stored: true });
    expect(DVIR_MIN_RETENTION_DAYS).toBe(92);
    const short = await t.app.inject({
      method: 'PUT',
      url: url(orgId),
      headers: bearer(a.accessToken),
      payload: { policies: [{ kind: 'INSPECTIONS', retentionDays: 91 }] },
    });
    expectFieldErrors(short.json(), 400, { 'policies.0.retentionDays': 'Vehicle inspection reports must be kept at least 92 days (49 CFR 396.11(a)(4)' });
    const after = await t.app.inject({ method: 'GET', url: url(orgId), headers: bearer(a.accessToken) });
    expect(after.json().policies.find((p: { kind: string }) => p.kind === 'INSPECTIONS').retentionDays).toBe(kept.retentionDays);
    const ok = await t.app.inject({
      method: 'PUT',
      url: url(orgId),
      headers: bearer(a.accessToken),
      payload: { policies: [{ kind: 'INSPECTIONS', retentionDays: 92 }] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().policies.find((p: { kind: string }) => p.kind === 'INSPECTIONS').retentionDays).toBe(92);
  });

  it('are purged past the period with their defects and unused images, but never while a defect is open or on an open work order', async () => {
    const db = t.database.db;
    const a = await login(t.app, DEMO.admin);
    const demo = a.user.organization?.id ?? '';
    const peer = (await registerOrganization(t.app, 'Inspection Peer')).user.organization?.id ?? '';
    await t.app.inject({ method: 'PUT', url: url(demo), headers: bearer(a.accessToken), payload: { policies: [{ kind: 'INSPECTIONS', retentionDays: 100 }] } });
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
    const image = async (orgId: string) =>
      (
        await rows<{ id: string }>(
          sql`insert into images (organization_id, content_type, size, data) values (${orgId}, 'image/png', 1, '\\x00'::bytea) returning id::text as id`,
        )
      )[0]!.id;
    const report = async (orgId: string, days: number, o: { signature?: string; photo?: string } = {}) => {
      const items = JSON.stringify([{ item: 'HORN', label: 'Horn', assetId: orgId, ok: true, note: null, imageIds: o.photo ? [o.photo] : [], safety: false }]);
      const [r] = await rows<{ id: string }>(sql`
        insert into dvirs (organization_id, asset_id, unit_number, driver_name, kind, inspected_at, items, has_defects, signature_name, signature_image_id)
        values (${orgId}, gen_random_uuid(), 'P-1', 'Pat Driver', 'POST_TRIP', ${ago(days)}::timestamptz, ${items}::jsonb, false, 'Pat Driver', ${o.signature ?? null})
        returning id::text as id`);
      return r!.id;
    };
    const defect = async (dvirId: string, orgId: string, status: string, workOrder: string | null = null, photo: string | null = null) => {
      await db.execute(sql`insert into vehicle_defects (organization_id, dvir_id, asset_id, unit_number, item, label, safety, status, work_order_id, image_ids)
        values (${orgId}, ${dvirId}, gen_random_uuid(), 'P-1', 'HORN', 'Horn', true, ${status}, ${workOrder}, ${photo ? sql`array[${photo}::uuid]` : sql`'{}'::uuid[]`})`);
    };
    const order = async (orgId: string, status: string) =>
      (
        await rows<{ id: string }>(
          sql`insert into work_orders (organization_id, asset_id, unit_number, title, status) values (${orgId}, gen_random_uuid(), 'P-1', 'Fix', ${status}) returning id::text as id`,
        )
      )[0]!.id;

    const [oldSignature, sharedSignature, defectPhoto, peerSignature] = [await image(demo), await image(demo), await image(demo), await image(peer)];
    const plain = await report(demo, 150, { signature: oldSignature });
    const sharing = await report(demo, 150, { signature: sharedSignature });
    const recentSharing = await report(demo, 20, { signature: sharedSignature });
    const openDefect = await report(demo, 300);
    await defect(openDefect, demo, 'OPEN');
    const onOpenOrder = await report(demo, 300);
    await defect(onOpenOrder, demo, 'REPAIRED', await order(demo, 'IN_PROGRESS'));
    const repaired = await report(demo, 300);
    await defect(repaired, demo, 'REPAIRED', await order(demo, 'DONE'), defectPhoto);
    const young = await report(demo, 99);
    // The peer keeps the default year: its 200-day-old report stays.
    const peerReport = await report(peer, 200, { signature: peerSignature });
    const peerOld = await report(peer, 400);

    const result = await runRetentionPurge(t.database, { batchSize: 2, now });
    expect(result.removed.INSPECTIONS).toBe(3 + 1);
    const left = new Set((await rows<{ id: string }>(sql`select id::text as id from dvirs`)).map((r) => r.id));
    for (const id of [plain, sharing, repaired, peerOld]) expect(left.has(id), id).toBe(false);
    for (const id of [recentSharing, openDefect, onOpenOrder, young, peerReport]) expect(left.has(id), id).toBe(true);
    const defects = await rows<{ dvir: string }>(
      sql`select dvir_id::text as dvir from vehicle_defects where dvir_id in (${openDefect}, ${onOpenOrder}, ${repaired})`,
    );
    expect(defects.map((d) => d.dvir).sort()).toEqual([openDefect, onOpenOrder].sort());
    const images = new Set((await rows<{ id: string }>(sql`select id::text as id from images`)).map((r) => r.id));
    expect([images.has(oldSignature), images.has(defectPhoto), images.has(sharedSignature), images.has(peerSignature)]).toEqual([false, false, true, true]);
    const page = await t.app.inject({ method: 'GET', url: url(demo), headers: bearer(a.accessToken) });
    expect(page.json().job.lastRemoved).toMatchObject({ INSPECTIONS: 3 });
  });
});
