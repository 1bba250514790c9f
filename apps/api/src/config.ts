import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAP_STYLE_URL } from '@fleet/api-contract';

/**
 * The embedded database's buffer pool (PGLITE_SHARED_BUFFERS). 4 MB: at 2 MB the bench's 1,000
 * devices cost 18 % more CPU a position (pages read back through the file system), at 4 MB within
 * the noise of 8 MB, which kept 4 MB more of an idle demo server resident (decision 0161).
 */
export const PGLITE_SHARED_BUFFERS = '4MB';

/** FMCSA's ELD web service (the WSDL's soap12:address). */
export const ELD_TRANSFER_DEFAULT_URL = 'https://eldws.fmcsa.dot.gov/ELDSubmissionService.svc';
/** FMCSA's address for ELD output files sent by e-mail (4.10.1.2). */
export const ELD_FMCSA_DEFAULT_EMAIL = 'fmcsaeldsub@dot.gov';

const bool = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === '1' || v === 'true'));

/** Every environment variable the server reads. The README's configuration table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  // Three connections stay on LISTEN (auth, live map, notifications): at least two more for queries.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(5).max(200).optional(),
  INGEST_WRITERS: z.coerce.number().int().min(1).max(8).default(1),
  LIST_INDEX_ROWS: z.coerce.number().int().min(0).default(100_000),
  AUTH_CACHE_USERS: z.coerce.number().int().min(1).default(10_000),
  DEVICE_CACHE_ENTRIES: z.coerce.number().int().min(1).default(50_000),
  HOS_AUTO_DUTY: bool,
  IFTA_MILES: bool,
  IFTA_ROUND_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  FLEET_STATS: bool,
  TRIPS_STOPS: bool,
  LIVE_ETAS: bool,
  HOS_EVENT_CACHE_EVENTS: z.coerce.number().int().min(0).default(600_000),
  // Where the embedded database runs: its own worker thread (default) or the API's thread (decision 0170).
  PGLITE_THREAD: z.enum(['worker', 'main']).default('worker'),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 8MB')
    .default(PGLITE_SHARED_BUFFERS),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  PUBLIC_URL: z.string().url().optional(),
  CORS_ORIGIN: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Fleetline <no-reply@fleetline.local>'),
  ROUTING_URL: z.union([z.literal(''), z.string().url('must be a URL such as http://osrm:5000')]).optional(),
  SUPERADMIN_EMAIL: z.email().default('superadmin@fleet.test'),
  SUPERADMIN_PASSWORD: z.string().min(8).default('SuperAdmin#2026'),
  DEMO: bool,
  DEMO_ADMIN_EMAIL: z.email().default('admin@demofreight.test'),
  DEMO_ADMIN_PASSWORD: z.string().min(8).default('DemoAdmin#2026'),
  DEMO_DISPATCHER_EMAIL: z.email().default('dispatcher@demofreight.test'),
  DEMO_DISPATCHER_PASSWORD: z.string().min(8).default('Dispatch#2026'),
  DEMO_DRIVER_EMAIL: z.email().default('driver@demofreight.test'),
  DEMO_DRIVER_PASSWORD: z.string().min(8).default('Driver#2026'),
  ELD_REGISTRATION_ID: z
    .string()
    .regex(/^[A-Z0-9]{4}$/, 'must be 4 characters A-Z or 0-9 (the FMCSA ELD registration id)')
    .default('FLT0'),
  ELD_IDENTIFIER: z
    .string()
    .regex(/^[A-Z0-9]{6}$/, 'must be 6 characters A-Z or 0-9 (the ELD identifier)')
    .default('FLTLN1'),
  // FMCSA data transfer (49 CFR 395 Appendix A 4.10.1, decision 0185): the web service and the e-mail path.
  ELD_TRANSFER_URL: z.url({ protocol: /^https$/, error: 'must be the https URL of the ELD web service' }).default(ELD_TRANSFER_DEFAULT_URL),
  ELD_CLIENT_CERT: z.string().optional(),
  ELD_CLIENT_KEY: z.string().optional(),
  ELD_CLIENT_PFX: z.string().optional(),
  ELD_CLIENT_PFX_PASSWORD: z.string().optional(),
  ELD_TRANSFER_CA: z.string().optional(),
  ELD_TRANSFER_TEST: bool,
  ELD_FMCSA_CERT: z.string().optional(),
  ELD_FMCSA_EMAIL: z.email().default(ELD_FMCSA_DEFAULT_EMAIL),
  ELD_TRANSFER_FROM: z.string().optional(),
  SIMULATOR: bool,
  OSMAND_PORT: z.coerce.number().int().min(0).max(65535).default(5055),
  TELTONIKA_PORT: z.coerce.number().int().min(0).max(65535).default(5027),
  MAP_STYLE_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL of a MapLibre style' })]).optional(),
  WEB_DIST: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  IMAGE_LIMIT_BYTES: z.coerce.number().int().min(1024).default(2_097_152),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool,
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  // The soak's fault hook (POST /admin/diagnostics/faults/…): off unless set, whatever NODE_ENV.
  FAULT_INJECTION: bool,
  // Integrations (issue 48, decisions 0197 and 0198).
  API_TOKEN_RATE_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(150),
  API_ORG_RATE_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(200),
  WEBHOOK_ALLOW_HTTP: bool,
  WEBHOOK_ALLOW_PRIVATE: bool,
  WEBHOOK_SENDER: bool,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WEBHOOK_IDLE_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(30_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(100),
  WEBHOOK_MAX_PER_ORG: z.coerce.number().int().min(1).max(10_000).default(50),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections per instance; unset: 10, or 40 on a Citus coordinator (db/client.ts, docs/deploy.md 7.4). */
  databasePoolSize: number | null;
  /** Group-commit writers for device positions on a PostgreSQL server (docs/decisions/0072); PGlite always has one. */
  ingestWriters: number;
  /** Registry list rows kept indexed in memory, all organizations together (docs/decisions/0083); 0 turns the index off. */
  listIndexRows: number;
  /** Users whose permissions and current-user object each instance keeps in memory. */
  authCacheUsers: number;
  /** Devices (by unique id and by token) ingest keeps resolved in memory. */
  deviceCacheEntries: number;
  /** Automatic duty status from vehicle positions (decision 0095); off only to measure ingest without it. */
  hosAutoDuty: boolean;
  /** IFTA miles per vehicle, jurisdiction and day kept behind ingest (decision 0121); off only to measure ingest without it. */
  iftaMiles: boolean;
  /** Pause between passes of IFTA miles rounds: how long a vehicle's fixes gather before they are counted (decision 0136). */
  iftaRoundMs: number;
  /** Daily vehicle statistics and the notification checks behind ingest (decisions 0130, 0131); off only to measure ingest without them. */
  fleetStats: boolean;
  /** Trips and stops kept behind ingest (decision 0163); off only to measure ingest and start-up without them. */
  tripsStops: boolean;
  /** Live ETAs of running loads kept behind ingest (decision 0167); off only to measure ingest without them. */
  liveEtas: boolean;
  /** Drivers' duty events each instance keeps in memory for the fleet-wide HoS reads (docs/decisions/0098). */
  hosEventCacheEvents: number;
  /** The embedded database's buffer pool; all of it is resident (docs/decisions/0089). */
  pgliteSharedBuffers: string;
  pgliteThread: 'worker' | 'main';
  /** Undefined outside production: a random secret is kept per database (see auth/secret.ts). */
  jwtSecret: string | undefined;
  publicUrl: string;
  corsOrigin: string[] | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** A routing service with the OSRM HTTP API for trip plans (issue 33, decision 0167); unset: the built-in road network ("estimated"). */
  routingUrl: string | undefined;
  superAdmin: { email: string; password: string };
  demo: boolean;
  demoAdmin: { email: string; password: string };
  demoDispatcher: { email: string; password: string };
  /** The demo driver's sign-in (the driver of tractor 101, decision 0111). */
  demoDriver: { email: string; password: string };
  /** The ELD registration id and identifier written in ELD output files (Appendix A 7.15, 7.17). */
  eldRegistrationId: string;
  eldIdentifier: string;
  /** FMCSA data transfer (decision 0185). */
  eldTransfer: EldTransferConfig;
  simulator: boolean;
  /** Port of the OsmAnd device protocol (any path); 0 turns it off. */
  osmandPort: number;
  /** Port of Teltonika's TCP protocol (codec 8 and 8 Extended, decision 0153); 0 turns it off. */
  teltonikaPort: number;
  /** MapLibre style of the map's Streets base map, handed to the web app at run time (GET /web-config). */
  mapStyleUrl: string;
  webDist: string | undefined;
  bodyLimit: number;
  imageLimit: number;
  logLevel: string;
  trustProxy: boolean;
  /**
   * On SIGTERM, how long the instance keeps serving while /readyz answers 503, so a load balancer
   * that polls it stops sending new work before the listeners close.
   */
  shutdownDrainMs: number;
  /** After the drain, how long closing may take (in-flight requests, streams, ingest flush) before the process exits 1. */
  shutdownTimeoutMs: number;
  /** Registers POST /admin/diagnostics/faults/{fault} (the soak kills and stalls the database through it); never on by default. */
  faultInjection: boolean;
  /** Requests a second per API token and per organization's tokens, per instance (decision 0197). */
  apiTokenRate: { perToken: number; perOrganization: number };
  webhooks: WebhookConfig;
}

