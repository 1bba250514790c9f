import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

// What the server writes about requests (docs/decisions/0087): one line per request, when it ends,
// with the method, the path, the status, the time taken and the request id, and no credential
// anywhere: query parameters and path segments that carry one are redacted, headers are never
// logged, errors are logged without the values of their queries.

/** Query parameters whose values are credentials: stream tickets, tokens, keys, OsmAnd device ids. */
const SECRET_PARAM = /token|ticket|secret|passw|pwd|key|sig|auth|session|code|^id$|^deviceid$/i;
/** Paths with a credential as a segment: the e-mailed set-password link opens the web app at it. */
const SECRET_PATH = /^(\/create-new-password\/)[^/?#]+/i;
/** Paths polled thousands of times (device ingest) or every few seconds (load balancer probes): debug only. */
const CHATTY_PATH = /^(\/api\/v1\/ingest\/|\/healthz|\/readyz)/;
const MAX_URL = 1000;
export const REDACTED = '[redacted]';

/** `url` as it may be logged: credential-bearing query values and path segments replaced, length bounded. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q >= 0 ? url.slice(0, q) : url).replace(SECRET_PATH, `$1${REDACTED}`);
  let out = path;
  if (q >= 0) {
    const params = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq >= 0 ? pair.slice(0, eq) : pair;
        return SECRET_PARAM.test(safeDecode(name)) && eq >= 0 ? `${name}=${REDACTED}` : pair;
      });
    out = `${path}?${params.join('&')}`;
  }
  return out.length > MAX_URL ? `${out.slice(0, MAX_URL)}…` : out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const enabled = (log: FastifyBaseLogger, level: 'debug' | 'info') => (LEVELS[log.level] ?? Infinity) <= LEVELS[level]!;

/**
 * Fastify's request lines, replaced: none when a request comes in, one when its response ends,
 * including a hijacked one (the live stream, logged when it closes) and one the client abandoned.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    const level = CHATTY_PATH.test(request.url) ? 'debug' : 'info';
    // Cheap for ingest at info: no listener, no timer.
    if (!enabled(request.log, level)) return;
    const started = performance.now();
    reply.raw.once('close', () => {
      const line: Record<string, unknown> = {
        method: request.method,
        url: loggableUrl(request.url),
        statusCode: reply.raw.statusCode,
        responseTime: Math.round((performance.now() - started) * 10) / 10,
        ip: request.ip,
      };
      if (request.auth) line.userId = request.auth.userId;
      // A stream the browser closed, or a request abandoned before its answer was written.
      if (!reply.raw.writableFinished) line.closedByClient = true;
      request.log[level](line, 'request completed');
    });
  }

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply): void {
    // The line itself is written on 'close' (above); a failed write is worth its own line.
    if (error) reply.log.warn({ err: error }, 'response failed');
  }

  override streamError(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
    // A premature close is the request line's `closedByClient`.
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') reply.log.warn({ err: error }, 'response stream failed');
  }

  override routeNotFound(): void {
    // The not-found answer is the request's line.
  }
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** A logged error: type, message, stack, database codes and cause, never a failed query's parameter values. */
export function serializeError(err: Error, depth = 0): LoggedError {
  const e = err as Error & Record<string, unknown>;
  const out: LoggedError = { type: e.name, message: withoutParams(e.message), stack: withoutParams(e.stack ?? '') };
  for (const key of ['code', 'statusCode', 'constraint', 'table', 'column', 'severity']) if (e[key] !== undefined) out[key] = e[key];
  if (e.cause !== undefined && depth < 3) out.cause = e.cause instanceof Error ? serializeError(e.cause, depth + 1) : '[not an Error]';
  return out;
}

/** Drizzle's "Failed query: <sql>\nparams: <values>": the values may be anything a user sent. */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`);
}

/** Fastify's logger and request-log options. */
export function loggerOptions(level: string): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (level === 'silent') return { logger: false };
  return {
    logger: {
      level,
      serializers: {
        // Only what Fastify's own error lines need; headers (Authorization, Cookie) never.
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: loggableUrl(req.url ?? '') }),
        err: (err: Error) => serializeError(err),
      },
      // In case anything logs an object holding one of these anyway.
      redact: {
        paths: [
          'headers.authorization',
          'headers.cookie',
          'req.headers.authorization',
          'req.headers.cookie',
          'password',
          '*.password',
          'newPassword',
          '*.newPassword',
          'token',
          '*.token',
          'accessToken',
          '*.accessToken',
          'refreshToken',
          '*.refreshToken',
          'ticket',
          '*.ticket',
        ],
        censor: REDACTED,
      },
    },
    logController: new RequestLog(),
  };
}
