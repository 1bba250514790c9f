import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orgIdParams,
  pageSchema,
  PERMISSION_AREAS,
  permissionCatalogueSchema,
  roleIdParams,
  roleInputSchema,
  roleListQuerySchema,
  roleSchema,
} from '@fleet/api-contract';
import { errors, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import * as rolesService from './roles.service.ts';

const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['roles'];
  app.get('/permissions', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'The permission checklist: codes grouped by area, with labels and the codes each one requires',
      response: { 200: permissionCatalogueSchema, ...errors(401) },
    },
    handler: () => ({ areas: PERMISSION_AREAS.map((a) => ({ ...a, permissions: a.permissions.map((p) => ({ ...p, requires: [...p.requires] })) })) }),
  });

  app.get('/organizations/:orgId/roles', {
    config: { permissions: ['ROLE_LIST'] },
    schema: {
      tags,
      summary: 'Roles of the organization (built-in Administrator first) with their user counts',
      params: orgIdParams,
      querystring: roleListQuerySchema,
      response: { 200: pageSchema(roleSchema), ...orgErrors() },
    },
    handler: (req) => rolesService.listRoles(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/roles/:roleId', {
    config: { permissions: ['ROLE_LIST'] },
    schema: { tags, summary: 'One role', params: roleIdParams, response: { 200: roleSchema, ...orgErrors() } },
    handler: (req) => rolesService.getRole(scopeOf(req, req.params.orgId), req.params.roleId),
  });

  app.post('/organizations/:orgId/roles', {
    config: { permissions: ['ROLE_UPDATE'] },
    schema: {
      tags,
      summary: 'Create a custom role; required codes are added; only codes the caller holds may be granted',
      params: orgIdParams,
      body: roleInputSchema,
      response: { 201: roleSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await rolesService.createRole(scopeOf(req, req.params.orgId), requireAuth(req), req.body)),
  });

  app.put('/organizations/:orgId/roles/:roleId', {
    config: { permissions: ['ROLE_UPDATE'] },
    schema: {
      tags,
      summary: 'Edit a custom role (not the built-in Administrator); sessions of its users see the change at once',
      params: roleIdParams,
      body: roleInputSchema,
      response: { 200: roleSchema, ...orgErrors(409) },
    },
    handler: (req) => rolesService.updateRole(scopeOf(req, req.params.orgId), requireAuth(req), req.params.roleId, req.body),
  });

  app.delete('/organizations/:orgId/roles/:roleId', {
    config: { permissions: ['ROLE_UPDATE'] },
    schema: { tags, summary: 'Delete a custom role that no user holds', params: roleIdParams, response: { 204: z.null(), ...orgErrors(409) } },
    handler: async (req, reply) => {
      await rolesService.deleteRole(scopeOf(req, req.params.orgId), requireAuth(req), req.params.roleId);
      return reply.code(204).send(null);
    },
  });
};

export default rolesRoutes;
