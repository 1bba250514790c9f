import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fuelCardAssignmentInputSchema,
  fuelCardAssignmentListSchema,
  fuelCardAssignmentSchema,
  fuelCardParams,
  fuelImportBodySchema,
  fuelImportPresetInputSchema,
  fuelImportPresetListSchema,
  fuelImportPresetParams,
  fuelImportPresetSchema,
  fuelImportResultSchema,
  fuelTransactionBatchResultSchema,
  fuelTransactionBatchSchema,
  fuelTransactionIdParams,
  fuelTransactionListQuery,
  fuelTransactionPageSchema,
  fuelTransactionReviewSchema,
  fuelTransactionSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import { getTransaction, listTransactions, recordTransactions, reviewTransaction } from './fuel-transactions.service.ts';
import { assignCard, listCards, unassignCard } from './fuel-cards.service.ts';
import { deleteImportPreset, importTransactionsFile, listImportPresets, saveImportPreset } from './fuel-transaction-import.service.ts';

const tags = ['ifta'];
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

/** Fuel-card transactions (issue 68): recorded by a card processor or a TMS, or imported from a card export; verified; reviewed. */
const fuelTransactionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/organizations/:orgId/fuel-transactions', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary:
        'Record fuel-card transactions (at most 1,000): a transaction id recorded before is a duplicate, counted and not stored twice; each becomes a tax-paid IFTA purchase and is verified against the truck',
      params: orgIdParams,
      body: fuelTransactionBatchSchema,
      response: { 200: fuelTransactionBatchResultSchema, ...orgErrors(413) },
    },
    handler: (req) => recordTransactions(scopeOf(req, req.params.orgId), req.body.transactions, { source: 'API' }),
  });

  app.get('/organizations/:orgId/fuel-transactions', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Fuel-card transactions with their verification in words (filters: verification, review, from, to, vehicle; counts per verification)',
      params: orgIdParams,
      querystring: fuelTransactionListQuery,
      response: { 200: fuelTransactionPageSchema, ...orgErrors() },
    },
    handler: (req) => listTransactions(scopeOf(req, req.params.orgId), req.query),
  });

  app.get('/organizations/:orgId/fuel-transactions/:id', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: { tags, summary: 'One fuel-card transaction', params: fuelTransactionIdParams, response: { 200: fuelTransactionSchema, ...orgErrors() } },
    handler: (req) => getTransaction(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.post('/organizations/:orgId/fuel-transactions/:id/review', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Accept or dispute a fuel-card transaction, with a note (required to dispute)',
      params: fuelTransactionIdParams,
      body: fuelTransactionReviewSchema,
      response: { 200: fuelTransactionSchema, ...orgErrors() },
    },
    handler: (req) => reviewTransaction(scopeOf(req, req.params.orgId), req.params.id, req.body),
  });

  app.post('/organizations/:orgId/fuel-transactions/import', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      tags,
      summary:
        'Import a card export (CSV) through a preset (WEX, EFS, Comdata, Fleet One, or one saved) and column mapping; dryRun=true reads it and saves nothing',
      params: orgIdParams,
      querystring: z.object({ dryRun: z.enum(['true', 'false']).default('false') }),
      body: fuelImportBodySchema,
      response: { 200: fuelImportResultSchema, ...orgErrors(413) },
    },
    handler: (req) => importTransactionsFile(scopeOf(req, req.params.orgId), req.body, req.query.dryRun === 'true'),
  });

  app.get('/organizations/:orgId/fuel-transactions/import-presets', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: "Column presets for card exports: the built-in ones and the organization's saved ones",
      params: orgIdParams,
      response: { 200: fuelImportPresetListSchema, ...orgErrors() },
    },
    handler: (req) => listImportPresets(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/fuel-transactions/import-presets/:name', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Save an adjusted column preset under a name for the organization',
      params: fuelImportPresetParams,
      body: fuelImportPresetInputSchema,
      response: { 200: fuelImportPresetSchema, ...orgErrors() },
    },
    handler: (req) => saveImportPreset(scopeOf(req, req.params.orgId), req.params.name, req.body),
  });

  app.delete('/organizations/:orgId/fuel-transactions/import-presets/:name', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: { tags, summary: 'Remove a saved column preset', params: fuelImportPresetParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await deleteImportPreset(scopeOf(req, req.params.orgId), req.params.name);
      return reply.code(204).send(null);
    },
  });

  app.get('/organizations/:orgId/fuel-cards', {
    config: { permissions: ['IFTA_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Fuel cards given to a vehicle or a driver',
      params: orgIdParams,
      response: { 200: fuelCardAssignmentListSchema, ...orgErrors() },
    },
    handler: (req) => listCards(scopeOf(req, req.params.orgId)),
  });

  app.put('/organizations/:orgId/fuel-cards/:last4', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Give a card (its last 4 digits) to a vehicle or a driver; its transactions without a truck find one',
      params: fuelCardParams,
      body: fuelCardAssignmentInputSchema,
      response: { 200: fuelCardAssignmentSchema, ...orgErrors() },
    },
    handler: (req) => assignCard(scopeOf(req, req.params.orgId), req.params.last4, req.body),
  });

  app.delete('/organizations/:orgId/fuel-cards/:last4', {
    config: { permissions: ['IFTA_UPDATE'], tokens: true },
    schema: { tags, summary: 'Take a card back', params: fuelCardParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await unassignCard(scopeOf(req, req.params.orgId), req.params.last4);
      return reply.code(204).send(null);
    },
  });
};

export default fuelTransactionRoutes;
