import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiTokenCreatedSchema, apiTokenIdParams, apiTokenInputSchema, apiTokenListSchema, orgIdParams } from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.service.ts';

// API tokens (issue 48, decision 0197): Organization account → API tokens.
const tags = ['integrations'];

const apiTokensRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/api-tokens', {
    config: { permissions: ['API_TOKEN_MANAGE'] },
    schema: {
      tags,
      summary: "The organization's API tokens that are not revoked, newest first, with their last use (never their secrets)",
      params: orgIdParams,
      response: { 200: apiTokenListSchema, ...orgErrors() },
    },
    handler: (req) => listApiTokens(scopeOf(req, req.params.orgId)),
  });

  app.post('/organizations/:orgId/api-tokens', {
    config: { permissions: ['API_TOKEN_MANAGE'] },
    schema: {
      tags,
      summary:
        'Create an API token carrying some of your own permission codes, with an optional expiry and allowed client addresses (CIDR). The answer holds the token (`fltk_…`): the only time it is shown. Send it as `Authorization: Bearer <token>`.',
      params: orgIdParams,
      body: apiTokenInputSchema,
      response: { 201: apiTokenCreatedSchema, ...orgErrors() },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await createApiToken(scopeOf(req, req.params.orgId), requireAuth(req), req.server.apiTokenKey, req.body)),
  });

  app.delete('/organizations/:orgId/api-tokens/:id', {
    config: { permissions: ['API_TOKEN_MANAGE'] },
    schema: {
      tags,
      summary: 'Revoke an API token: refused on every instance from the next request on',
      params: apiTokenIdParams,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await revokeApiToken(scopeOf(req, req.params.orgId), req.params.id);
      return reply.code(204).send(null);
    },
  });
};

export default apiTokensRoutes;
