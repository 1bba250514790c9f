import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, computed once at start-up and stamped on every reply: @fastify/helmet
 * rebuilds the Content-Security-Policy string on each request, which cost ~4 % of the CPU of an
 * authenticated request in the auth/me benchmark.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, () => undefined);
  return headers;
}

export interface SecurityHeaderOptions {
  /** Content-Security-Policy directives, without upgrade-insecure-requests (added over HTTPS only). */
  directives: NonNullable<Exclude<HelmetOptions['contentSecurityPolicy'], boolean>>['directives'];
  /** Whether the browser reached this request over HTTPS (directly or through a trusted TLS proxy). */
  overHttps: (request: FastifyRequest) => boolean;
}

/**
 * Two header sets: over HTTPS, `upgrade-insecure-requests` and HSTS; over plain HTTP neither, because
 * a browser that opened http://<server-ip>:8080/ would then ask for every script over HTTPS and get
 * nothing (a blank page on a LAN install without a TLS proxy).
 */
export function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions): void {
  const plain = securityHeaders({
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: { useDefaults: true, directives: { ...opts.directives, upgradeInsecureRequests: null } },
    strictTransportSecurity: false,
  });
  const secure = securityHeaders({
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: { useDefaults: true, directives: { ...opts.directives, upgradeInsecureRequests: [] } },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  });
  app.addHook('onRequest', (request, reply, done) => {
    // Swagger UI sets its own CSP for its inline bootstrap script.
    if (!request.url.startsWith('/api/docs')) reply.headers(opts.overHttps(request) ? secure : plain);
    done();
  });
}
