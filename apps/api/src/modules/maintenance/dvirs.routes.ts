import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  defectCertificationSchema,
  defectIdParams,
  defectListQuery,
  defectPageSchema,
  defectSchema,
  dvirIdParams,
  dvirInputSchema,
  dvirListQuery,
  dvirPageSchema,
  dvirReviewInputSchema,
  dvirSchema,
  orgIdParams,
  uploadedImageSchema,
} from '@fleet/api-contract';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { checkedElsewhere, imageUploadBody, orgErrors } from '../../http/route-schemas.ts';
import { certifyDefect, listDefects } from './defects.service.ts';
import { createDvir, getDvir, listDvirs, reviewDvir } from './dvirs.service.ts';
import { storeOrganizationImage, uploadedFileBytes, uploaderOf } from '../images/index.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';

// Driver vehicle inspection reports and their defects (issue 31, decision 0158). A driver (the
// Driver role's DVIR_SELF_WRITE) signs reports and reviews of the vehicles they drive and reads
// those vehicles' reports; the office (DVIR_LIST) reads every report; DEFECT_UPDATE certifies repairs.

const tags = ['maintenance'];
const readReports = { anyPermissions: ['DVIR_LIST', 'DVIR_SELF_WRITE'] } as const;

const dvirRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/dvirs', {
    config: { ...readReports, tokens: true },
    schema: {
      tags,
      summary: 'Inspection reports, newest first, with their defects (a driver sees the reports of the vehicles they drive)',
      params: orgIdParams,
      querystring: dvirListQuery,
      response: { 200: dvirPageSchema, ...orgErrors() },
    },
    handler: (req) => listDvirs(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.post('/organizations/:orgId/dvirs', {
    config: { permissions: ['DVIR_SELF_WRITE'] },
    schema: {
      tags,
      summary:
        "The driver's signed inspection of a vehicle they drive and its trailers (49 CFR 396.11): every listed item, immutable once stored; failed items become open defects",
      params: orgIdParams,
      body: dvirInputSchema,
      response: { 201: dvirSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await createDvir(scopeOf(req, req.params.orgId), requireAuth(req), req.body, idempotencyKeyOf(req))),
  });

  app.post('/organizations/:orgId/dvirs/images', {
    config: readReports,
    schema: {
      tags,
      summary: 'Upload a photo of a defect or a drawn signature (multipart field "file": PNG, JPEG, GIF or WebP; 413 above IMAGE_LIMIT_BYTES)',
      consumes: ['multipart/form-data'],
      params: orgIdParams,
      body: imageUploadBody,
      response: { 201: uploadedImageSchema, ...orgErrors(413) },
    },
    validatorCompiler: checkedElsewhere({ body: 'handler' }),
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await storeOrganizationImage(req.server.db, req.params.orgId, uploaderOf(requireAuth(req)), await uploadedFileBytes(req), idempotencyKeyOf(req))),
  });

  app.get('/organizations/:orgId/dvirs/:dvirId', {
    config: { ...readReports, tokens: true },
    schema: {
      tags,
      summary: 'An inspection report with its defects and the next driver’s review',
      params: dvirIdParams,
      response: { 200: dvirSchema, ...orgErrors() },
    },
    handler: (req) => getDvir(scopeOf(req, req.params.orgId), requireAuth(req), req.params.dvirId),
  });

  app.post('/organizations/:orgId/dvirs/:dvirId/review', {
    config: { permissions: ['DVIR_SELF_WRITE'] },
    schema: {
      tags,
      summary:
        "The next driver signs that they reviewed the report's repair certifications (396.13(c)); 409 while a defect is open, without defects, or when already reviewed",
      params: dvirIdParams,
      body: dvirReviewInputSchema,
      response: { 200: dvirSchema, ...orgErrors(409) },
    },
    handler: (req) => reviewDvir(scopeOf(req, req.params.orgId), requireAuth(req), req.params.dvirId, req.body),
  });

  app.get('/organizations/:orgId/defects', {
    config: { permissions: ['DVIR_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Defects reported on inspections, newest first, by unit, status and safety',
      params: orgIdParams,
      querystring: defectListQuery,
      response: { 200: defectPageSchema, ...orgErrors() },
    },
    handler: (req) => listDefects(scopeOf(req, req.params.orgId), req.query),
  });

  app.put('/organizations/:orgId/defects/:defectId', {
    config: { permissions: ['DEFECT_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: "The mechanic's signed certification that closes an open defect: repaired, or repair unnecessary (396.11(a)(3)); 409 when already certified",
      params: defectIdParams,
      body: defectCertificationSchema,
      response: { 200: defectSchema, ...orgErrors(409) },
    },
    handler: (req) => certifyDefect(scopeOf(req, req.params.orgId), req.params.defectId, req.body),
  });
};

export default dvirRoutes;
