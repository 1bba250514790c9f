import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOrganizationResponseSchema,
  createOrganizationSchema,
  organizationAccountSchema,
  organizationListQuerySchema,
  organizationSchema,
  organizationSettingsSchema,
  organizationSummarySchema,
  orgIdParams,
  orgIngestTokenCreatedSchema,
  orgIngestTokenStatusSchema,
  pageSchema,
} from '@fleet/api-contract';
import { uploadedFileBytes } from '../images/index.ts';
import { checkedElsewhere, errors, imageUploadBody, orgErrors } from '../../http/route-schemas.ts';
import { actorOf, scopeOf } from '../auth/index.ts';
import * as orgs from './organizations.service.ts';
import { ingestTokenStatus, rotateIngestToken } from './ingest-token.service.ts';

const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['organizations'];
  // Super administration.
  app.get('/organizations', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags,
      summary: 'Every organization (super administrator): search by name, DOT or MC number, filter by status',
      querystring: organizationListQuerySchema,
      response: { 200: pageSchema(organizationSummarySchema), ...errors(400, 401, 403) },
    },
    handler: (req) => orgs.listOrganizations({ db: app.db }, req.query),
  });

  app.post('/organizations', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags,
      summary: 'Create an organization and invite its first administrator by e-mail (super administrator)',
      body: createOrganizationSchema,
      response: { 201: createOrganizationResponseSchema, ...errors(400, 401, 403, 409) },
    },
    handler: async (req, reply) => {
      const out = await orgs.createOrganization({ db: app.db, actor: actorOf(req), mailer: app.mailer, publicUrl: app.config.publicUrl }, req.body);
      return reply.code(201).send(out);
    },
  });

  for (const [path, status] of [
    ['deactivate', 'INACTIVE'],
    ['activate', 'ACTIVE'],
  ] as const) {
    app.post(`/organizations/:orgId/${path}`, {
      config: { permissions: ['SUPER_ADMIN'] },
      schema: {
        tags,
        summary:
          status === 'INACTIVE'
            ? 'Deactivate an organization: its users cannot sign in, sessions end, data is kept (super administrator)'
            : 'Reactivate an organization (super administrator)',
        params: orgIdParams,
        response: { 200: organizationSchema, ...orgErrors() },
      },
      handler: (req) => orgs.setOrganizationStatus(scopeOf(req, req.params.orgId), status),
    });
  }

  // Organization account.
  app.get('/organizations/:orgId', {
    config: { permissions: ['ORG_READ'], tokens: true },
    schema: { tags, summary: 'The organization account with its settings', params: orgIdParams, response: { 200: organizationSchema, ...orgErrors() } },
    handler: (req) => orgs.getOrganization(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Edit the organization account (legal name, DOT and MC numbers, address, phone, time zone)',
      params: orgIdParams,
      body: organizationAccountSchema,
      response: { 200: organizationSchema, ...orgErrors() },
    },
    handler: (req) => orgs.updateAccount(scopeOf(req, req.params.orgId), req.body),
  });

  // Every member reads the settings: units, thresholds and the theme flag shape every screen.
  app.get('/organizations/:orgId/settings', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'Organization settings with defaults: units, 24-hour period start, default HoS ruleset, dark mode, telematics thresholds',
      params: orgIdParams,
      response: { 200: organizationSettingsSchema, ...orgErrors() },
    },
    handler: (req) => orgs.getSettings(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/settings', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Change the organization settings',
      params: orgIdParams,
      body: organizationSettingsSchema,
      response: { 200: organizationSettingsSchema, ...orgErrors() },
    },
    handler: (req) => orgs.updateSettings(scopeOf(req, req.params.orgId), req.body),
  });

  // Traccar forwarding (decision 0154): under the organization account's permissions.
  app.get('/organizations/:orgId/ingest-token', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'] },
    schema: {
      tags,
      summary: 'Whether the organization has a Traccar forwarding token, since when, last used; and the forward.url',
      params: orgIdParams,
      response: { 200: orgIngestTokenStatusSchema, ...orgErrors() },
    },
    handler: (req) => ingestTokenStatus(scopeOf(req, req.params.orgId), app.config.publicUrl),
  });

  app.post('/organizations/:orgId/ingest-token', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'] },
    schema: {
      tags,
      summary: 'Create or rotate the Traccar forwarding token (shown once; the old one stops working)',
      params: orgIdParams,
      response: { 200: orgIngestTokenCreatedSchema, ...orgErrors() },
    },
    handler: (req) => rotateIngestToken(scopeOf(req, req.params.orgId), app.config.publicUrl),
  });

  app.post('/organizations/:orgId/image', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: `Upload the organization logo (multipart field "file": PNG, JPEG, GIF or WebP; 413 above IMAGE_LIMIT_BYTES)`,
      consumes: ['multipart/form-data'],
      params: orgIdParams,
      body: imageUploadBody,
      response: { 200: z.object({ logo: z.string() }), ...orgErrors(413) },
    },
    validatorCompiler: checkedElsewhere({ body: 'handler' }),
    handler: async (req) => {
      const data = await uploadedFileBytes(req);
      const logo = await orgs.setLogo(scopeOf(req, req.params.orgId), data);
      return { logo: logo ?? '' };
    },
  });

  app.delete('/organizations/:orgId/image', {
    config: { permissions: ['ORG_READ', 'ORG_UPDATE'], tokens: true },
    schema: { tags, summary: 'Remove the organization logo', params: orgIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await orgs.setLogo(scopeOf(req, req.params.orgId), null);
      return reply.code(204).send(null);
    },
  });
};

export default organizationsRoutes;
