import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  driverHosParams,
  eldOutputEmailSchema,
  eldOutputQuery,
  eldOutputSentSchema,
  hosCertifySchema,
  hosDiagnosticPageSchema,
  hosDiagnosticQuery,
  hosDriverChoicesSchema,
  hosDriverStatusSchema,
  hosLogDaySchema,
  hosLogHeaderSchema,
  hosProposalAcceptSchema,
  hosProposalDecisionSchema,
  hosProposalPageSchema,
  hosProposalQuery,
  hosProposalSchema,
  hosSegmentAnnotateSchema,
  hosSegmentClaimSchema,
  hosSegmentProposeSchema,
  hosUnidentifiedPageSchema,
  hosUnidentifiedQuery,
  hosUnidentifiedSegmentSchema,
  orgIdParams,
  orgSegmentParams,
  userHosParams,
  userLogParams,
  userProposalParams,
  userSegmentParams,
  type Permission,
} from '@fleet/api-contract';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { assertDriverPath, driverOfUserPath } from './hos-access.ts';
import { certifyDay } from './hos-certification.service.ts';
import { listDiagnostics } from './hos-diagnostics.service.ts';
import { driverChoices, driverLogDay, driverStatus } from './hos-driver.service.ts';
import { updateLogHeader } from './hos-log-header.service.ts';
import { acceptProposal, listProposals, rejectProposal } from './hos-proposals.service.ts';
import { annotateSegment, claimSegment, listDriverUnidentified, listUnidentified, proposeSegment } from './hos-unidentified.service.ts';
import { eldOutputFile, sendEldOutput } from './eld-output.service.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';

// The driver's side of the ELD (issue 16, decisions 0111-0116). Paths under users/{userId}/hos_log are
// the signed-in driver's (an office user holding the office code may read them for any driver);
// what only a driver may do (certify, accept or reject a proposal, claim driving) needs HOS_SELF_WRITE
// and is refused by the service to anyone but the driver themself.

const tags = ['hos'];
const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;
const write = { anyPermissions: ['HOS_EDIT', 'HOS_SELF_WRITE'] } as const;

