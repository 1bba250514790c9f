import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  declarationCreateSchema,
  declarationParams,
  declarationRemoveSchema,
  declarationsQuery,
  driverHosParams,
  hosDeclarationListSchema,
  hosDeclarationSchema,
  userHosParams,
  type Permission,
} from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import { driverOfUserPath } from './hos-access.ts';
import { addDeclaration, listDeclarations, removeDeclaration } from './hos-declarations.service.ts';

// A driver's log declarations (issue 72, decisions 0314 and 0315): cycle switches, adverse driving
// conditions and emergencies. The office's paths by driver, the driver's own by user (the phone's),
// as the other HoS paths are.
const tags = ['hos'];
const userDeclarationParams = userHosParams.extend({ declarationId: declarationParams.shape.declarationId });

const hosDeclarationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const byUser = (req: FastifyRequest, orgId: string, userId: string, officeCode: Permission) =>
    driverOfUserPath(app.db, requireAuth(req), orgId, userId, officeCode);
  const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;
  const write = { anyPermissions: ['HOS_EDIT', 'HOS_SELF_WRITE'] } as const;

  const listSchema = {
    tags,
    summary:
      "The driver's declarations from `from` to `to` (at most 31 days, default the last 7): cycle switches, adverse driving conditions and emergencies, with their annotations",
    querystring: declarationsQuery,
    response: { 200: hosDeclarationListSchema, ...orgErrors() },
  };
  app.get('/organizations/:orgId/drivers/:driverId/hos_declarations', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: { ...listSchema, params: driverHosParams },
    handler: (req) => listDeclarations(scopeOf(req, req.params.orgId), req.params.driverId, req.query),
  });
  app.get('/organizations/:orgId/users/:userId/hos_declarations', {
    config: read,
    schema: { ...listSchema, params: userHosParams },
    handler: async (req) => listDeclarations(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_READ'), req.query),
  });

  const addSchema = {
    tags,
    summary:
      'Declare on the log a switch to cycle 1 or 2 (Canadian rules), adverse driving conditions from a time, or an emergency until the driver reached safety (Canadian rules), with an annotation of 4-60 characters',
    body: declarationCreateSchema,
    response: { 201: hosDeclarationSchema, ...orgErrors() },
  };
  app.post('/organizations/:orgId/drivers/:driverId/hos_declarations', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...addSchema, params: driverHosParams },
    handler: async (req, reply) => reply.code(201).send(await addDeclaration(scopeOf(req, req.params.orgId), req.params.driverId, req.body)),
  });
  app.post('/organizations/:orgId/users/:userId/hos_declarations', {
    config: write,
    schema: { ...addSchema, params: userHosParams },
    handler: async (req, reply) =>
      reply.code(201).send(await addDeclaration(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT'), req.body)),
  });

  const removeSchema = {
    tags,
    summary: 'Withdraw a declaration, with an annotation (it is kept, removed, with it)',
    body: declarationRemoveSchema,
    response: { 204: z.null(), ...orgErrors() },
  };
  app.delete('/organizations/:orgId/drivers/:driverId/hos_declarations/:declarationId', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...removeSchema, params: declarationParams },
    handler: async (req, reply) => {
      await removeDeclaration(scopeOf(req, req.params.orgId), req.params.driverId, req.params.declarationId, req.body);
      return reply.code(204).send(null);
    },
  });
  app.delete('/organizations/:orgId/users/:userId/hos_declarations/:declarationId', {
    config: write,
    schema: { ...removeSchema, params: userDeclarationParams },
    handler: async (req, reply) => {
      await removeDeclaration(
        scopeOf(req, req.params.orgId),
        await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT'),
        req.params.declarationId,
        req.body,
      );
      return reply.code(204).send(null);
    },
  });
};

export default hosDeclarationsRoutes;
