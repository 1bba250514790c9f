import { createHmac } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { closeIdleWhileClosing } from './lib/close-idle.ts';
import { enableListIndex } from './list-index/list-index.ts';
import { openDatabase, type Database } from './db/client.ts';
import { accessTokens, resolveJwtSecret } from './modules/auth/jwt.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { loggerOptions } from './plugins/request-log.ts';
import { eventsCacheOfDb } from './modules/hos/hos.events-cache.ts';
import { AuthCache } from './modules/auth/auth-cache.ts';
import { loadAuthContexts } from './modules/auth/auth-context.ts';
import { OpenStreams } from './modules/auth/open-streams.ts';
import { endedSessions } from './modules/auth/sessions.ts';
import { frameworkError, installErrorHandler } from './plugins/errors.ts';
import { validatorWithInputRules } from './http/validator.ts';
import { installUtf8Json } from './http/utf8-body.ts';
import './plugins/types.ts';
import { registerExternalPlugins } from './external-plugins.ts';
import { startPositionPipeline } from './pipeline/position-pipeline.ts';
import { registerRoutes } from './routes.ts';
import { StartupProgress } from './modules/health/startup-progress.ts';
import { setImageLinkSecret } from './modules/images/index.ts';
import { eldTransferDeps } from './modules/eld-transfer/eld-transfer.deps.ts';
import type { EldTransferDeps } from './modules/eld-transfer/eld-transfer.service.ts';
import { NotificationHub } from './modules/notifications/notifications.hub.ts';
import { notify } from './modules/notifications/index.ts';
import { ApiTokenAuth } from './modules/api-tokens/api-token-auth.ts';
import { TokenUse, apiTokenKey, loadTokenContexts } from './modules/api-tokens/api-tokens.service.ts';
import { TokenRateLimiter } from './modules/api-tokens/rate-limit.ts';
import { WebhookSender } from './modules/webhooks/webhook-sender.ts';

export { API_PREFIX } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when shutdown begins: /readyz answers 503 so load balancers move traffic elsewhere. */
    draining: boolean;
    /** Seeding after listen (main.ts): /readyz answers 503 with its progress until it is done. */
    startup: StartupProgress;
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

/**
 * Builds the whole server. Tests call this. It composes three files: the external plugins
 * (external-plugins.ts), the position pipeline's wiring (pipeline/position-pipeline.ts) and the
 * route list (routes.ts); what stays here is the server itself, its database and decorations, the
 * hubs, and the order in which everything stops.
 */
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
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize ?? undefined,
      sharedBuffers: config.pgliteSharedBuffers,
      pgliteThread: config.pgliteThread,
      pgliteContextCheck: !production,
    }));
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
  app.decorate('eld', {
    registrationId: config.eldRegistrationId,
    identifier: config.eldIdentifier,
    authKey: createHmac('sha256', jwtSecret).update('eld-output-file').digest(),
  });
  app.decorate(
    'mailer',
    mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: app.log }),
  );
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
  // The position pipeline and its followers, wired once (pipeline/position-pipeline.ts).
  const pipeline = await startPositionPipeline(app, db, config);
  const notificationHub = new NotificationHub(db, app.mailer, config.publicUrl, (err) => app.log.error(err, 'notifications fan-out failed'));
  await notificationHub.start();
  app.decorate('notificationHub', notificationHub);
  // Webhooks (issue 48, decision 0198): the outbox's sender, woken by commits on any instance; it
  // tells administrators of a subscription it turned off through the notifications' notify.
  const webhookSender = new WebhookSender(db.db, config.webhooks, (err, what) => app.log.error(err, `${what} failed`), notify);
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
    await pipeline.liveHub.stop();
    await notificationHub.stop();
    await webhookSender.stop();
  });
  app.addHook('onClose', async () => {
    stopClosingIdle();
    pipeline.stopTimers();
    // The group commit flushes, then each follower works what it holds.
    await pipeline.ingest.close();
    await authListener.stop();
    if (ownsDatabase) await db.close();
  });

  await registerExternalPlugins(app, config);

  await registerRoutes(app, { pipeline, notificationHub });

  return app;
}
