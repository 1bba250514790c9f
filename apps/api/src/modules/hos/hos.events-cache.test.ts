import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosImportResultSchema, hosLogDaySchema } from '@fleet/api-contract';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { sql } from 'drizzle-orm';
import { driverBody, registryActors, vehicleBody } from '../../test/registry.ts';
import { DriverEventsCache, packEvents, sliceEvents, windowPeriods } from './hos.events-cache.ts';
import { dutyPeriods, type DutyEventFacts } from './hos.periods.ts';
import { driverRecordsOf, dutyEventsOf, logFactsOf, readDutyEvents } from './hos.repository.ts';
import { logDatesAround } from './hos.time.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

type Ev = DutyEventFacts & { seq: number };
const facts = (list: readonly DutyEventFacts[]) => list.map((e) => ({ eventType: e.eventType, eventCode: e.eventCode, at: e.at }));

/** The plain answer the database gives (readDutyEvents): the last of each type before `from`, then the range. */
function reference(all: Ev[], from: number, to: number): DutyEventFacts[] {
  const last = new Map<number, Ev>();
  for (const e of all) if (e.at < from) last.set(e.eventType, e);
  const out = [...last.values(), ...all.filter((e) => e.at >= from && e.at < to)];
  return facts(out.sort((x, y) => x.at - y.at || x.seq - y.seq));
}

describe('sliceEvents', () => {
  it('answers what the database answers, on random events and ranges', () => {
    const rnd = seededRandom(42);
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(rnd() * 40);
      let at = 1_000_000;
      const all: Ev[] = [];
      for (let i = 0; i < n; i++) {
        at += rnd() < 0.2 ? 0 : Math.floor(rnd() * 5000); // some events at the same instant
        all.push({ eventType: rnd() < 0.8 ? 1 : 3, eventCode: Math.floor(rnd() * 4) + (rnd() < 0.5 ? 1 : 0), at, seq: i + 1 });
      }
      const loadedFrom = 1_000_000 + Math.floor(rnd() * (at - 1_000_000 + 1));
      // The entry holds what readDutyEvents(loadedFrom, no end) returns.
      const entry = packEvents(
        reference(all, loadedFrom, Infinity).map((e) => all.find((x) => x.at === e.at && x.eventType === e.eventType && x.eventCode === e.eventCode)!),
        1,
        loadedFrom,
      );
      for (let k = 0; k < 5; k++) {
        const from = loadedFrom + Math.floor(rnd() * (at - loadedFrom + 2000));
        const to = from + Math.floor(rnd() * 20_000);
        expect(facts(sliceEvents(entry, from, to)), `round ${round}, from ${from}, to ${to}`).toEqual(reference(all, from, to));
      }
    }
  });
});

describe('windowPeriods', () => {
  it('gives exactly the periods of the sliced events, on random events and windows', () => {
    const rnd = seededRandom(1234);
    for (let round = 0; round < 400; round++) {
      const n = Math.floor(rnd() * 50);
      let at = 1_000_000;
      const all: Ev[] = [];
      for (let i = 0; i < n; i++) {
        at += rnd() < 0.2 ? 0 : Math.floor(rnd() * 5000);
        // Statuses 1-4 and special categories 0-2 (PC applies to OFF only, YM to ON only).
        const special = rnd() < 0.25;
        all.push({ eventType: special ? 3 : 1, eventCode: special ? Math.floor(rnd() * 3) : 1 + Math.floor(rnd() * 4), at, seq: i + 1 });
      }
      const loadedFrom = 1_000_000 + Math.floor(rnd() * (at - 1_000_000 + 1));
      const entry = packEvents(
        reference(all, loadedFrom, Infinity).map((e) => all.find((x) => x.at === e.at && x.eventType === e.eventType && x.eventCode === e.eventCode)!),
        1,
        loadedFrom,
      );
      for (let k = 0; k < 6; k++) {
        const from = loadedFrom + Math.floor(rnd() * (at - loadedFrom + 3000));
        const until = from + Math.floor(rnd() * 25_000);
        const label = `round ${round}, from ${from}, until ${until}`;
        expect(windowPeriods(entry, from, until), label).toEqual(dutyPeriods(sliceEvents(entry, from, until), until));
      }
    }
  });
});

describe('DriverEventsCache', () => {
  it('drops the least recently used drivers beyond its size, never the one just stored', () => {
    const cache = new DriverEventsCache(10);
    const of = (n: number) =>
      packEvents(
        Array.from({ length: n }, (_, i) => ({ eventType: 1, eventCode: 1, at: i, seq: i + 1 })),
        1,
        0,
      );
    cache.set('a', of(4));
    cache.set('b', of(4));
    cache.get('a');
    cache.set('c', of(4));
    expect([cache.get('a') !== undefined, cache.get('b') !== undefined, cache.get('c') !== undefined]).toEqual([true, false, true]);
    cache.set('d', of(12));
    expect(cache.size).toBe(1);
    expect(cache.get('d')?.events.length).toBe(12);
  });
});

