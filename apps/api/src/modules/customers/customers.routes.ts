import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customerCreateSchema,
  customerIdParams,
  customerListQuery,
  customerPageSchema,
  customerSchema,
  customerUpdateSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import * as svc from './customers.service.ts';

const tags = ['customers'];

// Customers (issue 70, decision 0284): reading takes CUSTOMER_LIST, or LOAD_UPDATE for the load
// form that picks one; changing them takes CUSTOMER_UPDATE. API tokens may hold both codes.
const READ = { anyPermissions: ['CUSTOMER_LIST', 'LOAD_UPDATE'] } as const;
const WRITE = { permissions: ['CUSTOMER_UPDATE'] } as const;

const customersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/customers', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "The organization's customers with their loads' count; search by name, billing address, e-mail or notes",
      params: orgIdParams,
      querystring: customerListQuery,
      response: { 200: customerPageSchema, ...orgErrors() },
    },
    handler: (req) => svc.listCustomers(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/customers', {
    config: { ...WRITE, tokens: true },
    schema: {
      tags,
      summary: 'Add a customer (net 30, 120 free minutes of detention and no detention rate unless said)',
      params: orgIdParams,
      body: customerCreateSchema,
      response: { 201: customerSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await svc.createCustomer(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/customers/:customerId', {
    config: { ...READ, tokens: true },
    schema: { tags, summary: 'A customer', params: customerIdParams, response: { 200: customerSchema, ...orgErrors() } },
    handler: (req) => svc.getCustomer(scopeOf(req, req.params.orgId), req.params.customerId),
  });

  app.patch('/organizations/:orgId/customers/:customerId', {
    config: { ...WRITE, tokens: true },
    schema: {
      tags,
      summary: "Change a customer's fields; a new name becomes the printed name of its loads",
      params: customerIdParams,
      body: customerUpdateSchema,
      response: { 200: customerSchema, ...orgErrors(409) },
    },
    handler: (req) => svc.updateCustomer(scopeOf(req, req.params.orgId), req.params.customerId, req.body),
  });

  app.delete('/organizations/:orgId/customers/:customerId', {
    config: { ...WRITE, tokens: true },
    schema: {
      tags,
      summary: 'Delete a customer no load names (409 while loads do)',
      params: customerIdParams,
      response: { 204: z.null(), ...orgErrors(409) },
    },
    handler: async (req, reply) => {
      await svc.deleteCustomer(scopeOf(req, req.params.orgId), req.params.customerId);
      return reply.code(204).send(null);
    },
  });
};

export default customersRoutes;
