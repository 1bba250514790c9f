import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { driverHosParams, roadsideCaEmailSchema, roadsideCaQuery, roadsideCaSchema, roadsideCaSentSchema } from '@fleet/api-contract';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { assertDriverPath } from './hos-access.ts';
import { roadsideCa, roadsideCaFile, sendRoadsideCa } from './roadside-ca.service.ts';

// The Canadian roadside view of a driver's log (issue 72, decision 0316), beside the ELD output file's
// routes: the driver themself (HOS_SELF_READ) or the office (HOS_READ) for any driver, as there.

const tags = ['hos'];
const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;

const roadsideCaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/drivers/:driverId/hos_log/roadside-ca', {
    config: read,
    schema: {
      tags,
      summary:
        'The Canadian roadside view (SOR/2005-313): the inspected day (default today) and the 14 days before it, each with its totals and the cycle totals at its end; the driver themself or HOS_READ',
      params: driverHosParams,
      querystring: roadsideCaQuery,
      response: { 200: roadsideCaSchema, ...orgErrors() },
    },
    handler: async (req) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_READ');
      return roadsideCa(scopeOf(req, req.params.orgId), req.params.driverId, req.query);
    },
  });

  app.get('/organizations/:orgId/drivers/:driverId/hos_log/roadside-ca.pdf', {
    config: read,
    schema: {
      tags,
      summary: 'The Canadian roadside view as a PDF: the 15 days, then each day with its header, cycle totals, graph grid and records',
      params: driverHosParams,
      querystring: roadsideCaQuery,
      produces: ['application/pdf'],
      response: { 200: nonJsonResponse('application/pdf', 'The daily log of the inspected day and the 14 days before it'), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_READ');
      const file = await roadsideCaFile(scopeOf(req, req.params.orgId), req.params.driverId, req.query);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  });

  app.post('/organizations/:orgId/drivers/:driverId/hos_log/roadside-ca/email', {
    // Mail to an address the caller types, by a signed-in user or token of the organization, each send
    // in the activity log: not throttled, as the other signed-in sends are not (only public routes are).
    config: read,
    schema: {
      tags,
      summary: 'Send the Canadian roadside PDF by e-mail to the address an officer gives (SMTP, or the outbox without SMTP_URL)',
      params: driverHosParams,
      body: roadsideCaEmailSchema,
      response: { 200: roadsideCaSentSchema, ...orgErrors() },
    },
    handler: async (req) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_READ');
      return sendRoadsideCa(scopeOf(req, req.params.orgId), { mailer: app.mailer }, req.params.driverId, req.body);
    },
  });
};

export default roadsideCaRoutes;
