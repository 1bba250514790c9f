import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fuelEconomyQuery, fuelEconomySchema, orgIdParams } from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { fuelEconomy } from './fuel-economy.service.ts';

// Fuel economy and idling (issue 68, decision 0280): read with fleet performance's permission.
const fuelEconomyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/fuel-economy', {
    config: { permissions: ['ANALYTICS_FLEET_PERFORMANCE'], tokens: true },
    schema: {
      tags: ['analytics'],
      summary:
        "Distance, fuel used and economy (the engine's fuel counter where the truck reports it, else the purchases between two fills), idle time, idle share and idle fuel per vehicle or driver, with the fleet's medians",
      params: orgIdParams,
      querystring: fuelEconomyQuery,
      response: { 200: fuelEconomySchema, ...orgErrors() },
    },
    handler: (req) => fuelEconomy(scopeOf(req, req.params.orgId), req.query),
  });
};

export default fuelEconomyRoutes;
