import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fuelEventIdParams, fuelEventListQuery, fuelEventPageSchema, fuelEventSchema, orgIdParams } from '@fleet/api-contract';
import { scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import { getFuelEvent, listFuelEvents } from './fuel-events.service.ts';

const tags = ['ifta'];

/** Refuels and drops found in the fuel level trucks report (issue 68, part 2): read as the fuel transactions are. */
const fuelEventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/fuel-events', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        'Refuels and drops of the fuel level (type=REFUEL|DROP, from, to, vehicleId; unmatched=true: refuels no card transaction matches), in the organization’s units, with counts',
      params: orgIdParams,
      querystring: fuelEventListQuery,
      response: { 200: fuelEventPageSchema, ...orgErrors() },
    },
    handler: (req) => listFuelEvents(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/fuel-events/:id', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: { tags, summary: 'One refuel or drop', params: fuelEventIdParams, response: { 200: fuelEventSchema, ...orgErrors() } },
    handler: (req) => getFuelEvent(scopeOf(req, req.params.orgId), req.params.id),
  });
};

export default fuelEventRoutes;
