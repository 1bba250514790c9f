import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fuelCsvImportBodySchema,
  fuelCsvPreviewSchema,
  fuelCsvResultSchema,
  fuelPurchaseIdParams,
  fuelPurchaseInputSchema,
  fuelPurchaseListQuery,
  fuelPurchasePageSchema,
  fuelPurchaseSchema,
  iftaAdjustmentIdParams,
  iftaAdjustmentInputSchema,
  iftaAdjustmentListQuery,
  iftaAdjustmentPageSchema,
  iftaAdjustmentSchema,
  iftaDistancePageSchema,
  iftaDistanceQuery,
  iftaExportQuery,
  iftaFilingInputSchema,
  iftaFilingListSchema,
  iftaFilingSchema,
  iftaFiltersQuery,
  iftaFiltersSchema,
  iftaRateImportBodySchema,
  iftaRateImportPreviewSchema,
  iftaRateImportResultSchema,
  iftaRateMatrixSchema,
  iftaRatesQuery,
  iftaReportQuery,
  iftaReportSchema,
  iftaReviewInputSchema,
  iftaReviewResultSchema,
  orgIdParams,
  quarterSchema,
} from '@fleet/api-contract';
import { actorOf, requireAuth, scopeOf } from '../auth/index.ts';
import { errors, nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { notFound } from '../../http/errors.ts';
import { compiledSerializer } from '../../http/compiled-serializer.ts';
import { createAdjustment, deleteAdjustment, listAdjustments } from './adjustments.service.ts';
import { commitFuelImport, createPurchase, deletePurchase, getPurchase, listPurchases, previewFuelImport, updatePurchase } from './fuel-purchases.service.ts';
import { exportDistance, exportReturn } from './ifta-export.service.ts';
import { fileQuarter, listFilings } from './ifta-filings.service.ts';
import { getRateMatrix, importRates, previewRateImport } from './ifta-rates.service.ts';
import { iftaFilters, listDistanceDays } from './ifta-records.service.ts';
import { buildReport } from './ifta-report.service.ts';
import { markReviewed } from './review-marks.service.ts';

const tags = ['ifta'];
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;
const fileResponse = { 200: nonJsonResponse('text/csv', 'CSV (UTF-8) or PDF (format=pdf) file'), ...orgErrors() };
const attachment = (name: string, type: string) => ({
  'content-type': type,
  'content-disposition': `attachment; filename="${name}"`,
  'cache-control': 'no-store',
});

/** IFTA fuel tax (issue 17): rates, filters, fuel purchases, adjustments, the return, its filings and exports. */
const iftaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings/ifta-filters', {
    config: { tokens: true },
    schema: {
      tags,
      summary:
        'Quarters with miles, purchases, rates or filings; fuel types; jurisdictions (the organization is the caller’s, or organizationId for a super administrator)',
      querystring: iftaFiltersQuery,
      response: { 200: iftaFiltersSchema, ...errors(400, 401, 404) },
    },
    handler: async (req) => {
      const ctx = requireAuth(req);
      // Tenancy: another organization's quarters are not listed (a super administrator may pick any).
      const orgId = req.query.organizationId ?? ctx.orgId;
      if (orgId && orgId !== ctx.orgId && !ctx.isSuperAdmin) throw notFound('Organization');
      return iftaFilters(app.db, orgId);
    },
  });

  app.get('/settings/ifta-rates', {
    config: { tokens: true },
    schema: {
      tags,
      summary: "A quarter's IFTA tax-rate matrix (US$ per US gallon and Can$ per litre, per jurisdiction and fuel type, with surcharges)",
      querystring: iftaRatesQuery,
      response: { 200: iftaRateMatrixSchema, ...errors(400, 401) },
    },
    handler: (req) => {
      requireAuth(req);
      return getRateMatrix(app.db, req.query.quarter);
    },
  });

  app.post('/settings/ifta-rates/preview', {
    config: { permissions: ['SUPER_ADMIN'] },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Check an official IFTA matrix CSV (TaxDownload, CSV): what would be imported, nothing saved (super administrator)',
      body: iftaRateImportBodySchema,
      response: { 200: iftaRateImportPreviewSchema, ...errors(400, 401, 403, 413) },
    },
    handler: (req) => previewRateImport(app.db, req.body.csv, req.body.quarter),
  });

  app.post('/settings/ifta-rates', {
    config: { permissions: ['SUPER_ADMIN'] },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary: "Import (or replace) a quarter's IFTA matrix for every organization (super administrator)",
      body: iftaRateImportBodySchema,
      response: { 200: iftaRateImportResultSchema, ...errors(400, 401, 403, 413) },
    },
    handler: (req) => importRates(app.db, actorOf(req), req.body.csv, { quarter: req.body.quarter, source: req.body.source }),
  });

  app.get('/organizations/:orgId/ifta/report', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    // A 500-vehicle return is a few hundred kB: compiled once instead of a zod pass per answer (decision 0044).
    serializerCompiler: compiledSerializer,
    schema: {
      tags,
      summary:
        "The quarter's IFTA return for a fuel type: fleet totals, a row per jurisdiction, per-vehicle miles, items to review, the filing and any amendment",
      params: orgIdParams,
      querystring: iftaReportQuery,
      response: { 200: iftaReportSchema, ...orgErrors() },
    },
    handler: (req) => buildReport(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/ifta/report/export', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The return as CSV or PDF (same query as the report, plus format)',
      params: orgIdParams,
      querystring: iftaExportQuery,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const { format, ...q } = req.query;
      const f = await exportReturn(scopeOf(req, req.params.orgId), q, format);
      return reply.headers(attachment(f.name, f.type)).send(f.body);
    },
  });

  app.get('/organizations/:orgId/ifta/distance-records', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Per vehicle and UTC day: first and last fix, odometer, metres per jurisdiction, state lines crossed (the distance record)',
      params: orgIdParams,
      querystring: iftaDistanceQuery,
      response: { 200: iftaDistancePageSchema, ...orgErrors() },
    },
    handler: (req) => listDistanceDays(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/ifta/distance-records/export', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The distance records of a quarter (one vehicle or all) as CSV or PDF',
      params: orgIdParams,
      querystring: z.object({
        quarter: quarterSchema,
        assetId: z.uuid().optional(),
        format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }).default('csv'),
      }),
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const f = await exportDistance(scopeOf(req, req.params.orgId), req.query, req.query.format);
      return reply.headers(attachment(f.name, f.type)).send(f.body);
    },
  });

  // Fuel purchases.
  app.get('/organizations/:orgId/ifta/fuel-purchases', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Fuel purchases (filters: quarter, vehicle, jurisdiction, fuel type, flagged; search: receipt, vendor, city, unit)',
      params: orgIdParams,
      querystring: fuelPurchaseListQuery,
      response: { 200: fuelPurchasePageSchema, ...orgErrors() },
    },
    handler: (req) => listPurchases(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/ifta/fuel-purchases/:id', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: { tags, summary: 'One fuel purchase', params: fuelPurchaseIdParams, response: { 200: fuelPurchaseSchema, ...orgErrors() } },
    handler: (req) => getPurchase(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.post('/organizations/:orgId/ifta/fuel-purchases', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Record a fuel purchase (a receipt number already recorded is a 409)',
      params: orgIdParams,
      body: fuelPurchaseInputSchema,
      response: { 201: fuelPurchaseSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await createPurchase(scopeOf(req, req.params.orgId), req.body)),
  });

  app.put('/organizations/:orgId/ifta/fuel-purchases/:id', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Edit a fuel purchase',
      params: fuelPurchaseIdParams,
      body: fuelPurchaseInputSchema,
      response: { 200: fuelPurchaseSchema, ...orgErrors(409) },
    },
    handler: (req) => updatePurchase(scopeOf(req, req.params.orgId), req.params.id, req.body),
  });

  app.delete('/organizations/:orgId/ifta/fuel-purchases/:id', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: { tags, summary: 'Delete a fuel purchase', params: fuelPurchaseIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await deletePurchase(scopeOf(req, req.params.orgId), req.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/ifta/fuel-purchases/import/preview', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary:
        'Read a fuel-card CSV through a column mapping (WEX, Comdata, EFS presets or custom): per-row errors, skipped product lines, flagged purchases; nothing saved',
      params: orgIdParams,
      body: fuelCsvImportBodySchema,
      response: { 200: fuelCsvPreviewSchema, ...orgErrors(413) },
    },
    handler: (req) => previewFuelImport(scopeOf(req, req.params.orgId), req.body),
  });

  app.post('/organizations/:orgId/ifta/fuel-purchases/import', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Import the valid rows of a fuel-card CSV in one transaction',
      params: orgIdParams,
      body: fuelCsvImportBodySchema,
      response: { 200: fuelCsvResultSchema, ...orgErrors(409, 413) },
    },
    handler: (req) => commitFuelImport(scopeOf(req, req.params.orgId), req.body),
  });

  // Adjustments.
  app.get('/organizations/:orgId/ifta/adjustments', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Mileage adjustments (filters: quarter, vehicle)',
      params: orgIdParams,
      querystring: iftaAdjustmentListQuery,
      response: { 200: iftaAdjustmentPageSchema, ...orgErrors() },
    },
    handler: (req) => listAdjustments(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/ifta/adjustments', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Add a mileage adjustment with a reason (missing trip, correction, off-highway or trip-permit miles)',
      params: orgIdParams,
      body: iftaAdjustmentInputSchema,
      response: { 201: iftaAdjustmentSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await createAdjustment(scopeOf(req, req.params.orgId), req.body)),
  });

  app.delete('/organizations/:orgId/ifta/adjustments/:id', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: { tags, summary: 'Remove a mileage adjustment', params: iftaAdjustmentIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await deleteAdjustment(scopeOf(req, req.params.orgId), req.params.id);
      return reply.code(204).send(null);
    },
  });

  // Items to review marked checked (who and when), or not checked again.
  app.put('/organizations/:orgId/ifta/review-marks', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary:
        "Mark items of a quarter's To review list reviewed (keys from the report's flags), or reviewed: false to undo; an item whose facts change later comes back unreviewed",
      params: orgIdParams,
      body: iftaReviewInputSchema,
      response: { 200: iftaReviewResultSchema, ...orgErrors() },
    },
    handler: (req) => markReviewed(scopeOf(req, req.params.orgId), req.body),
  });

  // Filings (closing a quarter; later ones are amendments).
  app.get('/organizations/:orgId/ifta/filings', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Filed returns, every version',
      params: orgIdParams,
      querystring: z.object({ quarter: quarterSchema.optional() }),
      response: { 200: iftaFilingListSchema, ...orgErrors() },
    },
    handler: (req) => listFilings(scopeOf(req, req.params.orgId), req.query.quarter),
  });

  app.post('/organizations/:orgId/ifta/filings', {
    config: { permissions: ['IFTA_FILE'], tokens: true },
    schema: {
      tags,
      summary: 'Close (file) a quarter: keep its figures; filing it again files an amendment',
      params: orgIdParams,
      body: iftaFilingInputSchema,
      response: { 201: iftaFilingSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await fileQuarter(scopeOf(req, req.params.orgId), req.body)),
  });
};

export default iftaRoutes;
