import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { closeIdleWhileClosing } from './lib/close-idle.ts';
import { enableListIndex } from './list-index/list-index.ts';
import { openDatabase, type Database } from './db/client.ts';
import { accessTokens, resolveJwtSecret } from './modules/auth/jwt.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { authPlugin } from './modules/auth/auth.plugin.ts';
import { loggerOptions } from './plugins/request-log.ts';
import { installSecurityHeaders } from './plugins/security-headers.ts';
import { eventsCacheOfDb } from './modules/hos/hos.events-cache.ts';
import { AuthCache } from './modules/auth/auth-cache.ts';
import { loadAuthContexts } from './modules/auth/auth-context.ts';
import { OpenStreams } from './modules/auth/open-streams.ts';
import { endedSessions } from './modules/auth/sessions.ts';
import { errorBody, frameworkError, installErrorHandler } from './plugins/errors.ts';
import { validatorWithInputRules } from './http/validator.ts';
import { installUtf8Json } from './http/utf8-body.ts';
import './plugins/types.ts';
import authRoutes from './modules/auth/auth.routes.ts';
import { apiHealthRoutes, probeRoutes } from './modules/health/health.routes.ts';
import { StartupProgress } from './modules/health/startup-progress.ts';
import imagesRoutes from './modules/images/images.routes.ts';
import { setImageLinkSecret } from './modules/images/index.ts';
import settingsRoutes from './modules/settings/settings.routes.ts';
import usersRoutes from './modules/users/users.routes.ts';
import organizationsRoutes from './modules/organizations/organizations.routes.ts';
import rolesRoutes from './modules/roles/roles.routes.ts';
import activityLogRoutes from './modules/activity-log/activity-log.routes.ts';
import dataRetentionRoutes from './modules/data-retention/data-retention.routes.ts';
import assetsRoutes from './modules/assets/assets.routes.ts';
import deviceModelsRoutes from './modules/device-models/device-models.routes.ts';
import driversRoutes from './modules/drivers/drivers.routes.ts';
import gatewaysRoutes from './modules/gateways/gateways.routes.ts';
import groupsRoutes from './modules/groups/groups.routes.ts';
import maintenanceRoutes from './modules/maintenance/maintenance.routes.ts';
import { engineFaultsRoutes, type EngineFaults } from './modules/engine-faults/index.ts';
import placesRoutes from './modules/places/places.routes.ts';
import { safetyRoutes, type SafetyEvents } from './modules/safety/index.ts';
import { loadsRoutes } from './modules/loads/index.ts';
import { messagesRoutes, ownConversation } from './modules/messages/index.ts';
import revenueRoutes from './modules/analytics/revenue.routes.ts';
import type { PlaceVisits } from './modules/places/place-visits.service.ts';
import registryCsvRoutes from './modules/registry-csv/registry-csv.routes.ts';
import referenceListsRoutes from './modules/settings/reference-lists.routes.ts';
import terminalsRoutes from './modules/settings/terminals.routes.ts';
import ingestRoutes from './modules/positions/ingest.routes.ts';
import { createIngest, type Ingest } from './modules/positions/pipeline/ingest.service.ts';
import { watchIngestHealth } from './modules/positions/ingest-alerts.ts';
import { RefusedFixes } from './modules/positions/refused-fixes.ts';
import { startFollowers } from './modules/positions/pipeline/follower.ts';
import { FOLLOWERS } from './modules/positions/pipeline/followers.ts';
import type { AutoDuty } from './modules/hos/auto-duty/auto-duty.service.ts';
import type { EngineEvents } from './modules/hos/engine-events/engine-events.service.ts';
import historyRoutes from './modules/positions/history.routes.ts';
import liveRoutes from './modules/positions/live.routes.ts';
import { LiveHub } from './modules/positions/live.service.ts';
import { ensurePositionPartitions, schedulePartitionMaintenance } from './modules/positions/partitions.ts';
import webConfigRoutes from './modules/web-config/web-config.routes.ts';
import diagnosticsRoutes from './modules/diagnostics/diagnostics.routes.ts';
import faultsRoutes from './modules/diagnostics/faults.routes.ts';
import hosRoutes from './modules/hos/hos.routes.ts';
import hosDriverRoutes from './modules/hos/hos-driver.routes.ts';
import eldTransferRoutes from './modules/eld-transfer/eld-transfer.routes.ts';
import { eldTransferDeps } from './modules/eld-transfer/eld-transfer.deps.ts';
import type { EldTransferDeps } from './modules/eld-transfer/eld-transfer.service.ts';
import iftaRoutes from './modules/ifta/ifta.routes.ts';
import type { IftaMiles } from './modules/ifta/ifta-miles.service.ts';
import type { FleetStats } from './modules/fleet-stats/fleet-stats.service.ts';
import type { TripsStops } from './modules/reports/trips-stops.service.ts';
import type { FleetWatch } from './jobs/fleet-watch.ts';
import { NotificationHub } from './modules/notifications/notifications.hub.ts';
import notificationsRoutes from './modules/notifications/notifications.routes.ts';
import fleetGlanceRoutes from './modules/dashboard/fleet-glance.routes.ts';
import reportsRoutes from './modules/reports/reports.routes.ts';
import reportSubscriptionsRoutes from './modules/reports/report-subscriptions.routes.ts';
import dispatchRoutes from './modules/dispatch/dispatch.routes.ts';
import apiTokensRoutes from './modules/api-tokens/api-tokens.routes.ts';
import { ApiTokenAuth } from './modules/api-tokens/api-token-auth.ts';
import { TokenUse, apiTokenKey, loadTokenContexts } from './modules/api-tokens/api-tokens.service.ts';
import { TokenRateLimiter } from './modules/api-tokens/rate-limit.ts';
import webhooksRoutes from './modules/webhooks/webhooks.routes.ts';
import { openapiWebhooks } from './modules/webhooks/openapi-webhooks.ts';
import { WebhookSender } from './modules/webhooks/webhook-sender.ts';

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    ingest: Ingest;
    autoDuty: AutoDuty;
    /** Engine power-up and shut-down records behind ingest (decision 0155). */
    engineEvents: EngineEvents;
    /** Engine fault codes behind ingest (decision 0191). */
    engineFaults: EngineFaults;
    iftaMiles: IftaMiles;
    /** Arrivals and departures at places behind ingest (decision 0162). */
    placeVisits: PlaceVisits;
    /** Harsh driving, speeding, idling and crashes behind ingest (decision 0194). */
    safetyEvents: SafetyEvents;
    /** This instance's live-map fan-out (the map benchmark publishes through it). */
    liveHub: LiveHub;
    /** Set when shutdown begins: /readyz answers 503 so load balancers move traffic elsewhere. */
    draining: boolean;
    /** Seeding after listen (main.ts): /readyz answers 503 with its progress until it is done. */
    startup: StartupProgress;
    /** Vehicle daily statistics kept behind ingest (decision 0131). */
    fleetStats: FleetStats;
    /** Trips and stops behind ingest (decision 0163). */
    tripsStops: TripsStops;
    /** Notification detectors behind ingest and on the clock (decision 0130); main.ts starts its clock. */
    fleetWatch: FleetWatch;
    notificationHub: NotificationHub;
    /** The roadside transfer to FMCSA: configuration, clients and mail (decision 0185). */
    eldTransfer: EldTransferDeps;
    /** This instance's webhook sender (decision 0198); started unless WEBHOOK_SENDER=0. */
    webhookSender: WebhookSender;
  }
}

