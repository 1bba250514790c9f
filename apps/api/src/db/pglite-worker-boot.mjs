// Source runs only (tests, benches under tsx): a worker thread does not inherit the main thread's
// TypeScript loader, so this plain module loads the TypeScript worker through tsx's API. The
// compiled server starts dist/pglite-worker.js directly.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
