import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  DRIVER_ROLE_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  type createOrganizationSchema,
  type Organization,
  type organizationAccountSchema,
  type organizationListQuerySchema,
  type OrganizationSettingsValues,
  type OrganizationSummary,
  type Page,
} from '@fleet/api-contract';
import { organizations, refreshTokens, roles, users } from '../../db/schema/index.ts';
import type { OrganizationSettings } from '../../db/schema/index.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { likePattern, orderBy, toPage } from '../../http/paging.ts';
import type { Actor, ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { deleteImage, storeImage, uploaderOf } from '../images/index.ts';
import { imageUrl, sendInvitationEmail } from '../users/index.ts';
import { presentOrganization, presentOrganizationSummary } from './organizations.presenter.ts';
import { findOrganization, getOrganizationSettings, readSettings } from './organizations.repository.ts';

export const ADMIN_ROLE_NAME = 'Administrator';
export const DRIVER_ROLE_NAME = 'Driver';
const DRIVER_ROLE_DESCRIPTION = "A driver's own hours of service: duty status, certification, edit approval, roadside inspection";

export interface NewOrganization {
  name: string;
  timeZone?: string;
  settings?: OrganizationSettings;
  admin: { email: string; firstName: string; lastName: string; passwordHash: string | null; status?: 'ACTIVE' | 'INVITED' };
}

/**
 * Creates an organization, its built-in Administrator role and its first user as ADMIN.
 * Run inside the caller's transaction; the activity log is written in it.
 */
export async function createOrganizationWithAdmin(tx: DbOrTx, input: NewOrganization, actor: Actor) {
  const [org] = await tx
    .insert(organizations)
    .values({ name: input.name, timeZone: input.timeZone, settings: input.settings ?? {} })
    .returning();
  if (!org) throw new Error('organization insert returned nothing');
  const [adminRole] = await tx
    .insert(roles)
    .values({
      organizationId: org.id,
      name: ADMIN_ROLE_NAME,
      description: 'Every permission of the organization',
      permissions: [...ORGANIZATION_PERMISSIONS],
      builtIn: true,
      systemRole: 'ADMIN',
    })
    .returning();
  // Every organization has a built-in Driver role for its drivers' sign-ins (decision 0111).
  const [driverRole] = await tx
    .insert(roles)
    .values({
      organizationId: org.id,
      name: DRIVER_ROLE_NAME,
      description: DRIVER_ROLE_DESCRIPTION,
      permissions: [...DRIVER_ROLE_PERMISSIONS],
      builtIn: true,
      systemRole: 'DRIVER',
    })
    .returning();
  const [admin] = await tx
    .insert(users)
    .values({
      organizationId: org.id,
      role: 'ADMIN',
      roleId: adminRole?.id,
      email: input.admin.email,
      username: input.admin.email,
      firstName: input.admin.firstName,
      lastName: input.admin.lastName,
      passwordHash: input.admin.passwordHash,
      status: input.admin.status ?? 'ACTIVE',
    })
    .returning();
  if (!admin || !adminRole) throw new Error('organization bootstrap failed');
  const who = actor.userId ? actor : { ...actor, userId: admin.id, email: admin.email, role: 'ADMIN' };
  await recordActivity(tx, { orgId: org.id, actor: who, action: 'CREATE', entityType: 'ORGANIZATION', entityId: org.id, after: org });
  await recordActivity(tx, { orgId: org.id, actor: who, action: 'CREATE', entityType: 'ROLE', entityId: adminRole.id, after: adminRole });
  if (driverRole) await recordActivity(tx, { orgId: org.id, actor: who, action: 'CREATE', entityType: 'ROLE', entityId: driverRole.id, after: driverRole });
  await recordActivity(tx, { orgId: org.id, actor: who, action: 'CREATE', entityType: 'USER', entityId: admin.id, after: admin });
  return { org, admin, adminRole };
}

// ---------------------------------------------------------------------------------------------
// Organization account, settings and super administration.

export async function getOrganization({ db, orgId }: ReadScope): Promise<Organization> {
  return presentOrganization(await findOrganization(db, orgId));
}

/** The organization's settings with defaults filled in (map thresholds, units, HoS defaults). */
export async function getSettings({ db, orgId }: ReadScope): Promise<OrganizationSettingsValues> {
  return getOrganizationSettings(db, orgId);
}

const accountColumns = (input: z.output<typeof organizationAccountSchema>) => ({
  name: input.name,
  dotNumber: input.dotNumber,
  mcNumber: input.mcNumber,
  phone: input.phone,
  addressLine1: input.addressLine1,
  addressLine2: input.addressLine2,
  city: input.city,
  state: input.state,
  postalCode: input.postalCode,
  country: input.country,
  timeZone: input.timeZone,
});

export async function updateAccount({ db, orgId, actor }: Scope, input: z.output<typeof organizationAccountSchema>): Promise<Organization> {
  return db.transaction(async (tx) => {
    const before = await findOrganization(tx, orgId);
    const [after] = await tx
      .update(organizations)
      .set({ ...accountColumns(input), updatedAt: new Date() })
      .where(eq(organizations.id, orgId))
      .returning();
    if (!after) throw notFound('Organization');
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'ORGANIZATION', entityId: orgId, before, after });
    return presentOrganization(after);
  });
}

