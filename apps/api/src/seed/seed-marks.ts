import { like } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appMeta } from '../db/schema/index.ts';

// Which parts of an organization's demo data are seeded (decision 0239): a row in app_meta per
// finished part, written once the part is, so a start after a crash or a kill resumes where seeding
// stopped and a later start neither makes a finished part again nor rewrites it.

const prefix = (orgId: string) => `demo-seed:${orgId}:`;

export class SeedMarks {
  private constructor(
    private readonly db: Db,
    private readonly orgId: string,
    private readonly done: Set<string>,
  ) {}

  static async load(db: Db, orgId: string): Promise<SeedMarks> {
    const rows = await db
      .select({ key: appMeta.key })
      .from(appMeta)
      .where(like(appMeta.key, `${prefix(orgId)}%`));
    return new SeedMarks(db, orgId, new Set(rows.map((r) => r.key.slice(prefix(orgId).length))));
  }

  /** Whether no part is marked (a first start, or a database seeded before the marks). */
  get empty(): boolean {
    return this.done.size === 0;
  }

  has(part: string): boolean {
    return this.done.has(part);
  }

  async mark(part: string): Promise<void> {
    if (this.done.has(part)) return;
    await this.db
      .insert(appMeta)
      .values({ key: `${prefix(this.orgId)}${part}`, value: new Date().toISOString() })
      .onConflictDoNothing();
    this.done.add(part);
  }

  /** Runs `make` unless the part is done, then marks it; returns what it returned, or null when skipped. */
  async once<T>(part: string, make: () => Promise<T>): Promise<T | null> {
    if (this.done.has(part)) return null;
    const out = await make();
    await this.mark(part);
    return out;
  }
}
