import type { Database, Db } from '../db/client.ts';
import type { Config, EldIdentity } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';

// The app's own decorations. The auth module declares its own (tokens, authCache, request.auth
// and the route config it reads) beside its plugin: plugins know no module.
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    mailer: Mailer;
    /** The ELD's identity in output files (decision 0116). */
    eld: EldIdentity;
  }
}
