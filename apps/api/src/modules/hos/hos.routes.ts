import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  availabilityPageSchema,
  availabilityQuery,
  driverHosParams,
  hosImportBodySchema,
  hosImportResultSchema,
  hosEventDetailSchema,
  hosEventEditSchema,
  hosEventCreateSchema,
  hosLogParams,
  hosDeferralSchema,
  hosLogHeaderSchema,
  hosPeriodQuery,
  hosPeriodSchema,
  userHosEventParams,
  userHosLogParams,
  userHosParams,
  hosEventParams,
  hosLogDaySchema,
  hosLogListQuery,
  hosLogPageSchema,
  hosLogIdParams,
  orgIdParams,
  violationPageSchema,
  violationsQuery,
} from '@fleet/api-contract';
import type { FastifyRequest } from 'fastify';
import type { Permission } from '@fleet/api-contract';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { invalidField } from '../../http/errors.ts';
import { checkedElsewhere, orgErrors } from '../../http/route-schemas.ts';
import { textFileBody } from '../../http/utf8-body.ts';
import { driverOfUserPath } from './hos-access.ts';
import { importPayload, type ImportPayload } from './hos-eld-import.service.ts';
import { listAvailability, listViolations } from './hos-clocks.service.ts';
import { getLogDay } from './hos-log-day.service.ts';
import { editEvent, getEvent } from './hos-events.service.ts';
import { createEvent } from './hos-event-create.service.ts';
import { currentDay, logsForPeriod } from './hos-period.service.ts';
import { setDeferral, updateLogHeader } from './hos-log-header.service.ts';
import { listLogDays } from './hos-log-list.service.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';

const tags = ['hos'];
/** An ELD output file of a month for a busy driver stays well under this. */
const ELD_FILE_LIMIT = 4 * 1024 * 1024;

