import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { candidatePageSchema, candidateQuerySchema, loadPlanSchema, planQuerySchema } from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { actorOf } from '../auth/index.ts';
import { loadCandidates, planLoad, type KnownLegs } from './plan.service.ts';
import { routingOf } from './routing.ts';

// A load's legal plan and who can take it (issue 33, decision 0167).
const tags = ['dispatch'];
const loadParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be a load id') });

/** The live ETAs' legs of running loads, where this instance follows them (issue 46: a busy driver's load is not routed again). */
function knownLegs(app: FastifyInstance): KnownLegs | undefined {
  if (!app.hasDecorator('liveEtas')) return undefined;
  const live = app.liveEtas;
  return (loadId, at, stopIds) => live.knownLegs(loadId, at, stopIds);
}

const dispatchRoutes: FastifyPluginAsyncZod = async (app) => {
  const routing = routingOf(app.config);

  app.get('/organizations/:orgId/loads/:id/plan', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The legal trip plan of a load for its driver (or driverId, coDriverId) from where they are now: drive, breaks, rests, stops, ETAs',
      params: loadParams,
      querystring: planQuerySchema,
      response: { 200: loadPlanSchema, ...orgErrors() },
    },
    handler: (req) =>
      planLoad({ db: req.server.db, orgId: req.params.orgId, userId: actorOf(req).userId }, routing, req.params.id, req.query, knownLegs(req.server)),
  });

  app.get('/organizations/:orgId/loads/:id/candidates', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Every active driver ranked for a load: on time legally first, then deadhead, then drive time left; each excluded driver with the reason',
      params: loadParams,
      querystring: candidateQuerySchema,
      response: { 200: candidatePageSchema, ...orgErrors() },
    },
    handler: (req) =>
      loadCandidates({ db: req.server.db, orgId: req.params.orgId, userId: actorOf(req).userId }, routing, req.params.id, req.query, knownLegs(req.server)),
  });
};

export default dispatchRoutes;
