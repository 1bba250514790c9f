import { positionImportBodySchema, positionImportQuery, positionImportResultSchema } from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { handLate } from './pipeline/late-positions.ts';
import { importPositions } from './positions-import.service.ts';

const params = z.object({ orgId: z.uuid('orgId must be an id'), id: z.uuid('id must be a vehicle id') });
/** A GPX file of a quarter's 1 Hz track is several megabytes. */
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

/** A vehicle's GPS history from another system (CSV or GPX): preview (dry run), then import. */
const positionsImportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/organizations/:orgId/assets/:id/positions/import', {
    config: { permissions: ['ASSET_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags: ['history-routes'],
      summary:
        "Import a vehicle's GPS history from another system (CSV or GPX) so the quarter's IFTA miles are complete; dryRun previews with per-row errors and saves nothing",
      params,
      querystring: positionImportQuery,
      body: positionImportBodySchema,
      response: { 200: positionImportResultSchema, ...orgErrors(413) },
    },
    handler: async (req) => {
      const dryRun = req.query.dryRun ?? req.body.dryRun;
      const { result, stored } = await importPositions(scopeOf(req, req.params.orgId), req.params.id, { ...req.body, dryRun });
      // IFTA miles and the daily statistics take the imported days as late positions.
      handLate(app.ingest.committer, stored, { duty: false });
      return result;
    },
  });
};

export default positionsImportRoutes;
