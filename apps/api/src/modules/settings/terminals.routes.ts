import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgIdParams, terminalIdParams, terminalInputSchema, terminalListQuery, terminalPageSchema, terminalSchema } from '@fleet/api-contract';
import { scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import * as svc from './terminals.service.ts';

const tags = ['settings'];

// Terminals are part of the organization's account (spec: organization-account needs ORG_READ and
// ORG_UPDATE): reading them takes ORG_READ, or DRIVER_LIST for the drivers' form that picks one;
// changing them takes ORG_UPDATE.
const terminalsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/terminals', {
    config: { anyPermissions: ['ORG_READ', 'DRIVER_LIST'], tokens: true },
    schema: {
      tags,
      summary: "The organization's home terminals (address and time zone) with their drivers' count",
      params: orgIdParams,
      querystring: terminalListQuery,
      response: { 200: terminalPageSchema, ...orgErrors() },
    },
    handler: (req) => svc.listTerminals(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/terminals', {
    config: { permissions: ['ORG_UPDATE'], tokens: true },
    schema: { tags, summary: 'Add a home terminal', params: orgIdParams, body: terminalInputSchema, response: { 201: terminalSchema, ...orgErrors(409) } },
    handler: async (req, reply) => reply.code(201).send(await svc.createTerminal(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/terminals/:terminalId', {
    config: { anyPermissions: ['ORG_READ', 'DRIVER_LIST'], tokens: true },
    schema: { tags, summary: 'A home terminal', params: terminalIdParams, response: { 200: terminalSchema, ...orgErrors() } },
    handler: (req) => svc.getTerminal(scopeOf(req, req.params.orgId), req.params.terminalId),
  });

  app.put('/organizations/:orgId/terminals/:terminalId', {
    config: { permissions: ['ORG_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "Edit a home terminal; a new time zone becomes its drivers' home time zone",
      params: terminalIdParams,
      body: terminalInputSchema,
      response: { 200: terminalSchema, ...orgErrors(409) },
    },
    handler: (req) => svc.updateTerminal(scopeOf(req, req.params.orgId), req.params.terminalId, req.body),
  });

  app.delete('/organizations/:orgId/terminals/:terminalId', {
    config: { permissions: ['ORG_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Delete a home terminal no driver belongs to (409 while drivers do)',
      params: terminalIdParams,
      response: { 204: z.null(), ...orgErrors(409) },
    },
    handler: async (req, reply) => {
      await svc.deleteTerminal(scopeOf(req, req.params.orgId), req.params.terminalId);
      return reply.code(204).send(null);
    },
  });
};

export default terminalsRoutes;
