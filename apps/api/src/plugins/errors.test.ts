import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { bearer, createTestApp, DEMO, expectErrorBody, login, type TestContext } from '../test/helpers.ts';

// Issue 28: no 5xx body ever carries SQL, in any mode. A database error's text (Drizzle's "Failed
// query: select … params: …", PostgreSQL's relation names) goes to the log; the answer keeps the
// request id and, outside production, the SQLSTATE.

/** Words of a statement or of the schema that must never be in an answer. */
const SQL_WORDS = /Failed query|\bselect\b|\binsert\b|\bupdate\b|\bfrom\b|params:|refresh_tokens|__drizzle_migrations|drivers\./i;

function expectNoSql(body: unknown, status: number): string {
  const b = expectErrorBody(body, status);
  expect(`${b.message} ${b.technicalMessage}`).not.toMatch(SQL_WORDS);
  return b.technicalMessage;
}

for (const env of ['development', 'test'] as const satisfies ReadonlyArray<Config['env']>) {
  describe(`500 errors in ${env} mode`, () => {
    let t: TestContext;
    let orgId: string;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await createTestApp({ env });
      const a = await login(t.app, DEMO.admin);
      orgId = a.user.organization!.id;
      admin = bearer(a.accessToken);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answer a failed query with its SQLSTATE and request id, never its statement or parameters', async () => {
      // A check the service does not know of refuses the row: a real database error (the contract
      // now refuses every value the columns themselves cannot hold, such as a NUL, issue 43).
      await t.database.db.execute(`alter table drivers add constraint drivers_no_secret check (notes not like '%secret%')` as never);
      let res;
      try {
        res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/organizations/${orgId}/drivers`,
          headers: admin,
          payload: { firstName: 'Check', lastName: 'Failed', licenseNumber: 'CHK0001', licenseState: 'IL', notes: 'secret notes' },
        });
      } finally {
        await t.database.db.execute('alter table drivers drop constraint drivers_no_secret' as never);
      }
      expect(res.statusCode, res.body).toBe(500);
      const technical = expectNoSql(res.json(), 500);
      expect(technical).not.toContain('secret');
      expect(technical).toMatch(/^database error \w+ \(request id [\w-]+\)$/);
    });

    it('answer a connection the database ended under the request with 503 and Retry-After, as ingest does', async () => {
      // The server ending the session (SQLSTATE 57P01, as pg_terminate_backend or a restart does),
      // raised by a trigger so that it happens on every database the tests run on.
      await t.database.db.execute(
        `create function drivers_session_ended() returns trigger language plpgsql as $$ begin raise exception 'terminating connection due to administrator command' using errcode = '57P01'; end $$` as never,
      );
      await t.database.db.execute(
        `create trigger drivers_session_ended before insert on drivers for each row execute function drivers_session_ended()` as never,
      );
      let res;
      try {
        res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/organizations/${orgId}/drivers`,
          headers: admin,
          payload: { firstName: 'Session', lastName: 'Ended', licenseNumber: 'END0001', licenseState: 'IL' },
        });
      } finally {
        await t.database.db.execute('drop trigger drivers_session_ended on drivers' as never);
        await t.database.db.execute('drop function drivers_session_ended()' as never);
      }
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(expectNoSql(res.json(), 503)).toMatch(/^database error 57P01 \(request id [\w-]+\)$/);
    });

    it('say why /readyz is not ready without the statement that failed', async () => {
      await t.database.db.execute('alter table drizzle.__drizzle_migrations rename to __drizzle_migrations_gone' as never);
      try {
        const res = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(res.statusCode).toBe(503);
        expect(expectNoSql(res.json(), 503)).toMatch(/^database unreachable: database error 42P01$/);
      } finally {
        await t.database.db.execute('alter table drizzle.__drizzle_migrations_gone rename to __drizzle_migrations' as never);
      }
    });

    it('answer a broken table without naming it', async () => {
      await t.database.db.execute('drop table refresh_tokens cascade' as never);
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: DEMO.admin });
      expect(res.statusCode).toBe(500);
      expect(expectNoSql(res.json(), 500)).toMatch(/^database error 42P01 \(request id [\w-]+\)$/);
    });
  });
}
