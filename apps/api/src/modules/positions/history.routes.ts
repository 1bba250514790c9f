import { historyQuerySchema, historyRouteSchema } from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { historyRoute, type HistorySubject } from './history.service.ts';
import positionsImportRoutes from './positions-import.routes.ts';

const params = z.object({ orgId: z.uuid('orgId must be an id'), id: z.uuid('id must be an id') });

const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const subject of ['gateways', 'drivers', 'assets'] as const satisfies readonly HistorySubject[]) {
    app.get(`/organizations/:orgId/history-routes/${subject}/:id`, {
      config: { permissions: ['HR_READ'], tokens: true },
      schema: {
        tags: ['history-routes'],
        summary: `Route history of a ${subject === 'gateways' ? 'device' : subject === 'drivers' ? 'driver' : 'vehicle'}: simplified track, stops and summary`,
        params,
        querystring: historyQuerySchema,
        response: { 200: historyRouteSchema, ...orgErrors() },
      },
      handler: (req) => historyRoute(scopeOf(req, req.params.orgId), subject, req.params.id, req.query),
    });
  }
  // What fills a vehicle's history from another system (registered here: history is what it feeds).
  await app.register(positionsImportRoutes);
};

export default historyRoutes;
