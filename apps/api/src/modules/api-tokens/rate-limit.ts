// Requests per second of API tokens (issue 48, decision 0197): a fixed one-second window per token and
// per organization, in this instance's memory. Samsara's defaults are 150 a second per token and 200
// per organization; ours are the same and configurable. The answer carries the IETF draft's headers
// (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy` names each quota and `RateLimit` says
// what is left of the one closest to running out; a refused request gets 429 with `Retry-After`.

export interface RateLimits {
  /** Requests a second one token may make (API_TOKEN_RATE_PER_SECOND). */
  perToken: number;
  /** Requests a second all of an organization's tokens together may make (API_ORG_RATE_PER_SECOND). */
  perOrganization: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Header name → value, for every answer (the 429 adds Retry-After). */
  headers: Record<string, string>;
}

interface Window {
  start: number;
  count: number;
}

const WINDOW_MS = 1000;

export class TokenRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly policy: string;

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.policy = `"token";q=${limits.perToken};w=1, "organization";q=${limits.perOrganization};w=1`;
  }

  /** Counts one request of the token; refused (not counted) when either quota of this second is spent. */
  take(tokenId: string, orgId: string): RateDecision {
    const now = this.clock();
    const start = now - (now % WINDOW_MS);
    const token = this.window(`t:${tokenId}`, start);
    const org = this.window(`o:${orgId}`, start);
    const reset = Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000));
    const allowed = token.count < this.limits.perToken && org.count < this.limits.perOrganization;
    if (allowed) {
      token.count++;
      org.count++;
    }
    const tokenLeft = Math.max(0, this.limits.perToken - token.count);
    const orgLeft = Math.max(0, this.limits.perOrganization - org.count);
    // The draft's RateLimit field names the quota closest to running out.
    const closest = orgLeft < tokenLeft ? `"organization";r=${orgLeft};t=${reset}` : `"token";r=${tokenLeft};t=${reset}`;
    const headers: Record<string, string> = { 'ratelimit-policy': this.policy, ratelimit: closest };
    if (!allowed) headers['retry-after'] = String(reset);
    return { allowed, headers };
  }

  private window(key: string, start: number): Window {
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      // Windows of keys not seen for a while go with the next new second's first request.
      if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (v.start < start) this.windows.delete(k);
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }
}
