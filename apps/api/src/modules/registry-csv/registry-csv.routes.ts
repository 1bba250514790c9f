import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assetListQuery,
  csvImportBodySchema,
  driverListQuery,
  gatewayListQuery,
  importPreviewSchema,
  importResultSchema,
  orgIdParams,
  type ImportKind,
  type Permission,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { textFileBody } from '../../http/utf8-body.ts';
import { exportAssets, exportDrivers, exportGateways } from './csv-export.service.ts';
import { commitImport, previewImport, templateCsv } from './csv-import.service.ts';
import { scopeOf } from '../auth/index.ts';

const tags = ['registry CSV'];
const csvResponse = { 200: nonJsonResponse('text/csv', 'CSV file (UTF-8, comma-separated), the first line the column headers'), ...orgErrors() };
/** 5,000 drivers are about 1.2 MB of CSV: imports get more room than the global body limit. */
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

const attachment = (name: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
  'cache-control': 'no-store',
});

const IMPORTS: Array<{ kind: ImportKind; permission: Permission }> = [
  { kind: 'vehicles', permission: 'ASSET_CREATE' },
  { kind: 'trailers', permission: 'ASSET_CREATE' },
  { kind: 'drivers', permission: 'DRIVER_CREATE' },
];

/** CSV export of the filtered registry lists, and CSV import (template, preview, confirm). */
const registryCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  // `curl --data-binary @fleet.csv -H 'content-type: text/csv'` works as well as JSON {csv}.
  // UTF-8 or a 400 naming the line (a lenient decoding stored U+FFFD for every other byte).
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (_req, body, done) =>
    done(null, { csv: textFileBody(body as Buffer, 'csv') }),
  );

  app.get('/organizations/:orgId/assets/export', {
    config: { permissions: ['ASSET_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'The filtered vehicle or trailer list as CSV (same filters as the list; columns to choose)',
      params: orgIdParams,
      querystring: assetListQuery,
      response: csvResponse,
    },
    handler: async (req, reply) => {
      const csv = await exportAssets(scopeOf(req, req.params.orgId), req.query);
      return reply.headers(attachment(req.query.type === 'TRAILER' ? 'trailers' : req.query.type === 'VEHICLE' ? 'vehicles' : 'assets')).send(csv);
    },
  });

  app.get('/organizations/:orgId/drivers/export', {
    config: { permissions: ['DRIVER_LIST'], tokens: true },
    schema: { tags, summary: 'The filtered driver list as CSV', params: orgIdParams, querystring: driverListQuery, response: csvResponse },
    handler: async (req, reply) => reply.headers(attachment('drivers')).send(await exportDrivers(scopeOf(req, req.params.orgId), req.query)),
  });

  app.get('/organizations/:orgId/gateways/export', {
    config: { permissions: ['GAT_LIST'], tokens: true },
    schema: { tags, summary: 'The filtered device list as CSV', params: orgIdParams, querystring: gatewayListQuery, response: csvResponse },
    handler: async (req, reply) => reply.headers(attachment('devices')).send(await exportGateways(scopeOf(req, req.params.orgId), req.query)),
  });

  for (const { kind, permission } of IMPORTS) {
    app.get(`/organizations/:orgId/imports/${kind}/template`, {
      config: { permissions: [permission], tokens: true },
      schema: { tags, summary: `CSV template for importing ${kind}`, params: orgIdParams, response: csvResponse },
      handler: async (req, reply) =>
        reply
          .headers({ ...attachment(`${kind}-template`), 'content-disposition': `attachment; filename="${kind}-import-template.csv"` })
          .send(`${await templateCsv(scopeOf(req, req.params.orgId), kind)}\r\n`),
    });

    app.post(`/organizations/:orgId/imports/${kind}/preview`, {
      config: { permissions: [permission], tokens: true },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: `Check a ${kind} CSV: per-row errors and a sample, nothing saved`,
        params: orgIdParams,
        body: csvImportBodySchema,
        response: { 200: importPreviewSchema, ...orgErrors(413) },
      },
      handler: (req) => previewImport(scopeOf(req, req.params.orgId), kind, req.body.csv),
    });

    app.post(`/organizations/:orgId/imports/${kind}`, {
      config: { permissions: [permission], tokens: true },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: `Import the valid rows of a ${kind} CSV in one transaction`,
        params: orgIdParams,
        body: csvImportBodySchema,
        response: { 200: importResultSchema, ...orgErrors(409, 413) },
      },
      handler: (req) => commitImport(scopeOf(req, req.params.orgId), kind, req.body.csv),
    });
  }
};

export default registryCsvRoutes;