/** The webhook sender (decision 0198). */
export interface WebhookConfig {
  /** Plain http receivers allowed (WEBHOOK_ALLOW_HTTP); otherwise https only. */
  allowHttp: boolean;
  /** Private, loopback, link-local and metadata addresses allowed (WEBHOOK_ALLOW_PRIVATE: tests, a LAN TMS). */
  allowPrivate: boolean;
  /** This instance sends deliveries (WEBHOOK_SENDER=0 leaves it to the others). */
  sender: boolean;
  /** An attempt without a complete answer by then has failed. */
  timeoutMs: number;
  /** Multiplies the retry schedule and the 5 days before a failing subscription is turned off (tests, the bench). */
  retryScale: number;
  /** How often the outbox is looked at without a notification (a missed one, a retry coming due). */
  pollMs: number;
  /**
   * The same when nothing at all is pending and commits' notifications reach the sender (a LISTEN
   * that is up): a safety net only, since every commit that queues a delivery wakes it.
   */
  idlePollMs: number;
  /** Deliveries (one per subscription at a time) sent at once: the sender's slots, shared fairly between organizations (decision 0230). */
  concurrency: number;
  /** The most subscriptions one organization may have (WEBHOOK_MAX_PER_ORG); a create past it is refused. */
  maxPerOrg: number;
}

