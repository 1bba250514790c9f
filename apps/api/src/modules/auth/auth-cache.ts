import type { CurrentUser } from '@fleet/api-contract';
import type { AuthContext } from './auth-context.ts';

interface Entry {
  ctx: AuthContext | null;
  me?: CurrentUser;
  expires: number;
}

/**
 * Per-instance cache of who a user is (role, permissions, status) and of their current-user
 * object, so an authenticated request costs no query of its own. Entries are dropped when the
 * database announces a change (auth_change NOTIFY from triggers on users, roles and
 * organizations, delivered on commit to every instance). Before a hit is trusted, the listener is
 * synced (one empty query on its connection, shared by concurrent requests, docs/decisions/0088),
 * so a change answered by one instance is in force on every instance's next request; the TTL only
 * bounds the damage of a missed notification.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** The API tokens cached (`token:<hash>` keys) by their creator: a change of the creator narrows them (decision 0226). */
  private readonly tokensByCreator = new Map<string, Set<string>>();
  /** Bumped by every invalidation; a load that overlapped one is not cached (it may be stale). */
  private generation = 0;
  private sync: () => Promise<void> = async () => undefined;

  constructor(
    /** Users remembered at most (AUTH_CACHE_USERS); the least recently loaded go first. */
    readonly maxEntries = 10_000,
    private readonly ttlMs = 30_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** How many change notifications this instance has applied: a request compares it before and after its check. */
  get changes(): number {
    return this.generation;
  }

  /**
   * `sync` resolves once every change notification committed before the call has been applied
   * (Database listener's sync); without one, entries are trusted as they are.
   */
  syncWith(sync: () => Promise<void>): void {
    this.sync = sync;
  }

  async context(userId: string, load: () => Promise<AuthContext | null>): Promise<AuthContext | null> {
    const hit = this.entries.get(userId);
    // A change committed before this request, through any instance, is applied before the entry
    // is trusted: the request that follows a deactivation's answer is refused everywhere.
    if (hit && hit.expires > Date.now() && (await this.synced()) && this.entries.get(userId) === hit) return hit.ctx;
    const gen = this.generation;
    const ctx = await load();
    if (gen === this.generation) this.store(userId, { ctx, expires: Date.now() + this.ttlMs });
    return ctx;
  }

  async me(userId: string, load: () => Promise<CurrentUser>): Promise<CurrentUser> {
    const hit = this.entries.get(userId);
    if (hit?.me && hit.expires > Date.now()) return hit.me;
    const gen = this.generation;
    const me = await load();
    const entry = this.entries.get(userId);
    if (gen === this.generation && entry) entry.me = me;
    return me;
  }

  /** False (and everything dropped) when notifications cannot be vouched for: the listener's connection is lost. */
  private async synced(): Promise<boolean> {
    try {
      await this.sync();
      return true;
    } catch {
      this.invalidate('*');
      return false;
    }
  }

  /** `*` drops everything (a role, an organization or a token changed); otherwise one user and the tokens they made. */
  invalidate(payload: string): void {
    this.generation++;
    if (payload === '*') {
      this.entries.clear();
      this.tokensByCreator.clear();
      return;
    }
    this.entries.delete(payload);
    for (const key of this.tokensByCreator.get(payload) ?? []) this.entries.delete(key);
    this.tokensByCreator.delete(payload);
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    // A Map iterates in insertion order: the first key is the entry loaded longest ago.
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    if (entry.ctx?.token) {
      const keys = this.tokensByCreator.get(entry.ctx.userId) ?? new Set();
      keys.add(key);
      this.tokensByCreator.set(entry.ctx.userId, keys);
    }
  }
}