export interface BuildOptions {
  config: Config;
  /** An already open database (tests share one per file); otherwise opened from config. */
  database?: Database;
  mailer?: Mailer;
}

/** Builds the whole server: plugins, the API under /api/v1, docs, and the web app. Tests call this. */
export async function buildApp({ config, database, mailer }: BuildOptions): Promise<FastifyInstance> {
  const production = config.env === 'production';
  const app = Fastify({
    // One line per request without credentials; device ingest and probes at debug (decision 0087).
    ...loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorWithInputRules);
  installUtf8Json(app);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app, production);

  const db =
    database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize ?? undefined, sharedBuffers: config.pgliteSharedBuffers, pgliteThread: config.pgliteThread }));
  const ownsDatabase = !database;
  app.decorate('config', config);
  app.decorate('draining', false);
  app.decorate('startup', new StartupProgress());
  app.decorate('database', db);
  app.decorate('db', db.db);
  // Registry lists served from an in-memory index checked against list_versions (decision 0083).
  enableListIndex(db.db, config.listIndexRows);
  const jwtSecret = await resolveJwtSecret(db.db, config.jwtSecret);
  app.decorate('tokens', accessTokens(jwtSecret));
  // Image links are signed with a key derived from the same secret, so every instance accepts them (decision 0175).
  setImageLinkSecret(jwtSecret);
  // The ELD output file's authentication value is signed with a key of its own, derived from the secret.
  app.decorate('eld', { registrationId: config.eldRegistrationId, identifier: config.eldIdentifier, authKey: createHmac('sha256', jwtSecret).update('eld-output-file').digest() });
  app.decorate('mailer', mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: app.log }));
  app.decorate('eldTransfer', eldTransferDeps(config, app.eld, app.mailer));
  const authCache = new AuthCache(config.authCacheUsers);
  eventsCacheOfDb(db.db, config.hosEventCacheEvents);
  app.decorate('authCache', authCache);
  // Open streams (live map, notifications) end when their user's access does, on every instance.
  const openStreams = new OpenStreams(
    { users: (ids) => loadAuthContexts(db.db, ids), tokens: (ids) => loadTokenContexts(db.db, ids), endedSessions: (ids) => endedSessions(db.db, ids) },
    () => authCache.changes,
    (err) => app.log.error(err, 'open streams check failed'),
  );
  app.decorate('openStreams', openStreams);
  const onAuthChange = (payload: string) => {
    authCache.invalidate(payload);
    openStreams.changed(payload);
  };
  // A lost LISTEN connection may have missed changes: everything cached is dropped, and every open stream checked, when it is back.
  const authListener = await db.listen('auth_change', onAuthChange, () => onAuthChange('*'));
  authCache.syncWith(() => authListener.sync());
  // API tokens (issue 48, decision 0197): hashed under a key of the server secret, cached like users.
  const tokenKey = apiTokenKey(jwtSecret);
  app.decorate('apiTokenKey', tokenKey);
  const tokenUse = new TokenUse(db.db, (err) => app.log.error(err, 'API token last use failed'));
  app.decorate('apiTokenAuth', new ApiTokenAuth(db.db, tokenKey, authCache, new TokenRateLimiter(config.apiTokenRate), tokenUse));
  // The position pipeline (modules/positions/pipeline): decode -> check -> group commit, and the
  // followers of a commit (automatic duty status, notification checks, daily statistics, IFTA
  // miles) behind it, listed once in followers.ts. Each follower's object is decorated under its
  // name. Device ingest is shared with the OsmAnd port that main.ts opens.
  const followers = startFollowers(FOLLOWERS, {
    database: db,
    config,
    onError: (what) => (err) => app.log.error(err, `${what} failed`),
    info: (message) => app.log.info(message),
  });
  // PGlite is one connection in this process: a second writer would only queue behind the first.
  const ingest = createIngest(db.db, {
    writers: db.kind === 'pglite' ? 1 : config.ingestWriters,
    deviceCacheEntries: config.deviceCacheEntries,
    followers: followers.following,
    refusedFixes: new RefusedFixes(db.db, { onError: (err, what) => app.log.error(err, `${what} failed`) }),
    logError: (err, message) => app.log.error(err, message),
  });
  // Organizations whose positions fail to store for a minute: their administrators are told.
  const stopIngestAlerts = watchIngestHealth(ingest.health, db.db, (err) => app.log.error(err, 'ingest health notification failed'));
  app.decorate('ingest', ingest);
  for (const [name, it] of Object.entries(followers.byName) as Array<[string, unknown]>) app.decorate(name, it);
  await ensurePositionPartitions(db.db);
  const stopPartitions = schedulePartitionMaintenance(db.db, (err) => app.log.error(err, 'positions partition maintenance failed'));
  const liveHub = new LiveHub(db, (err) => app.log.error(err, 'live map fan-out failed'));
  await liveHub.start();
  app.decorate('liveHub', liveHub);
  const notificationHub = new NotificationHub(db, app.mailer, config.publicUrl, (err) => app.log.error(err, 'notifications fan-out failed'));
  await notificationHub.start();
  app.decorate('notificationHub', notificationHub);
  // Webhooks (issue 48, decision 0198): the outbox's sender, woken by commits on any instance.
  const webhookSender = new WebhookSender(db.db, config.webhooks, (err, what) => app.log.error(err, `${what} failed`));
  app.decorate('webhookSender', webhookSender);
  notificationHub.onWebhookOutbox = () => webhookSender.kick();
  // The hub listens (start() above resolved): commits wake the sender, so an empty outbox is looked
  // at every WEBHOOK_IDLE_POLL_MS instead of every WEBHOOK_POLL_MS.
  webhookSender.wakesOnCommit = true;
  if (config.webhooks.sender) webhookSender.start();
  // Open SSE streams end before the server waits for connections to finish, and connections are
  // closed as they fall idle (an ended stream's, a finished request's), so close() cannot hang.
  let stopClosingIdle = () => {};
  app.addHook('preClose', async () => {
    stopClosingIdle = closeIdleWhileClosing(app.server);
    await liveHub.stop();
    await notificationHub.stop();
    await webhookSender.stop();
  });
  app.addHook('onClose', async () => {
    stopClosingIdle();
    stopPartitions();
    stopIngestAlerts();
    // The group commit flushes, then each follower works what it holds.
    await ingest.close();
    await authListener.stop();
    if (ownsDatabase) await db.close();
  });

  // The configured map style may live on a plain-http host (a carrier's own tile server on its LAN).
  const mapOrigin = new URL(config.mapStyleUrl).origin;
  const httpsEverywhere = config.publicUrl.startsWith('https:');
  installSecurityHeaders(app, {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine injects CSS variables at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Map tiles, glyphs and sprites come from the configured style's hosts.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', mapOrigin],
      connectSrc: ["'self'", 'https:', mapOrigin],
      workerSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:', 'https:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
    // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is set.
    overHttps: (request) => httpsEverywhere || request.protocol === 'https',
  });
  // Closed unless CORS_ORIGIN names the allowed origins.
  await app.register(cors, { origin: config.corsOrigin ?? false, credentials: false });
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({ ...errorBody(429, 'Too many requests, slow down and try again shortly'), statusCode: 429, after: ctx.after }),
  });
  await app.register(multipart, { limits: { fileSize: config.imageLimit, files: 1 } });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Fleetline API', description: 'Fleet management and hours-of-service API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session access token (JWT) from sign-in' },
          // Listed only on the routes open to API tokens (config.tokens, decision 0226).
          apiToken: { type: 'http', scheme: 'bearer', description: 'An API token (fltk_…) of the organization: accepted only where an operation lists it' },
        },
      },
      // Each webhook event type's body (issue 48).
      webhooks: openapiWebhooks(),
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas registered with an id (JsonValue) become components the routes' $refs point to.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      await api.register(authPlugin);
      await api.register(apiHealthRoutes);
      await api.register(webConfigRoutes);
      await api.register(authRoutes);
      await api.register(usersRoutes);
      await api.register(imagesRoutes);
      await api.register(settingsRoutes);
      await api.register(organizationsRoutes);
      await api.register(rolesRoutes);
      await api.register(activityLogRoutes);
      await api.register(dataRetentionRoutes);
      // Fleet registry (issue 5) and groups (issue 6).
      await api.register(referenceListsRoutes);
      await api.register(deviceModelsRoutes);
      await api.register(assetsRoutes);
      await api.register(driversRoutes);
      await api.register(gatewaysRoutes);
      await api.register(groupsRoutes);
      // Home terminals (issue 46).
      await api.register(terminalsRoutes);
      await api.register(registryCsvRoutes);
      await api.register(ingestRoutes(ingest));
      await api.register(liveRoutes(liveHub));
      await api.register(historyRoutes);
      await api.register(diagnosticsRoutes);
      // The soak's fault hook (issue 43): absent unless FAULT_INJECTION=1.
      if (config.faultInjection) await api.register(faultsRoutes);
      // Hours of service (issue 15).
      await api.register(hosRoutes);
      await api.register(hosDriverRoutes);
      await api.register(eldTransferRoutes);
      // IFTA fuel tax (issue 17).
      await api.register(iftaRoutes);
      await api.register(maintenanceRoutes);
      await api.register(engineFaultsRoutes);
      await api.register(placesRoutes);
      await api.register(safetyRoutes);
      // Dispatch (issue 33): loads and revenue.
      await api.register(loadsRoutes);
      await api.register(revenueRoutes);
      // The fleet at a glance (issue 18): dashboard, fleet overview, search, fleet performance, notifications.
      await api.register(fleetGlanceRoutes);
      await api.register(reportsRoutes);
      await api.register(reportSubscriptionsRoutes);
      await api.register(notificationsRoutes(notificationHub, ownConversation));
      // Dispatch (issue 33): legal plans, candidates.
      await api.register(dispatchRoutes);
      // Messages between drivers and dispatch (issue 44).
      await api.register(messagesRoutes);
      // Integrations (issue 48): API tokens and webhooks.
      await api.register(apiTokensRoutes);
      await api.register(webhooksRoutes);
    },
    { prefix: API_PREFIX },
  );

  await app.register(probeRoutes);

  const indexHtml = config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? path.join(config.webDist, 'index.html') : null;
  if (config.webDist && indexHtml) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      preCompressed: true,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        // Hashed build assets never change; everything else is revalidated.
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if ((request.method === 'GET' || request.method === 'HEAD') && isPagePath(pathname)) {
      // The single-page app answers / and its client routes whatever the Accept header, so a plain
      // `curl http://server/` or a load balancer's probe sees the app, not a 404.
      if (indexHtml) return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      if (pathname === '/') return reply.type('text/html').send(API_ONLY_PAGE);
    }
    return reply.code(404).send(errorBody(404, 'Not found', `No route ${request.method} ${pathname}`));
  });

  return app;
}

/** A client route of the web app: not the API or its docs, and not a file (a missing asset stays a 404). */
function isPagePath(pathname: string): boolean {
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

const API_ONLY_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Fleetline</title><p>The Fleetline API is running. ' +
  'The web app is not built here: run <code>npm run build</code>, or see <a href="/api/docs">/api/docs</a>.</p>';
