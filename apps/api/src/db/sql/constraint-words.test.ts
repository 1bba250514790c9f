import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { duplicateError, foreignKeyError, INTERNAL_UNIQUE_INDEXES, WORDED_UNIQUE_INDEXES } from './constraint-words.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// PostgreSQL's errors as node-postgres and PGlite raise them, wrapped by Drizzle as `cause`.
const pgError = (fields: Record<string, string>) =>
  Object.assign(new Error('Failed query: insert into ...'), { cause: Object.assign(new Error(fields.message ?? 'violation'), fields) });

describe('constraint words', () => {
  it('words every unique index of the schema, or lists it as internal', async () => {
    const res = (await t.database.db.execute(
      `select indexname from pg_indexes where schemaname = 'public' and indexdef like 'CREATE UNIQUE INDEX%' and indexname not like '%_pkey'` as never,
    )) as unknown as { rows: Array<{ indexname: string }> };
    const names = res.rows.map((r) => r.indexname);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !WORDED_UNIQUE_INDEXES.includes(n) && !INTERNAL_UNIQUE_INDEXES.includes(n))).toEqual([]);
  });

  it('says what clashed, with the field path and never the index name', () => {
    const err = duplicateError(pgError({ code: '23505', constraint: 'assets_org_unit_uq' }), { unitNumber: '117' });
    expect(err).toMatchObject({
      status: 409,
      message: 'Unit number 117 is already used by another vehicle or trailer',
      technicalMessage: 'unitNumber: Unit number 117 is already used by another vehicle or trailer',
    });
    expect(duplicateError(pgError({ code: '23505', constraint: 'users_email_uq' }), {}, 'admin')?.technicalMessage).toBe(
      'admin.email: An account with this email already exists',
    );
    const internal = duplicateError(pgError({ code: '23505', constraint: 'refresh_tokens_hash_uq' }));
    expect(internal).toMatchObject({ status: 409, message: 'This clashes with a record that already exists' });
    expect(JSON.stringify(internal)).not.toContain('refresh_tokens');
    expect(duplicateError(pgError({ code: '23503', constraint: 'x_fk' }))).toBeNull();
  });

  it('words a foreign-key violation by its column and table, never the constraint name', () => {
    const missing = foreignKeyError(
      pgError({
        code: '23503',
        constraint: 'assets_current_driver_id_drivers_id_fk',
        detail: 'Key (current_driver_id)=(0b8f…) is not present in table "drivers".',
        message: 'insert or update on table "assets" violates foreign key constraint "assets_current_driver_id_drivers_id_fk"',
      }),
    );
    expect(missing).toMatchObject({
      status: 409,
      message: 'The driver this refers to does not exist (it may have just been removed)',
      technicalMessage: 'currentDriverId: The driver this refers to does not exist (it may have just been removed)',
    });
    const used = foreignKeyError(
      pgError({
        code: '23503',
        constraint: 'positions_gateway_id_gateways_id_fk',
        detail: 'Key (id)=(…) is still referenced from table "positions".',
        message: 'update or delete on table "gateways" violates foreign key constraint "positions_gateway_id_gateways_id_fk" on table "positions"',
      }),
    );
    expect(used).toMatchObject({ status: 409, message: 'This is still used (position history), so it cannot be removed' });
    expect(JSON.stringify([missing, used])).not.toMatch(/_fk\b|fkey/);
  });

  it("words a shard's violation on Citus as its table's (names carry the shard number)", () => {
    expect(duplicateError(pgError({ code: '23505', constraint: 'users_email_uq_102010' }))?.technicalMessage).toBe(
      'email: An account with this email already exists',
    );
    const missing = foreignKeyError(
      pgError({
        code: '23503',
        constraint: 'assets_current_driver_fk_102068',
        detail: 'Key (organization_id, current_driver_id)=(…) is not present in table "drivers_102076".',
      }),
    );
    expect(missing?.message).toBe('The driver this refers to does not exist (it may have just been removed)');
    expect(foreignKeyError(pgError({ code: '23505', constraint: 'assets_org_unit_uq' }))).toBeNull();
  });
});
