import { describe, expect, it } from 'vitest';
import { onCitus, onServer } from '../test/helpers.ts';
import { defaultPoolSize } from './client.ts';

// The pool's size when DATABASE_POOL_SIZE is not set (issue 49): 10 on PostgreSQL, 40 on a Citus
// coordinator (checked in citus-one-worker.test.ts), 10 when the database cannot be asked.

describe('the default pool size', () => {
  it.runIf(onServer() && !onCitus())('is 10 on a PostgreSQL server', async () => {
    expect(await defaultPoolSize(process.env.TEST_DATABASE_URL!)).toBe(10);
  });

  it('is 10 when the database does not answer, without waiting long', async () => {
    const t0 = Date.now();
    expect(await defaultPoolSize('postgres://postgres@127.0.0.1:1/none')).toBe(10);
    expect(Date.now() - t0).toBeLessThan(6000);
  });
});
