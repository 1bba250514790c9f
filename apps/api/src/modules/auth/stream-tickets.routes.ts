import { streamTicketSchema, type Permission } from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth } from './auth-context.ts';
import { issueStreamTicket } from './stream-tickets.service.ts';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

const params = z.object({ orgId: z.uuid('orgId must be an id') });

/**
 * `POST <stream>/ticket` (an `/organizations/:orgId/…` path): a single-use ticket that opens the
 * stream `stream` of the organization as the caller, and no other, for EventSource, which cannot
 * send the Authorization header. The stream's route sets `config.streamTicket` so the auth plugin
 * accepts `?ticket=`. Closed to API tokens (a ticket stands for a person's session).
 */
export function streamTicketRoute(app: ZodApp, route: { stream: string; tags: string[]; summary: string; permissions?: readonly Permission[] }): void {
  // The route the auth plugin sees when the ticket is spent (with the API prefix).
  const stream = app.prefix + route.stream;
  app.post(`${route.stream}/ticket`, {
    ...(route.permissions ? { config: { permissions: route.permissions } } : {}),
    schema: { tags: route.tags, summary: route.summary, params, response: { 200: streamTicketSchema, ...orgErrors() } },
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const ctx = requireAuth(req);
      // The ticket is worth what the credential that asked for it is: void once its sessions end.
      return issueStreamTicket(app.db, {
        userId: ctx.userId,
        orgId: req.params.orgId,
        sessionEpoch: req.credential?.epoch ?? ctx.sessionEpoch,
        stream,
        sessionId: req.credential?.session ?? null,
      });
    },
  });
}