describe('dutyEventsOf from memory', () => {
  let t: TestContext;
  let a: Awaited<ReturnType<typeof registryActors>>;
  beforeAll(async () => {
    t = await createTestApp();
    a = await registryActors(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });
  const org = (p: string) => `/api/v1/organizations/${a.orgId}${p}`;
  const H = 3_600_000;

  it('reads the same as the database after imports and edits, on random ranges', async () => {
    const rnd = seededRandom(7);
    const statuses = ['OFF', 'SB', 'D', 'ON'] as const;
    const drivers: string[] = [];
    const importDays = async (driverId: string, startMs: number, n: number) => {
      const periods = [];
      let ms = startMs;
      for (let i = 0; i < n; i++) {
        const status = statuses[Math.floor(rnd() * 4)]!;
        const end = ms + Math.round((0.25 + rnd() * 6) * 4) * (H / 4);
        periods.push({
          status,
          start: new Date(ms).toISOString(),
          end: new Date(end).toISOString(),
          ...(status === 'OFF' && rnd() < 0.2 ? { special: 'PC' } : {}),
        });
        ms = end;
      }
      const res = await t.app.inject({
        method: 'POST',
        url: org(`/drivers/${driverId}/hos_log/import`),
        headers: a.admin,
        payload: { source: 'cache test', periods },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { end: ms, logs: hosImportResultSchema.parse(res.json()).logs };
    };
    const start = Date.parse('2026-09-01T06:00:00Z');
    const ends: number[] = [];
    for (let k = 0; k < 4; k++) {
      const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago' }) });
      expect(res.statusCode, res.body).toBe(201);
      drivers.push(res.json<{ id: string }>().id);
      ends.push((await importDays(drivers[k]!, start + k * H, 40)).end);
    }
    const db = t.database.db;
    const compare = async (label: string) => {
      for (let k = 0; k < 6; k++) {
        const from = start - 2 * H + Math.floor(rnd() * 12 * 24) * H;
        const to = from + Math.floor(1 + rnd() * 10 * 24) * H;
        const ids = rnd() < 0.5 ? null : drivers.slice(0, 1 + Math.floor(rnd() * drivers.length));
        const plain = await readDutyEvents(db, a.orgId, ids, from, to);
        const cached = await dutyEventsOf(db, a.orgId, ids, from, to);
        const mine = (m: Map<string, readonly DutyEventFacts[]>) => drivers.map((id) => facts(m.get(id) ?? []));
        expect(mine(cached), `${label}: ${new Date(from).toISOString()} to ${new Date(to).toISOString()}`).toEqual(mine(plain));
        // The periods from memory are the periods of the plain read, up to any instant in the range.
        const records = await driverRecordsOf(db, a.orgId, ids, from, to);
        const until = from + Math.floor(rnd() * (to - from + 1));
        for (const id of drivers) expect(records.periodsOf(id, until), `${label}: periods until ${until}`).toEqual(dutyPeriods(plain.get(id) ?? [], until));
        expect(mine(plain).some((l) => l.length > 0) || from > Math.max(...ends)).toBe(true);
      }
    };
    await compare('after the first imports');
    // An import after a driver's last record changes what the cache holds for them.
    const more = await importDays(drivers[1]!, ends[1]!, 12);
    ends[1] = more.end;
    await compare('after a second import');
    // An edit: a new version, the original inactive; the cache must not keep the original.
    const day = hosLogDaySchema.parse((await t.app.inject({ method: 'GET', url: org(`/hos_log/${more.logs[0]!.id}`), headers: a.admin })).json());
    const status = day.events.filter((e) => e.status !== null && e.recordStatus === 'ACTIVE');
    const target = status[Math.floor(status.length / 2)]!;
    const res = await t.app.inject({
      method: 'PUT',
      url: org(`/drivers/${drivers[1]}/hos_log/${more.logs[0]!.id}/hos_event/${target.id}`),
      headers: a.admin,
      payload: { status: target.status === 'ON' ? 'OFF' : 'ON', at: target.at, annotation: 'Cache test edit' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const around = Date.parse(target.at);
    const before = facts((await readDutyEvents(db, a.orgId, [drivers[1]!], around - H, around + H)).get(drivers[1]!) ?? []);
    expect(facts((await dutyEventsOf(db, a.orgId, [drivers[1]!], around - H, around + H)).get(drivers[1]!) ?? [])).toEqual(before);
    await compare('after an edit');
  });

  it('sees records and log facts written by plain SQL on the next read: the triggers, not the writer, move the versions', async () => {
    const db = t.database.db;
    const res = await t.app.inject({
      method: 'POST',
      url: org('/drivers'),
      headers: a.admin,
      payload: driverBody({ homeTimeZone: 'America/Toronto', ruleset: 'CA_SOUTH_CYCLE_1' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const driverId = res.json<{ id: string }>().id;
    const co = await t.app.inject({
      method: 'POST',
      url: org('/drivers'),
      headers: a.admin,
      payload: driverBody({ homeTimeZone: 'America/Toronto', ruleset: 'CA_SOUTH_CYCLE_1' }),
    });
    const coDriverId = co.json<{ id: string }>().id;
    const start = Date.parse('2026-10-05T04:00:00Z');
    const periods = [
      { status: 'OFF', start: new Date(start).toISOString(), end: new Date(start + 8 * H).toISOString() },
      { status: 'D', start: new Date(start + 8 * H).toISOString(), end: new Date(start + 12 * H).toISOString() },
      { status: 'OFF', start: new Date(start + 12 * H).toISOString(), end: new Date(start + 30 * H).toISOString() },
    ];
    const imported = await t.app.inject({
      method: 'POST',
      url: org(`/drivers/${driverId}/hos_log/import`),
      headers: a.admin,
      payload: { source: 'trigger test', periods },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const from = start - 2 * H;
    const to = start + 40 * H;
    const read = async () => {
      const r = await driverRecordsOf(db, a.orgId, [driverId], from, to);
      return { events: facts(r.eventsOf(driverId)), facts: r.factsOf(driverId) ?? null };
    };
    const first = await read();
    expect(first.events.map((e) => e.eventCode)).toEqual([1, 3, 1]);
    expect(first.facts).toBeNull();
    // Another instance, a script or a migration writes a status with SQL: the next read has it.
    await db.execute(
      sql`insert into hos_events (organization_id, driver_id, sequence_id, event_type, event_code, record_origin, event_time, log_date) values (${a.orgId}::uuid, ${driverId}::uuid, 1000, 1, 4, 2, ${new Date(start + 20 * H).toISOString()}::timestamptz, '2026-10-05')`,
    );
    const second = await read();
    expect(second.events).toEqual(facts((await readDutyEvents(db, a.orgId, [driverId], from, to)).get(driverId) ?? []));
    expect(second.events.map((e) => e.eventCode)).toEqual([1, 3, 1, 4]);
    // A co-driver set on a log row with SQL changes the engine's options (C7) on the next read.
    await db.execute(sql`update hos_logs set co_driver_id = ${coDriverId}::uuid where driver_id = ${driverId}::uuid and log_date = '2026-10-05'`);
    expect((await read()).facts).toEqual({ deferrals: [], teamDays: new Set(['2026-10-05']) });
    await db.execute(sql`update hos_logs set deferral_declared_at = now() where driver_id = ${driverId}::uuid and log_date = '2026-10-05'`);
    expect((await read()).facts).toEqual({ deferrals: ['2026-10-05'], teamDays: new Set(['2026-10-05']) });
    // The fleet read (all drivers, through the organization's fingerprint) agrees with the plain reads.
    const fleet = await driverRecordsOf(db, a.orgId, null, from, to);
    expect(facts(fleet.eventsOf(driverId))).toEqual(second.events);
    const plainFacts = await logFactsOf(db, a.orgId, null, ...logDatesAround(from, to));
    expect(fleet.factsOf(driverId)).toEqual(plainFacts.get(driverId));
  });

  it('follows a driver record change and a vehicle assignment in the fleet reads', async () => {
    const db = t.database.db;
    const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: a.admin, payload: driverBody({ homeTimeZone: 'America/Chicago' }) });
    const driver = res.json<{ id: string; lastName: string }>();
    const rowOf = async () => {
      const page = await t.app.inject({ method: 'GET', url: org(`/availability?search=${driver.lastName}`), headers: a.admin });
      expect(page.statusCode, page.body).toBe(200);
      return page.json<{ content: Array<{ ruleset: string; vehicle: { unitNumber: string } | null }> }>().content[0]!;
    };
    expect((await rowOf()).ruleset).toBe('US_PROPERTY_70_8');
    await db.execute(sql`update drivers set ruleset = 'US_PROPERTY_60_7' where id = ${driver.id}::uuid`);
    expect((await rowOf()).ruleset).toBe('US_PROPERTY_60_7');
    const v = await t.app.inject({ method: 'POST', url: org('/assets'), headers: a.admin, payload: vehicleBody() });
    expect(v.statusCode, v.body).toBe(201);
    const vehicle = v.json<{ id: string; unitNumber: string }>();
    await db.execute(sql`update assets set current_driver_id = ${driver.id}::uuid where id = ${vehicle.id}::uuid`);
    expect((await rowOf()).vehicle?.unitNumber).toBe(vehicle.unitNumber);
  });
});
