import { z } from 'zod';

const cacheSchema = z.object({
  entries: z.number().int().describe('Held now'),
  max: z.number().int().describe('The cap set by its setting; the least recently loaded go first beyond it'),
});

/** GET /admin/diagnostics/memory (super administrator): one API instance's memory by part. */
export const memoryReportSchema = z.object({
  rssMb: z.number().describe('Resident memory of the process'),
  heapUsedMb: z.number(),
  heapTotalMb: z.number(),
  externalMb: z.number().describe("Memory V8 knows of outside its heap; includes the embedded database's whole WebAssembly memory, resident or not"),
  arrayBuffersMb: z.number(),
  heapSpaces: z.array(z.object({ space: z.string(), usedMb: z.number(), residentMb: z.number() })),
  regions: z
    .object({
      nodeBinaryMb: z.number().describe('Pages of the node executable'),
      databaseMb: z.number().nullable().describe("Resident part of the embedded database's WebAssembly memory; null on a PostgreSQL server"),
      anonymousMb: z.number().describe('The V8 heap, compiled WebAssembly code and other native memory'),
      filesMb: z.number().describe('Other mapped files (shared libraries)'),
    })
    .nullable()
    .describe('RSS split by mapping, from /proc/self/smaps (null where it does not exist)'),
  databaseThreadHeap: z
    .object({ usedMb: z.number(), totalMb: z.number() })
    .nullable()
    .describe("V8 heap of the embedded database's worker thread (part of regions.anonymousMb, not of heapTotalMb); null in-thread or on a server"),
  databaseContexts: z
    .array(z.object({ name: z.string(), mb: z.number() }))
    .nullable()
    .describe(
      "The embedded database's largest PostgreSQL memory contexts (pg_backend_memory_contexts, totals with their children), inside regions.databaseMb; null on a server",
    ),
  database: z.enum(['pglite', 'postgres']),
  caches: z.object({
    authUsers: cacheSchema.describe("Signed-in users' permissions and current-user objects (AUTH_CACHE_USERS)"),
    devices: cacheSchema.describe('Devices resolved by unique id and by token for ingest (DEVICE_CACHE_ENTRIES each)'),
    listIndexRows: cacheSchema.describe('Registry list rows held by the list index (LIST_INDEX_ROWS)'),
    hosEvents: cacheSchema.describe("Drivers' duty events held for the fleet-wide HoS reads (HOS_EVENT_CACHE_EVENTS)"),
    liveStreams: z.number().int().describe('Open live-map streams'),
  }),
});
export type MemoryReportBody = z.infer<typeof memoryReportSchema>;
