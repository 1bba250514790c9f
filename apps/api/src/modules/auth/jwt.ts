import { createSigner, createVerifier } from 'fast-jwt';
import { randomToken } from './crypto.ts';
import { eq } from 'drizzle-orm';
import { appMeta } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;

export interface AccessClaims {
  sub: string;
  /** Organization id, or null for a super administrator. */
  org: string | null;
  /** The user's session epoch when issued (users.session_epoch): an older one is refused. */
  gen: number;
  /** The session (refresh-token family) it belongs to: signing that session out ends the streams it opened. */
  sid?: string;
  typ: 'access';
}

export interface AccessTokens {
  /** `gen` defaults to 0, the epoch of a user who never ended all their sessions. */
  sign(claims: Omit<AccessClaims, 'typ' | 'gen'> & { gen?: number }): string;
  /** Throws when the token is malformed, forged or expired. */
  verify(token: string): AccessClaims;
}

export function accessTokens(secret: string, ttlMs = ACCESS_TOKEN_TTL_MS): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlMs });
  // The verifier cache makes repeated verification of the same token nearly free.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], cache: 5000 });
  return {
    sign: (claims) => signer({ ...claims, gen: claims.gen ?? 0, typ: 'access' }),
    verify: (token) => {
      const claims = verifier(token) as Partial<AccessClaims>;
      if (claims.typ !== 'access' || typeof claims.sub !== 'string') throw new Error('not an access token');
      // A token from before epochs existed carries none: epoch 0.
      return {
        sub: claims.sub,
        org: claims.org ?? null,
        gen: typeof claims.gen === 'number' ? claims.gen : 0,
        ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}),
        typ: 'access',
      };
    },
  };
}

/** Outside production the secret is random and kept in the database, so it survives restarts of one data dir. */
export async function resolveJwtSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(appMeta)
    .values({ key: 'jwt_secret', value: randomToken(48) })
    .onConflictDoNothing();
  const rows = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, 'jwt_secret'));
  const secret = rows.find(Boolean)?.value;
  if (!secret) throw new Error('could not establish a JWT secret');
  return secret;
}
