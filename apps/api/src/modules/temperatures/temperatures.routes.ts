import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assetIdParams,
  loadIdParams,
  loadTemperaturesSchema,
  reeferSettingsInputSchema,
  temperatureLogQuerySchema,
  trailerSensorsSchema,
  trailerTemperaturesSchema,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import * as service from './temperatures.service.ts';

// Reefer temperatures (issue 73): a load's record, its settings and its PDF log, a trailer's sensors
// and chart. The office's codes: reading a load's record is LOAD_LIST, setting it LOAD_UPDATE;
// a trailer's sensors are the registry's ASSET codes.
const tags = ['temperatures'];

const temperaturesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/loads/:loadId/temperatures', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary: "A load's temperature record: its trailer's readings while it carried the load (°C), the excursions, and the set point it is judged by",
      params: loadIdParams,
      response: { 200: loadTemperaturesSchema, ...orgErrors() },
    },
    handler: (req) => service.loadTemperatures(scopeOf(req, req.params.orgId), req.params.loadId),
  });

  app.put('/organizations/:orgId/loads/:loadId/temperatures/settings', {
    config: { permissions: ['LOAD_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "Set a load's set point and tolerance (°C) and the delay before an excursion counts (minutes)",
      params: loadIdParams,
      body: reeferSettingsInputSchema,
      response: { 200: loadTemperaturesSchema, ...orgErrors() },
    },
    handler: (req) => service.saveReeferSettings(scopeOf(req, req.params.orgId), req.params.loadId, req.body),
  });

  app.get('/organizations/:orgId/loads/:loadId/temperature-log.pdf', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        "The load's temperature record for the shipper and the receiver (the sanitary transportation rule's records): readings every `interval` minutes (15 by default), excursions, the set point, signed with the carrier's name",
      params: loadIdParams,
      querystring: temperatureLogQuerySchema,
      response: { 200: nonJsonResponse('application/pdf', 'The temperature record', true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const { fileName, pdf } = await service.temperatureLog(scopeOf(req, req.params.orgId), req.params.loadId, req.query.interval);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  });

  app.get('/organizations/:orgId/assets/:assetId/temperatures', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: "A trailer's sensors and roles, and its last three days of readings (°C) and excursions",
      params: assetIdParams,
      response: { 200: trailerTemperaturesSchema, ...orgErrors() },
    },
    handler: (req) => service.trailerTemperatures(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.put('/organizations/:orgId/assets/:assetId/temperature-sensors', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "Say which of a trailer's sensors is return air, supply air or a zone (supply air opens no excursion)",
      params: assetIdParams,
      body: trailerSensorsSchema,
      response: { 200: trailerTemperaturesSchema, ...orgErrors() },
    },
    handler: (req) => service.saveTrailerSensors(scopeOf(req, req.params.orgId), req.params.assetId, req.body),
  });
};

export default temperaturesRoutes;
