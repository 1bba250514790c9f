import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assetDetailSchema,
  assetDriverParams,
  assetIdParams,
  assetInputSchema,
  assetListQuery,
  assetPageSchema,
  assetTrailerParams,
  driverCardReadListSchema,
  orgIdParams,
  removalResultSchema,
} from '@fleet/api-contract';
import { scopeOf } from '../auth/index.ts';
import { compiledSerializer } from '../../http/compiled-serializer.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import * as links from './asset-links.service.ts';
import { vehicleCardReads } from './driver-cards.service.ts';
import * as svc from './assets.service.ts';

const tags = ['assets'];

const assetsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/assets', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Vehicles and trailers: paged (size 15), sorted, searched (unit, VIN, plate, make, model), filtered by type, status and group',
      params: orgIdParams,
      querystring: assetListQuery,
      response: { 200: assetPageSchema, ...orgErrors() },
    },
    // A page of 15 records with links: the compiled serializer (decision 0044) instead of zod at run time.
    serializerCompiler: compiledSerializer,
    handler: (req) => svc.listAssetRows(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/assets', {
    config: { permissions: ['ASSET_CREATE'], tokens: true },
    schema: { tags, summary: 'Add a vehicle or trailer', params: orgIdParams, body: assetInputSchema, response: { 201: assetDetailSchema, ...orgErrors(409) } },
    handler: async (req, reply) => reply.code(201).send(await svc.createAsset(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/assets/:assetId', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Vehicle or trailer detail: driver, trailers, device, history, recent activity',
      params: assetIdParams,
      response: { 200: assetDetailSchema, ...orgErrors() },
    },
    handler: (req) => svc.getAsset(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.get('/organizations/:orgId/assets/:assetId/card-reads', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: "The driver cards the vehicle's device read lately (newest first), and how many reads are of unknown cards",
      params: assetIdParams,
      response: { 200: driverCardReadListSchema, ...orgErrors() },
    },
    handler: (req) => vehicleCardReads(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.put('/organizations/:orgId/assets/:assetId', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Edit a vehicle or trailer (deactivating releases its driver, trailers and device)',
      params: assetIdParams,
      body: assetInputSchema,
      response: { 200: assetDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => svc.updateAsset(scopeOf(req, req.params.orgId), req.params.assetId, req.body),
  });

  app.delete('/organizations/:orgId/assets/:assetId', {
    config: { permissions: ['ASSET_DELETE'], tokens: true },
    schema: {
      tags,
      summary: 'Delete, or deactivate when history references it',
      params: assetIdParams,
      response: { 200: removalResultSchema, ...orgErrors() },
    },
    handler: (req) => svc.removeAsset(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.put('/organizations/:orgId/assets/:assetId/driver/:driverId', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "Assign a driver to a vehicle (ends the vehicle's and the driver's previous assignments)",
      params: assetDriverParams,
      response: { 200: assetDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => links.assignDriverToVehicle(scopeOf(req, req.params.orgId), req.params.assetId, req.params.driverId),
  });

  app.delete('/organizations/:orgId/assets/:assetId/driver', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: { tags, summary: "End the vehicle's driver assignment", params: assetIdParams, response: { 200: assetDetailSchema, ...orgErrors() } },
    handler: (req) => links.unassignDriverFromVehicle(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.post('/organizations/:orgId/assets/:assetId/attach/:id', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Attach trailer {id} to vehicle {assetId} (moves it from another vehicle)',
      params: assetTrailerParams,
      response: { 200: assetDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => links.attachTrailer(scopeOf(req, req.params.orgId), req.params.assetId, req.params.id),
  });

  app.post('/organizations/:orgId/assets/:assetId/deattach/:id', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Detach trailer {id} from vehicle {assetId}',
      params: assetTrailerParams,
      response: { 200: assetDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => links.detachTrailer(scopeOf(req, req.params.orgId), req.params.assetId, req.params.id),
  });
};

export default assetsRoutes;
