import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityLogDetailSchema,
  activityLogEntrySchema,
  activityLogFiltersSchema,
  activityLogQuerySchema,
  orgIdParams,
  pageSchema,
  queryNumber,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import * as activity from './activity-log.query.ts';
import { scopeOf } from '../auth/index.ts';

/** Read-only: there is deliberately no PUT, PATCH or DELETE on the activity log. */
const activityLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['activity-log'];
  const config = { permissions: ['ACTIVITY_LOG_LIST'] as const, tokens: true };

  app.get('/organizations/:orgId/activity-logs', {
    config,
    schema: {
      tags,
      summary:
        'Activity log, newest first: filter by userId (actor), action, entityType, entityId, from/to (ISO dates), search. totalElements is exact up to 10,000 and reads 10,001 beyond',
      params: orgIdParams,
      querystring: activityLogQuerySchema,
      response: { 200: pageSchema(activityLogEntrySchema), ...orgErrors() },
    },
    handler: (req) => activity.listActivity(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/activity-logs/filters', {
    config,
    schema: { tags, summary: 'Actions and entity types present in the log', params: orgIdParams, response: { 200: activityLogFiltersSchema, ...orgErrors() } },
    handler: (req) => activity.activityFilters(scopeOf(req, req.params.orgId)),
  });

  app.get('/organizations/:orgId/activity-logs/users/:userId', {
    config,
    schema: {
      tags,
      summary: 'What one user of the organization did (the per-user view); same filters. 404 when the user is not of this organization',
      params: z.object({ orgId: z.uuid(), userId: z.uuid() }),
      querystring: activityLogQuerySchema.omit({ userId: true }),
      response: { 200: pageSchema(activityLogEntrySchema), ...orgErrors() },
    },
    handler: (req) => activity.listUserActivity(scopeOf(req, req.params.orgId), req.params.userId, req.query),
  });

  app.get('/organizations/:orgId/activity-logs/:id', {
    config,
    schema: {
      tags,
      summary: 'One entry: its sentence, before, after, the per-field difference raw and labelled in words',
      params: z.object({ orgId: z.uuid(), id: queryNumber(z.number().int().positive()) }),
      response: { 200: activityLogDetailSchema, ...orgErrors() },
    },
    handler: (req) => activity.getActivity(scopeOf(req, req.params.orgId), req.params.id),
  });
};

export default activityLogRoutes;
