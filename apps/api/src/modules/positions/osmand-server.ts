import Fastify, { type FastifyInstance } from 'fastify';
import { errorBody } from '../../plugins/errors.ts';
import type { Ingest } from './ingest.ts';
import { acceptDeviceBodies, replyOsmand } from './ingest.routes.ts';

/**
 * The OsmAnd port (Traccar's 5055): any method, any path, so a phone running Traccar Client
 * pointed at http://server:5055 just works. Shares the API's ingest pipeline (group commit).
 */
export async function buildOsmandServer(ingest: Ingest, opts: { bodyLimit?: number } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: opts.bodyLimit ?? 65_536, keepAliveTimeout: 30_000 });
  acceptDeviceBodies(app);
  app.route({ method: ['GET', 'POST', 'PUT'], url: '/*', handler: (request, reply) => replyOsmand(ingest, request, reply) });
  app.setErrorHandler((err: { statusCode?: number; message?: string }, _request, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    void reply.code(status).send(errorBody(status, status === 500 ? 'Internal error' : (err.message ?? 'Bad request')));
  });
  return app;
}
