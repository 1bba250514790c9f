import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loadAssignmentSchema,
  loadDocumentIdParams,
  loadDocumentInputSchema,
  loadDocumentSchema,
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
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { importLoads } from './load-import.ts';
import { addDocument, deleteDocument, listDocuments, stopEvent } from './load-stops.service.ts';
import * as service from './loads.service.ts';

// Loads (issue 33, decision 0166). Reads take the office's LOAD_LIST or the driver's LOAD_SELF_WRITE
// (their own loads only); stop events and documents take LOAD_UPDATE or LOAD_SELF_WRITE likewise;
// everything else is the office's LOAD_UPDATE.
const tags = ['loads'];
const READ = { anyPermissions: ['LOAD_LIST', 'LOAD_SELF_WRITE'] } as const;
const AT_STOP = { anyPermissions: ['LOAD_UPDATE', 'LOAD_SELF_WRITE'] } as const;
const OFFICE = { permissions: ['LOAD_UPDATE'] } as const;
const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;

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
    schema: { tags, summary: "The load's photographed papers", params: loadIdParams, response: { 200: z.array(loadDocumentSchema), ...orgErrors() } },
    handler: (req) => listDocuments(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId),
  });

  app.post('/organizations/:orgId/loads/:loadId/documents', {
    config: { ...AT_STOP, tokens: true },
    schema: {
      tags,
      summary: 'Attach an uploaded photo as a BOL, POD or other paper',
      params: loadIdParams,
      body: loadDocumentInputSchema,
      response: { 201: loadDocumentSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await addDocument(scopeOf(req, req.params.orgId), requireAuth(req), req.params.loadId, req.body)),
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
