import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceModelIdParams, deviceModelInputSchema, deviceModelListQuery, deviceModelPageSchema, deviceModelSchema } from '@fleet/api-contract';
import { actorOf, requireAuth } from '../auth/index.ts';
import { errors } from '../../http/route-schemas.ts';
import * as svc from './device-models.service.ts';

const tags = ['device-models'];

/** The global device-model catalogue: super administrators manage it, every signed-in user reads it. */
const deviceModelsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings/device-models', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'Device models (for the device form); size defaults to 100',
      querystring: deviceModelListQuery,
      response: { 200: deviceModelPageSchema, ...errors(400, 401) },
    },
    handler: (req) => {
      requireAuth(req);
      return svc.listDeviceModels(app.db, req.query);
    },
  });

  app.post('/settings/device-models', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags,
      summary: 'Add a device model (super administrator)',
      body: deviceModelInputSchema,
      response: { 201: deviceModelSchema, ...errors(400, 401, 403, 409) },
    },
    handler: async (req, reply) => reply.code(201).send(await svc.createDeviceModel(app.db, actorOf(req), req.body)),
  });

  app.put('/settings/device-models/:id', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags,
      summary: 'Edit a device model (super administrator)',
      params: deviceModelIdParams,
      body: deviceModelInputSchema,
      response: { 200: deviceModelSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: (req) => svc.updateDeviceModel(app.db, actorOf(req), req.params.id, req.body),
  });

  app.delete('/settings/device-models/:id', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags,
      summary: 'Delete a device model no device uses (super administrator)',
      params: deviceModelIdParams,
      response: { 204: z.null(), ...errors(400, 401, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      await svc.deleteDeviceModel(app.db, actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });
};

export default deviceModelsRoutes;
