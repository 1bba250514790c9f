import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orgIdParams,
  placeCurrentQuery,
  placeExportQuery,
  placeIdParams,
  placeImportBodySchema,
  placeImportResultSchema,
  placeInputSchema,
  placeListQuery,
  placePageSchema,
  placeSchema,
  vehiclePlacesSchema,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { importPlaces } from './place-import.ts';
import { currentPlaces } from './places-current.service.ts';
import { placesGeoJson } from './places-export.ts';
import * as service from './places.service.ts';

// Places and geofences (issue 32, decision 0162).
const tags = ['places'];
/** 10,000 polygons of a few dozen corners fit in about 8 MB. */
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

const placesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/places', {
    config: { permissions: ['PLACE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Places, with search, category, group and map-area (bbox) filters',
      params: orgIdParams,
      querystring: placeListQuery,
      response: { 200: placePageSchema, ...orgErrors() },
    },
    handler: (req) => service.listPlaces(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/places', {
    config: { permissions: ['PLACE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Create a place (a circle: a Point with radiusMeters; or a Polygon)',
      params: orgIdParams,
      body: placeInputSchema,
      response: { 201: placeSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await service.createPlace(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/places/export', {
    config: { permissions: ['PLACE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The places the filters select as a GeoJSON FeatureCollection',
      params: orgIdParams,
      querystring: placeExportQuery,
      response: { 200: nonJsonResponse('application/geo+json', 'GeoJSON FeatureCollection: circles are Points with a radiusMeters property'), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const list = await service.allPlaces(scopeOf(req, req.params.orgId), req.query);
      return reply
        .headers({
          'content-type': 'application/geo+json; charset=utf-8',
          'content-disposition': `attachment; filename="places-${new Date().toISOString().slice(0, 10)}.geojson"`,
          'cache-control': 'no-store',
        })
        .send(JSON.stringify(placesGeoJson(list)));
    },
  });

  app.post('/organizations/:orgId/places/import', {
    config: { permissions: ['PLACE_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Import places from a CSV or a GeoJSON FeatureCollection (dryRun: check only), with per-row errors',
      params: orgIdParams,
      body: placeImportBodySchema,
      response: { 200: placeImportResultSchema, ...orgErrors(413) },
    },
    handler: (req) => importPlaces(scopeOf(req, req.params.orgId), req.body),
  });

  app.get('/organizations/:orgId/places/current', {
    config: { permissions: ['PLACE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The vehicles now at a place (open visits)',
      params: orgIdParams,
      querystring: placeCurrentQuery,
      response: { 200: vehiclePlacesSchema, ...orgErrors() },
    },
    handler: (req) => currentPlaces(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/places/:placeId', {
    config: { permissions: ['PLACE_LIST'], tokens: true },
    schema: { tags, summary: 'A place', params: placeIdParams, response: { 200: placeSchema, ...orgErrors() } },
    handler: (req) => service.getPlace(scopeOf(req, req.params.orgId), req.params.placeId),
  });

  app.put('/organizations/:orgId/places/:placeId', {
    config: { permissions: ['PLACE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Replace a place (events from now on follow the new shape)',
      params: placeIdParams,
      body: placeInputSchema,
      response: { 200: placeSchema, ...orgErrors() },
    },
    handler: (req) => service.updatePlace(scopeOf(req, req.params.orgId), req.params.placeId, req.body),
  });

  app.delete('/organizations/:orgId/places/:placeId', {
    config: { permissions: ['PLACE_UPDATE'], tokens: true },
    schema: { tags, summary: 'Delete a place and its visits', params: placeIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await service.deletePlace(scopeOf(req, req.params.orgId), req.params.placeId);
      return reply.code(204).send(null);
    },
  });
};

export default placesRoutes;
