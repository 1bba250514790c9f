import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  detentionQuerySchema,
  detentionTotalsSchema,
  orgIdParams,
  reportExportQuerySchema,
  reportQuerySchema,
  stopPageSchema,
  summaryExportQuerySchema,
  summaryPageSchema,
  summaryQuerySchema,
  tripPageSchema,
  visitPageSchema,
  type ReportKind,
} from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf, type ReadScope } from '../auth/index.ts';
import { downloadReport, type ExportFile } from './reports-export.service.ts';
import {
  checkFilters,
  detentionTotals,
  queryStops,
  querySummary,
  queryTrips,
  queryVisits,
  reportContext,
  reportPage,
  type ReportContext,
  type ReportQuery,
} from './reports.service.ts';

// Trips, stops, place visits, daily summary and detention totals (issue 32, decision 0163): each
// report a page in the reader's zone, and a CSV or PDF download of the same rows.

const tags = ['reports'];
const permissions = ['REPORT_LIST'] as const;
const fileResponse = { 200: nonJsonResponse('text/csv', 'CSV (UTF-8), or PDF with format=pdf'), ...orgErrors() };
/** One page of a report for the signed-in reader of `/organizations/:orgId/…`. */
const page = <R>(
  req: FastifyRequest<{ Params: { orgId: string }; Querystring: ReportQuery }>,
  read: (scope: ReadScope, ctx: ReportContext) => Promise<{ rows: R[]; total: number }>,
) => {
  const scope = scopeOf(req, req.params.orgId);
  return reportPage(scope, requireAuth(req).userId, req.query, (ctx) => read(scope, ctx));
};
const attachment = (f: ExportFile) => ({ 'content-type': f.type, 'content-disposition': `attachment; filename="${f.name}"`, 'cache-control': 'no-store' });

const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/reports/visits', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary: "Place visits, newest first: arrival, departure, dwell, and detention beyond the organization's free time at customers",
      params: orgIdParams,
      querystring: reportQuerySchema,
      response: { 200: visitPageSchema, ...orgErrors() },
    },
    handler: (req) => page(req, (scope, ctx) => queryVisits(scope, ctx, req.query, req.query)),
  });

  app.get('/organizations/:orgId/reports/trips', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary: 'Trips, newest first: from moving to stopped, with start and end place or address, distance, duration, speeds and driver',
      params: orgIdParams,
      querystring: reportQuerySchema,
      response: { 200: tripPageSchema, ...orgErrors() },
    },
    handler: (req) => page(req, (scope) => queryTrips(scope, req.query, req.query)),
  });

  app.get('/organizations/:orgId/reports/stops', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary: 'Stops, newest first: where, how long, idling (engine on) time',
      params: orgIdParams,
      querystring: reportQuerySchema,
      response: { 200: stopPageSchema, ...orgErrors() },
    },
    handler: (req) => page(req, (scope, ctx) => queryStops(scope, ctx, req.query, req.query)),
  });

  app.get('/organizations/:orgId/reports/summary', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary:
        "Daily summary per vehicle (or per driver: by=driver, or a driverId) and day in the reader's zone: distance, driving, idling, stops, first and last movement",
      params: orgIdParams,
      querystring: summaryQuerySchema,
      response: { 200: summaryPageSchema, ...orgErrors() },
    },
    handler: (req) => page(req, (scope, ctx) => querySummary(scope, ctx, req.query, req.query)),
  });

  app.get('/organizations/:orgId/reports/detention', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary: "Detention per customer place: visits, dwell, and time beyond the organization's free time",
      params: orgIdParams,
      querystring: detentionQuerySchema,
      response: { 200: detentionTotalsSchema, ...orgErrors() },
    },
    handler: async (req) => {
      const scope = scopeOf(req, req.params.orgId);
      await checkFilters(scope, req.query);
      return detentionTotals(scope, await reportContext(scope, requireAuth(req).userId), req.query);
    },
  });

  const downloads: Array<[string, ReportKind]> = [
    ['visits', 'VISITS'],
    ['trips', 'TRIPS'],
    ['stops', 'STOPS'],
  ];
  for (const [path, kind] of downloads) {
    app.get(`/organizations/:orgId/reports/${path}/export`, {
      config: { permissions, tokens: true },
      schema: {
        tags,
        summary: `The ${path} report as CSV or PDF, in the organization's units and the reader's zone`,
        params: orgIdParams,
        querystring: reportExportQuerySchema,
        response: fileResponse,
      },
      handler: async (req, reply) => {
        const f = await downloadReport(scopeOf(req, req.params.orgId), requireAuth(req).userId, kind, req.query, req.query.format);
        return reply.headers(attachment(f)).send(f.body);
      },
    });
  }

  app.get('/organizations/:orgId/reports/summary/export', {
    config: { permissions, tokens: true },
    schema: {
      tags,
      summary: "The daily summary as CSV or PDF, in the organization's units and the reader's zone",
      params: orgIdParams,
      querystring: summaryExportQuerySchema,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const f = await downloadReport(scopeOf(req, req.params.orgId), requireAuth(req).userId, 'SUMMARY', req.query, req.query.format);
      return reply.headers(attachment(f)).send(f.body);
    },
  });
};

export default reportsRoutes;
