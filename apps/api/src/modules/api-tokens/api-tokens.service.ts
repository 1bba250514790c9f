import { createHmac, randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { and, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { API_TOKEN_PREFIX, TOKEN_PERMISSIONS, type ApiToken, type ApiTokenCreated, type ApiTokenList, type apiTokenInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { apiTokens, organizations, roles, users } from '../../db/schema/index.ts';
import { notifyAuthChange } from '../../db/sql/notify.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activity-log/index.ts';
import { heldPermissions, type AuthContext, type Scope } from '../auth/index.ts';

// API tokens (issue 48, decision 0197). A token is `fltk_` + 256 random bits: far beyond guessing, so
// a fast keyed hash (HMAC-SHA256 under a key derived from the server secret) is what is stored, and a
// request costs one hash, not an argon2 run. Revoking sends auth_change in the same transaction: every
// instance drops what it cached before its next request is answered (AuthCache's sync).

type Row = typeof apiTokens.$inferSelect;

/** The key tokens are hashed under: derived from the server secret (JWT_SECRET), so every instance agrees. */
export function apiTokenKey(serverSecret: string): Buffer {
  return createHmac('sha256', serverSecret).update('api-token-hash').digest();
}

export const hashApiToken = (key: Buffer, token: string): string => createHmac('sha256', key).update(token).digest('hex');

const PREFIX_SHOWN = API_TOKEN_PREFIX.length + 4;

const TOKEN_CODES = new Set<string>(TOKEN_PERMISSIONS);

/** A token's row with what bounds it: its organization's status and its creator's roles. */
function tokenRows(db: DbOrTx, where: SQL) {
  return db
    .select({
      t: apiTokens,
      orgStatus: organizations.status,
      email: users.email,
      creatorRole: users.role,
      systemRole: roles.systemRole,
      rolePermissions: roles.permissions,
    })
    .from(apiTokens)
    .innerJoin(organizations, eq(organizations.id, apiTokens.organizationId))
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(where, isNull(apiTokens.revokedAt)));
}

type TokenRow = Awaited<ReturnType<typeof tokenRows>>[number];

/**
 * The codes a token carries that it may use, and those it lost: it uses those still in the
 * catalogue and still held by its creator (decision 0226: demoting the creator narrows the token at once; a token nobody vouches
 * for uses none). The creator's status does not count: a token outlives its creator's leaving
 * (decision 0197), within the role the creator had.
 */
function splitCodes(r: {
  t: { permissions: readonly string[] };
  creatorRole: string | null;
  systemRole: string | null;
  rolePermissions: readonly string[] | null;
}): { usable: string[]; lost: string[] } {
  const held = r.creatorRole ? heldPermissions({ role: r.creatorRole, systemRole: r.systemRole, rolePermissions: r.rolePermissions }) : new Set<string>();
  const usable = r.t.permissions.filter((p) => TOKEN_CODES.has(p) && held.has(p));
  return { usable, lost: r.t.permissions.filter((p) => !usable.includes(p)).sort() };
}

function contextOfToken(row: TokenRow): AuthContext | null {
  if (row.orgStatus !== 'ACTIVE') return null;
  const t = row.t;
  return {
    // The creator answers for what the token writes (created_by columns); the activity log names the token.
    userId: t.createdBy ?? '00000000-0000-0000-0000-000000000000',
    email: row.email ?? `api-token:${t.name}`,
    role: 'USER',
    orgId: t.organizationId,
    // Codes since retired from the catalogue, or no longer held by the creator, are dropped rather than trusted.
    permissions: new Set(splitCodes(row).usable),
    isSuperAdmin: false,
    sessionEpoch: 0,
    token: { id: t.id, name: t.name, expiresAt: t.expiresAt?.getTime() ?? null, allowed: blockListOf(t.allowedIps) },
  };
}

/** The token behind a hash, if it is neither revoked nor its organization deactivated; null otherwise. */
export async function loadTokenContext(db: DbOrTx, hash: string): Promise<AuthContext | null> {
  const [row] = await tokenRows(db, eq(apiTokens.tokenHash, hash)).limit(1);
  return row ? contextOfToken(row) : null;
}

/** loadTokenContext by token id, for many (open streams checked again): the revoked ones are absent. */
export async function loadTokenContexts(db: DbOrTx, tokenIds: readonly string[]): Promise<Map<string, AuthContext>> {
  const found = new Map<string, AuthContext>();
  if (tokenIds.length === 0) return found;
  for (const row of await tokenRows(db, inArray(apiTokens.id, [...tokenIds]))) {
    const ctx = contextOfToken(row);
    if (ctx) found.set(row.t.id, ctx);
  }
  return found;
}

function blockListOf(cidrs: readonly string[]): BlockList | null {
  if (cidrs.length === 0) return null;
  const list = new BlockList();
  for (const c of cidrs) {
    const [addr, bits] = c.split('/') as [string, string | undefined];
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(bits), family);
  }
  return list;
}

/** True when the client's address is one the token accepts. */
export function addressAllowed(allowed: BlockList | null, ip: string): boolean {
  if (!allowed) return true;
  // An IPv4 client on a dual-stack socket reads ::ffff:203.0.113.7.
  const plain = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  const family = isIP(plain);
  return family !== 0 && allowed.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

function present(r: Row, creator: { firstName: string | null; lastName: string | null; email: string } | null, lostPermissions: string[]): ApiToken {
  const name = creator ? [creator.firstName, creator.lastName].filter(Boolean).join(' ') || creator.email : null;
  return {
    id: r.id,
    name: r.name,
    prefix: `${r.prefix}…`,
    permissions: [...r.permissions].sort(),
    lostPermissions,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    allowedIps: r.allowedIps,
    createdAt: r.createdAt.toISOString(),
    createdBy: { id: r.createdBy, label: name ?? 'Unknown' },
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: r.lastUsedIp,
  };
}

/**
 * The organization's tokens that are not revoked, newest first (expired ones too: they say so),
 * each with the codes it lost because its creator no longer holds them.
 */
export async function listApiTokens(s: Scope): Promise<ApiTokenList> {
  const rows = await s.db
    .select({
      t: apiTokens,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      creatorRole: users.role,
      systemRole: roles.systemRole,
      rolePermissions: roles.permissions,
    })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(apiTokens.organizationId, s.orgId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return { content: rows.map((r) => present(r.t, r.email ? { firstName: r.firstName, lastName: r.lastName, email: r.email } : null, splitCodes(r).lost)) };
}

/**
 * A new token carrying some of the creator's own codes (a token never holds more than the person who
 * made it). The answer is the only time the secret leaves the server.
 */
export async function createApiToken(s: Scope, creator: AuthContext, key: Buffer, input: z.output<typeof apiTokenInputSchema>): Promise<ApiTokenCreated> {
  const missing = input.permissions.filter((p) => !creator.permissions.has(p));
  if (missing.length > 0) throw invalidField('permissions', `A token can only carry permissions you hold yourself; you do not hold ${missing.join(', ')}`);
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await s.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(apiTokens)
      .values({
        organizationId: s.orgId,
        name: input.name,
        tokenHash: hashApiToken(key, token),
        prefix: token.slice(0, PREFIX_SHOWN),
        permissions: input.permissions,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        allowedIps: input.allowedIps ?? [],
        createdBy: creator.token ? null : creator.userId,
      })
      .returning();
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'CREATE',
      entityType: 'API_TOKEN',
      entityId: r!.id,
      after: { name: r!.name, prefix: r!.prefix, permissions: r!.permissions, expiresAt: r!.expiresAt, allowedIps: r!.allowedIps },
    });
    return r!;
  });
  return {
    id: row.id,
    name: row.name,
    token,
    permissions: row.permissions,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    allowedIps: row.allowedIps,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Revokes a token of the organization; refused on every instance from the next request on. */
export async function revokeApiToken(s: Scope, tokenId: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    const [r] = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date(), revokedBy: s.actor.token ? null : s.actor.userId })
      .where(and(eq(apiTokens.organizationId, s.orgId), eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)))
      .returning();
    if (!r) throw notFound('API token');
    // Every instance drops its cached credentials at commit ('*': tokens are cached by hash, not by user).
    await notifyAuthChange(tx, ['*']);
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'REVOKE',
      entityType: 'API_TOKEN',
      entityId: r.id,
      before: { name: r.name, prefix: r.prefix },
    });
  });
}