/** The ELD's identity in the header (7.14-7.17): from the configuration (app.eld, decision 0116), and the key of its authentication value. */
export interface EldIdentity {
  registrationId: string;
  identifier: string;
  /** HMAC key: the authentication value signs the driver, the ELD and the time of the file. */
  authKey: Buffer;
}

/**
 * The two FMCSA paths of 4.10.1 (decision 0185). Paths name PEM or PKCS #12 files, read when a send or
 * check needs them (a renewed certificate takes effect without a restart); empty variables count as unset.
 */
export interface EldTransferConfig {
  /** The web service's endpoint (FMCSA's, or a stand-in for a test). */
  url: string;
  /** The provider's registered client certificate and key (PEM files), or both in a PKCS #12 file. */
  clientCert: string | undefined;
  clientKey: string | undefined;
  pfx: string | undefined;
  pfxPassword: string | undefined;
  /** Extra certificate authorities (PEM file) trusted for the service's own certificate: a test stand-in's. */
  ca: string | undefined;
  /** Every send is a test submission (not passed to inspectors) until an operator sets 0. */
  test: boolean;
  /** FMCSA's public ELD certificate (PEM file) the e-mail is encrypted to. */
  fmcsaCert: string | undefined;
  fmcsaEmail: string;
  /** The From address of the e-mail: FMCSA answers there. */
  from: string;
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  // Production must not sign tokens with a secret that only lives in a data directory.
  if (production && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const defaultDist = path.resolve(import.meta.dirname, '../../web/dist');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? null,
    ingestWriters: e.INGEST_WRITERS,
    listIndexRows: e.LIST_INDEX_ROWS,
    authCacheUsers: e.AUTH_CACHE_USERS,
    deviceCacheEntries: e.DEVICE_CACHE_ENTRIES,
    hosAutoDuty: e.HOS_AUTO_DUTY ?? true,
    iftaMiles: e.IFTA_MILES ?? true,
    iftaRoundMs: e.IFTA_ROUND_MS,
    fleetStats: e.FLEET_STATS ?? true,
    tripsStops: e.TRIPS_STOPS ?? true,
    liveEtas: e.LIVE_ETAS ?? true,
    hosEventCacheEvents: e.HOS_EVENT_CACHE_EVENTS,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    pgliteThread: e.PGLITE_THREAD,
    jwtSecret: e.JWT_SECRET,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    corsOrigin: e.CORS_ORIGIN
      ? e.CORS_ORIGIN.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    routingUrl: e.ROUTING_URL || undefined,
    superAdmin: { email: e.SUPERADMIN_EMAIL.toLowerCase(), password: e.SUPERADMIN_PASSWORD },
    demo: e.DEMO ?? !production,
    demoAdmin: { email: e.DEMO_ADMIN_EMAIL.toLowerCase(), password: e.DEMO_ADMIN_PASSWORD },
    demoDispatcher: { email: e.DEMO_DISPATCHER_EMAIL.toLowerCase(), password: e.DEMO_DISPATCHER_PASSWORD },
    demoDriver: { email: e.DEMO_DRIVER_EMAIL.toLowerCase(), password: e.DEMO_DRIVER_PASSWORD },
    eldRegistrationId: e.ELD_REGISTRATION_ID,
    eldIdentifier: e.ELD_IDENTIFIER,
    eldTransfer: {
      url: e.ELD_TRANSFER_URL,
      clientCert: e.ELD_CLIENT_CERT || undefined,
      clientKey: e.ELD_CLIENT_KEY || undefined,
      pfx: e.ELD_CLIENT_PFX || undefined,
      pfxPassword: e.ELD_CLIENT_PFX_PASSWORD || undefined,
      ca: e.ELD_TRANSFER_CA || undefined,
      test: e.ELD_TRANSFER_TEST ?? true,
      fmcsaCert: e.ELD_FMCSA_CERT || undefined,
      fmcsaEmail: e.ELD_FMCSA_EMAIL,
      from: e.ELD_TRANSFER_FROM || e.MAIL_FROM,
    },
    simulator: e.SIMULATOR ?? e.DEMO ?? !production,
    osmandPort: e.OSMAND_PORT,
    teltonikaPort: e.TELTONIKA_PORT,
    mapStyleUrl: e.MAP_STYLE_URL || DEFAULT_MAP_STYLE_URL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : defaultDist,
    bodyLimit: e.BODY_LIMIT_BYTES,
    imageLimit: e.IMAGE_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY ?? false,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    faultInjection: e.FAULT_INJECTION ?? false,
    apiTokenRate: { perToken: e.API_TOKEN_RATE_PER_SECOND, perOrganization: e.API_ORG_RATE_PER_SECOND },
    webhooks: {
      allowHttp: e.WEBHOOK_ALLOW_HTTP ?? false,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE ?? false,
      sender: e.WEBHOOK_SENDER ?? true,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryScale: e.WEBHOOK_RETRY_SCALE,
      pollMs: e.WEBHOOK_POLL_MS,
      idlePollMs: e.WEBHOOK_IDLE_POLL_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      maxPerOrg: e.WEBHOOK_MAX_PER_ORG,
    },
  };
}

/** A config for tests: in-memory database, quiet logs, no demo data unless asked. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', DEMO: '0', SIMULATOR: '0', LOG_LEVEL: 'silent', PORT: '0' }),
    webDist: undefined,
    ...overrides,
  };
}
