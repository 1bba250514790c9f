import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  driverDetailSchema,
  driverIdParams,
  driverInputSchema,
  driverListQuery,
  driverPageSchema,
  orgIdParams,
  removalResultSchema,
} from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { compiledSerializer } from '../../http/compiled-serializer.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import * as svc from './drivers.service.ts';

const tags = ['drivers'];

/** `licenceWritten`: the qualification file's licence paper follows the form's licence (routes.ts hands it in). */
const driversRoutes: FastifyPluginAsyncZod<{ licenceWritten?: svc.LicenceWritten }> = async (app, opts) => {
  // Inviting the driver to sign in (body `invite`) sends the users' invitation e-mail (decision 0111).
  const invite = (req: FastifyRequest) => ({ ctx: requireAuth(req), mail: { mailer: app.mailer, publicUrl: app.config.publicUrl } });

  app.get('/organizations/:orgId/drivers', {
    config: { permissions: ['DRIVER_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Drivers: paged, sorted, searched (name, e-mail, employee id, licence, phone), filtered by status and group',
      params: orgIdParams,
      querystring: driverListQuery,
      response: { 200: driverPageSchema, ...orgErrors() },
    },
    // A page of 15 records with links: the compiled serializer (decision 0044) instead of zod at run time.
    serializerCompiler: compiledSerializer,
    handler: (req) => svc.listDrivers(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/drivers', {
    config: { permissions: ['DRIVER_CREATE'], tokens: true },
    schema: {
      tags,
      summary: 'Add a driver; with `invite` and an e-mail the driver gets a sign-in with the built-in Driver role (needs USER_CREATE)',
      params: orgIdParams,
      body: driverInputSchema,
      response: { 201: driverDetailSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await svc.createDriver(scopeOf(req, req.params.orgId), req.body, invite(req), opts.licenceWritten)),
  });

  app.get('/organizations/:orgId/drivers/:id', {
    config: { permissions: ['DRIVER_LIST'], tokens: true },
    schema: { tags, summary: 'Driver detail with vehicle history', params: driverIdParams, response: { 200: driverDetailSchema, ...orgErrors() } },
    handler: (req) => svc.getDriver(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.put('/organizations/:orgId/drivers/:id', {
    config: { permissions: ['DRIVER_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Edit a driver (deactivating releases their vehicle)',
      params: driverIdParams,
      body: driverInputSchema,
      response: { 200: driverDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => svc.updateDriver(scopeOf(req, req.params.orgId), req.params.id, req.body, invite(req), opts.licenceWritten),
  });

  app.delete('/organizations/:orgId/drivers/:id', {
    config: { permissions: ['DRIVER_DELETE'], tokens: true },
    schema: {
      tags,
      summary: 'Delete, or deactivate when the driver has history',
      params: driverIdParams,
      response: { 200: removalResultSchema, ...orgErrors() },
    },
    handler: (req) => svc.removeDriver(scopeOf(req, req.params.orgId), req.params.id),
  });
};

export default driversRoutes;
