import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authErrors, errors } from '../../http/route-schemas.ts';
import { invalidField } from '../../http/errors.ts';

// Faults on purpose (issue 43): the soak (bench/soak.ts) kills the embedded database's worker thread
// and stalls the database in a running server, as a crash or an overloaded database server would.
// Registered only when FAULT_INJECTION=1 (routes.ts): without it the path answers 404 like any unknown
// one. The schemas live here, not in the shared contract: no client but the soak and tests calls it.

export const FAULTS = ['kill-database-thread', 'stall-database'] as const;

const faultParams = z.object({
  fault: z
    .enum(FAULTS)
    .describe(
      "kill-database-thread: end the embedded database's worker thread at once (a no-op on PostgreSQL or with PGLITE_THREAD=main); stall-database: hold the database for `ms`",
    ),
});
const faultBody = z
  .object({ ms: z.number().int().min(1).max(600_000).optional().describe('How long stall-database holds the database, in milliseconds (1-600000)') })
  .nullish();
const faultAccepted = z.object({
  fault: z.enum(FAULTS),
  ms: z.number().int().nullable().describe('The stall asked for; null for a thread kill'),
});

const faultsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/admin/diagnostics/faults/:fault', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags: ['diagnostics'],
      summary: "Inject a database fault into this API instance (only with FAULT_INJECTION=1; the soak's hook)",
      params: faultParams,
      body: faultBody,
      response: { 202: faultAccepted, ...errors(400), ...authErrors() },
    },
    handler: async (req, reply) => {
      const { fault } = req.params;
      if (fault === 'kill-database-thread') {
        // Ends the thread as a crash would; the database opens its data directory again on its own.
        await app.database.faults.killThread();
        return reply.code(202).send({ fault, ms: null });
      }
      const ms = req.body?.ms;
      if (ms === undefined) throw invalidField('ms', 'ms is required for stall-database');
      // Not awaited: the caller hears at once, and the stall holds everything else meanwhile.
      void app.database.faults.stall(ms).catch((err: unknown) => app.log.warn({ err }, 'stall-database fault ended with an error'));
      return reply.code(202).send({ fault, ms });
    },
  });
};

export default faultsRoutes;
