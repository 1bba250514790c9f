import { batchIngestResultSchema, batchIngestSchema } from '@fleet/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../plugins/errors.ts';
import { errors } from '../../lib/route-schemas.ts';
import { unauthorized } from '../../lib/errors.ts';
import { handleOsmand, ingestBatch, type Ingest } from './ingest.ts';

/** Form bodies and anything else a device posts arrive as text; JSON keeps Fastify's parser. */
export function acceptDeviceBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

/** Answers an OsmAnd request as Traccar does: status only, empty 200 body. */
export async function replyOsmand(ingest: Ingest, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  const res = await handleOsmand(ingest, { query: q >= 0 ? url.slice(q + 1) : '', contentType: request.headers['content-type'], body: request.body });
  if (res.error) {
    await reply.code(res.status).send(errorBody(res.status, res.error.message, res.error.technicalMessage));
    return;
  }
  await reply.code(200).header('content-length', '0').send();
}

const ingestRoutes = (ingest: Ingest): FastifyPluginAsyncZod =>
  async (app) => {
    acceptDeviceBodies(app);

    app.route({
      method: ['GET', 'POST'],
      url: '/ingest/osmand',
      config: { public: true },
      schema: {
        tags: ['ingest'],
        summary: 'OsmAnd protocol (Traccar Client, OsmAnd app): query, form or JSON; 200 with an empty body once stored',
        security: [],
      },
      handler: (request, reply) => replyOsmand(ingest, request, reply),
    });

    app.post('/ingest/positions', {
      config: { public: true },
      schema: {
        tags: ['ingest'],
        summary: 'A gateway\'s batch of up to 1,000 positions, authenticated by the device token (Bearer)',
        security: [{ bearer: [] }],
        headers: z.object({ authorization: z.string().optional() }),
        body: batchIngestSchema,
        response: { 200: batchIngestResultSchema, ...errors(400, 401) },
      },
      // The device token is checked before the body, so a stranger learns nothing from validation.
      preValidation: async (request) => {
        const header = request.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
        if (!token) throw unauthorized('Device token required', 'No bearer token');
        const gw = await ingest.directory.byIngestToken(token);
        if (!gw) throw unauthorized('Unknown device token', 'No active device holds this ingest token');
        (request as FastifyRequest & { gateway?: typeof gw }).gateway = gw;
      },
      handler: async (request) => {
        const gw = (request as FastifyRequest & { gateway?: Parameters<typeof ingestBatch>[1] }).gateway!;
        return ingestBatch(ingest, gw, request.body.positions);
      },
    });
  };

export default ingestRoutes;
