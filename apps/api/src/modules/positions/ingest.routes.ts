import {
  batchIngestEnvelopeSchema,
  batchIngestResultSchema,
  batchIngestSchema,
  ingestDiagnosticsSchema,
  osmandJsonDoc,
  osmandQueryDoc,
  traccarForwardDoc,
} from '@fleet/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../plugins/errors.ts';
import { authErrors, checkedElsewhere, errors } from '../../http/route-schemas.ts';
import { unauthorized } from '../../http/errors.ts';
import { handleOsmand, ingestBatch, ingestDiagnostics, type Ingest } from './pipeline/ingest.service.ts';
import { handleTraccar, OrgIngestTokens, tokenOf } from './pipeline/traccar-ingest.ts';

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

const ingestRoutes =
  (ingest: Ingest): FastifyPluginAsyncZod =>
  async (app) => {
    acceptDeviceBodies(app);
    // Every 5xx of a device's way in is counted (the error handler logs it); the ingest screen shows them.
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode >= 500 && request.routeOptions.url?.startsWith('/ingest/')) ingest.health.serverError('api');
    });

    // z.undefined() is documented as a response without a body.
    const osmandStored = z.undefined().describe('Stored (or a push token noted): an empty body, as Traccar answers');
    const osmand = {
      tags: ['ingest'],
      description: 'Parameters other than these are kept as attributes of the fix. Errors name the parameter.',
      security: [],
      querystring: osmandQueryDoc,
      response: { 200: osmandStored, ...errors(400, 404) },
    };
    // The decoder reads the raw query and body (Traccar's rules, every client generation).
    const decoderChecks = checkedElsewhere({ querystring: 'handler', body: 'handler' });
    app.get('/ingest/osmand', {
      config: { public: true },
      schema: { ...osmand, summary: 'OsmAnd protocol (Traccar Client, OsmAnd app): one fix in the query string' },
      validatorCompiler: decoderChecks,
      handler: (request, reply) => replyOsmand(ingest, request, reply),
    });
    app.post('/ingest/osmand', {
      config: { public: true },
      schema: {
        ...osmand,
        summary: 'OsmAnd protocol: one fix in the query, or in the body: the query parameters form-encoded, or Traccar Client JSON (shown)',
        consumes: ['application/json'],
        body: osmandJsonDoc,
      },
      validatorCompiler: decoderChecks,
      handler: (request, reply) => replyOsmand(ingest, request, reply),
    });

    app.post('/ingest/positions', {
      config: { public: true },
      schema: {
        tags: ['ingest'],
        summary: "A gateway's batch of up to 1,000 positions, authenticated by the device token (Bearer)",
        security: [{ bearer: [] }],
        headers: z.object({ authorization: z.string().optional() }),
        body: batchIngestSchema,
        response: { 200: batchIngestResultSchema, ...errors(400, 401) },
      },
      // The document shows each position's fields; the route checks the list, and each position on its own.
      validatorCompiler: checkedElsewhere({ body: batchIngestEnvelopeSchema }),
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
        // Not yet checked one by one: that is ingestBatch's fast check.
        const items: readonly unknown[] = request.body.positions;
        return ingestBatch(ingest, gw, items);
      },
    });

    // Traccar's JSON forwarding (decision 0154): the organization's token in forward.header.
    const orgTokens = new OrgIngestTokens(ingest.db);
    app.post('/ingest/traccar', {
      config: { public: true },
      schema: {
        tags: ['ingest'],
        summary: "A position forwarded by a Traccar server (forward.type=json), with the organization's ingest token in Authorization",
        description:
          "Traccar's body: { position, device }; speed in knots, fixTime ISO-8601, engine attributes (ignition, odometer, obdOdometer, hours, vin, power, rpm, obdSpeed). 200 once stored; a resend of the same device and fix time is not stored twice.",
        security: [{ bearer: [] }],
        headers: z.object({ authorization: z.string().optional() }),
        body: traccarForwardDoc,
        response: {
          200: z.object({
            stored: z.boolean().describe('False for a resend of a stored position, or a refused one'),
            refused: z
              .string()
              .optional()
              .describe('Why the position was refused for its content (field: reason); answered 200 so the forwarder does not send it again'),
          }),
          ...errors(400, 401, 404),
        },
      },
      validatorCompiler: checkedElsewhere({ body: 'handler' }),
      // The token is checked before the body, so a stranger learns nothing from validation.
      preValidation: async (request) => {
        const orgId = await orgTokens.organizationOf(tokenOf(request.headers.authorization));
        if (!orgId) throw unauthorized('Unknown ingest token', 'Authorization: no active organization holds this ingest token');
        (request as FastifyRequest & { ingestOrgId?: string }).ingestOrgId = orgId;
      },
      handler: async (request, reply) => {
        const orgId = (request as FastifyRequest & { ingestOrgId?: string }).ingestOrgId!;
        const res = await handleTraccar(ingest, orgId, request.body, request.ip ?? null);
        if (res.error) return reply.code(res.status).send(errorBody(res.status, res.error.message, res.error.technicalMessage));
        await orgTokens.touch(orgId);
        return reply.code(200).send({ stored: res.stored ?? false, ...(res.refused ? { refused: res.refused } : {}) });
      },
    });

    app.get('/admin/diagnostics/ingest', {
      config: { permissions: ['SUPER_ADMIN'] },
      schema: {
        tags: ['diagnostics'],
        summary:
          "This API instance's ingest since it started: fixes refused by reason, positions stored, failed commits by cause, 5xx by way in, and whether positions are being stored",
        response: { 200: ingestDiagnosticsSchema, ...authErrors() },
      },
      handler: async () => ingestDiagnostics(ingest),
    });
  };

export default ingestRoutes;
