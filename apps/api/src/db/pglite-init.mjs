// Creates a new PGlite data directory (initdb) in a short-lived process. initdb inflates the
// WebAssembly heap to ~700 MB and a WebAssembly heap never shrinks, so the server itself only
// ever opens an existing directory and stays small.
import { PGlite } from '@electric-sql/pglite';

const dir = process.argv[2];
if (!dir) throw new Error('usage: pglite-init.mjs <dataDir>');
const db = await PGlite.create(dir);
await db.close();
