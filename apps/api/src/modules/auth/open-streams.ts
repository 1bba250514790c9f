import type { FastifyRequest } from 'fastify';
import { STREAM_REVOKED_EVENT, type StreamRevoked } from '@fleet/api-contract';
import type { EventStream, StreamGuard } from '../../http/event-stream.ts';
import type { AuthContext } from './auth-context.ts';
import { assertRouteAccess, type RouteNeeds } from './route-access.ts';

/** An open stream and what it was opened with. */
interface Watched {
  userId: string;
  /** The session epoch of the credential that opened it. */
  epoch: number;
  need: RouteNeeds;
  stream: EventStream;
  onContext?: (ctx: AuthContext) => void;
}

/** Users' contexts loaded per query when many streams are checked at once (a role or an organization changed). */
const LOAD_CHUNK = 500;

const MESSAGES: Record<StreamRevoked['reason'], string> = {
  session: 'Your session has ended. Sign in again to continue.',
  forbidden: 'You no longer have access to this.',
};

/** Why a stream may no longer stay open, or null while its user's current context still allows it. */
function revocation(ctx: AuthContext | null, w: Watched): StreamRevoked['reason'] | null {
  if (!ctx || ctx.sessionEpoch > w.epoch) return 'session';
  try {
    assertRouteAccess(ctx, w.need);
    return null;
  } catch {
    return 'forbidden';
  }
}

/**
 * This instance's open streams (live map, notifications) by user, kept within their users' access:
 * every auth_change notification (users, roles and organizations triggers, delivered at commit to
 * every instance) checks the affected user's streams (everyone's for `*`) against the user's
 * current context, as the auth plugin checks a request, and ends those that no longer pass with a
 * last `event: revoked` so the client knows not to reconnect as before. A stream is never older
 * than the change that should end it: the request's check and its registration are bridged by
 * AuthCache.changes (Credential.seenChanges).
 */
export class OpenStreams {
  private readonly byUser = new Map<string, Set<Watched>>();
  private readonly pending = new Set<string>();
  private pendingAll = false;
  private running: Promise<void> | null = null;

  constructor(
    /** The users' current contexts (loadAuthContexts): an absent user may no longer sign in. */
    private readonly load: (userIds: string[]) => Promise<ReadonlyMap<string, AuthContext>>,
    /** AuthCache.changes: how many notifications this instance has applied. */
    private readonly changes: () => number,
    private readonly log: (err: unknown) => void,
  ) {}

  /** Open streams on this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /**
   * The guard of a stream that `request` opens: it must keep the route's permissions and
   * organization, and the session its credential belongs to. `onContext` is told the user's
   * context after each check the stream passes (a stream whose content follows permissions).
   */
  guard(request: FastifyRequest, onContext?: (ctx: AuthContext) => void): StreamGuard {
    const ctx = request.auth;
    const credential = request.credential;
    if (!ctx || !credential) throw new Error('an event stream needs a signed-in request');
    const config = request.routeOptions.config;
    const need: RouteNeeds = {
      orgId: (request.params as Record<string, string | undefined> | undefined)?.orgId,
      permissions: config.permissions,
      anyPermissions: config.anyPermissions,
    };
    return (stream) => {
      const watched: Watched = { userId: ctx.userId, epoch: credential.epoch, need, stream, onContext };
      const set = this.byUser.get(ctx.userId) ?? new Set();
      set.add(watched);
      this.byUser.set(ctx.userId, set);
      // A change that arrived while the request was being checked may not be reflected in that check.
      if (this.changes() !== credential.seenChanges) this.changed(ctx.userId);
      return () => this.forget(watched);
    };
  }

  /** An auth_change notification: one user's id, or `*` (a role or an organization changed: everyone). */
  changed(payload: string): void {
    if (payload === '*') {
      if (this.byUser.size === 0) return;
      this.pendingAll = true;
    } else if (this.byUser.has(payload)) {
      this.pending.add(payload);
    } else {
      return;
    }
    this.run();
  }

  /** Resolves once every change received so far has been checked (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** One round at a time; changes arriving during a round are checked by the next. */
  private run(): void {
    if (this.running) return;
    this.running = (async () => {
      while (this.pendingAll || this.pending.size > 0) {
        const userIds = this.pendingAll ? [...this.byUser.keys()] : [...this.pending];
        this.pendingAll = false;
        this.pending.clear();
        for (let i = 0; i < userIds.length; i += LOAD_CHUNK) await this.check(userIds.slice(i, i + LOAD_CHUNK));
      }
    })()
      .catch(this.log)
      .finally(() => {
        this.running = null;
        // A change that came after the loop's last look but before this.
        if (this.pendingAll || this.pending.size > 0) this.run();
      });
  }

  private async check(userIds: string[]): Promise<void> {
    let contexts: ReadonlyMap<string, AuthContext>;
    try {
      contexts = await this.load(userIds);
    } catch (err) {
      // Access that cannot be checked is not vouched for: the streams end without `revoked`, and
      // the clients' reconnections are checked like any request.
      this.log(err);
      for (const id of userIds) for (const w of this.byUser.get(id) ?? []) this.end(w);
      return;
    }
    for (const id of userIds) {
      const ctx = contexts.get(id) ?? null;
      for (const w of this.byUser.get(id) ?? []) {
        const reason = revocation(ctx, w);
        if (reason) {
          const last: StreamRevoked = { reason, message: MESSAGES[reason] };
          w.stream.send(STREAM_REVOKED_EVENT, last);
          this.end(w);
        } else if (ctx) {
          w.onContext?.(ctx);
        }
      }
    }
  }

  private end(w: Watched): void {
    this.forget(w);
    w.stream.end();
  }

  private forget(w: Watched): void {
    const set = this.byUser.get(w.userId);
    if (!set?.delete(w)) return;
    if (set.size === 0) this.byUser.delete(w.userId);
  }
}
