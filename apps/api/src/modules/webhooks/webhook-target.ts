import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Dispatcher, Pool } from 'undici';
import type * as Undici from './undici-exports.ts';

// Where a webhook may be sent, and the one HTTP request of an attempt (issue 48, decision 0198). A
// subscription's URL is somebody else's input pointed at our network: https only (plain http where
// WEBHOOK_ALLOW_HTTP=1), the host's addresses resolved at connection time and refused when private,
// loopback, link-local or a cloud metadata address (unless WEBHOOK_ALLOW_PRIVATE=1), redirects never
// followed, at most RESPONSE_LIMIT bytes of the answer read, and the whole attempt bounded by a timeout.

/** Bytes of a receiver's answer read (and the first of them kept as the delivery's error text). */
export const RESPONSE_LIMIT = 4096;

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, and the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, with AWS's metadata fd00:ec2::254
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** True when the address is one a webhook may not reach without WEBHOOK_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d): the IPv4 address decides.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (embedded) return blocked.check(embedded, 'ipv4');
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const n = (parseInt(mappedHex[1]!, 16) << 16) | parseInt(mappedHex[2]!, 16);
    return blocked.check([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

export interface TargetRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Why a URL may not be a webhook's (null when it may): checked on save and again on every attempt. */
export function urlProblem(raw: string, rules: TargetRules): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'URL must be an absolute https URL';
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && rules.allowHttp))
    return rules.allowHttp ? 'URL must start with https:// or http://' : 'URL must start with https:// (plain http is not allowed on this server)';
  if (u.username || u.password) return 'URL must not hold a user name or password';
  // Without the final dot: `localhost.` is the fully qualified `localhost`, and resolves the same.
  const host = u.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (!rules.allowPrivate) {
    if (isIP(host) && isPrivateAddress(host)) return 'URL must not point at a private, loopback or link-local address';
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local'))
      return 'URL must not point at a local host name';
  }
  return null;
}

/** Resolves like the system does, then refuses private answers: checked where the socket connects, so a DNS answer cannot change after the check. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        const e = Object.assign(new Error(`${hostname} resolves to a private or local address only`), { code: 'EPRIVATE' });
        return callback(e, '', 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export interface AttemptResult {
  /** The answer's status; null when none came (refused, timeout, blocked address). */
  status: number | null;
  /** The first bytes of the answer, or what went wrong. */
  error: string | null;
  /** Seconds the receiver asked us to wait (429, 503 with Retry-After). */
  retryAfterS: number | null;
  durationMs: number;
  /** No complete answer within the timeout (or before the sender's round was cut): the subscription's leash shortens (decision 0230). */
  timedOut?: boolean;
}

/**
 * One keep-alive pool per receiver's origin (undici, issue 48): at 1,600 deliveries a second the
 * connection set-up and node:http's per-request cost were most of the sender's CPU. The guarded lookup
 * is the pool's connector's, so every new connection is checked where it connects. Bounded: the oldest
 * pool is closed (after its requests finish) when there are too many.
 */
const pools = new Map<string, Pool>();
const MAX_POOLS = 1000;

/**
 * undici, imported on the first delivery: a server without webhooks never loads it (0.7 MB of script
 * source V8 would keep for the life of the process, decision 0326).
 */
let undici: typeof Undici | null = null;
const loadUndici = async (): Promise<typeof Undici> => (undici ??= await import('./undici-exports.ts'));

