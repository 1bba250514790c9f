import { follower, type PositionRow } from '../positions/index.ts';
import type { Db } from '../../db/client.ts';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { detectCrossings } from './hos-crossings.service.ts';

/** How far before a batch's first fix detection reads: the fix before the border is in the range. */
const LOOKBACK_MS = 2 * 3_600_000;

/**
 * Border crossings behind ingest (issue 72, decision 0313): each driver's last country is kept in
 * memory (US or Canada, from the IFTA boundaries); a batch whose fixes change it has the driver's
 * positions around it read and the crossing stored (detectCrossings, idempotent). Nothing is read
 * for the batches that stay on one side, nearly all of them. After a restart the first fix of a
 * driver only sets the memory; the log's list of crossings detects again over the days it shows.
 */
export class BorderCrossings {
  private readonly last = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
  ) {}

  enqueue(rows: readonly PositionRow[], stored: readonly boolean[]): void {
    if (this.closed) return;
    const changed = new Map<string, { orgId: string; fromMs: number; toMs: number }>();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!stored[i] || !r.driverId) continue;
      const country = jurisdictionAt(r.latitude, r.longitude)?.country;
      if (country !== 'US' && country !== 'CA') continue;
      const before = this.last.get(r.driverId);
      this.last.set(r.driverId, country);
      if (before === undefined || before === country) continue;
      const t = r.fixTime.getTime();
      const c = changed.get(r.driverId);
      if (c) {
        c.fromMs = Math.min(c.fromMs, t - LOOKBACK_MS);
        c.toMs = Math.max(c.toMs, t + 1);
      } else changed.set(r.driverId, { orgId: r.organizationId, fromMs: t - LOOKBACK_MS, toMs: t + 1 });
    }
    if (changed.size === 0) return;
    this.chain = this.chain.then(async () => {
      for (const [driverId, c] of changed) await detectCrossings(this.db, c.orgId, driverId, c.fromMs, c.toMs).catch(this.onError);
    });
  }

  /** Resolves when the crossings of what was handed so far are stored. */
  idle(): Promise<void> {
    return this.chain;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.chain;
  }
}

export const borderCrossingsFollower = follower('borderCrossings', ({ database, onError }) => {
  const it = new BorderCrossings(database.db, onError('Border crossings'));
  return {
    it,
    follows: true,
    committed: (rows, stored) => it.enqueue(rows, stored),
    idle: () => it.idle(),
    close: () => it.close(),
  };
});
