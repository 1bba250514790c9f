import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deviceCommandInputSchema,
  deviceCommandListQuery,
  deviceCommandPageSchema,
  deviceCommandParams,
  deviceCommandSchema,
  gatewayCreatedSchema,
  gatewayDetailSchema,
  gatewayIdParams,
  gatewayInputSchema,
  gatewayListQuery,
  gatewayPairBodySchema,
  gatewayPageSchema,
  gatewayPairParams,
  ingestTokenSchema,
  orgIdParams,
  refusedDeviceAdminSchema,
  refusedDeviceLookupQuery,
  refusedDeviceLookupSchema,
  refusedDeviceSchema,
  refusedFixListQuery,
  refusedFixPageSchema,
  removalResultSchema,
} from '@fleet/api-contract';
import { z } from 'zod';
import { scopeOf } from '../auth/index.ts';
import { authErrors, orgErrors } from '../../http/route-schemas.ts';
import { handLate } from '../positions/index.ts';
import * as pairing from './pairing.service.ts';
import * as svc from './gateways.service.ts';
import * as refused from './refused-devices.ts';
import { listRefusedFixes } from './refused-fixes.service.ts';
import * as commands from './device-commands.service.ts';
import { CommandDispatcher } from './device-commands.dispatch.ts';

const tags = ['gateways'];

