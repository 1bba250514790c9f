import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  billableLoadListSchema,
  billableLoadsQuerySchema,
  invoiceAgingQuerySchema,
  invoiceAgingSchema,
  invoiceCreateSchema,
  invoiceExportQuerySchema,
  invoiceIdParams,
  invoiceLinesInputSchema,
  invoiceListQuerySchema,
  invoicePageSchema,
  invoicePaymentIdParams,
  invoicePaymentInputSchema,
  invoiceSchema,
  invoiceVoidSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { recordPayment, removePayment } from './invoice-payments.service.ts';
import { invoiceAging, invoicesCsv } from './invoice-reports.service.ts';
import { invoiceFile, sendInvoice } from './invoice-send.service.ts';
import * as service from './invoices.service.ts';

// Invoices (issue 70, decision 0291). Reads take INVOICE_LIST, changes INVOICE_UPDATE; open to API
// tokens (decision 0226) like the other office codes: an accounting system reads and pays invoices.
const tags = ['invoices'];
const READ = { permissions: ['INVOICE_LIST'], tokens: true } as const;
const WRITE = { permissions: ['INVOICE_UPDATE'], tokens: true } as const;

const invoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/invoices', {
    config: READ,
    schema: {
      tags,
      summary: 'Invoices, newest first, by status (comma list), customer, overdue, invoice dates (from, to) and search (number, customer)',
      params: orgIdParams,
      querystring: invoiceListQuerySchema,
      response: { 200: invoicePageSchema, ...orgErrors() },
    },
    handler: (req) => service.listInvoices(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/invoices', {
    config: WRITE,
    schema: {
      tags,
      summary:
        'A draft invoice (numbered INV-1001, …) of delivered loads of one customer: line haul, fuel surcharge, accessorials, detention per stop from the customer’s free time and rate, lumper reimbursed; due after the customer’s terms. 400 for loads of several customers or without one, 409 for a load not delivered or already invoiced',
      params: orgIdParams,
      body: invoiceCreateSchema,
      response: { 201: invoiceSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await service.createInvoice(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/invoices/billable-loads', {
    config: READ,
    schema: {
      tags,
      summary: 'Delivered loads of registered customers that no invoice bills yet (of one customer with customerId), with what each would bill',
      params: orgIdParams,
      querystring: billableLoadsQuerySchema,
      response: { 200: billableLoadListSchema, ...orgErrors() },
    },
    handler: (req) => service.listBillableLoads(scopeOf(req, req.params.orgId), req.query.customerId),
  });

  app.get('/organizations/:orgId/invoices/aging', {
    config: READ,
    schema: {
      tags,
      summary: 'What each customer owed on a day (asOf, default today) by days past due: current, 1-30, 31-60, 61-90, over 90, and the totals',
      params: orgIdParams,
      querystring: invoiceAgingQuerySchema,
      response: { 200: invoiceAgingSchema, ...orgErrors() },
    },
    handler: (req) => invoiceAging(scopeOf(req, req.params.orgId), req.query.asOf),
  });

  app.get('/organizations/:orgId/invoices/export.csv', {
    config: READ,
    schema: {
      tags,
      summary:
        'Invoices as CSV for an accounting program’s import (QuickBooks, Xero): one row per line (per=line, the default) or per invoice; void invoices only when asked for by status',
      params: orgIdParams,
      querystring: invoiceExportQuerySchema,
      response: {
        200: nonJsonResponse('text/csv', 'InvoiceNo, Customer, InvoiceDate, DueDate, Terms, Item, ItemDescription, ItemQuantity, ItemRate, ItemAmount, …'),
        ...orgErrors(),
      },
    },
    handler: async (req, reply) => {
      const csv = await invoicesCsv(scopeOf(req, req.params.orgId), req.query);
      return reply
        .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${csv.name}"`, 'cache-control': 'no-store' })
        .send(csv.body);
    },
  });

  app.get('/organizations/:orgId/invoices/:invoiceId', {
    config: READ,
    schema: { tags, summary: 'An invoice with its loads, lines and payments', params: invoiceIdParams, response: { 200: invoiceSchema, ...orgErrors() } },
    handler: (req) => service.getInvoice(scopeOf(req, req.params.orgId), req.params.invoiceId),
  });

  app.put('/organizations/:orgId/invoices/:invoiceId/lines', {
    config: WRITE,
    schema: {
      tags,
      summary: 'Replace a draft’s lines and notes (lines of its own loads and stops, or of the whole invoice); 409 once it is sent or paid',
      params: invoiceIdParams,
      body: invoiceLinesInputSchema,
      response: { 200: invoiceSchema, ...orgErrors(409) },
    },
    handler: (req) => service.updateLines(scopeOf(req, req.params.orgId), req.params.invoiceId, req.body),
  });

  app.get('/organizations/:orgId/invoices/:invoiceId/pdf', {
    config: READ,
    schema: {
      tags,
      summary: 'The invoice as a PDF, its loads’ proofs of delivery (and lumper receipts) appended',
      params: invoiceIdParams,
      response: { 200: nonJsonResponse('application/pdf', 'The invoice, then the papers', true), ...orgErrors() },
    },
    handler: async (req, reply) => {
      const f = await invoiceFile(scopeOf(req, req.params.orgId), req.params.invoiceId);
      return reply
        .headers({ 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${f.name}"`, 'cache-control': 'no-store' })
        .send(f.body);
    },
  });

  app.post('/organizations/:orgId/invoices/:invoiceId/send', {
    config: WRITE,
    schema: {
      tags,
      summary: 'E-mail the invoice’s PDF to the customer’s invoice address and mark it sent (409 when the customer has none, or the invoice is void)',
      params: invoiceIdParams,
      response: { 200: invoiceSchema, ...orgErrors(409) },
    },
    handler: (req) => sendInvoice(scopeOf(req, req.params.orgId), app.mailer, req.params.invoiceId),
  });

  app.post('/organizations/:orgId/invoices/:invoiceId/payments', {
    config: WRITE,
    schema: {
      tags,
      summary: 'Record a payment received (partial payments allowed; 409 for more than the balance): the invoice is then partially paid or paid',
      params: invoiceIdParams,
      body: invoicePaymentInputSchema,
      response: { 201: invoiceSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await recordPayment(scopeOf(req, req.params.orgId), req.params.invoiceId, req.body)),
  });

  app.delete('/organizations/:orgId/invoices/:invoiceId/payments/:paymentId', {
    config: WRITE,
    schema: { tags, summary: 'Remove a payment recorded by mistake', params: invoicePaymentIdParams, response: { 200: invoiceSchema, ...orgErrors() } },
    handler: (req) => removePayment(scopeOf(req, req.params.orgId), req.params.invoiceId, req.params.paymentId),
  });

  app.post('/organizations/:orgId/invoices/:invoiceId/void', {
    config: WRITE,
    schema: {
      tags,
      summary: 'Void an invoice without payments: it keeps its number, and its loads may be invoiced again',
      params: invoiceIdParams,
      body: invoiceVoidSchema,
      response: { 200: invoiceSchema, ...orgErrors(409) },
    },
    handler: (req) => service.voidInvoice(scopeOf(req, req.params.orgId), req.params.invoiceId, req.body),
  });
};

export default invoicesRoutes;
