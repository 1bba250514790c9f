import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { customerPageSchema, customerSchema, loadPageSchema, loadSchema, type Customer, type Load } from '@fleet/api-contract';
import { migrationsFolder } from '../../db/client.ts';
import { loads, roles } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { activityRows, userWithPermissions } from '../../test/registry.ts';

// Customers through HTTP on the real database (issue 70, decision 0284): the registry's CRUD and its
// words for bad input, a load naming a customer (by id, by its name, or a new name), a rename
// following to the loads, the refusal to delete a customer loads name, the reach of organizations,
// permissions and API tokens, and migration 0060's backfill of the loads made before it.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let other: { orgId: string; headers: Record<string, string> };
const url = (rest = '', org = orgId) => `/api/v1/organizations/${org}/customers${rest}`;
const loadsUrl = (rest = '', org = orgId) => `/api/v1/organizations/${org}/loads${rest}`;
const H = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Customers Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const o = await registerOrganization(t.app, 'Customers Other Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };
});
afterAll(async () => {
  await t?.close();
});

async function create(payload: Record<string, unknown>, headers = admin, org = orgId): Promise<Customer> {
  const res = await t.app.inject({ method: 'POST', url: url('', org), headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return customerSchema.parse(res.json());
}

function loadBody(over: Record<string, unknown> = {}) {
  const base = Date.now() + 48 * H;
  return {
    stops: [
      { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(base), windowEnd: at(base + H), serviceMinutes: 60 },
      { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(base + 6 * H), windowEnd: at(base + 8 * H), serviceMinutes: 45 },
    ],
    rate: { lineHaul: 1200 },
    ...over,
  };
}

async function createLoad(over: Record<string, unknown>, headers = admin): Promise<Load> {
  const res = await t.app.inject({ method: 'POST', url: loadsUrl(), headers, payload: loadBody(over) });
  expect(res.statusCode, res.body).toBe(201);
  return loadSchema.parse(res.json());
}

const count = async (table: 'customers' | 'loads', org = orgId) =>
  rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where organization_id = ${org}`))[0]!.n;

describe('customers', () => {
  it('creates with the defaults, edits, lists and deletes a customer, logging each; a taken name is a 409 whatever its case', async () => {
    const made = await create({ name: ' Prairie Grain Co-op ', invoiceEmail: 'AP@PrairieGrain.example', billingAddress: '400 Elevator Rd, Salina, KS 67401' });
    expect(made).toMatchObject({
      name: 'Prairie Grain Co-op',
      invoiceEmail: 'ap@prairiegrain.example',
      paymentTermsDays: 30,
      detentionFreeMinutes: 120,
      detentionCentsPerHour: 0,
      requiresPod: false,
      notes: null,
      loadCount: 0,
    });
    const dup = await t.app.inject({ method: 'POST', url: url(), headers: admin, payload: { name: 'PRAIRIE grain co-op' } });
    expect(expectFieldErrors(dup.json(), 409, { name: 'A customer named PRAIRIE grain co-op already exists' }).code).toBe('names.taken');

    const edited = await t.app.inject({
      method: 'PATCH',
      url: url(`/${made.id}`),
      headers: admin,
      payload: { paymentTermsDays: 45, detentionCentsPerHour: 6500, requiresPod: true, billingAddress: '' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Prairie Grain Co-op',
      paymentTermsDays: 45,
      detentionCentsPerHour: 6500,
      requiresPod: true,
      billingAddress: null,
    });
    expect((await t.app.inject({ method: 'GET', url: url(`/${made.id}`), headers: admin })).json()).toMatchObject({ paymentTermsDays: 45 });

    await create({ name: 'Blue Ridge Brokerage', notes: 'Calls before 9' });
    await create({ name: 'apex freight partners', paymentTermsDays: 15 });
    const page = customerPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?size=2'), headers: admin })).json());
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, size: 2 });
    expect(page.content.map((c) => c.name)).toEqual(['apex freight partners', 'Blue Ridge Brokerage']);
    const searched = customerPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?search=SALINA'), headers: admin })).json());
    expect(searched.content).toHaveLength(0); // the address was cleared above
    const byNotes = customerPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?search=before%209'), headers: admin })).json());
    expect(byNotes.content.map((c) => c.name)).toEqual(['Blue Ridge Brokerage']);
    const sorted = customerPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?sort=paymentTermsDays,desc'), headers: admin })).json());
    expect(sorted.content.map((c) => c.paymentTermsDays)).toEqual([45, 30, 15]);
    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('?sort=secret'), headers: admin })).json(), 400, { sort: 'sort must be one of' });

    expect((await t.app.inject({ method: 'DELETE', url: url(`/${made.id}`), headers: admin })).statusCode).toBe(204);
    expect(expectErrorBody((await t.app.inject({ method: 'GET', url: url(`/${made.id}`), headers: admin })).json(), 404).message).toBe('Customer not found');
    expect((await activityRows(t.database.db as never, made.id)).map((r) => [r.action, r.entity_type])).toEqual([
      ['CREATE', 'CUSTOMER'],
      ['UPDATE', 'CUSTOMER'],
      ['DELETE', 'CUSTOMER'],
    ]);
  });

  it('answers bad input with a 400 naming each field, and stores nothing', async () => {
    const before = await count('customers');
    const bad = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: admin,
      payload: { name: '', invoiceEmail: 'not-an-email', paymentTermsDays: 366, detentionFreeMinutes: 1441, detentionCentsPerHour: -1 },
    });
    expectFieldErrors(bad.json(), 400, {
      name: 'Name is a required field',
      invoiceEmail: 'Invoice e-mail must be a valid email address',
      paymentTermsDays: 'Payment terms must be from 0 to 365 days',
      detentionFreeMinutes: 'Detention free time must be from 0 to 1440 minutes',
      detentionCentsPerHour: 'Detention rate must not be negative',
    });
    expectFieldErrors((await t.app.inject({ method: 'POST', url: url(), headers: admin, payload: { name: 'x'.repeat(201) } })).json(), 400, {
      name: 'Name must be at most 200 characters',
    });
    expectFieldErrors((await t.app.inject({ method: 'POST', url: url(), headers: admin, payload: { name: 'Odd', paymentTermsDays: 30.5 } })).json(), 400, {
      paymentTermsDays: 'Payment terms must be a whole number of days',
    });
    expect(await count('customers')).toBe(before);
    const kept = await create({ name: 'Kept Shipper' });
    const patch = await t.app.inject({ method: 'PATCH', url: url(`/${kept.id}`), headers: admin, payload: { name: '  ', requiresPod: 'yes' } });
    expectFieldErrors(patch.json(), 400, { name: 'Name is a required field', requiresPod: 'Requires proof of delivery must be true or false' });
    expectErrorBody((await t.app.inject({ method: 'PATCH', url: url(`/${kept.id}`), headers: admin, payload: {} })).json(), 400);
    expect((await t.app.inject({ method: 'GET', url: url(`/${kept.id}`), headers: admin })).json()).toMatchObject({ name: 'Kept Shipper', requiresPod: false });
    expectFieldErrors((await t.app.inject({ method: 'GET', url: url('/not-a-uuid'), headers: admin })).json(), 400, {
      customerId: 'customerId must be a customer id',
    });
  });

  it("a load prints its customer's name: by id, by a name the registry knows, or a new name that joins the registry", async () => {
    const mesa = await create({ name: 'Mesa Produce' });
    const byId = await createLoad({ customerId: mesa.id, customer: 'typed otherwise' });
    expect(byId).toMatchObject({ customerId: mesa.id, customer: 'Mesa Produce' });
    const byName = await createLoad({ customer: 'MESA produce' });
    expect(byName).toMatchObject({ customerId: mesa.id, customer: 'Mesa Produce' });
    const before = await count('customers');
    const fresh = await createLoad({ customer: 'Harbor Steel Supply' });
    expect(await count('customers')).toBe(before + 1);
    const harbor = customerSchema.parse((await t.app.inject({ method: 'GET', url: url(`/${fresh.customerId}`), headers: admin })).json());
    expect(harbor).toMatchObject({ name: 'Harbor Steel Supply', paymentTermsDays: 30, loadCount: 1 });
    expect((await activityRows(t.database.db as never, harbor.id)).map((r) => r.action)).toEqual(['CREATE']);
    expectFieldErrors((await t.app.inject({ method: 'POST', url: loadsUrl(), headers: admin, payload: loadBody() })).json(), 400, {
      customer: 'Customer is a required field',
    });

    // The load's edit changes its customer; the list filters by it.
    const edited = await t.app.inject({ method: 'PUT', url: loadsUrl(`/${byName.id}`), headers: admin, payload: loadBody({ customerId: harbor.id }) });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ customerId: harbor.id, customer: 'Harbor Steel Supply' });
    const ofHarbor = loadPageSchema.parse((await t.app.inject({ method: 'GET', url: loadsUrl(`?customerId=${harbor.id}`), headers: admin })).json());
    expect(ofHarbor.content.map((l) => l.id).sort()).toEqual([fresh.id, byName.id].sort());

    // A rename carries over to the loads' printed name.
    const renamed = await t.app.inject({ method: 'PATCH', url: url(`/${harbor.id}`), headers: admin, payload: { name: 'Harbor Steel & Supply' } });
    expect(renamed.json()).toMatchObject({ name: 'Harbor Steel & Supply', loadCount: 2 });
    for (const id of [fresh.id, byName.id])
      expect((await t.app.inject({ method: 'GET', url: loadsUrl(`/${id}`), headers: admin })).json()).toMatchObject({ customer: 'Harbor Steel & Supply' });

    // Named by loads, it stays: 409 saying why, and nothing changes.
    const refused = await t.app.inject({ method: 'DELETE', url: url(`/${harbor.id}`), headers: admin });
    const body = expectErrorBody(refused.json(), 409);
    expect(body.code).toBe('common.still_referenced');
    expect(body.message).toContain('Harbor Steel & Supply is the customer of 2 loads');
    expect((await t.app.inject({ method: 'GET', url: url(`/${harbor.id}`), headers: admin })).statusCode).toBe(200);
    // Once no load names it, it goes.
    for (const id of [fresh.id, byName.id]) expect((await t.app.inject({ method: 'DELETE', url: loadsUrl(`/${id}`), headers: admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: url(`/${harbor.id}`), headers: admin })).statusCode).toBe(204);
  });

  it("another organization's customer is never seen, changed, deleted nor named by a load", async () => {
    const theirs = await create({ name: 'Their Secret Shipper', invoiceEmail: 'ap@secret.example' }, other.headers, other.orgId);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: url(`/${theirs.id}`), headers: admin, ...(method === 'PATCH' ? { payload: { name: 'Mine now' } } : {}) });
      expect(expectErrorBody(res.json(), 404).message, method).toBe('Customer not found');
    }
    expect((await t.app.inject({ method: 'GET', url: url('', other.orgId), headers: admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: url('', other.orgId), headers: admin, payload: { name: 'Planted' } })).statusCode).toBe(404);
    const mine = customerPageSchema.parse((await t.app.inject({ method: 'GET', url: url('?size=100&search=secret'), headers: admin })).json());
    expect(mine.content).toEqual([]);
    const before = await count('loads');
    expectFieldErrors((await t.app.inject({ method: 'POST', url: loadsUrl(), headers: admin, payload: loadBody({ customerId: theirs.id }) })).json(), 400, {
      customerId: 'Customer must be a customer of this organization',
    });
    expect(await count('loads')).toBe(before);
    // A load of ours typed with their customer's name gets a customer of our own.
    const load = await createLoad({ customer: 'Their Secret Shipper' });
    expect(load.customerId).not.toBe(theirs.id);
    expect((await t.app.inject({ method: 'GET', url: url(`/${theirs.id}`, other.orgId), headers: other.headers })).json()).toMatchObject({
      name: 'Their Secret Shipper',
      loadCount: 0,
    });
  });

  it('reading takes CUSTOMER_LIST (or LOAD_UPDATE, for the load form), changing takes CUSTOMER_UPDATE; none is a 401', async () => {
    const c = await create({ name: 'Permission Probe Ltd' });
    expect((await t.app.inject({ method: 'GET', url: url() })).statusCode).toBe(401);
    const reader = await userWithPermissions(t, orgId, ['CUSTOMER_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url(), headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: url(`/${c.id}`), headers: reader })).statusCode).toBe(200);
    expectErrorBody((await t.app.inject({ method: 'POST', url: url(), headers: reader, payload: { name: 'Nope' } })).json(), 403);
    expectErrorBody((await t.app.inject({ method: 'PATCH', url: url(`/${c.id}`), headers: reader, payload: { name: 'Nope' } })).json(), 403);
    expectErrorBody((await t.app.inject({ method: 'DELETE', url: url(`/${c.id}`), headers: reader })).json(), 403);
    const loadEditor = await userWithPermissions(t, orgId, ['LOAD_LIST', 'LOAD_UPDATE']);
    expect((await t.app.inject({ method: 'GET', url: url(), headers: loadEditor })).statusCode).toBe(200);
    expectErrorBody((await t.app.inject({ method: 'POST', url: url(), headers: loadEditor, payload: { name: 'Nope' } })).json(), 403);
    const nobody = await userWithPermissions(t, orgId, ['ASSET_LIST']);
    expectErrorBody((await t.app.inject({ method: 'GET', url: url(), headers: nobody })).json(), 403);
    const writer = await userWithPermissions(t, orgId, ['CUSTOMER_LIST', 'CUSTOMER_UPDATE']);
    expect((await t.app.inject({ method: 'PATCH', url: url(`/${c.id}`), headers: writer, payload: { notes: 'ok' } })).statusCode).toBe(200);
  });

  it("an API token acts for its organization with its own codes: it reads and writes only what they allow, logged as the token's", async () => {
    const reading = await createApiToken(t.app, orgId, admin, ['CUSTOMER_LIST']);
    const writing = await createApiToken(t.app, orgId, admin, ['CUSTOMER_LIST', 'CUSTOMER_UPDATE'], 'Accounting sync');
    expect((await t.app.inject({ method: 'GET', url: url(), headers: bearer(reading.token) })).statusCode).toBe(200);
    expectErrorBody((await t.app.inject({ method: 'POST', url: url(), headers: bearer(reading.token), payload: { name: 'By token' } })).json(), 403);
    const made = await create({ name: 'Synced From Accounting', paymentTermsDays: 15 }, bearer(writing.token));
    const [log] = rowsOf<{ actor_token_name: string | null }>(
      await t.database.db.execute(sql`select actor_token_name from activity_log where entity_id = ${made.id} and action = 'CREATE'`),
    );
    expect(log?.actor_token_name).toBe('Accounting sync');
    // The token is its organization's: another organization's customers are not found through it.
    const theirs = await create({ name: 'Out Of Reach' }, other.headers, other.orgId);
    expect((await t.app.inject({ method: 'GET', url: url(`/${theirs.id}`), headers: bearer(writing.token) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url('', other.orgId), headers: bearer(writing.token) })).statusCode).toBeGreaterThanOrEqual(401);
    expect((await t.app.inject({ method: 'GET', url: url('', other.orgId), headers: bearer(writing.token) })).statusCode).toBeLessThan(500);
  });

  it("migration 0060 gives each organization's earlier loads one customer per name whatever its case, and roles that handle loads the codes", async () => {
    const statements = fs
      .readFileSync(path.join(migrationsFolder, '0060_customers.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => /^(INSERT INTO "customers"|UPDATE "loads"|UPDATE "roles")/.test(s));
    expect(statements).toHaveLength(4);
    // Loads as they were before customers: a name only, in several spellings, in a new organization.
    const owner = await registerOrganization(t.app, 'Backfill Carrier');
    const org = owner.user.organization!.id;
    const base = { organizationId: org, status: 'DELIVERED' as const };
    const made = await t.app.db
      .insert(loads)
      .values([
        { ...base, number: 'L-1', customer: 'Great Plains Foods', createdAt: new Date('2026-01-01') },
        { ...base, number: 'L-2', customer: 'great plains foods ', createdAt: new Date('2026-03-01') },
        { ...base, number: 'L-3', customer: 'Great Plains Foods', createdAt: new Date('2026-02-01') },
        { ...base, number: 'L-4', customer: 'Coastal Imports', createdAt: new Date('2026-02-01') },
      ])
      .returning({ id: loads.id, number: loads.number });
    const loadRole = (
      await t.app.db
        .insert(roles)
        .values({ organizationId: org, name: 'Planner', permissions: ['LOAD_LIST', 'LOAD_UPDATE'] })
        .returning()
    )[0]!;
    const viewer = (
      await t.app.db
        .insert(roles)
        .values({ organizationId: org, name: 'Viewer', permissions: ['LOAD_LIST'] })
        .returning()
    )[0]!;
    const shop = (
      await t.app.db
        .insert(roles)
        .values({ organizationId: org, name: 'Shop', permissions: ['WORK_ORDER_LIST'] })
        .returning()
    )[0]!;
    const others = async () =>
      rowsOf(await t.database.db.execute(sql`select id, organization_id, name from customers where organization_id <> ${org} order by id`));
    const othersBefore = await others();

    for (let run = 0; run < 2; run++) for (const s of statements) await t.database.db.execute(sql.raw(s));

    const kept = rowsOf<{ name: string; n: number }>(
      await t.database.db.execute(
        sql`select c.name, count(l.id)::int as n from customers c left join loads l on l.organization_id = c.organization_id and l.customer_id = c.id
          where c.organization_id = ${org} group by c.name order by c.name`,
      ),
    );
    expect(kept).toEqual([
      { name: 'Coastal Imports', n: 1 },
      { name: 'Great Plains Foods', n: 3 },
    ]);
    // The printed names stay as written; nothing of another organization moved.
    const printed = rowsOf<{ customer: string }>(await t.database.db.execute(sql`select customer from loads where organization_id = ${org} order by number`));
    expect(printed.map((r) => r.customer)).toEqual(['Great Plains Foods', 'great plains foods ', 'Great Plains Foods', 'Coastal Imports']);
    expect(made).toHaveLength(4);
    expect(await others()).toEqual(othersBefore);
    const codes = async (id: string) =>
      rowsOf<{ permissions: string[] }>(await t.database.db.execute(sql`select permissions from roles where id = ${id}`))[0]!.permissions;
    expect(await codes(loadRole.id)).toEqual(['LOAD_LIST', 'LOAD_UPDATE', 'CUSTOMER_LIST', 'CUSTOMER_UPDATE']);
    expect(await codes(viewer.id)).toEqual(['LOAD_LIST', 'CUSTOMER_LIST']);
    expect(await codes(shop.id)).toEqual(['WORK_ORDER_LIST']);
  });
});