const gatewaysRoutes: FastifyPluginAsyncZod = async (app) => {
  // Pairing reaches ingest at once on this instance, and hands the vehicle's new positions to the work behind it.
  const pairingHooks: pairing.PairingHooks = {
    forgetDevice: (id) => app.ingest.directory.forget(id),
    attributed: (rows) => handLate(app.ingest.committer, rows, { duty: true }),
  };
  // Commands reach the devices connected to this instance's Teltonika port, and their answers come back here (decision 0318).
  const dispatcher = new CommandDispatcher(app.db, app.ingest.deviceLinks, { logError: (err, message) => app.log.error({ err }, message) });
  app.ingest.deviceLinks.listen(dispatcher);

  app.get('/organizations/:orgId/gateways', {
    config: { permissions: ['GAT_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Devices: paged, sorted, searched (unique id, name, SIM, firmware), filtered by status, group and paired',
      params: orgIdParams,
      querystring: gatewayListQuery,
      response: { 200: gatewayPageSchema, ...orgErrors() },
    },
    handler: (req) => svc.listGateways(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/gateways', {
    config: { permissions: ['GAT_CREATE'], tokens: true },
    schema: {
      tags,
      summary: 'Add a device; the answer carries its batch-ingest token once',
      params: orgIdParams,
      body: gatewayInputSchema,
      response: { 201: gatewayCreatedSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => {
      const created = await svc.createGateway(scopeOf(req, req.params.orgId), req.body);
      // Registered now: no longer offered as a refused id, nor answered as unknown from memory.
      app.ingest.unknownDevices.forget(created.uniqueId);
      app.ingest.directory.forgetUniqueId(created.uniqueId);
      return reply.code(201).send(created);
    },
  });

  // Ids refused as unknown (decision 0154). An organization sees only those refused through its own
  // forwarding token: ids refused with no organization (TCP handshake, OsmAnd) could be another
  // carrier's new devices, and listing them would invite registering (hijacking) them.
  app.get('/organizations/:orgId/gateways/refused', {
    config: { permissions: ['GAT_LIST', 'GAT_CREATE'], tokens: true },
    schema: {
      tags,
      summary: "Device ids refused through this organization's Traccar forwarding token, newest first (this API instance, since it started)",
      params: orgIdParams,
      response: { 200: z.array(refusedDeviceSchema), ...orgErrors() },
    },
    handler: (req) => refused.refusedForOrganization(app.ingest.unknownDevices, req.params.orgId),
  });

  app.get('/organizations/:orgId/gateways/refused/lookup', {
    config: { permissions: ['GAT_CREATE'], tokens: true },
    schema: {
      tags,
      summary: 'Whether this exact unique id tried to connect and was refused (the add-device form): its last attempt, or lastAt null',
      params: orgIdParams,
      querystring: refusedDeviceLookupQuery,
      response: { 200: refusedDeviceLookupSchema, ...orgErrors() },
    },
    handler: (req) => refused.lookupRefused(app.ingest.unknownDevices, req.params.orgId, req.query.uniqueId),
  });

  app.get('/admin/diagnostics/refused-devices', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags: ['diagnostics'],
      summary: "Every device id refused as unknown on this API instance, newest first, with the organization whose token it came with and the sender's address",
      response: { 200: z.array(refusedDeviceAdminSchema), ...authErrors() },
    },
    handler: () => refused.refusedForAdmin(app.db, app.ingest.unknownDevices),
  });

  app.get('/organizations/:orgId/gateways/:id', {
    config: { permissions: ['GAT_READ'], tokens: true },
    schema: {
      tags,
      summary: 'Device detail: model, paired vehicle, pairing history, last seen',
      params: gatewayIdParams,
      response: { 200: gatewayDetailSchema, ...orgErrors() },
    },
    handler: (req) => svc.getGateway(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.get('/organizations/:orgId/gateways/:id/refused-fixes', {
    config: { permissions: ['GAT_READ'], tokens: true },
    schema: {
      tags,
      summary:
        "The device's fixes refused in the last 24 hours (answered as received, not stored), one row per minute and reason, with the clock's offset and a hint; newest first",
      params: gatewayIdParams,
      querystring: refusedFixListQuery,
      response: { 200: refusedFixPageSchema, ...orgErrors() },
    },
    handler: (req) => listRefusedFixes(scopeOf(req, req.params.orgId), req.params.id, req.query),
  });

  // Tokens may send commands (decision 0318): an integration that acts on devices needs it, and a
  // token holds GAT_COMMAND only when its creator does.
  app.post('/organizations/:orgId/gateways/:gatewayId/commands', {
    config: { permissions: ['GAT_COMMAND'], tokens: true },
    schema: {
      tags,
      summary: `Queue a text command for the device (getinfo, getgps, setdigout 1): sent with Teltonika's codec 12 while it is connected or when it next connects; its answer is stored with it`,
      params: deviceCommandParams,
      body: deviceCommandInputSchema,
      response: { 201: deviceCommandSchema, ...orgErrors() },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await commands.queueCommand(scopeOf(req, req.params.orgId), req.params.gatewayId, req.body, dispatcher)),
  });

  // Reading the commands and answers is viewing the device (GAT_READ); sending them is GAT_COMMAND.
  app.get('/organizations/:orgId/gateways/:gatewayId/commands', {
    config: { permissions: ['GAT_READ'], tokens: true },
    schema: {
      tags,
      summary: 'The commands sent to the device, newest first, with status (QUEUED, SENT, ANSWERED, EXPIRED) and answer',
      params: deviceCommandParams,
      querystring: deviceCommandListQuery,
      response: { 200: deviceCommandPageSchema, ...orgErrors() },
    },
    handler: (req) => commands.listCommands(scopeOf(req, req.params.orgId), req.params.gatewayId, req.query),
  });

  app.put('/organizations/:orgId/gateways/:id', {
    config: { permissions: ['GAT_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Edit a device (deactivating unpairs it)',
      params: gatewayIdParams,
      body: gatewayInputSchema,
      response: { 200: gatewayDetailSchema, ...orgErrors(409) },
    },
    handler: async (req) => {
      const saved = await svc.updateGateway(scopeOf(req, req.params.orgId), req.params.id, req.body);
      // Its id, token and settings (use the time received) reach this instance's ingest at once, other instances' within TTL_MS.
      app.ingest.directory.forget(req.params.id);
      app.ingest.directory.forgetUniqueId(saved.uniqueId);
      return saved;
    },
  });

  app.delete('/organizations/:orgId/gateways/:id', {
    config: { permissions: ['GAT_DELETE'], tokens: true },
    schema: {
      tags,
      summary: 'Delete, or deactivate when the device has pairing history',
      params: gatewayIdParams,
      response: { 200: removalResultSchema, ...orgErrors() },
    },
    handler: (req) => svc.removeGateway(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.post('/organizations/:orgId/gateways/:id/token', {
    config: { permissions: ['GAT_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Regenerate the batch-ingest token (the old one stops working)',
      params: gatewayIdParams,
      response: { 200: ingestTokenSchema, ...orgErrors() },
    },
    handler: (req) => svc.regenerateIngestToken(scopeOf(req, req.params.orgId), req.params.id),
  });

  app.post('/organizations/:orgId/gateways/:id/pair/:assetId', {
    config: { permissions: ['GAT_PAIR'], tokens: true },
    schema: {
      tags,
      summary: 'Pair the device with a vehicle (one device per vehicle); `from` gives the vehicle the positions the device sent since then',
      params: gatewayPairParams,
      body: gatewayPairBodySchema,
      response: { 200: gatewayDetailSchema, ...orgErrors(409) },
    },
    handler: (req) => pairing.pairDevice(scopeOf(req, req.params.orgId), req.params.id, req.params.assetId, req.body ?? {}, pairingHooks),
  });

  app.post('/organizations/:orgId/gateways/:id/unpair', {
    config: { permissions: ['GAT_PAIR'], tokens: true },
    schema: { tags, summary: 'Unpair the device from its vehicle', params: gatewayIdParams, response: { 200: gatewayDetailSchema, ...orgErrors() } },
    handler: async (req) => {
      const detail = await pairing.unpairDevice(scopeOf(req, req.params.orgId), req.params.id);
      app.ingest.directory.forget(req.params.id);
      return detail;
    },
  });
};

export default gatewaysRoutes;
