import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgIdParams, revenueExportQuerySchema, revenueQuerySchema, revenueReportSchema } from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { revenueCsv } from './revenue-export.ts';
import { revenueReport } from './revenue.service.ts';

// Revenue analytics (issue 33, decision 0166): the spec's ANALYTICS_REVENUE.
const tags = ['analytics'];

const revenueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/analytics/revenue', {
    config: { permissions: ['ANALYTICS_REVENUE'], tokens: true },
    schema: {
      tags,
      summary:
        'Revenue of the loads delivered in [from, to), loaded and total km with deadhead from positions, per truck, driver, customer or lane and per week or month',
      params: orgIdParams,
      querystring: revenueQuerySchema,
      response: { 200: revenueReportSchema, ...orgErrors() },
    },
    handler: (req) => revenueReport(scopeOf(req, req.params.orgId), req.auth?.userId ?? null, req.query),
  });

  app.get('/organizations/:orgId/analytics/revenue/export', {
    config: { permissions: ['ANALYTICS_REVENUE'], tokens: true },
    schema: {
      tags,
      summary: "The revenue report as CSV in the organization's units and currency",
      params: orgIdParams,
      querystring: revenueExportQuerySchema,
      response: { 200: nonJsonResponse('text/csv', 'The groups, the periods and the total'), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const csv = await revenueCsv(scopeOf(req, req.params.orgId), req.auth?.userId ?? null, req.query);
      return reply
        .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${csv.filename}"`, 'cache-control': 'no-store' })
        .send(csv.body);
    },
  });
};

export default revenueRoutes;
