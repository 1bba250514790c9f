import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '@fleet/api-contract';
import { errorBody } from '../../plugins/errors.ts';
import { readiness } from './health.service.ts';

/** GET /api/v1/health: the API and its database answer (kept for existing monitors). */
export const apiHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    config: { public: true },
    schema: { tags: ['health'], summary: 'Liveness and database check', response: { 200: z.object({ status: z.literal('ok'), database: z.string() }) } },
    handler: async () => {
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: app.database.kind };
    },
  });
};

/**
 * Probes for load balancers and orchestrators, at the root so they need no API prefix:
 * /healthz says the process serves HTTP (restart it if not); /readyz says it should get traffic:
 * the database answers, every migration is applied, and the instance is not shutting down.
 */
export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/healthz',
    config: { public: true },
    schema: {
      tags: ['health'],
      summary: 'Liveness: the process answers HTTP (no database check)',
      security: [],
      response: { 200: z.object({ status: z.literal('ok') }) },
    },
    handler: async () => ({ status: 'ok' as const }),
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/readyz',
    config: { public: true },
    schema: {
      tags: ['health'],
      summary:
        'Readiness: database reachable, migrations applied, demo data seeded, positions being stored, not draining; 503 otherwise ("seeding demo data (n %)" while seeding)',
      security: [],
      response: { 200: z.object({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) }), 503: errorBodySchema },
    },
    handler: async (_req, reply) => {
      if (app.draining) return reply.code(503).send(errorBody(503, 'Shutting down', 'This instance is draining before it stops'));
      // Answered without the database: seeding keeps its one embedded connection busy.
      if (app.startup.active) {
        return reply
          .code(503)
          .send(
            errorBody(
              503,
              `seeding demo data (${app.startup.percent} %)`,
              `Start-up is seeding the demo data (${app.startup.step}); the server answers meanwhile`,
            ),
          );
      }
      // The embedded database's worker thread stopped and its data cannot come back (in memory).
      const lost = app.database.unavailable();
      if (lost) return reply.code(503).send(errorBody(503, 'Database unavailable', lost, 'common.database_unavailable'));
      // Devices are sending and nothing has been stored for a minute (ingest-health.ts).
      const failing = app.ingest.health.problem();
      if (failing) return reply.code(503).send(errorBody(503, 'Positions are not being stored', failing));
      const r = await readiness(app.db);
      if (!r.ready) return reply.code(503).send(errorBody(503, 'Not ready', r.reason));
      return { status: 'ready' as const, database: app.database.kind };
    },
  });
};
