import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  inspectionDuePageSchema,
  inspectionItemsSchema,
  inspectionsDueQuery,
  maintenanceNextQuery,
  maintenanceNextSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { getInspectionItems, putInspectionItems } from './inspection-items.service.ts';
import { listInspectionsDue } from './inspections-due.service.ts';
import { maintenanceNext } from './maintenance-due.service.ts';

// A vehicle's next service, the inspections due on a day and the organization's own inspection
// items (issue 31, decision 0159).
const tags = ['maintenance'];

const maintenanceExtraRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/maintenance/next', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Every schedule covering one vehicle with its next service: OK, DUE or OVERDUE, soonest first',
      params: orgIdParams,
      querystring: maintenanceNextQuery,
      response: { 200: maintenanceNextSchema, ...orgErrors() },
    },
    handler: (req) => maintenanceNext(scopeOf(req, req.params.orgId), req.query.assetId),
  });

  app.get('/organizations/:orgId/maintenance/inspections-due', {
    config: { permissions: ['DVIR_LIST'], tokens: true },
    schema: {
      tags,
      summary: "Vehicles that moved on a day (default today, in the user's zone) and have no inspection report signed that day, by unit number",
      params: orgIdParams,
      querystring: inspectionsDueQuery,
      response: { 200: inspectionDuePageSchema, ...orgErrors() },
    },
    handler: (req) => listInspectionsDue(scopeOf(req, req.params.orgId), requireAuth(req).userId, req.query),
  });

  app.get('/organizations/:orgId/maintenance/inspection-items', {
    config: { anyPermissions: ['DVIR_LIST', 'DVIR_SELF_WRITE'], tokens: true },
    schema: {
      tags,
      summary: "The organization's own inspection items, reported on every inspection besides the 396.11 list",
      params: orgIdParams,
      response: { 200: inspectionItemsSchema, ...orgErrors() },
    },
    handler: (req) => getInspectionItems(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/maintenance/inspection-items', {
    config: { permissions: ['MAINTENANCE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "Replace the organization's own inspection items (trailer: inspected on each trailer too); a name on the 396.11 list or given twice is a 400",
      params: orgIdParams,
      body: inspectionItemsSchema,
      response: { 200: inspectionItemsSchema, ...orgErrors() },
    },
    handler: (req) => putInspectionItems(scopeOf(req, req.params.orgId), req.body),
  });
};

export default maintenanceExtraRoutes;
