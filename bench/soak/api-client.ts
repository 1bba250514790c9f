// The soak's calls to the API as the super administrator (setting up the organizations, the fault
// hook): JSON in and out, a new sign-in when the access token expired, a few tries while the server
// is restarting or the database is down.
import { setTimeout as sleep } from 'node:timers/promises';

export const SUPER_ADMIN = { email: 'superadmin@fleet.test', password: 'SuperAdmin#2026' };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ApiClient {
  private token: string | null = null;

  constructor(readonly baseUrl: string) {}

  private async signIn(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/api/v1/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(SUPER_ADMIN),
    });
    if (res.status !== 200) throw new ApiError(res.status, `sign-in as ${SUPER_ADMIN.email}: ${res.status} ${await res.text()}`);
    this.token = ((await res.json()) as { accessToken: string }).accessToken;
    return this.token;
  }

  /** One GET that must not wait or retry (a sample of the server's state): null on any failure. */
  async tryGet<T>(path: string, timeoutMs = 5000): Promise<T | null> {
    try {
      const token = this.token ?? (await this.signIn());
      const res = await fetch(`${this.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
      if (res.status === 401) this.token = null;
      return res.ok ? ((await res.json()) as T) : null;
    } catch {
      return null;
    }
  }

  /**
   * `method path` with a JSON body (or a text/csv one); the parsed answer. 5xx and connection errors
   * are tried again (5 tries, 1-5 s apart); any other non-2xx throws an ApiError.
   */
  async call<T>(method: string, path: string, body?: unknown, opts: { csv?: boolean } = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const token = this.token ?? (await this.signIn());
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (body !== undefined) headers['content-type'] = opts.csv ? 'text/csv' : 'application/json';
        const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : opts.csv ? String(body) : JSON.stringify(body),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await res.text();
        if (res.status === 401 && attempt < 5) {
          this.token = null;
          continue;
        }
        if (res.status >= 500 && attempt < 5) throw new ApiError(res.status, text);
        if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
        return (text ? JSON.parse(text) : undefined) as T;
      } catch (err) {
        const retriable = !(err instanceof ApiError) || err.status >= 500;
        if (!retriable || attempt >= 5) throw err;
        await sleep(1000 * attempt);
      }
    }
  }
}

/** Runs `fn` over `items`, at most `concurrency` at a time, in order of start. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
