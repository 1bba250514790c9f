import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataRetentionInputSchema, dataRetentionSchema, orgIdParams } from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import * as retention from './data-retention.service.ts';

const dataRetentionRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['data-retention'];

  app.get('/organizations/:orgId/data-retention', {
    config: { permissions: ['RET_READ'], tokens: true },
    schema: {
      tags,
      summary: 'Retention period per data kind with its legal minimum, and the purge job (last run, next run, rows removed)',
      params: orgIdParams,
      response: { 200: dataRetentionSchema, ...orgErrors() },
    },
    handler: (req) => retention.getDataRetention(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/data-retention', {
    config: { permissions: ['RET_READ', 'RET_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Change retention periods (days, or null to keep forever); below the legal minimum is a 400',
      params: orgIdParams,
      body: dataRetentionInputSchema,
      response: { 200: dataRetentionSchema, ...orgErrors() },
    },
    handler: (req) => retention.updateDataRetention(scopeOf(req, req.params.orgId), req.body),
  });
};

export default dataRetentionRoutes;
