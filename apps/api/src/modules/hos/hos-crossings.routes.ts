import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  borderCrossingListSchema,
  borderCrossingSchema,
  crossingCreateSchema,
  crossingMoveSchema,
  crossingParams,
  crossingRemoveSchema,
  crossingsQuery,
  driverHosParams,
  userHosParams,
  type Permission,
} from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import { driverOfUserPath } from './hos-access.ts';
import { addCrossing, listCrossings, moveCrossing, removeCrossing } from './hos-crossings.service.ts';

// Border crossings of a driver's log (issue 72, decision 0313): the office's paths by driver, the
// driver's own by user (the phone's), as the other HoS paths are.
const tags = ['hos'];
const userCrossingParams = userHosParams.extend({ crossingId: crossingParams.shape.crossingId });

const hosCrossingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const byUser = (req: FastifyRequest, orgId: string, userId: string, officeCode: Permission) =>
    driverOfUserPath(app.db, requireAuth(req), orgId, userId, officeCode);
  const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;
  const write = { anyPermissions: ['HOS_EDIT', 'HOS_SELF_WRITE'] } as const;

  const listSchema = {
    tags,
    summary:
      "The driver's US-Canada border crossings from `from` to `to` (at most 31 days, default the last 7), those the truck's positions show stored first, with the ruleset in force on each side",
    querystring: crossingsQuery,
    response: { 200: borderCrossingListSchema, ...orgErrors() },
  };
  app.get('/organizations/:orgId/drivers/:driverId/hos_crossings', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: { ...listSchema, params: driverHosParams },
    handler: (req) => listCrossings(scopeOf(req, req.params.orgId), req.params.driverId, req.query),
  });
  app.get('/organizations/:orgId/users/:userId/hos_crossings', {
    config: read,
    schema: { ...listSchema, params: userHosParams },
    handler: async (req) => listCrossings(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_READ'), req.query),
  });

  const addSchema = {
    tags,
    summary: 'Enter a border crossing the positions missed: the time, the country entered and an annotation of 4-60 characters',
    body: crossingCreateSchema,
    response: { 201: borderCrossingSchema, ...orgErrors() },
  };
  app.post('/organizations/:orgId/drivers/:driverId/hos_crossings', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...addSchema, params: driverHosParams },
    handler: async (req, reply) => reply.code(201).send(await addCrossing(scopeOf(req, req.params.orgId), req.params.driverId, req.body)),
  });
  app.post('/organizations/:orgId/users/:userId/hos_crossings', {
    config: write,
    schema: { ...addSchema, params: userHosParams },
    handler: async (req, reply) =>
      reply.code(201).send(await addCrossing(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT'), req.body)),
  });

  const moveSchema = {
    tags,
    summary: 'Move a border crossing to the right time with an annotation (the crossing replaced is kept, removed, with it)',
    body: crossingMoveSchema,
    response: { 200: borderCrossingSchema, ...orgErrors() },
  };
  app.put('/organizations/:orgId/drivers/:driverId/hos_crossings/:crossingId', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...moveSchema, params: crossingParams },
    handler: (req) => moveCrossing(scopeOf(req, req.params.orgId), req.params.driverId, req.params.crossingId, req.body),
  });
  app.put('/organizations/:orgId/users/:userId/hos_crossings/:crossingId', {
    config: write,
    schema: { ...moveSchema, params: userCrossingParams },
    handler: async (req) =>
      moveCrossing(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT'), req.params.crossingId, req.body),
  });

  const removeSchema = {
    tags,
    summary: 'Remove a border crossing that did not happen, with an annotation (kept, removed: the positions do not add it again)',
    body: crossingRemoveSchema,
    response: { 204: z.null(), ...orgErrors() },
  };
  app.delete('/organizations/:orgId/drivers/:driverId/hos_crossings/:crossingId', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...removeSchema, params: crossingParams },
    handler: async (req, reply) => {
      await removeCrossing(scopeOf(req, req.params.orgId), req.params.driverId, req.params.crossingId, req.body);
      return reply.code(204).send(null);
    },
  });
  app.delete('/organizations/:orgId/users/:userId/hos_crossings/:crossingId', {
    config: write,
    schema: { ...removeSchema, params: userCrossingParams },
    handler: async (req, reply) => {
      await removeCrossing(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT'), req.params.crossingId, req.body);
      return reply.code(204).send(null);
    },
  });
};

export default hosCrossingsRoutes;
