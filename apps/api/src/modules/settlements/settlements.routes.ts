import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  driverPayParams,
  orgIdParams,
  payAdjustmentIdParams,
  payAdjustmentInputSchema,
  payAdjustmentSchema,
  payProfileInputSchema,
  payProfileSchema,
  settlementCreateSchema,
  settlementIdParams,
  settlementListQuerySchema,
  settlementPageSchema,
  settlementPaidSchema,
  settlementSchema,
  settlementVoidSchema,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import * as pay from './pay-profiles.service.ts';
import * as service from './settlements.service.ts';

// Driver settlements (issue 70, decision 0294). The office reads with SETTLEMENT_LIST and changes
// with SETTLEMENT_UPDATE, as do API tokens carrying them (a payroll system). A driver reads their own
// approved and paid statements with LOAD_SELF_WRITE, the code their loads take; any other settlement
// answers 404 to them.
const tags = ['settlements'];
const LIST = { permissions: ['SETTLEMENT_LIST'], tokens: true } as const;
const UPDATE = { permissions: ['SETTLEMENT_UPDATE'], tokens: true } as const;
const READ = { anyPermissions: ['SETTLEMENT_LIST', 'LOAD_SELF_WRITE'], tokens: true } as const;

const settlementsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/pay-profiles', {
    config: LIST,
    schema: {
      tags,
      summary: "Every driver's saved pay profile, by name (a driver without one is paid nothing)",
      params: orgIdParams,
      response: { 200: z.array(payProfileSchema), ...orgErrors() },
    },
    handler: (req) => pay.listPayProfiles(scopeOf(req, req.params.orgId)),
  });

  app.get('/organizations/:orgId/drivers/:driverId/pay-profile', {
    config: LIST,
    schema: {
      tags,
      summary: "A driver's pay rates (all zero until saved)",
      params: driverPayParams,
      response: { 200: payProfileSchema, ...orgErrors() },
    },
    handler: (req) => pay.getPayProfile(scopeOf(req, req.params.orgId), req.params.driverId),
  });

  app.put('/organizations/:orgId/drivers/:driverId/pay-profile', {
    config: UPDATE,
    schema: {
      tags,
      summary:
        "Set a driver's pay: per loaded and empty mile, a share of line haul, flat per load, per stop beyond the first pick-up and last delivery, hourly for on-duty time from their log, detention, and their share of a team load",
      params: driverPayParams,
      body: payProfileInputSchema,
      response: { 200: payProfileSchema, ...orgErrors() },
    },
    handler: (req) => pay.putPayProfile(scopeOf(req, req.params.orgId), req.params.driverId, req.body),
  });

  app.get('/organizations/:orgId/drivers/:driverId/pay-adjustments', {
    config: LIST,
    schema: {
      tags,
      summary: "A driver's deductions and reimbursements, recurring and one-time, with the settlements that took them",
      params: driverPayParams,
      response: { 200: z.array(payAdjustmentSchema), ...orgErrors() },
    },
    handler: (req) => pay.listAdjustments(scopeOf(req, req.params.orgId), req.params.driverId),
  });

  app.post('/organizations/:orgId/drivers/:driverId/pay-adjustments', {
    config: UPDATE,
    schema: {
      tags,
      summary: 'Add a deduction (lease, insurance, escrow, an advance) or a reimbursement (tolls, lumper), on every settlement or once',
      params: driverPayParams,
      body: payAdjustmentInputSchema,
      response: { 201: payAdjustmentSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await pay.addAdjustment(scopeOf(req, req.params.orgId), req.params.driverId, req.body)),
  });

  app.delete('/organizations/:orgId/drivers/:driverId/pay-adjustments/:adjustmentId', {
    config: UPDATE,
    schema: {
      tags,
      summary: 'Remove a deduction or reimbursement: no later settlement takes it; those that did keep their line',
      params: payAdjustmentIdParams,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await pay.removeAdjustment(scopeOf(req, req.params.orgId), req.params.driverId, req.params.adjustmentId);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/settlements', {
    config: UPDATE,
    schema: {
      tags,
      summary:
        "Make a draft settlement for a driver's days (from, to; their log days, at most 31, ended): their delivered loads not yet settled, the on-duty hours of their log, their deductions and reimbursements. 409 when a standing settlement of theirs covers one of the days",
      params: orgIdParams,
      body: settlementCreateSchema,
      response: { 201: settlementSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await service.createSettlement(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/settlements', {
    config: READ,
    schema: {
      tags,
      summary: 'Settlements, newest days first, by driver and status (comma list); a driver sees their own, approved or paid',
      params: orgIdParams,
      querystring: settlementListQuerySchema,
      response: { 200: settlementPageSchema, ...orgErrors() },
    },
    handler: (req) => service.listSettlements(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.get('/organizations/:orgId/settlements/:settlementId', {
    config: READ,
    schema: {
      tags,
      summary: 'A settlement with its loads and lines, each saying where its figure came from',
      params: settlementIdParams,
      response: { 200: settlementSchema, ...orgErrors() },
    },
    handler: (req) => service.getSettlement(scopeOf(req, req.params.orgId), requireAuth(req), req.params.settlementId),
  });

  app.get('/organizations/:orgId/settlements/:settlementId/pdf', {
    config: READ,
    schema: {
      tags,
      summary: "The driver's pay statement as a PDF: loads, detention, hours, reimbursements, deductions, net pay",
      params: settlementIdParams,
      response: { 200: nonJsonResponse('application/pdf', 'PDF file', true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const f = await service.statementFile(scopeOf(req, req.params.orgId), requireAuth(req), req.params.settlementId);
      return reply
        .headers({ 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${f.name}"`, 'cache-control': 'no-store' })
        .send(f.body);
    },
  });

  app.post('/organizations/:orgId/settlements/:settlementId/approve', {
    config: UPDATE,
    schema: {
      tags,
      summary: 'Approve a draft (409 otherwise): the driver sees it from now on',
      params: settlementIdParams,
      response: { 200: settlementSchema, ...orgErrors(409) },
    },
    handler: (req) => service.approveSettlement(scopeOf(req, req.params.orgId), req.params.settlementId),
  });

  app.post('/organizations/:orgId/settlements/:settlementId/paid', {
    config: UPDATE,
    schema: {
      tags,
      summary: 'Mark an approved settlement paid, with an optional payment reference (a check or transfer number)',
      params: settlementIdParams,
      body: settlementPaidSchema,
      response: { 200: settlementSchema, ...orgErrors(409) },
    },
    handler: (req) => service.markPaid(scopeOf(req, req.params.orgId), req.params.settlementId, req.body),
  });

  app.post('/organizations/:orgId/settlements/:settlementId/void', {
    config: UPDATE,
    schema: {
      tags,
      summary: 'Void a draft or approved settlement: its loads and one-time adjustments go to the next one (a paid one stays)',
      params: settlementIdParams,
      body: settlementVoidSchema,
      response: { 200: settlementSchema, ...orgErrors(409) },
    },
    handler: (req) => service.voidSettlement(scopeOf(req, req.params.orgId), req.params.settlementId, req.body),
  });
};

export default settlementsRoutes;
