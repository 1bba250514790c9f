import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import {
  COMPLIANCE_LIMITS,
  assetComplianceSchema,
  complianceAssetParams,
  complianceCalendarPageSchema,
  complianceCalendarQuery,
  complianceDefectSchema,
  complianceDriverParams,
  complianceItemCreateSchema,
  complianceItemIdParams,
  complianceItemSchema,
  complianceItemUpdateSchema,
  compliancePagesSchema,
  defectSchema,
  complianceRejectSchema,
  complianceSummarySchema,
  driverQualificationSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { AppError, invalidField, payloadTooLarge } from '../../http/errors.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';
import { errors, nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { validatorWithInputRules } from '../../http/validator.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { calendar, summary } from './compliance-calendar.ts';
import { qualificationFile, qualificationFilesZip } from './compliance-files.ts';
import * as service from './compliance.service.ts';

// Compliance (issue 71, decision 0300). The office reads with COMPLIANCE_LIST and changes with
// COMPLIANCE_UPDATE; a driver reads their own qualification file and sends renewals of their own
// medical certificate or licence with the driver's HOS_SELF_READ / HOS_SELF_WRITE (the service
// keeps them to their own record: anything else answers 404).
const tags = ['compliance'];
const READ = { permissions: ['COMPLIANCE_LIST'], tokens: true } as const;
const WRITE = { permissions: ['COMPLIANCE_UPDATE'], tokens: true } as const;
const OWN_READ = { anyPermissions: ['COMPLIANCE_LIST', 'HOS_SELF_READ'], tokens: true } as const;
const OWN_WRITE = { anyPermissions: ['COMPLIANCE_UPDATE', 'HOS_SELF_WRITE'], tokens: true } as const;

/** A body's validator that leaves a multipart form (no parsed body) to the handler and checks JSON as every route does. */
const jsonOrMultipart: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorWithInputRules({ ...route, schema: route.schema as ZodType });
  return (data) => ((data === undefined || data === null) && route.httpPart === 'body' ? true : validate(data));
};

/** The files of a multipart form, in the order sent (400 past the page limit, 413 for a file above the upload limit). */
async function filesOfForm(req: FastifyRequest, limit: number): Promise<Buffer[]> {
  const files: Buffer[] = [];
  const tooMany = () => invalidField('pages', `A paper has at most ${COMPLIANCE_LIMITS.pages} pages`, 'compliance.bad_document');
  try {
    for await (const part of req.parts({ limits: { files: COMPLIANCE_LIMITS.pages + 1, fields: 5, fileSize: limit } })) {
      if (part.type === 'field') continue;
      if (files.length >= COMPLIANCE_LIMITS.pages) throw tooMany();
      files.push(await part.toBuffer());
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw payloadTooLarge(`Page ${files.length + 1} is larger than the upload limit (${Math.round(limit / 1024 / 1024)} MB)`);
    if (code === 'FST_FILES_LIMIT') throw tooMany();
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw invalidField('body', 'The form has too many fields');
    throw err;
  }
  return files;
}

const sendFile = (reply: FastifyReply, type: string, fileName: string, body: Buffer, disposition: 'inline' | 'attachment' = 'attachment') =>
  reply
    .header('content-type', type)
    .header('content-disposition', `${disposition}; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);

const complianceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/compliance/items', {
    config: READ,
    schema: {
      tags,
      summary:
        'The compliance calendar: one row per current paper of every active driver, vehicle and trailer, and per required paper missing; status (default EXPIRING,EXPIRED,MISSING), kind and subject (DRIVER, VEHICLE, TRAILER) take comma lists; q searches names and numbers; EXPIRED first, then MISSING, EXPIRING, VALID, each soonest due first',
      params: orgIdParams,
      querystring: complianceCalendarQuery,
      response: { 200: complianceCalendarPageSchema, ...orgErrors() },
    },
    handler: (req) => calendar(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/compliance/summary', {
    config: READ,
    schema: {
      tags,
      summary: "The dashboard tile: papers expiring, expired and missing, and drivers' renewals waiting for approval",
      params: orgIdParams,
      response: { 200: complianceSummarySchema, ...orgErrors() },
    },
    handler: (req) => summary(scopeOf(req, req.params.orgId)),
  });

  app.get('/organizations/:orgId/drivers/:driverId/qualification', {
    config: OWN_READ,
    schema: {
      tags,
      summary: "A driver's qualification file: every paper (pending, rejected and older ones too) and the checklist on today's date (a driver: their own)",
      params: complianceDriverParams,
      response: { 200: driverQualificationSchema, ...orgErrors() },
    },
    handler: (req) => service.driverQualification(scopeOf(req, req.params.orgId), requireAuth(req), req.params.driverId),
  });

  app.post('/organizations/:orgId/drivers/:driverId/qualification/items', {
    config: OWN_WRITE,
    schema: {
      tags,
      summary:
        "Add a paper to a driver's file (the office: counted at once), or a driver's renewal of their own medical certificate or licence (PENDING until approved); imageIds: pages uploaded before. With the phone's Idempotency-Key a resend answers the first",
      params: complianceDriverParams,
      body: complianceItemCreateSchema,
      response: { 201: complianceItemSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await service.createItem(scopeOf(req, req.params.orgId), requireAuth(req), { driverId: req.params.driverId }, req.body, idempotencyKeyOf(req))),
  });

  app.get('/organizations/:orgId/assets/:assetId/compliance', {
    config: READ,
    schema: {
      tags,
      summary: "A vehicle's or trailer's papers and checklist on today's date",
      params: complianceAssetParams,
      response: { 200: assetComplianceSchema, ...orgErrors() },
    },
    handler: (req) => service.assetCompliance(scopeOf(req, req.params.orgId), req.params.assetId),
  });

  app.post('/organizations/:orgId/assets/:assetId/compliance/items', {
    config: WRITE,
    schema: {
      tags,
      summary: "Add a paper to a vehicle's or trailer's file (registration, IRP cab card, insurance, annual inspection, permit)",
      params: complianceAssetParams,
      body: complianceItemCreateSchema,
      response: { 201: complianceItemSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await service.createItem(scopeOf(req, req.params.orgId), requireAuth(req), { assetId: req.params.assetId }, req.body)),
  });

  app.patch('/organizations/:orgId/compliance/items/:itemId', {
    config: WRITE,
    schema: {
      tags,
      summary: "Change a paper's fields (null clears one); its kind's required fields are checked on the result",
      params: complianceItemIdParams,
      body: complianceItemUpdateSchema,
      response: { 200: complianceItemSchema, ...orgErrors(409) },
    },
    handler: (req) => service.updateItem(scopeOf(req, req.params.orgId), req.params.itemId, req.body),
  });

  app.delete('/organizations/:orgId/compliance/items/:itemId', {
    config: WRITE,
    schema: { tags, summary: 'Remove a paper and its pages', params: complianceItemIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await service.deleteItem(scopeOf(req, req.params.orgId), req.params.itemId);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/compliance/items/:itemId/approve', {
    config: WRITE,
    schema: {
      tags,
      summary: "Approve a driver's pending renewal: it counts from now on (409 compliance.not_pending when it is not pending)",
      params: complianceItemIdParams,
      response: { 200: complianceItemSchema, ...orgErrors(409) },
    },
    handler: (req) => service.decideItem(scopeOf(req, req.params.orgId), req.params.itemId, { approve: true }),
  });

  app.post('/organizations/:orgId/compliance/items/:itemId/reject', {
    config: WRITE,
    schema: {
      tags,
      summary: "Reject a driver's pending renewal, with the reason the driver reads",
      params: complianceItemIdParams,
      body: complianceRejectSchema,
      response: { 200: complianceItemSchema, ...orgErrors(409) },
    },
    handler: (req) => service.decideItem(scopeOf(req, req.params.orgId), req.params.itemId, { approve: false, reason: req.body.reason }),
  });

  app.post('/organizations/:orgId/compliance/items/:itemId/defects', {
    config: WRITE,
    schema: {
      tags,
      summary:
        "Make a failed item of a unit's annual inspection a defect of the unit, open on the maintenance pages until certified (400 compliance.not_failed_item for an item the failed inspection does not list; 409 compliance.defect_exists the second time)",
      params: complianceItemIdParams,
      body: complianceDefectSchema,
      response: { 201: defectSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await service.defectOfFailedItem(scopeOf(req, req.params.orgId), req.params.itemId, req.body)),
  });

  app.post('/organizations/:orgId/compliance/items/:itemId/pages', {
    config: OWN_WRITE,
    schema: {
      tags,
      summary: `Add pages to a paper (at most ${COMPLIANCE_LIMITS.pages}): JSON naming uploaded images in order (imageIds), or a multipart form with JPEG or PNG photos in order, or one PDF file (a driver: their own pending renewal)`,
      consumes: ['application/json', 'multipart/form-data'],
      params: complianceItemIdParams,
      body: compliancePagesSchema,
      response: { 200: complianceItemSchema, ...orgErrors(409, 413) },
    },
    // A multipart form is read and checked by the handler; JSON by the contract's schema, as everywhere.
    validatorCompiler: jsonOrMultipart,
    handler: async (req) => {
      let pages: service.NewPages;
      if (req.isMultipart()) pages = { files: await filesOfForm(req, app.config.imageLimit) };
      else if (req.body) pages = { imageIds: req.body.imageIds };
      else throw invalidField('body', 'Send the pages as JSON or as a multipart form');
      return service.addPages(scopeOf(req, req.params.orgId), requireAuth(req), req.params.itemId, pages);
    },
  });

  app.get('/organizations/:orgId/compliance/items/:itemId/pdf', {
    config: OWN_READ,
    schema: {
      tags,
      summary: "A paper's document as one PDF: photographed pages one per Letter sheet, or the PDF file uploaded (a driver: their own)",
      params: complianceItemIdParams,
      response: { 200: nonJsonResponse('application/pdf', "The paper's document", true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const { fileName, pdf } = await service.itemPdf(scopeOf(req, req.params.orgId), requireAuth(req), req.params.itemId);
      return sendFile(reply, 'application/pdf', fileName, pdf, 'inline');
    },
  });

  app.get('/organizations/:orgId/drivers/:driverId/qualification-file.pdf', {
    config: READ,
    schema: {
      tags,
      summary: "A driver's qualification file (49 CFR 391.51) as one PDF: an index of every approved paper with its status and first page, then each document",
      params: complianceDriverParams,
      response: { 200: nonJsonResponse('application/pdf', 'The qualification file', true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const { fileName, pdf } = await qualificationFile(scopeOf(req, req.params.orgId), req.params.driverId);
      return sendFile(reply, 'application/pdf', fileName, pdf);
    },
  });

  app.get('/organizations/:orgId/drivers/qualification-files.zip', {
    config: READ,
    schema: {
      tags,
      summary: "Every active driver's qualification file, one PDF each, as one ZIP",
      params: orgIdParams,
      response: { 200: nonJsonResponse('application/zip', 'One PDF per active driver', true), ...errors(401, 403, 404) },
    },
    handler: async (req, reply) => {
      const { fileName, zip } = await qualificationFilesZip(scopeOf(req, req.params.orgId));
      return sendFile(reply, 'application/zip', fileName, zip);
    },
  });
};

export default complianceRoutes;
