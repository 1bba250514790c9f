import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  driverSafetySchema,
  orgIdParams,
  safetyCoachListSchema,
  safetyAcknowledgeSchema,
  safetyDisputeSchema,
  safetyDriverScoreParams,
  safetyEventDetailSchema,
  safetyEventExportQuery,
  safetyEventIdParams,
  safetyEventListQuery,
  safetyEventPageSchema,
  safetyEventReviewSchema,
  safetyEventSchema,
  safetyPeriodQuery,
  safetyScoreDetailSchema,
  safetyScoresExportQuery,
  safetyScoresQuery,
  safetyScoresSchema,
  safetySettingsInputSchema,
  safetySettingsSchema,
  safetySummaryQuery,
  safetySummarySchema,
  safetyVehicleScoreParams,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import type { ExportFile } from '../reports/index.ts';
import { exportSafetyEvents, exportSafetyScores } from './safety-export.ts';
import {
  acknowledgeSafetyEvent,
  disputeSafetyEvent,
  driverOwnSafety,
  getSafetyEvent,
  getSafetySettings,
  listCoaches,
  listSafetyEvents,
  listScores,
  putSafetySettings,
  reviewSafetyEvent,
  safetySummary,
  scoreDetail,
} from './safety.service.ts';

// Driver safety (issue 47, decisions 0194 and 0195). The office reads with SAFETY_LIST and reviews with
// SAFETY_UPDATE; a driver reads their own score and events and acknowledges or disputes their own
// events on the driver paths, which need no office code: the service finds the driver by the
// signed-in account, and another driver's event is not found.

const tags = ['safety'];
const READ = { permissions: ['SAFETY_LIST'] } as const;
const WRITE = { permissions: ['SAFETY_UPDATE'] } as const;
const fileResponse = { 200: nonJsonResponse('text/csv', 'CSV (UTF-8), or PDF with format=pdf'), ...orgErrors() };
const attachment = (f: ExportFile) => ({ 'content-type': f.type, 'content-disposition': `attachment; filename="${f.name}"`, 'cache-control': 'no-store' });

const safetyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/safety/events', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary:
        'Safety events (the inbox with status=NEW): harsh driving, speeding, fleet maximum, idling, crash, towing, jamming; severity first then newest; type, status and severity take comma-separated lists',
      params: orgIdParams,
      querystring: safetyEventListQuery,
      response: { 200: safetyEventPageSchema, ...orgErrors() },
    },
    handler: (req) => listSafetyEvents(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/safety/events/export', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "Safety events as CSV or PDF, in the organization's units and the reader's zone",
      params: orgIdParams,
      querystring: safetyEventExportQuery,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const { format, ...f } = req.query;
      const file = await exportSafetyEvents(scopeOf(req, req.params.orgId), requireAuth(req).userId, f, format);
      return reply.headers(attachment(file)).send(file.body);
    },
  });

  app.get('/organizations/:orgId/safety/events/:eventId', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: 'A safety event with its speed trace: the positions from 60 s before to 60 s after, with the limit at each',
      params: safetyEventIdParams,
      response: { 200: safetyEventDetailSchema, ...orgErrors() },
    },
    handler: (req) => getSafetyEvent(scopeOf(req, req.params.orgId), req.params.eventId),
  });

  app.get('/organizations/:orgId/safety/coaches', {
    config: WRITE,
    schema: {
      tags,
      summary: 'Who may be asked to coach: the active users holding SAFETY_UPDATE, by name (never a driver)',
      params: orgIdParams,
      response: { 200: safetyCoachListSchema, ...orgErrors() },
    },
    handler: (req) => listCoaches(scopeOf(req, req.params.orgId)),
  });

  app.patch('/organizations/:orgId/safety/events/:eventId', {
    config: { ...WRITE, tokens: true },
    schema: {
      tags,
      summary:
        'Review an event: DISMISSED, NEEDS_COACHING (with coachId, a user who may coach: see safety/coaches; due in 14 days), COACHED, RECOGNISED or DEFENSIVE, with an optional note. Dismissed and defensive events leave the score',
      params: safetyEventIdParams,
      body: safetyEventReviewSchema,
      response: { 200: safetyEventSchema, ...orgErrors() },
    },
    handler: (req) => reviewSafetyEvent(scopeOf(req, req.params.orgId), req.params.eventId, req.body),
  });

  app.post('/organizations/:orgId/safety/events/:eventId/acknowledge', {
    schema: {
      tags,
      summary: 'The signed-in driver acknowledges the coaching session of their own event',
      params: safetyEventIdParams,
      body: safetyAcknowledgeSchema,
      response: { 200: safetyEventSchema, ...orgErrors() },
    },
    handler: (req) => acknowledgeSafetyEvent(scopeOf(req, req.params.orgId), req.params.eventId, req.body),
  });

  app.post('/organizations/:orgId/safety/events/:eventId/dispute', {
    schema: {
      tags,
      summary: 'The signed-in driver disputes their own event with a note',
      params: safetyEventIdParams,
      body: safetyDisputeSchema,
      response: { 200: safetyEventSchema, ...orgErrors() },
    },
    handler: (req) => disputeSafetyEvent(scopeOf(req, req.params.orgId), req.params.eventId, req.body),
  });

  app.get('/organizations/:orgId/safety/scores', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary:
        'Safety scores per driver or vehicle over the period (default: the rolling window, 4 weeks): 100 - Σ weight × events per 1,000 mi, plus speeding by its share of driving time; none under 100 mi; with the fleet score and distribution',
      params: orgIdParams,
      querystring: safetyScoresQuery,
      response: { 200: safetyScoresSchema, ...orgErrors() },
    },
    handler: (req) => listScores(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/safety/scores/export', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "Safety scores as CSV or PDF, per driver or vehicle, in the organization's units",
      params: orgIdParams,
      querystring: safetyScoresExportQuery,
      response: fileResponse,
    },
    handler: async (req, reply) => {
      const { format, ...f } = req.query;
      const file = await exportSafetyScores(scopeOf(req, req.params.orgId), requireAuth(req).userId, f, format);
      return reply.headers(attachment(file)).send(file.body);
    },
  });

  app.get('/organizations/:orgId/safety/scores/drivers/:driverId', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "A driver's score with the formula filled in, 12 weeks of trend and the events behind each point lost",
      params: safetyDriverScoreParams,
      querystring: safetyPeriodQuery,
      response: { 200: safetyScoreDetailSchema, ...orgErrors() },
    },
    handler: (req) => scoreDetail(scopeOf(req, req.params.orgId), 'driver', req.params.driverId, req.query),
  });

  app.get('/organizations/:orgId/safety/scores/vehicles/:assetId', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "A vehicle's score with the formula filled in, 12 weeks of trend and the events behind each point lost",
      params: safetyVehicleScoreParams,
      querystring: safetyPeriodQuery,
      response: { 200: safetyScoreDetailSchema, ...orgErrors() },
    },
    handler: (req) => scoreDetail(scopeOf(req, req.params.orgId), 'vehicle', req.params.assetId, req.query),
  });

  app.get('/organizations/:orgId/safety/summary', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary:
        "The dashboard's safety card: the fleet's score and distribution, events to review, coaching open and overdue, and the five drivers most in need of coaching",
      params: orgIdParams,
      querystring: safetySummaryQuery,
      response: { 200: safetySummarySchema, ...orgErrors() },
    },
    handler: (req) => safetySummary(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/safety/settings', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary:
        'Safety settings: harsh-event thresholds per vehicle class (accelerometer and GPS-estimated, m/s²), speeding tolerance, minimum time and bands, fleet maximum speed, idling, weights, window',
      params: orgIdParams,
      response: { 200: safetySettingsSchema, ...orgErrors() },
    },
    handler: (req) => getSafetySettings(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/safety/settings', {
    config: { ...WRITE, tokens: true },
    schema: {
      tags,
      summary: 'Replace the safety settings (speeds in km/h; bands increasing); new fixes are judged by them within 30 s',
      params: orgIdParams,
      body: safetySettingsInputSchema,
      response: { 200: safetySettingsSchema, ...orgErrors() },
    },
    handler: async (req) => {
      const saved = await putSafetySettings(scopeOf(req, req.params.orgId), req.body);
      req.server.safetyEvents.settingsChanged(req.params.orgId);
      return saved;
    },
  });

  app.get('/organizations/:orgId/drivers/me/safety', {
    schema: {
      tags,
      summary: "The signed-in driver's own safety score (with its formula and trend) and events; 404 when the account is no driver's",
      params: orgIdParams,
      querystring: safetyPeriodQuery,
      response: { 200: driverSafetySchema, ...orgErrors() },
    },
    handler: (req) => driverOwnSafety(scopeOf(req, req.params.orgId), req.query),
  });
};

export default safetyRoutes;