/**
 * Remembers a token's last use: written at most once a minute per token and instance, off the
 * request's path, so 150 requests a second cost one write a minute.
 */
export class TokenUse {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    private readonly everyMs = 60_000,
  ) {}

  touch(orgId: string, tokenId: string, ip: string): void {
    const now = Date.now();
    if (now - (this.written.get(tokenId) ?? 0) < this.everyMs) return;
    this.written.set(tokenId, now);
    if (this.written.size > 50_000) this.written.clear();
    this.db
      .update(apiTokens)
      .set({ lastUsedAt: sql`greatest(${apiTokens.lastUsedAt}, ${new Date(now).toISOString()}::timestamptz)`, lastUsedIp: ip })
      .where(and(eq(apiTokens.organizationId, orgId), eq(apiTokens.id, tokenId)))
      .then(() => undefined, this.onError);
  }
}

/**
 * Revokes the tokens a user made since `since` (an undone change of the user's e-mail, decision
 * 0227: what an intruder minted goes with them); refused everywhere from the next request on.
 */
export async function revokeTokensCreatedSince(tx: DbOrTx, userId: string, since: Date): Promise<number> {
  const rows = await tx
    .update(apiTokens)
    .set({ revokedAt: new Date(), revokedBy: userId })
    .where(and(eq(apiTokens.createdBy, userId), gte(apiTokens.createdAt, since), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (rows.length > 0) await notifyAuthChange(tx, ['*']);
  return rows.length;
}
