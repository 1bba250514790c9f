import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  maintenanceDuePageSchema,
  maintenanceDueQuery,
  maintenanceScheduleIdParams,
  maintenanceScheduleInputSchema,
  maintenanceScheduleListQuery,
  maintenanceSchedulePageSchema,
  maintenanceScheduleSchema,
  orgIdParams,
  workOrderIdParams,
  workOrderInputSchema,
  workOrderListQuery,
  workOrderPageSchema,
  workOrderSchema,
} from '@fleet/api-contract';
import { orgErrors } from '../../http/route-schemas.ts';
import { scopeOf } from '../auth/index.ts';
import { listMaintenanceDue } from './maintenance-due.service.ts';
import * as schedules from './schedules.service.ts';
import * as orders from './work-orders.service.ts';

// Work orders, preventive maintenance schedules and the service due (issue 31, decision 0158).
const tags = ['maintenance'];

const workOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/work-orders', {
    config: { permissions: ['WORK_ORDER_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Work orders, newest first',
      params: orgIdParams,
      querystring: workOrderListQuery,
      response: { 200: workOrderPageSchema, ...orgErrors() },
    },
    handler: (req) => orders.listWorkOrders(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/work-orders', {
    config: { permissions: ['WORK_ORDER_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Create a work order, linking defects of its vehicle or trailer',
      params: orgIdParams,
      body: workOrderInputSchema,
      response: { 201: workOrderSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await orders.createWorkOrder(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/work-orders/:workOrderId', {
    config: { permissions: ['WORK_ORDER_LIST'], tokens: true },
    schema: { tags, summary: 'A work order', params: workOrderIdParams, response: { 200: workOrderSchema, ...orgErrors() } },
    handler: (req) => orders.getWorkOrder(scopeOf(req, req.params.orgId), req.params.workOrderId),
  });

  app.put('/organizations/:orgId/work-orders/:workOrderId', {
    config: { permissions: ['WORK_ORDER_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Replace a work order (DONE records its completion and restarts its schedule)',
      params: workOrderIdParams,
      body: workOrderInputSchema,
      response: { 200: workOrderSchema, ...orgErrors(409) },
    },
    handler: (req) => orders.updateWorkOrder(scopeOf(req, req.params.orgId), req.params.workOrderId, req.body),
  });

  app.delete('/organizations/:orgId/work-orders/:workOrderId', {
    config: { permissions: ['WORK_ORDER_UPDATE'], tokens: true },
    schema: { tags, summary: 'Delete a work order (its defects stay, unlinked)', params: workOrderIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await orders.deleteWorkOrder(scopeOf(req, req.params.orgId), req.params.workOrderId);
      return reply.code(204).send(null);
    },
  });

  app.get('/organizations/:orgId/maintenance-schedules', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Preventive maintenance schedules',
      params: orgIdParams,
      querystring: maintenanceScheduleListQuery,
      response: { 200: maintenanceSchedulePageSchema, ...orgErrors() },
    },
    handler: (req) => schedules.listSchedules(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/maintenance-schedules', {
    config: { permissions: ['MAINTENANCE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Create a schedule for a vehicle or a group (its vehicles start counting now)',
      params: orgIdParams,
      body: maintenanceScheduleInputSchema,
      response: { 201: maintenanceScheduleSchema, ...orgErrors() },
    },
    handler: async (req, reply) => reply.code(201).send(await schedules.createSchedule(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/maintenance-schedules/:scheduleId', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: { tags, summary: 'A maintenance schedule', params: maintenanceScheduleIdParams, response: { 200: maintenanceScheduleSchema, ...orgErrors() } },
    handler: (req) => schedules.getSchedule(scopeOf(req, req.params.orgId), req.params.scheduleId),
  });

  app.put('/organizations/:orgId/maintenance-schedules/:scheduleId', {
    config: { permissions: ['MAINTENANCE_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Replace a maintenance schedule',
      params: maintenanceScheduleIdParams,
      body: maintenanceScheduleInputSchema,
      response: { 200: maintenanceScheduleSchema, ...orgErrors() },
    },
    handler: (req) => schedules.updateSchedule(scopeOf(req, req.params.orgId), req.params.scheduleId, req.body),
  });

  app.delete('/organizations/:orgId/maintenance-schedules/:scheduleId', {
    config: { permissions: ['MAINTENANCE_UPDATE'], tokens: true },
    schema: { tags, summary: 'Delete a maintenance schedule', params: maintenanceScheduleIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await schedules.deleteSchedule(scopeOf(req, req.params.orgId), req.params.scheduleId);
      return reply.code(204).send(null);
    },
  });

  app.get('/organizations/:orgId/maintenance/due', {
    config: { permissions: ['MAINTENANCE_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Vehicles due or overdue for service, overdue first',
      params: orgIdParams,
      querystring: maintenanceDueQuery,
      response: { 200: maintenanceDuePageSchema, ...orgErrors() },
    },
    handler: (req) => listMaintenanceDue(scopeOf(req, req.params.orgId), req.query),
  });
};

export default workOrderRoutes;