export async function updateSettings({ db, orgId, actor }: Scope, input: OrganizationSettingsValues): Promise<OrganizationSettingsValues> {
  return db.transaction(async (tx) => {
    const before = await findOrganization(tx, orgId);
    const settings = { ...before.settings, ...input };
    await tx.update(organizations).set({ settings, updatedAt: new Date() }).where(eq(organizations.id, orgId));
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE_SETTINGS',
      entityType: 'ORGANIZATION',
      entityId: orgId,
      before: readSettings(before.settings),
      after: readSettings(settings),
    });
    return readSettings(settings);
  });
}

/** Replaces (or with null removes) the organization's logo. */
export async function setLogo({ db, orgId, actor }: Scope, data: Buffer | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const before = await findOrganization(tx, orgId);
    const imageId = data ? await storeImage(tx, orgId, data, null, { uploader: uploaderOf(actor), owner: { type: 'ORGANIZATION', id: orgId } }) : null;
    await tx.update(organizations).set({ logoImageId: imageId, updatedAt: new Date() }).where(eq(organizations.id, orgId));
    if (before.logoImageId) await deleteImage(tx, before.logoImageId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: data ? 'UPDATE_IMAGE' : 'DELETE_IMAGE',
      entityType: 'ORGANIZATION',
      entityId: orgId,
      before: { logoImageId: before.logoImageId },
      after: { logoImageId: imageId },
    });
    return imageUrl(imageId);
  });
}

const ORG_SORT = { name: organizations.name, createdAt: organizations.createdAt, status: organizations.status, timeZone: organizations.timeZone };

/** Super administration: every organization, searchable by name, DOT or MC number. */
export async function listOrganizations({ db }: { db: Db }, q: z.output<typeof organizationListQuerySchema>): Promise<Page<OrganizationSummary>> {
  const conds: SQL[] = [];
  if (q.search) {
    const p = likePattern(q.search);
    conds.push(or(ilike(organizations.name, p), ilike(organizations.dotNumber, p), ilike(organizations.mcNumber, p)) as SQL);
  }
  if (q.status) conds.push(eq(organizations.status, q.status));
  const where = conds.length ? and(...conds) : undefined;
  // Qualified by hand: drizzle renders a lone column unqualified, which would bind to u.id.
  const userCount = sql<number>`(select count(*)::int from ${users} u where u.organization_id = "organizations"."id")`;
  const activeUserCount = sql<number>`(select count(*)::int from ${users} u where u.organization_id = "organizations"."id" and u.status = 'ACTIVE')`;
  const [rows, total] = await Promise.all([
    db
      .select({ org: organizations, userCount, activeUserCount })
      .from(organizations)
      .where(where)
      .orderBy(...orderBy(q.sort, ORG_SORT, asc(sql`lower(${organizations.name})`), asc(organizations.id)))
      .limit(q.size)
      .offset(q.page * q.size),
    db.select({ n: count() }).from(organizations).where(where),
  ]);
  return toPage(
    rows.map((r) => presentOrganizationSummary(r.org, { userCount: Number(r.userCount), activeUserCount: Number(r.activeUserCount) })),
    total[0]?.n ?? 0,
    q,
  );
}

/**
 * Super administration: a new organization with its built-in Administrator role and its first
 * administrator, INVITED until they choose a password through the e-mailed link.
 */
export async function createOrganization(
  deps: { db: Db; actor: Actor; mailer: Mailer; publicUrl: string },
  input: z.output<typeof createOrganizationSchema>,
): Promise<{ organization: Organization; adminUserId: string }> {
  let created: Awaited<ReturnType<typeof createOrganizationWithAdmin>>;
  try {
    created = await deps.db.transaction(async (tx) => {
      const c = await createOrganizationWithAdmin(
        tx,
        {
          name: input.name,
          timeZone: input.timeZone,
          admin: { ...input.admin, passwordHash: null, status: 'INVITED' },
        },
        deps.actor,
      );
      const [org] = await tx.update(organizations).set(accountColumns(input)).where(eq(organizations.id, c.org.id)).returning();
      return { ...c, org: org ?? c.org };
    });
  } catch (err) {
    throw duplicateError(err, input.admin, 'admin') ?? err;
  }
  // After commit: a failed send leaves an INVITED admin that "send invitation again" can reach.
  await sendInvitationEmail({ db: deps.db, mailer: deps.mailer, publicUrl: deps.publicUrl }, created.admin, created.org.name);
  return { organization: presentOrganization(created.org), adminUserId: created.admin.id };
}

/**
 * Super administration: deactivating stops every member from signing in (the auth cache drops on
 * the NOTIFY trigger, refresh tokens are revoked); nothing is deleted. Reactivating restores access.
 */
export async function setOrganizationStatus({ db, orgId, actor }: Scope, status: 'ACTIVE' | 'INACTIVE'): Promise<Organization> {
  return db.transaction(async (tx) => {
    const before = await findOrganization(tx, orgId);
    const [after] = await tx.update(organizations).set({ status, updatedAt: new Date() }).where(eq(organizations.id, orgId)).returning();
    if (!after) throw notFound('Organization');
    if (status === 'INACTIVE') {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(isNull(refreshTokens.revokedAt), inArray(refreshTokens.userId, tx.select({ id: users.id }).from(users).where(eq(users.organizationId, orgId)))),
        );
    }
    if (before.status !== status) {
      await recordActivity(tx, {
        orgId,
        actor,
        action: status === 'INACTIVE' ? 'DEACTIVATE' : 'ACTIVATE',
        entityType: 'ORGANIZATION',
        entityId: orgId,
        before: { status: before.status },
        after: { status },
      });
    }
    return presentOrganization(after);
  });
}
