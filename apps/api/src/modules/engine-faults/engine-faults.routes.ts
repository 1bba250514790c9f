import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  defectSchema,
  engineFaultDefectInputSchema,
  engineFaultIdParams,
  engineFaultListQuery,
  engineFaultPageSchema,
  groundingCodesSchema,
  groundingCodesViewSchema,
  assetIdParams,
  orgIdParams,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { createDefectFromFault, getGroundingCodes, listEngineFaults, putGroundingCodes } from './engine-faults.service.ts';

// Engine faults (issue 46, decision 0191): a vehicle's faults (read as its maintenance data is), a
// fault made a defect, and the organization's grounding codes beside its other maintenance settings.
const tags = ['maintenance'];

const engineFaultsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/assets/:assetId/engine-faults', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        "A vehicle's engine fault codes (J1939 DM1 and OBD-II), active or cleared (status), the most recently seen first, with the standard's description where the code has one",
      params: assetIdParams,
      querystring: engineFaultListQuery,
      response: { 200: engineFaultPageSchema, ...orgErrors() },
    },
    handler: (req) => listEngineFaults(scopeOf(req, req.params.orgId), req.params.assetId, req.query),
  });

  app.post('/organizations/:orgId/assets/:assetId/engine-faults/:faultId/defect', {
    config: { anyPermissions: ['DEFECT_UPDATE', 'WORK_ORDER_UPDATE'], tokens: true },
    schema: {
      tags,
      summary:
        'Make an engine fault a defect of its vehicle (a safety defect when the code grounds it, unless safety says otherwise); 409 when it already is one',
      params: engineFaultIdParams,
      body: engineFaultDefectInputSchema,
      response: { 201: defectSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await createDefectFromFault(scopeOf(req, req.params.orgId), req.params.assetId, req.params.faultId, req.body)),
  });

  app.get('/organizations/:orgId/maintenance/grounding-codes', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: {
      tags,
      summary: "The organization's grounding engine fault codes: a new active fault of one becomes a safety defect on its own",
      params: orgIdParams,
      response: { 200: groundingCodesViewSchema, ...orgErrors() },
    },
    handler: (req) => getGroundingCodes(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/maintenance/grounding-codes', {
    config: { permissions: ['MAINTENANCE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary:
        'Replace the grounding codes: OBD-II codes (P0301) or J1939 SPNs with an optional FMI (110 matches every FMI, 110/0 one); a code that is none is a 400',
      params: orgIdParams,
      body: groundingCodesSchema,
      response: { 200: groundingCodesViewSchema, ...orgErrors() },
    },
    handler: (req) => putGroundingCodes(scopeOf(req, req.params.orgId), req.body),
  });
};

export default engineFaultsRoutes;
