import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orgIdParams,
  webhookCreatedSchema,
  webhookDeliveryListQuery,
  webhookDeliveryPageSchema,
  webhookDeliveryParams,
  webhookDeliverySchema,
  webhookEventTypeListSchema,
  webhookIdParams,
  webhookInputSchema,
  webhookListSchema,
  webhookSchema,
  webhookSecretSchema,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import * as svc from './webhooks.service.ts';

// Webhooks (issue 48, decision 0198): Organization account → Webhooks. Each event type's payload is
// in the API document's webhooks section (openapiWebhooks).
const tags = ['integrations'];
// Open to API tokens (decision 0226): an integration manages its own subscriptions.
const config = { permissions: ['WEBHOOK_MANAGE'] as const, tokens: true };

const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const rules = () => ({ allowHttp: app.config.webhooks.allowHttp, allowPrivate: app.config.webhooks.allowPrivate });

  app.get('/organizations/:orgId/webhooks', {
    config,
    schema: {
      tags,
      summary: "The organization's webhook subscriptions, newest first (never their secrets)",
      params: orgIdParams,
      response: { 200: webhookListSchema, ...orgErrors() },
    },
    handler: (req) => svc.listWebhooks(scopeOf(req, req.params.orgId), app.config.webhooks.maxPerOrg),
  });

  app.get('/organizations/:orgId/webhooks/event-types', {
    config,
    schema: {
      tags,
      summary: 'The event types a subscription may ask for, each with a description and an example body',
      params: orgIdParams,
      response: { 200: webhookEventTypeListSchema, ...orgErrors() },
    },
    handler: (req) => svc.eventTypes(req.params.orgId),
  });

  app.post('/organizations/:orgId/webhooks', {
    config,
    schema: {
      tags,
      summary:
        'Subscribe a URL to event types. The answer holds the signing secret (`whsec_…`, Standard Webhooks): the only time it is shown until a rotation. https only (http where WEBHOOK_ALLOW_HTTP=1); private addresses are refused. An organization has at most WEBHOOK_MAX_PER_ORG subscriptions (50 by default; the list says `limit`): past it, 400.',
      params: orgIdParams,
      body: webhookInputSchema,
      response: { 201: webhookCreatedSchema, ...orgErrors() },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await svc.createWebhook(scopeOf(req, req.params.orgId), rules(), app.config.webhooks.maxPerOrg, req.body)),
  });

  app.get('/organizations/:orgId/webhooks/:id', {
    config,
    schema: { tags, summary: 'One webhook subscription', params: webhookIdParams, response: { 200: webhookSchema, ...orgErrors() } },
    handler: (req) => svc.getWebhook(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.put('/organizations/:orgId/webhooks/:id', {
    config,
    schema: {
      tags,
      summary: 'Change the URL, event types, description or whether it is on (turning it on sends what waited)',
      params: webhookIdParams,
      body: webhookInputSchema,
      response: { 200: webhookSchema, ...orgErrors() },
    },
    handler: (req) => svc.updateWebhook(scopeOf(req, req.params.orgId), rules(), req.params.id, req.body),
  });

  app.delete('/organizations/:orgId/webhooks/:id', {
    config,
    schema: { tags, summary: 'Delete a subscription and its deliveries', params: webhookIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await svc.deleteWebhook(scopeOf(req, req.params.orgId), req.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/webhooks/:id/rotate-secret', {
    config,
    schema: {
      tags,
      summary: 'A new signing secret; the previous one keeps signing beside it for 24 hours',
      params: webhookIdParams,
      response: { 200: webhookSecretSchema, ...orgErrors() },
    },
    handler: (req) => svc.rotateWebhookSecret(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.get('/organizations/:orgId/webhooks/:id/deliveries', {
    config,
    schema: {
      tags,
      summary: "A subscription's deliveries, newest first: status, attempts, the last answer's code and time",
      params: webhookIdParams,
      querystring: webhookDeliveryListQuery,
      response: { 200: webhookDeliveryPageSchema, ...orgErrors() },
    },
    handler: (req) => svc.listDeliveries(scopeOf(req, req.params.orgId), req.params.id, req.query),
  });

  app.post('/organizations/:orgId/webhooks/:id/deliveries/:deliveryId/resend', {
    config,
    schema: {
      tags,
      summary: "Send a delivery's event again (same webhook-id), at the end of the subscription's queue",
      params: webhookDeliveryParams,
      response: { 201: webhookDeliverySchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await svc.resendDelivery(scopeOf(req, req.params.orgId), req.params.id, req.params.deliveryId)),
  });

  app.post('/organizations/:orgId/webhooks/:id/test', {
    config,
    schema: {
      tags,
      summary: 'Send a `webhook.test` event to this subscription (409 while it is off)',
      params: webhookIdParams,
      response: { 201: webhookDeliverySchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await svc.sendTestEvent(scopeOf(req, req.params.orgId), req.params.id)),
  });
};

export default webhooksRoutes;