function poolFor({ Pool }: typeof Undici, u: URL, allowPrivate: boolean, timeoutMs: number): Pool {
  const key = `${allowPrivate ? 'p' : 'g'}${timeoutMs}|${u.origin}`;
  let pool = pools.get(key);
  if (!pool) {
    if (pools.size >= MAX_POOLS) {
      const [oldKey, old] = pools.entries().next().value!;
      pools.delete(oldKey);
      void old.close().catch(() => undefined);
    }
    pool = new Pool(u.origin, {
      connections: 256,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { lookup: guardedLookup(allowPrivate), timeout: timeoutMs },
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes the keep-alive pools (tests, shutdown). */
export async function closeWebhookPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  targets.clear();
  await Promise.all(all.map((p) => p.close().catch(() => undefined)));
}

/** Retry-After as seconds (a number of seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A URL's check and parts, kept per URL and rules (the check is a function of both: the same every attempt), with its pool. */
interface Target {
  problem: string | null;
  u: URL | null;
  path: string;
  pool: Pool | null;
  /** The timeout `pool` was made with: a subscription on a shorter leash (decision 0230) uses another pool of the origin. */
  poolTimeoutMs: number;
}
const targets = new Map<string, Target>();
function parsedTarget(url: string, rules: TargetRules): Target {
  const key = `${rules.allowHttp ? 1 : 0}${rules.allowPrivate ? 1 : 0}${url}`;
  let t = targets.get(key);
  if (!t) {
    if (targets.size >= 10_000) targets.clear();
    const problem = urlProblem(url, rules);
    const u = problem ? null : new URL(url);
    t = { problem, u, path: u ? `${u.pathname}${u.search}` : '', pool: null, poolTimeoutMs: 0 };
    targets.set(key, t);
  }
  return t;
}

/**
 * Aborts every request under way at once: the sender's round, when its leases near their end. A set
 * of controllers, because an AbortSignal listener per request cost more than the rest of the request's
 * bookkeeping together (node's EventTarget).
 */
export class RequestCutter {
  private readonly live = new Set<Dispatcher.DispatchController>();
  cutAt: number | null = null;

  cut(): void {
    if (this.cutAt !== null) return;
    this.cutAt = performance.now();
    for (const c of this.live) c.abort(new Error('lease running out'));
    this.live.clear();
  }

  get cutDone(): boolean {
    return this.cutAt !== null;
  }

  /** Tracks a request's controller; false (and aborted) when the cut already happened. */
  add(c: Dispatcher.DispatchController): boolean {
    if (this.cutAt !== null) {
      c.abort(new Error('lease running out'));
      return false;
    }
    this.live.add(c);
    return true;
  }

  delete(c: Dispatcher.DispatchController | null): void {
    if (c) this.live.delete(c);
  }
}

/** What came back for one POST: the status, Retry-After, and the first RESPONSE_LIMIT bytes of a failure's body. */
interface Answer {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
}

/**
 * One POST through the pool's dispatcher (undici's lowest-level API): no response stream is built,
 * which was a fifth of the sender's JavaScript per delivery with `request()` (issue 48's ≤ 10 % of a
 * core at 1,667 deliveries a second). A success's body is read and dropped (so the connection is
 * kept) up to RESPONSE_LIMIT; past that the connection is closed and the answer still counts.
 */
function dispatchPost(pool: Pool, path: string, headers: string[], body: string | Buffer, cutter: RequestCutter): Promise<Answer> {
  return new Promise((resolve, reject) => pool.dispatch({ path, method: 'POST', headers, body }, new PostHandler(cutter, resolve, reject)));
}

/** One POST's answer as undici hands it over (a class: no closures made per request). */
class PostHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private retryAfter: string | string[] | undefined;
  private size = 0;
  private cutShort = false;
  private kept: Buffer[] | null = null;
  private controller: Dispatcher.DispatchController | null = null;

  constructor(
    private readonly cutter: RequestCutter,
    private readonly resolve: (a: Answer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    this.cutter.add(c);
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, responseHeaders: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.retryAfter = responseHeaders['retry-after'];
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.status < 200 || this.status >= 300) (this.kept ??= []).push(chunk.subarray(0, RESPONSE_LIMIT - this.size));
    this.size += chunk.length;
    if (this.size >= RESPONSE_LIMIT && !this.cutShort) {
      this.cutShort = true;
      c.abort(new Error('answer over the read limit'));
    }
  }

  onResponseEnd(): void {
    this.cutter.delete(this.controller);
    this.resolve(this.answer());
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.cutter.delete(this.controller);
    if (this.cutShort) this.resolve(this.answer());
    else this.reject(err);
  }

  private answer(): Answer {
    return { status: this.status, retryAfter: this.retryAfter, text: this.kept ? Buffer.concat(this.kept).toString('utf8').slice(0, 500) : '' };
  }
}

/** A delivery's request headers as the flat list `postWebhook` takes. */
export function webhookHeaders(id: string, timestampS: number, signature: string): string[] {
  return [
    'content-type',
    'application/json',
    'user-agent',
    'Fleetline-Webhooks/1.0',
    'webhook-id',
    id,
    'webhook-timestamp',
    String(timestampS),
    'webhook-signature',
    signature,
  ];
}

/**
 * POSTs one delivery: no redirect followed (a 3xx is a failure), the answer read up to RESPONSE_LIMIT.
 * `headers` is the whole flat [name, value, …] list (see `webhookHeaders`). The pool bounds the wait for the answer's head and
 * between its chunks by the timeout; the caller's cutter (the sender's: its lease running out) bounds
 * everything else, and without one a timer does. An answer complete only after the timeout is a
 * failure whatever it says.
 */
export async function postWebhook(
  url: string,
  headers: string[],
  body: string | Buffer,
  opts: TargetRules & { timeoutMs: number; cutter?: RequestCutter },
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  const target = parsedTarget(url, opts);
  if (target.problem || !target.u) return done({ status: null, error: target.problem ?? 'URL must be an absolute https URL', retryAfterS: null });
  if (!target.pool || target.pool.closed || target.pool.destroyed || target.poolTimeoutMs !== opts.timeoutMs) {
    target.pool = poolFor(undici ?? (await loadUndici()), target.u, opts.allowPrivate, opts.timeoutMs);
    target.poolTimeoutMs = opts.timeoutMs;
  }
  const cutter = opts.cutter ?? new RequestCutter();
  const timer = opts.cutter ? null : setTimeout(() => cutter.cut(), opts.timeoutMs);
  const late = () => performance.now() - started > opts.timeoutMs;
  try {
    const { status, retryAfter, text } = await dispatchPost(target.pool, target.path, headers, body, cutter);
    const retryAfterS = retryAfterSeconds(retryAfter);
    if (status >= 200 && status < 300) {
      if (late())
        return done({
          status: null,
          error: `No complete answer within ${opts.timeoutMs / 1000} s (HTTP ${status} came later)`,
          retryAfterS: null,
          timedOut: true,
        });
      return done({ status, error: null, retryAfterS });
    }
    return done({
      status,
      error: `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}${text ? `: ${text}` : ''}`,
      retryAfterS,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const name = (e as { code?: string }).code;
    if (cutter.cutDone || late() || name === 'UND_ERR_HEADERS_TIMEOUT' || name === 'UND_ERR_BODY_TIMEOUT' || name === 'UND_ERR_CONNECT_TIMEOUT')
      return done({ status: null, error: `No complete answer within ${opts.timeoutMs / 1000} s`, retryAfterS: null, timedOut: true });
    const cause = (e.cause ?? e) as NodeJS.ErrnoException;
    if (cause.code === 'EPRIVATE') return done({ status: null, error: cause.message, retryAfterS: null });
    return done({ status: null, error: `${cause.code ?? e.code ?? 'Error'}: ${cause.message || e.message}`, retryAfterS: null });
  } finally {
    if (timer) clearTimeout(timer);
  }
}
