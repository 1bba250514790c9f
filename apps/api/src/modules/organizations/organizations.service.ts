import { ORGANIZATION_PERMISSIONS } from '@fleet/api-contract';
import { organizations, roles, users } from '../../db/schema/index.ts';
import type { OrganizationSettings } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Actor } from '../../plugins/types.ts';
import { recordActivity } from '../activity-log/activity-log.service.ts';

export const ADMIN_ROLE_NAME = 'Administrator';

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
  await recordActivity(tx, { orgId: org.id, actor: who, action: 'CREATE', entityType: 'USER', entityId: admin.id, after: admin });
  return { org, admin, adminRole };
}