const hosRoutes: FastifyPluginAsyncZod = async (app) => {
  // JSON periods, or an ELD output file from another ELD (text/csv or text/plain body, a multipart
  // upload, or JSON {eldFile}): the body is read and checked by the service (decision 0116).
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: ELD_FILE_LIMIT }, (_req, body, done) =>
    done(null, textFileBody(body as Buffer, 'file')),
  );
  app.post('/organizations/:orgId/drivers/:driverId/hos_log/import', {
    config: { permissions: ['HOS_IMPORT'], tokens: true },
    bodyLimit: ELD_FILE_LIMIT,
    validatorCompiler: checkedElsewhere({ body: 'handler' }),
    schema: {
      tags,
      summary:
        'Import duty-status periods into a driver log, as JSON periods or as an ELD output file (text/csv body, multipart field "file", or JSON {eldFile}); one transaction, refused whole when a period or the file is bad',
      params: driverHosParams,
      body: hosImportBodySchema,
      response: { 201: hosImportResultSchema, ...orgErrors() },
    },
    handler: async (req, reply) => {
      const scope = scopeOf(req, req.params.orgId);
      let payload: ImportPayload;
      if (req.isMultipart()) {
        const file = await req.file();
        if (!file) throw invalidField('file', 'File is a required field');
        payload = { kind: 'file', text: textFileBody(await file.toBuffer(), 'file') };
      } else payload = typeof req.body === 'string' ? { kind: 'file', text: req.body } : { kind: 'json', body: req.body };
      return reply.code(201).send(await importPayload(scope, req.params.driverId, payload));
    },
  });

  app.get('/organizations/:orgId/violations', {
    config: { permissions: ['VIO_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'HoS violations of the drivers in a range (default the last 7 days, at most 31), newest first',
      params: orgIdParams,
      querystring: violationsQuery,
      response: { 200: violationPageSchema, ...orgErrors() },
    },
    handler: (req) => listViolations(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/availability', {
    config: { permissions: ['AVAILABILITY_LIST'], tokens: true },
    schema: {
      tags,
      summary: "Each active driver's status and remaining hours at a time (default now)",
      params: orgIdParams,
      querystring: availabilityQuery,
      response: { 200: availabilityPageSchema, ...orgErrors() },
    },
    handler: (req) => listAvailability(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/hos_log', {
    config: { permissions: ['HOS_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'One row per active driver for a log day: hours per status, distance, violations, certification, form-and-manner problems',
      params: orgIdParams,
      querystring: hosLogListQuery,
      response: { 200: hosLogPageSchema, ...orgErrors() },
    },
    handler: (req) => listLogDays(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/hos_log/:id', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: {
      tags,
      summary: "One driver's log day: §395.8 header, graph segments, totals, events with versions, violations, certification",
      params: hosLogIdParams,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: (req) => getLogDay(scopeOf(req, req.params.orgId), req.params.id),
  });

  // A driver's log: by driver id, and (the spec's paths) by the driver's sign-in account. On the account
  // paths an office user holding the office code reaches any driver, a driver only their own (decision 0111).
  const byUser = (req: FastifyRequest, orgId: string, userId: string, officeCode: Permission) =>
    driverOfUserPath(app.db, requireAuth(req), orgId, userId, officeCode);
  const read = { anyPermissions: ['HOS_READ', 'HOS_SELF_READ'] } as const;
  const write = { anyPermissions: ['HOS_EDIT', 'HOS_SELF_WRITE'] } as const;

  const currentDaySchema = {
    tags,
    summary: "Today's log day of the driver in their home zone (same body as hos_log/{id}), created on first need",
    response: { 200: hosLogDaySchema, ...orgErrors() },
  };
  app.get('/organizations/:orgId/drivers/:driverId/hos_log/current-day', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: { ...currentDaySchema, params: driverHosParams },
    handler: (req) => currentDay(scopeOf(req, req.params.orgId), req.params.driverId),
  });
  app.get('/organizations/:orgId/users/:userId/hos_log/current-day', {
    config: read,
    schema: { ...currentDaySchema, params: userHosParams },
    handler: async (req) => currentDay(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_READ')),
  });

  const periodSchema = {
    tags,
    summary: "The driver's log days from `from` to `to` (at most 31): totals per status, violation count, certification",
    querystring: hosPeriodQuery,
    response: { 200: hosPeriodSchema, ...orgErrors() },
  };
  app.get('/organizations/:orgId/drivers/:driverId/hos_log/hos-logs-for-period', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: { ...periodSchema, params: driverHosParams },
    handler: (req) => logsForPeriod(scopeOf(req, req.params.orgId), req.params.driverId, req.query),
  });
  app.get('/organizations/:orgId/users/:userId/hos_log/hos-logs-for-period', {
    config: read,
    schema: { ...periodSchema, params: userHosParams },
    handler: async (req) => logsForPeriod(scopeOf(req, req.params.orgId), await byUser(req, req.params.orgId, req.params.userId, 'HOS_READ'), req.query),
  });

  const getEventSchema = { tags, summary: 'One HoS event with the earlier versions it replaced', response: { 200: hosEventDetailSchema, ...orgErrors() } };
  app.get('/organizations/:orgId/drivers/:driverId/hos_log/:logId/hos_event/:eventId', {
    config: { permissions: ['HOS_READ'], tokens: true },
    schema: { ...getEventSchema, params: hosEventParams },
    handler: (req) => getEvent(scopeOf(req, req.params.orgId), req.params),
  });
  app.get('/organizations/:orgId/users/:userId/hos_log/:logId/hos_event/:eventId', {
    config: read,
    schema: { ...getEventSchema, params: userHosEventParams },
    handler: async (req) =>
      getEvent(scopeOf(req, req.params.orgId), { ...req.params, driverId: await byUser(req, req.params.orgId, req.params.userId, 'HOS_READ') }),
  });

  const editSchema = {
    tags,
    summary:
      'Edit a duty-status event (annotation of 4-60 characters): by the driver a new version at once, the original kept inactive-changed; by an office user a proposal the driver accepts or rejects',
    body: hosEventEditSchema,
    response: { 200: hosEventDetailSchema, ...orgErrors() },
  };
  app.put('/organizations/:orgId/drivers/:driverId/hos_log/:logId/hos_event/:eventId', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...editSchema, params: hosEventParams },
    handler: (req) => editEvent(scopeOf(req, req.params.orgId), req.params, req.body),
  });
  app.put('/organizations/:orgId/users/:userId/hos_log/:logId/hos_event/:eventId', {
    config: write,
    schema: { ...editSchema, params: userHosEventParams },
    handler: async (req) =>
      editEvent(scopeOf(req, req.params.orgId), { ...req.params, driverId: await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT') }, req.body),
  });

  const createSchema = {
    tags,
    summary:
      'Enter a duty-status change: by the driver at once (origin driver; without `at` a change now, Driving refused; `recordedAt` and an Idempotency-Key header for a change a phone sent late), by an office user a proposal (origin other user, `at` and an annotation of 4-60 characters required); never inside automatically recorded driving',
    body: hosEventCreateSchema,
    response: { 201: hosEventDetailSchema, ...orgErrors() },
  };
  app.post('/organizations/:orgId/drivers/:driverId/hos_log/:logId/hos_event', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: { ...createSchema, params: hosLogParams },
    handler: async (req, reply) => reply.code(201).send(await createEvent(scopeOf(req, req.params.orgId), req.params, req.body)),
  });
  app.post('/organizations/:orgId/users/:userId/hos_log/:logId/hos_event', {
    config: write,
    schema: { ...createSchema, params: userHosLogParams },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(
          await createEvent(
            scopeOf(req, req.params.orgId),
            { ...req.params, driverId: await byUser(req, req.params.orgId, req.params.userId, 'HOS_EDIT') },
            req.body,
            idempotencyKeyOf(req),
          ),
        ),
  });

  app.put('/organizations/:orgId/drivers/:driverId/hos_log/:logId', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: {
      tags,
      summary: "Set a log day's shipping documents, trailers (the organization's trailers) and co-driver (another active driver)",
      params: hosLogParams,
      body: hosLogHeaderSchema,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: (req) => updateLogHeader(scopeOf(req, req.params.orgId), req.params, req.body),
  });

  app.put('/organizations/:orgId/drivers/:driverId/hos_log/:logId/deferral', {
    config: { permissions: ['HOS_EDIT'], tokens: true },
    schema: {
      tags,
      summary: 'Canadian rulesets: declare (or withdraw) the log day as day 1 of an off-duty deferral; the next day is its day 2',
      params: hosLogParams,
      body: hosDeferralSchema,
      response: { 200: hosLogDaySchema, ...orgErrors() },
    },
    handler: (req) => setDeferral(scopeOf(req, req.params.orgId), req.params, req.body),
  });
};

export default hosRoutes;
