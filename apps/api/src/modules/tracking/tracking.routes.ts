import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assetIdParams,
  loadContactListSchema,
  loadContactsInputSchema,
  loadIdParams,
  loadShareLinkCreateSchema,
  shareLinkCreatedSchema,
  shareLinkIdParams,
  shareLinkListSchema,
  vehicleShareLinkCreateSchema,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { listContacts, replaceContacts } from './load-contacts.service.ts';
import * as links from './share-links.service.ts';
import { trackingKey } from './tracking-tokens.ts';

// Customer tracking for the office (issue 69, decision 0282): a load's or a vehicle's tracking links
// and a load's contacts. Links and contacts are the load's (LOAD_UPDATE to change, LOAD_LIST to read)
// or the vehicle's (ASSET_UPDATE, ASSET_LIST). Open to API tokens (decision 0226): a TMS shares the
// loads it sends; a token acts for its organization and its links name no creator.
const tags = ['tracking'];
const loadLinkParams = loadIdParams.extend({ linkId: z.uuid('linkId must be a link id') });

const trackingRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;
  const key = () => trackingKey(app.apiTokenKey);

  app.post('/organizations/:orgId/loads/:loadId/share-links', {
    config: { permissions: ['LOAD_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Make a tracking link for the load (the url, with its token, is shown only here); by default it ends 24 h after the last stop’s appointment',
      params: loadIdParams,
      body: loadShareLinkCreateSchema,
      response: { 201: shareLinkCreatedSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await links.createLoadLink(scopeOf(req, req.params.orgId), publicUrl, req.params.loadId, req.body)),
  });

  app.get('/organizations/:orgId/loads/:loadId/share-links', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The load’s tracking links, active, expired and revoked, with when each was last viewed and how often',
      params: loadIdParams,
      response: { 200: shareLinkListSchema, ...orgErrors() },
    },
    handler: (req) => links.listLoadLinks(scopeOf(req, req.params.orgId), req.params.loadId),
  });

  app.delete('/organizations/:orgId/loads/:loadId/share-links/:linkId', {
    config: { permissions: ['LOAD_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Revoke a tracking link of the load: it answers 404 from now on and stays listed as revoked',
      params: loadLinkParams,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await links.revokeLink(scopeOf(req, req.params.orgId), req.params.linkId, req.params.loadId);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/assets/:assetId/share-links', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Make a tracking link for a vehicle, for a time box: expiresAt is required, in the future and at most 7 days ahead',
      params: assetIdParams,
      body: vehicleShareLinkCreateSchema,
      response: { 201: shareLinkCreatedSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await links.createVehicleLink(scopeOf(req, req.params.orgId), publicUrl, req.params.assetId, req.body)),
  });

  app.get('/organizations/:orgId/assets/:assetId/share-links', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The vehicle’s tracking links, with when each was last viewed and how often',
      params: assetIdParams,
      response: { 200: shareLinkListSchema, ...orgErrors() },
    },
    handler: (req) => links.listVehicleLinks(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.delete('/organizations/:orgId/share-links/:linkId', {
    config: { anyPermissions: ['LOAD_UPDATE', 'ASSET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Revoke any tracking link of the organization: a load’s takes LOAD_UPDATE, a vehicle’s ASSET_UPDATE',
      params: shareLinkIdParams,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await links.revokeAnyLink(scopeOf(req, req.params.orgId), requireAuth(req), req.params.linkId);
      return reply.code(204).send(null);
    },
  });

  app.get('/organizations/:orgId/loads/:loadId/contacts', {
    config: { permissions: ['LOAD_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The load’s contacts (shipper, consignee, broker), the notices each chose and those sent',
      params: loadIdParams,
      response: { 200: loadContactListSchema, ...orgErrors() },
    },
    handler: (req) => listContacts(scopeOf(req, req.params.orgId), req.params.loadId),
  });

  app.put('/organizations/:orgId/loads/:loadId/contacts', {
    config: { permissions: ['LOAD_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Replace the load’s contacts (at most 10); a contact kept by e-mail keeps its unsubscribe and the notices it was sent',
      params: loadIdParams,
      body: loadContactsInputSchema,
      response: { 200: loadContactListSchema, ...orgErrors() },
    },
    handler: (req) => replaceContacts(scopeOf(req, req.params.orgId), key(), req.params.loadId, req.body),
  });
};

export default trackingRoutes;