const hosDriverRoutes: FastifyPluginAsyncZod = async (app) => {
  const driverOf = (req: FastifyRequest, p: { orgId: string; userId: string }, officeCode: Permission) =>
    driverOfUserPath(app.db, requireAuth(req), p.orgId, p.userId, officeCode);

  // ---------------------------------------------------------------- the driver's screen

  app.get('/organizations/:orgId/users/:userId/hos_log/driver-status', {
    config: read,
    schema: {
      tags,
      summary:
        "The driver's screen: driver, vehicle and whether it moves, the four clocks now, today's log id, days to certify, pending proposals, unidentified driving to claim, diagnostics in force",
      params: userHosParams,
      response: { 200: hosDriverStatusSchema, ...orgErrors() },
    },
    handler: async (req) => driverStatus(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_READ')),
  });

  app.get('/organizations/:orgId/users/:userId/hos_log/choices', {
    config: read,
    schema: {
      tags,
      summary: "What the driver may pick on a log day: the organization's active trailers and the other active drivers",
      params: userHosParams,
      response: { 200: hosDriverChoicesSchema, ...orgErrors() },
    },
    handler: async (req) => driverChoices(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_READ')),
  });

  app.get('/organizations/:orgId/users/:userId/hos_log/:logId', {
    config: read,
    schema: {
      tags,
      summary: "One of the driver's log days (same body as hos_log/{id}): the driver screen and the roadside inspection view",
      params: userLogParams,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: async (req) => driverLogDay(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_READ'), req.params.logId),
  });

  app.put('/organizations/:orgId/users/:userId/hos_log/:logId', {
    config: write,
    schema: {
      tags,
      summary: "Set a log day's shipping documents, trailers and co-driver (the driver's own, or HOS_EDIT)",
      params: userLogParams,
      body: hosLogHeaderSchema,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: async (req) => updateLogHeader(scopeOf(req, req.params.orgId), { ...req.params, driverId: await driverOf(req, req.params, 'HOS_EDIT') }, req.body),
  });

  app.post('/organizations/:orgId/users/:userId/hos_log/:logId/certification', {
    config: { permissions: ['HOS_SELF_WRITE'] },
    schema: {
      tags,
      summary:
        'The driver certifies a log day, agreeing to the statement of Appendix A 4.3.2.3 (a type-4 event, the nth certification of the day); only the driver themself',
      params: userLogParams,
      body: hosCertifySchema,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: async (req) =>
      certifyDay(scopeOf(req, req.params.orgId), { ...req.params, driverId: await driverOf(req, req.params, 'HOS_EDIT') }, req.body, idempotencyKeyOf(req)),
  });

  // ---------------------------------------------------------------- edit proposals

  app.get('/organizations/:orgId/users/:userId/hos_log/proposals', {
    config: read,
    schema: {
      tags,
      summary: "The driver's edit proposals, the originals and the proposed records side by side, pending first",
      params: userHosParams,
      querystring: hosProposalQuery,
      response: { 200: hosProposalPageSchema, ...orgErrors() },
    },
    handler: async (req) => listProposals(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_READ'), req.query),
  });

  app.get('/organizations/:orgId/drivers/:driverId/hos_log/proposals', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: {
      tags,
      summary: "A driver's edit proposals and what became of them (pending, accepted, rejected)",
      params: driverHosParams,
      querystring: hosProposalQuery,
      response: { 200: hosProposalPageSchema, ...orgErrors() },
    },
    handler: async (req) => listProposals(scopeOf(req, req.params.orgId), req.params.driverId, req.query),
  });

  const decisionSchema = { tags, params: userProposalParams, response: { 200: hosProposalSchema, ...orgErrors(409) } };
  app.post('/organizations/:orgId/users/:userId/hos_log/proposals/:proposalId/accept', {
    config: { permissions: ['HOS_SELF_WRITE'] },
    schema: {
      ...decisionSchema,
      body: hosProposalAcceptSchema.nullish(),
      summary: 'The driver accepts a proposal: the proposed records become active, the originals inactive-changed (409 when the records changed since)',
    },
    handler: async (req) =>
      acceptProposal(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_EDIT'), req.params.proposalId, {
        recordedAt: req.body?.recordedAt ?? null,
      }),
  });
  app.post('/organizations/:orgId/users/:userId/hos_log/proposals/:proposalId/reject', {
    config: { permissions: ['HOS_SELF_WRITE'] },
    schema: {
      ...decisionSchema,
      body: hosProposalDecisionSchema.nullish(),
      summary: 'The driver rejects a proposal: the proposed records become inactive-change-rejected, the originals stay',
    },
    handler: async (req) =>
      rejectProposal(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_EDIT'), req.params.proposalId, {
        note: req.body?.note ?? null,
        recordedAt: req.body?.recordedAt ?? null,
      }),
  });

  // ---------------------------------------------------------------- unidentified driving

  app.get('/organizations/:orgId/hos_log/unidentified', {
    config: { permissions: ['HOS_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        'Unidentified driving segments (default the last 8 days, newest first): vehicle, start, end, distance, locations and whether assigned, proposed or annotated',
      params: orgIdParams,
      querystring: hosUnidentifiedQuery,
      response: { 200: hosUnidentifiedPageSchema, ...orgErrors() },
    },
    handler: (req) => listUnidentified(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/hos_log/unidentified/:segmentId/proposal', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: {
      tags,
      summary: 'Propose an unidentified segment to a driver, who accepts it as their driving (origin assumed from unidentified)',
      params: orgSegmentParams,
      body: hosSegmentProposeSchema,
      response: { 201: hosUnidentifiedSegmentSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await proposeSegment(scopeOf(req, req.params.orgId), req.params.segmentId, req.body)),
  });

  app.post('/organizations/:orgId/hos_log/unidentified/:segmentId/annotation', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: {
      tags,
      summary: "Annotate an unidentified segment as nobody's driving time (a mechanic's test drive…), reason of 4-60 characters",
      params: orgSegmentParams,
      body: hosSegmentAnnotateSchema,
      response: { 200: hosUnidentifiedSegmentSchema, ...orgErrors(409) },
    },
    handler: (req) => annotateSegment(scopeOf(req, req.params.orgId), req.params.segmentId, req.body),
  });

  app.get('/organizations/:orgId/users/:userId/hos_log/unidentified', {
    config: read,
    schema: {
      tags,
      summary: "Unassigned unidentified driving on the driver's vehicles that they may claim",
      params: userHosParams,
      querystring: hosUnidentifiedQuery,
      response: { 200: hosUnidentifiedPageSchema, ...orgErrors() },
    },
    handler: async (req) => listDriverUnidentified(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_READ'), req.query),
  });

  app.post('/organizations/:orgId/users/:userId/hos_log/unidentified/:segmentId/claim', {
    config: { permissions: ['HOS_SELF_WRITE'] },
    schema: {
      tags,
      summary:
        'The driver claims unidentified driving of their vehicle: its records become inactive-changed, the driver gets them with origin assumed from unidentified',
      params: userSegmentParams,
      body: hosSegmentClaimSchema.nullish(),
      response: { 200: hosUnidentifiedSegmentSchema, ...orgErrors(409) },
    },
    handler: async (req) =>
      claimSegment(scopeOf(req, req.params.orgId), await driverOf(req, req.params, 'HOS_EDIT'), req.params.segmentId, {
        annotation: req.body?.annotation ?? null,
      }),
  });

  // ---------------------------------------------------------------- diagnostics

  app.get('/organizations/:orgId/hos_log/diagnostics', {
    config: { permissions: ['HOS_LIST'], tokens: true },
    schema: {
      tags,
      summary:
        "Malfunctions and data diagnostics of the vehicles' ELDs (positioning, device not reporting, unidentified driving), per vehicle with assetId, newest first",
      params: orgIdParams,
      querystring: hosDiagnosticQuery,
      response: { 200: hosDiagnosticPageSchema, ...orgErrors() },
    },
    handler: (req) => listDiagnostics(scopeOf(req, req.params.orgId), req.query),
  });

  // ---------------------------------------------------------------- ELD output file

  app.get('/organizations/:orgId/drivers/:driverId/hos_log/eld-output', {
    config: read,
    schema: {
      tags,
      summary:
        'The ELD output file (49 CFR 395 Appendix A 4.8.2) of a driver for log days from..to (default today and the 7 days before): the driver themself or HOS_READ',
      params: driverHosParams,
      querystring: eldOutputQuery,
      produces: ['text/csv'],
      response: { 200: nonJsonResponse('text/csv', 'The ELD output file: comma-delimited ASCII, CR LF line ends, check values'), ...orgErrors(409) },
    },
    handler: async (req, reply) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_READ');
      const file = await eldOutputFile(scopeOf(req, req.params.orgId), app.eld, req.params.driverId, req.query);
      return reply
        .header('content-type', 'text/csv; charset=us-ascii')
        .header('content-disposition', `attachment; filename="${file.fileName}.csv"`)
        .header('cache-control', 'no-store')
        .send(file.text);
    },
  });

  app.post('/organizations/:orgId/drivers/:driverId/hos_log/eld-output/email', {
    config: read,
    schema: {
      tags,
      summary: "Send a driver's ELD output file by e-mail to an address the officer gives (SMTP, or the outbox without SMTP_URL)",
      params: driverHosParams,
      body: eldOutputEmailSchema,
      response: { 200: eldOutputSentSchema, ...orgErrors(409) },
    },
    handler: async (req) => {
      await assertDriverPath(app.db, requireAuth(req), req.params.orgId, req.params.driverId, 'HOS_READ');
      return sendEldOutput(scopeOf(req, req.params.orgId), { eld: app.eld, mailer: app.mailer }, req.params.driverId, req.body);
    },
  });
};

export default hosDriverRoutes;
