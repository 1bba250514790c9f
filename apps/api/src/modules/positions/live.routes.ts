import { liveStreamQuerySchema, liveVehicleSchema, STREAM_TICKET_TTL_SECONDS } from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openEventStream } from '../../http/event-stream.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { streamTicketRoute } from '../auth/index.ts';
import { assertGroup, liveVehicles, type LiveHub } from './live.service.ts';

const params = z.object({ orgId: z.uuid('orgId must be an id') });

const liveRoutes =
  (hub: LiveHub): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/organizations/:orgId/assets/live', {
      config: { permissions: ['ASSET_LIST'], tokens: true },
      schema: {
        tags: ['live'],
        summary: "Latest position and status of every vehicle (the map's first load and the fallback when the stream is down)",
        params,
        querystring: liveStreamQuerySchema.pick({ group: true }),
        response: { 200: z.object({ vehicles: z.array(liveVehicleSchema) }), ...orgErrors() },
      },
      handler: async (req) => {
        if (req.query.group) await assertGroup(app.db, req.params.orgId, req.query.group);
        const vehicles = await liveVehicles({ db: app.db, orgId: req.params.orgId });
        const group = req.query.group;
        return { vehicles: group ? vehicles.filter((v) => v.groupIds.includes(group)) : vehicles };
      },
    });

    streamTicketRoute(app, {
      stream: '/organizations/:orgId/assets/stream',
      permissions: ['ASSET_LIST'],
      tags: ['live'],
      summary: `A single-use ticket that opens the live stream once within ${STREAM_TICKET_TTL_SECONDS} s as the caller (for EventSource, which cannot send the Authorization header)`,
    });

    app.get('/organizations/:orgId/assets/stream', {
      config: { permissions: ['ASSET_LIST'], streamTicket: true, tokens: true },
      schema: {
        tags: ['live'],
        summary:
          'Server-Sent Events: `snapshot` {vehicles} on connect, then `positions` {vehicles} for every change, a comment line every 15 s. ' +
          'Bearer header, or `ticket` from POST …/assets/stream/ticket (single use) for EventSource. ' +
          'When the caller loses access (deactivated, logged out everywhere, ASSET_LIST or the organization withdrawn) a last `revoked` {reason, message} ends it.',
        params,
        querystring: liveStreamQuerySchema,
        response: {
          200: nonJsonResponse(
            'text/event-stream',
            'Server-Sent Events: `event: snapshot` then `event: positions`, each `data:` a JSON {vehicles: LiveVehicle[]} as GET assets/live answers',
          ),
          ...orgErrors(),
        },
      },
      handler: async (req, reply) => {
        const orgId = req.params.orgId;
        const group = req.query.group ?? null;
        if (group) await assertGroup(app.db, orgId, group);
        const all = await liveVehicles({ db: app.db, orgId });
        const snapshot = group ? all.filter((v) => v.groupIds.includes(group)) : all;

        // Ended when the caller may no longer see it (deactivated, logged out everywhere, ASSET_LIST removed).
        const stream = openEventStream(reply, { event: 'snapshot', data: { vehicles: snapshot } }, app.openStreams.guard(req));
        hub.noteSnapshot(orgId, all);
        const unsubscribe = hub.subscribe({
          orgId,
          groupId: group,
          send: (vehicles) => stream.send('positions', { vehicles }),
          close: () => stream.end(),
        });
        stream.onClose(unsubscribe);
      },
    });
  };

export default liveRoutes;
