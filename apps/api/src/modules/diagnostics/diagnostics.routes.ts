import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memoryReportSchema } from '@fleet/api-contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { listIndexOf } from '../../list-index/list-index.ts';
import { authErrors } from '../../http/route-schemas.ts';
import { eventsCacheOfDb } from '../hos/index.ts';
import { mb, memoryReport } from './memory-report.ts';

/**
 * The embedded database's memory by PostgreSQL memory context, largest first (each context under
 * TopMemoryContext with its descendants, and the top one's own): which of the
 * catalog caches, the prepared statements' plans or a sort's work memory holds the WebAssembly pages.
 */
async function databaseContexts(db: Db): Promise<Array<{ name: string; mb: number }>> {
  const rows = rowsOf<{ name: string; bytes: string | number }>(
    await db.execute(sql`select coalesce(top.name, c.name) as name, sum(c.total_bytes) as bytes from pg_backend_memory_contexts c
      left join pg_backend_memory_contexts top on top.level = 2 and top.path[2] = c.path[2] group by 1 order by 2 desc limit 10`),
  );
  return rows.map((r) => ({ name: r.name, mb: mb(Number(r.bytes)) }));
}

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
        databaseContexts: app.database.kind === 'pglite' ? await databaseContexts(app.db) : null,
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
