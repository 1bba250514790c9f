import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orgIdParams,
  reportSubscriptionIdParams,
  reportSubscriptionInputSchema,
  reportSubscriptionListQuery,
  reportSubscriptionPageSchema,
  reportSubscriptionSchema,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import * as subs from './report-subscriptions.service.ts';

// Scheduled reports (issue 32, decision 0163): whoever reads the reports subscribes to them.
const tags = ['reports'];
const permissions = ['REPORT_LIST'] as const;

const reportSubscriptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/report-subscriptions', {
    config: { permissions },
    schema: {
      tags,
      summary: "The caller's scheduled reports (all=true: everyone's, with USER_LIST)",
      params: orgIdParams,
      querystring: reportSubscriptionListQuery,
      response: { 200: reportSubscriptionPageSchema, ...orgErrors() },
    },
    handler: (req) => subs.listSubscriptions(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.post('/organizations/:orgId/report-subscriptions', {
    config: { permissions },
    schema: {
      tags,
      summary: 'Subscribe to a report, e-mailed daily at a time or weekly on a day, in the given zone (default: the profile zone)',
      params: orgIdParams,
      body: reportSubscriptionInputSchema,
      response: { 201: reportSubscriptionSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await subs.createSubscription(scopeOf(req, req.params.orgId), requireAuth(req), req.body)),
  });

  app.get('/organizations/:orgId/report-subscriptions/:subscriptionId', {
    config: { permissions },
    schema: { tags, summary: 'A scheduled report', params: reportSubscriptionIdParams, response: { 200: reportSubscriptionSchema, ...orgErrors() } },
    handler: (req) => subs.getSubscription(scopeOf(req, req.params.orgId), requireAuth(req), req.params.subscriptionId),
  });

  app.put('/organizations/:orgId/report-subscriptions/:subscriptionId', {
    config: { permissions },
    schema: {
      tags,
      summary: 'Replace one of your scheduled reports (its next run is computed again)',
      params: reportSubscriptionIdParams,
      body: reportSubscriptionInputSchema,
      response: { 200: reportSubscriptionSchema, ...orgErrors() },
    },
    handler: (req) => subs.updateSubscription(scopeOf(req, req.params.orgId), requireAuth(req), req.params.subscriptionId, req.body),
  });

  app.delete('/organizations/:orgId/report-subscriptions/:subscriptionId', {
    config: { permissions },
    schema: {
      tags,
      summary: 'Unsubscribe (your own, or anyone’s with USER_LIST)',
      params: reportSubscriptionIdParams,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await subs.deleteSubscription(scopeOf(req, req.params.orgId), requireAuth(req), req.params.subscriptionId);
      return reply.code(204).send(null);
    },
  });
};

export default reportSubscriptionsRoutes;
