import type { Permission } from '@fleet/api-contract';
import type { Database, Db } from '../db/client.ts';
import type { Config } from '../config.ts';
import type { AccessTokens } from '../lib/jwt.ts';
import type { Mailer } from '../lib/mailer.ts';
import type { AuthCache } from './auth-cache.ts';
import type { EldIdentity } from '../modules/hos/eld-output.service.ts';

/** Who is calling: resolved from the access token and the users table on every request. */
export interface AuthContext {
  userId: string;
  email: string;
  role: 'ADMIN' | 'USER' | 'SUPER_ADMIN';
  /** Null for a super administrator. */
  orgId: string | null;
  permissions: ReadonlySet<string>;
  isSuperAdmin: boolean;
}

/** What services need to attribute a change: the caller and where the request came from. */
export interface Actor {
  userId: string | null;
  email: string | null;
  role: string | null;
  ip: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: AccessTokens;
    mailer: Mailer;
    authCache: AuthCache;
    /** The ELD's identity in output files (decision 0116). */
    eld: EldIdentity;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** No sign-in needed (auth endpoints, health, ingest). */
    public?: boolean;
    /** Every code is required; checked before the body is validated. */
    permissions?: readonly Permission[];
    /** At least one of these codes is required (an office code or the driver's own; decision 0111). */
    anyPermissions?: readonly Permission[];
    /** Also accepts a single-use `?ticket=` (EventSource cannot send the Authorization header). */
    streamTicket?: boolean;
  }
}
