import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  driverHosParams,
  eldTransferInputSchema,
  eldTransferPageSchema,
  eldTransferQuery,
  eldTransferSchema,
  eldTransferStatusSchema,
  errorBodySchema,
  orgIdParams,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { assertDriverPath } from '../hos/index.ts';
import { eldTransferStatus, listEldTransfers, sendEldTransfer } from './eld-transfer.service.ts';

// The roadside transfer to FMCSA (issue 45, decision 0185): the driver themself or an office user
// sends a driver's output file; the sends are listed; the setup and the last self-check are shown to
// both. A send is a submission made on the driver's behalf, so it takes a write code (issue 66,
// decision 0242): HOS_SELF_WRITE for the driver's own file, HOS_EDIT for the office; reading stays
// with HOS_READ and HOS_SELF_READ.

const tags = ['hos'];
const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;
const send = { anyPermissions: ['HOS_EDIT', 'HOS_SELF_WRITE'] } as const;

const eldTransferRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/organizations/:orgId/drivers/:driverId/hos_log/eld-transfer', {
    config: send,
    schema: {
      tags,
      summary:
        "Send a driver's ELD output file (today and the 7 days before unless from/to say otherwise) to FMCSA by its web service or by S/MIME e-mail, with the officer's output file comment: the driver themself (HOS_SELF_WRITE) or HOS_EDIT. Every attempt is recorded: 409 when the path is not set up here, 502 when FMCSA or the mail server could not be reached or refused (both recorded FAILED; the office reads what to configure, the driver what to do)",
      params: driverHosParams,
      body: eldTransferInputSchema,
      response: { 200: eldTransferSchema, ...orgErrors(409), 502: errorBodySchema },
    },
    handler: async (req) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_EDIT');
      return sendEldTransfer(scopeOf(req, req.params.orgId), app.eldTransfer, requireAuth(req), req.params.driverId, req.body);
    },
  });

  app.get('/organizations/:orgId/hos_log/eld-transfers', {
    config: read,
    schema: {
      tags,
      summary: 'The sends of ELD output files to FMCSA, newest first, of one driver with driverId; a driver sees only their own',
      params: orgIdParams,
      querystring: eldTransferQuery,
      response: { 200: eldTransferPageSchema, ...orgErrors() },
    },
    handler: (req) => listEldTransfers(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.get('/organizations/:orgId/hos_log/eld-transfer-status', {
    config: read,
    schema: {
      tags,
      summary:
        "Whether FMCSA's web service and the e-mail path are set up here (what is missing, in words, to the office only), test mode, and the last self-check of the transfer mechanism",
      params: orgIdParams,
      response: { 200: eldTransferStatusSchema, ...orgErrors() },
    },
    handler: (req) => eldTransferStatus(scopeOf(req, req.params.orgId), requireAuth(req), app.eldTransfer),
  });
};

export default eldTransferRoutes;
