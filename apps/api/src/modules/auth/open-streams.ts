import type { FastifyRequest } from 'fastify';
import { STREAM_REVOKED_EVENT, type StreamRevoked } from '@fleet/api-contract';
import type { EventStream, StreamGuard } from '../../http/event-stream.ts';
import type { AuthContext } from './auth-context.ts';
import { assertRouteAccess, type RouteNeeds } from './route-access.ts';

/** An open stream and what it was opened with. */
interface Watched {
  /** The user it stands for: the token's creator for an API token (a change of the creator narrows the token). */
  userId: string;
  /** The session epoch of the credential that opened it. */
  epoch: number;
  /** The session (refresh-token family) that opened it, if its credential names one. */
  session: string | null;
  /** The API token that opened it, if one did. */
  tokenId: string | null;
  need: RouteNeeds;
  stream: EventStream;
  onContext?: (ctx: AuthContext) => void;
}

/** What a check reads: the users' contexts, the tokens' and the sessions signed out. */
export interface StreamAccessLoader {
  /** The users' current contexts (loadAuthContexts): an absent user may no longer sign in. */
  users(userIds: string[]): Promise<ReadonlyMap<string, AuthContext>>;
  /** The tokens' current contexts by id (their codes within their creators'): an absent token is revoked. */
  tokens(tokenIds: string[]): Promise<ReadonlyMap<string, AuthContext>>;
  /** Of these sessions, the ones signed out. */
  endedSessions(sessionIds: string[]): Promise<ReadonlySet<string>>;
}

/** Users' contexts loaded per query when many streams are checked at once (a role or an organization changed). */
const LOAD_CHUNK = 500;

/** setTimeout's longest delay: a token expiring later is timed again when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

const MESSAGES: Record<StreamRevoked['reason'], string> = {
  session: 'Your session has ended. Sign in again to continue.',
  forbidden: 'You no longer have access to this.',
  token: 'This API token was revoked or has expired.',
};

interface Loaded {
  users: ReadonlyMap<string, AuthContext>;
  tokens: ReadonlyMap<string, AuthContext>;
  ended: ReadonlySet<string>;
}

/** Why a stream may no longer stay open, and the context it goes on with otherwise. */
function revocation(loaded: Loaded, w: Watched): { reason: StreamRevoked['reason'] } | { ctx: AuthContext } {
  let ctx: AuthContext | null;
  if (w.tokenId) {
    ctx = loaded.tokens.get(w.tokenId) ?? null;
    const expiresAt = ctx?.token?.expiresAt ?? null;
    if (!ctx || (expiresAt !== null && expiresAt <= Date.now())) return { reason: 'token' };
  } else {
    ctx = loaded.users.get(w.userId) ?? null;
    if (!ctx || ctx.sessionEpoch > w.epoch || (w.session !== null && loaded.ended.has(w.session))) return { reason: 'session' };
  }
  try {
    assertRouteAccess(ctx, w.need);
    return { ctx };
  } catch {
    return { reason: 'forbidden' };
  }
}

/**
 * This instance's open streams (live map, notifications) by user, kept within their credentials:
 * every auth_change notification (users, roles and organizations triggers, a session signed out, a
 * token revoked; delivered at commit to every instance) checks the affected user's streams
 * (everyone's for `*`) against the current state, as the auth plugin checks a request: the user's
 * context and session, or the API token's (its codes within its creator's). Those that no longer
 * pass end with a last `event: revoked` so the client knows not to reconnect as before; a token's
 * stream also ends when the token expires. A stream is never older than the change that should end
 * it: the request's check and its registration are bridged by AuthCache.changes
 * (Credential.seenChanges), and a stream opened by a session is checked once more as it opens (its
 * request checked the access token, which outlives a sign-out by up to 15 minutes).
 */
export class OpenStreams {
  private readonly byUser = new Map<string, Set<Watched>>();
  private readonly pending = new Set<string>();
  private pendingAll = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly load: StreamAccessLoader,
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
   * organization, and the credential it was opened with (session or API token). `onContext` is
   * told the caller's context after each check the stream passes (a stream whose content follows
   * permissions).
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
      const watched: Watched = {
        userId: ctx.userId,
        epoch: credential.epoch,
        session: credential.session,
        tokenId: credential.tokenId,
        need,
        stream,
        onContext,
      };
      const set = this.byUser.get(ctx.userId) ?? new Set();
      set.add(watched);
      this.byUser.set(ctx.userId, set);
      const stopExpiry = this.endAtExpiry(watched, ctx.token?.expiresAt ?? null);
      // A change that arrived while the request was being checked may not be reflected in that check;
      // a session may have been signed out before its access token ran out.
      if (this.changes() !== credential.seenChanges || credential.session !== null) this.changed(ctx.userId);
      return () => {
        stopExpiry();
        this.forget(watched);
      };
    };
  }

  /** An auth_change notification: one user's id, or `*` (a role, an organization or a token changed: everyone). */
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

  /** A token's stream ends when the token expires, whether or not anything else changes. */
  private endAtExpiry(w: Watched, expiresAt: number | null): () => void {
    if (expiresAt === null) return () => undefined;
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = expiresAt - Date.now();
      timer = setTimeout(() => (left > MAX_TIMER_MS ? arm() : this.revoke(w, 'token')), Math.min(Math.max(left, 0), MAX_TIMER_MS));
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
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
    const watched = userIds.flatMap((id) => [...(this.byUser.get(id) ?? [])]);
    const tokenIds = [...new Set(watched.flatMap((w) => (w.tokenId ? [w.tokenId] : [])))];
    const sessions = [...new Set(watched.flatMap((w) => (w.session ? [w.session] : [])))];
    let loaded: Loaded;
    try {
      const [users, tokens, ended] = await Promise.all([this.load.users(userIds), this.load.tokens(tokenIds), this.load.endedSessions(sessions)]);
      loaded = { users, tokens, ended };
    } catch (err) {
      // Access that cannot be checked is not vouched for: the streams end without `revoked`, and
      // the clients' reconnections are checked like any request.
      this.log(err);
      for (const w of watched) this.end(w);
      return;
    }
    for (const w of watched) {
      const verdict = revocation(loaded, w);
      if ('reason' in verdict) this.revoke(w, verdict.reason);
      else w.onContext?.(verdict.ctx);
    }
  }

  private revoke(w: Watched, reason: StreamRevoked['reason']): void {
    const last: StreamRevoked = { reason, message: MESSAGES[reason] };
    w.stream.send(STREAM_REVOKED_EVENT, last);
    this.end(w);
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
