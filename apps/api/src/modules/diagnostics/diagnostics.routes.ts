import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memoryReportSchema } from '@fleet/api-contract';
import { listIndexOf } from '../../list-index/list-index.ts';
import { authErrors } from '../../http/route-schemas.ts';
import { eventsCacheOfDb } from '../hos/index.ts';
import { mb, memoryReport } from './memory-report.ts';

/** What this instance holds in memory, by part and by cache: for operators sizing a server. */
const diagnosticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/admin/diagnostics/memory', {
    config: { permissions: ['SUPER_ADMIN'] },
    schema: {
      tags: ['diagnostics'],
      summary: "This API instance's memory by part (V8 heap by space, embedded database, node binary, the rest) and its caches with their caps",
      response: { 200: memoryReportSchema, ...authErrors() },
    },
    handler: async () => {
      const index = listIndexOf(app.db);
      const hos = eventsCacheOfDb(app.db);
      const threadHeap = await app.database.databaseThreadHeap();
      return {
        ...memoryReport(app.database.wasmMemoryBytes()),
        databaseThreadHeap: threadHeap && { usedMb: mb(threadHeap.used), totalMb: mb(threadHeap.committed) },
        database: app.database.kind,
        caches: {
          authUsers: { entries: app.authCache.size, max: app.authCache.maxEntries },
          devices: { entries: app.ingest.directory.size, max: app.ingest.directory.maxEntries * 2 },
          listIndexRows: { entries: index?.held.rows ?? 0, max: index?.maxRows ?? 0 },
          hosEvents: { entries: hos?.eventCount ?? 0, max: hos?.maxEvents ?? 0 },
          liveStreams: app.liveHub.connections,
        },
      };
    },
  });
};

export default diagnosticsRoutes;
