import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dvirIdParams, maintenanceExportQuery, maintenanceHistoryExportQuery, orgIdParams } from '@fleet/api-contract';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { exportDvir, exportHistory, type ExportFile } from './maintenance-export.service.ts';

// Downloads of an inspection report (the officer's one-page PDF, or CSV) and of a unit's maintenance
// history (issue 31, decision 0160), as the IFTA exports are served.

const tags = ['maintenance'];
const fileResponse = { 200: nonJsonResponse('text/csv', 'CSV (UTF-8) or PDF (format=pdf) file'), ...orgErrors() };
const attachment = (f: ExportFile) => ({ 'content-type': f.type, 'content-disposition': `attachment; filename="${f.name}"`, 'cache-control': 'no-store' });

const maintenanceExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/dvirs/:dvirId/export', {
    // Whoever reads the report (the office, or a driver of the vehicle) may download it.
    config: { anyPermissions: ['DVIR_LIST', 'DVIR_SELF_WRITE'], tokens: true },
    schema: {
      tags,
      summary: 'An inspection report as CSV, or as a one-page PDF form for a roadside officer (format=pdf)',
      params: dvirIdParams,
      querystring: maintenanceExportQuery,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const f = await exportDvir(scopeOf(req, req.params.orgId), requireAuth(req), req.params.dvirId, req.query.format);
      return reply.headers(attachment(f)).send(f.body);
    },
  });

  app.get('/organizations/:orgId/maintenance/history/export', {
    config: { anyPermissions: ['MAINTENANCE_LIST', 'WORK_ORDER_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        "A vehicle's or trailer's maintenance history, newest first: inspections, defects and their certification, work orders, services (CSV, or PDF with format=pdf)",
      params: orgIdParams,
      querystring: maintenanceHistoryExportQuery,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const f = await exportHistory(scopeOf(req, req.params.orgId), requireAuth(req), req.query.assetId, req.query.format);
      return reply.headers(attachment(f)).send(f.body);
    },
  });
};

export default maintenanceExportRoutes;
