import { startupProgressSchema, webConfigSchema, type StartupProgressInfo, type WebConfig } from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Run-time settings of the built web app. Public: the login page may need them, and they hold
 * nothing secret (a style URL any browser of the app fetches anyway).
 */
const webConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const body: WebConfig = { mapStyleUrl: app.config.mapStyleUrl, osmandPort: app.config.osmandPort || null };
  app.get('/web-config', {
    config: { public: true },
    schema: {
      tags: ['web-config'],
      summary: 'Settings the web app reads at start-up (MAP_STYLE_URL), so they change with a server restart instead of a rebuild',
      security: [],
      response: { 200: webConfigSchema },
    },
    handler: async (_req, reply) => {
      // Short cache: a restart with a new MAP_STYLE_URL reaches open tabs within a minute.
      reply.header('cache-control', 'public, max-age=60');
      return body;
    },
  });

  // Answered without the database: seeding keeps the embedded database's one connection busy.
  app.get('/startup-progress', {
    config: { public: true },
    schema: {
      tags: ['web-config'],
      summary: 'Whether a first start is still seeding the demo data, and how far (the dashboard shows it); seeding false once done',
      security: [],
      response: { 200: startupProgressSchema },
    },
    handler: async (_req, reply): Promise<StartupProgressInfo> => {
      reply.header('cache-control', 'no-store');
      const { active, percent, step } = app.startup;
      return active ? { seeding: true, percent, step: step || null } : { seeding: false, percent: 100, step: null };
    },
  });
};

export default webConfigRoutes;
