// What drizzle-orm/pglite imports from @electric-sql/pglite, in the build of the API's thread
// (scripts/build-api.mjs): the type numbers its session gives identity parsers for, and a
// constructor it calls only when given no client (this app always gives one). So the worker mode's
// API thread loads none of PGlite's code (decision 0170); the build checks these against PGlite's.

export const types = { DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, INTERVAL: 1186 } as const;

export class PGlite {
  constructor() {
    throw new Error('drizzle-orm/pglite was given no client: this build opens PGlite itself (db/client.ts)');
  }
}
