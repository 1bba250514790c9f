import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import {
  loadAssignmentSchema,
  loadDocumentIdParams,
  loadDocumentInputSchema,
  LOAD_DOCUMENT_MAX_PAGES,
  loadDocumentSchema,
  type LoadDocumentInput,
  loadIdParams,
  loadImportBodySchema,
  loadImportResultSchema,
  loadInputSchema,
  loadListQuerySchema,
  loadPageSchema,
  loadSchema,
  loadStatusChangeSchema,
  loadStopIdParams,
  orgIdParams,
  stopStatusInputSchema,
} from '@fleet/api-contract';
import { invalidField } from '../../http/errors.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { validatorWithInputRules } from '../../http/validator.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { importLoads } from './load-import.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';
import { documentOfForm, documentOfJson } from './load-document-form.ts';
import { addDocument, deleteDocument, documentPdf, listDocuments } from './load-documents.service.ts';
import { stopEvent } from './load-stops.service.ts';
import * as service from './loads.service.ts';

// Loads (issue 33, decision 0166). Reads take the office's LOAD_LIST or the driver's LOAD_SELF_WRITE
// (their own loads only); stop events and documents take LOAD_UPDATE or LOAD_SELF_WRITE likewise;
// everything else is the office's LOAD_UPDATE.
const tags = ['loads'];
const READ = { anyPermissions: ['LOAD_LIST', 'LOAD_SELF_WRITE'] } as const;
const AT_STOP = { anyPermissions: ['LOAD_UPDATE', 'LOAD_SELF_WRITE'] } as const;
const OFFICE = { permissions: ['LOAD_UPDATE'] } as const;
const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;

/** A body's validator that leaves a multipart form (no parsed body) to the handler and checks JSON as every route does. */
const jsonOrMultipart: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorWithInputRules({ ...route, schema: route.schema as ZodType });
  return (data) => ((data === undefined || data === null) && route.httpPart === 'body' ? true : validate(data));
};

/** A JSON body (checked by the schema); none at all is a 400. */
function documentOfJsonBody(body: LoadDocumentInput | null | undefined) {
  if (body === undefined || body === null) throw invalidField('body', 'Send the document as JSON or as a multipart form');
  return documentOfJson(body);
}

const loadsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/loads', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: 'Loads, with status (comma list), driver, customer, first pick-up window (from, to) and search; a driver sees their own',
      params: orgIdParams,
      querystring: loadListQuerySchema,
      response: { 200: loadPageSchema, ...orgErrors() },
    },
    handler: (req) => service.listLoads(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.post('/organizations/:orgId/loads', {
    config: { ...OFFICE, tokens: true },
    schema: {
      tags,
      summary:
        'Create a load (numbered L-1001, …); with drivers it is assigned (409 naming the load when a driver or the tractor is on a load whose time overlaps, unless overlapAllowed)',
      params: orgIdParams,
      body: loadInputSchema,
      response: { 201: loadSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await service.createLoad(scopeOf(req, req.params.orgId), req.body)),
  });

  app.post('/organizations/:orgId/loads/import', {
    config: { ...OFFICE, tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Import loads from a CSV, one row per stop grouped by reference (dryRun: check only); nothing is saved when a row has an error',
      params: orgIdParams,
      body: loadImportBodySchema,
      response: { 200: loadImportResultSchema, ...orgErrors(413) },
    },
    handler: (req) => importLoads(scopeOf(req, req.params.orgId), req.body),
  });

  app.get('/organizations/:orgId/loads/:loadId', {
    config: { ...READ, tokens: true },
    schema: { tags, summary: 'A load with its stops, status history and documents', params: loadIdParams, response: { 200: loadSchema, ...orgErrors() } },
    handler: (req) => service.getLoad(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId),
  });

  app.put('/organizations/:orgId/loads/:loadId', {
    config: { ...OFFICE, tokens: true },
    schema: {
      tags,
      summary:
        'Replace a load; reached stops keep their times; a delivered or cancelled load answers 409, as does a newly named driver or tractor on an overlapping load (unless overlapAllowed)',
      params: loadIdParams,
      body: loadInputSchema,
      response: { 200: loadSchema, ...orgErrors(409) },
    },
    handler: (req) => service.updateLoad(scopeOf(req, req.params.orgId), req.params.loadId, req.body),
  });

  app.delete('/organizations/:orgId/loads/:loadId', {
    config: { ...OFFICE, tokens: true },
    schema: {
      tags,
      summary: 'Delete a planned or cancelled load (others answer 409: cancel first)',
      params: loadIdParams,
      response: { 204: z.null(), ...orgErrors(409) },
    },
    handler: async (req, reply) => {
      await service.deleteLoad(scopeOf(req, req.params.orgId), req.params.loadId);
      return reply.code(204).send(null);
    },
  });

  app.post('/organizations/:orgId/loads/:loadId/assignment', {
    config: { ...OFFICE, tokens: true },
    schema: {
      tags,
      summary:
        "Assign drivers (lead first), tractor (default: the lead driver's vehicle) and trailer; an empty list unassigns; 409 naming the load when a newly named driver or the tractor is on or assigned to a load whose time overlaps (overlapAllowed: true to assign anyway)",
      params: loadIdParams,
      body: loadAssignmentSchema,
      response: { 200: loadSchema, ...orgErrors(409) },
    },
    handler: (req) => service.assignLoad(scopeOf(req, req.params.orgId), req.params.loadId, req.body),
  });

  app.post('/organizations/:orgId/loads/:loadId/status', {
    config: { ...OFFICE, tokens: true },
    schema: {
      tags,
      summary: 'Cancel, back to planned (unassigned), or mark delivered',
      params: loadIdParams,
      body: loadStatusChangeSchema,
      response: { 200: loadSchema, ...orgErrors(409) },
    },
    handler: (req) => service.changeStatus(scopeOf(req, req.params.orgId), req.params.loadId, req.body),
  });

  app.post('/organizations/:orgId/loads/:loadId/stops/:stopId/status', {
    config: { ...AT_STOP, tokens: true },
    schema: {
      tags,
      summary: "Arrive at or depart from a stop (the office, or the load's own driver); at defaults to now",
      params: loadStopIdParams,
      body: stopStatusInputSchema,
      response: { 200: loadSchema, ...orgErrors(409) },
    },
    handler: (req) => stopEvent(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId, req.params.stopId, req.body),
  });

  app.get('/organizations/:orgId/loads/:loadId/documents', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "The load's photographed papers, oldest first: type, stop, pages, who added them and when",
      params: loadIdParams,
      response: { 200: z.array(loadDocumentSchema), ...orgErrors() },
    },
    handler: (req) => listDocuments(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId),
  });

  app.post('/organizations/:orgId/loads/:loadId/documents', {
    config: { ...AT_STOP, tokens: true },
    schema: {
      tags,
      summary: `Add a paper of one page or several (BOL, POD, LUMPER, SCALE or OTHER; at most ${LOAD_DOCUMENT_MAX_PAGES} pages, JPEG or PNG): JSON naming uploaded images in order (imageIds; or the older documentKind and one imageId), or a multipart form with type, stopId and the pages as image files in order (413 for a page above IMAGE_LIMIT_BYTES). With the phone's Idempotency-Key a resend answers the first document`,
      consumes: ['application/json', 'multipart/form-data'],
      params: loadIdParams,
      body: loadDocumentInputSchema,
      response: { 201: loadDocumentSchema, ...orgErrors(413) },
    },
    // A multipart form is read and checked by the handler; JSON by the contract's schema, as everywhere.
    validatorCompiler: jsonOrMultipart,
    handler: async (req, reply) => {
      const input = req.isMultipart() ? await documentOfForm(req, app.config.imageLimit) : documentOfJsonBody(req.body);
      return reply.code(201).send(await addDocument(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId, input, idempotencyKeyOf(req)));
    },
  });

  app.get('/organizations/:orgId/loads/:loadId/documents/:documentId/pdf', {
    config: { ...READ, tokens: true },
    schema: {
      tags,
      summary: "A paper as one PDF: its pages in the order taken, each scaled to a Letter sheet (the office, or the load's own driver)",
      params: loadDocumentIdParams,
      response: { 200: nonJsonResponse('application/pdf', 'The document, one page per photo', true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const { fileName, pdf } = await documentPdf(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId, req.params.documentId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  });

  app.delete('/organizations/:orgId/loads/:loadId/documents/:documentId', {
    config: { ...AT_STOP, tokens: true },
    schema: { tags, summary: 'Remove a paper (a driver: only one they added)', params: loadDocumentIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await deleteDocument(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId, req.params.documentId);
      return reply.code(204).send(null);
    },
  });
};

export default loadsRoutes;
