import { and, eq, sql } from 'drizzle-orm';
import type { Permission } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import { organizations, roles, users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/crypto.ts';
import type { Config } from '../config.ts';
import type { Actor } from '../plugins/types.ts';
import { createOrganizationWithAdmin } from '../modules/organizations/organizations.service.ts';
import { recordActivity } from '../modules/activity-log/activity-log.service.ts';
import { ensureDemoFleet } from './demo-fleet.ts';
import { ensureBundledRates } from '../modules/ifta/ifta-rates.service.ts';

export const DEMO_ORG_NAME = 'Demo Freight';
export const DISPATCHER_ROLE_NAME = 'Dispatcher';

/** Day-to-day operations without settings administration or super-administration. */
export const DISPATCHER_PERMISSIONS: Permission[] = [
  'ORG_DASH_READ', 'USER_READ', 'ORG_READ', 'ASSET_LIST', 'HR_READ', 'DRIVER_LIST', 'GAT_LIST', 'GAT_READ',
  'GROUP_LIST', 'GROUP_READ', 'HOS_LIST', 'HOS_READ', 'VIO_LIST', 'AVAILABILITY_LIST', 'IFTA_LIST',
];

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

async function userExists(db: Db, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return rows.length > 0;
}

export async function ensureSuperAdmin(db: Db, cfg: { email: string; password: string }): Promise<boolean> {
  if (await userExists(db, cfg.email)) return false;
  const passwordHash = await hashPassword(cfg.password);
  await db.transaction(async (tx) => {
    const [u] = await tx
      .insert(users)
      .values({ email: cfg.email, username: cfg.email, role: 'SUPER_ADMIN', firstName: 'Super', lastName: 'Admin', passwordHash, position: 'Platform administrator' })
      .returning();
    await recordActivity(tx, { orgId: null, actor: SYSTEM, action: 'CREATE', entityType: 'USER', entityId: u?.id, after: u });
  });
  return true;
}

/** The demo organization with an admin and a dispatcher. Safe to run on every start. */
export async function ensureDemoOrganization(db: Db, cfg: Pick<Config, 'demoAdmin' | 'demoDispatcher'>): Promise<string> {
  let org = (await db.select().from(organizations).where(eq(organizations.name, DEMO_ORG_NAME)))[0];
  if (!org) {
    const adminHash = await hashPassword(cfg.demoAdmin.password);
    const created = await db.transaction((tx) =>
      createOrganizationWithAdmin(
        tx,
        {
          name: DEMO_ORG_NAME,
          timeZone: 'America/Chicago',
          settings: { darkMode: { isEnabled: true, defaultTheme: 'light' } },
          admin: { email: cfg.demoAdmin.email, firstName: 'Dana', lastName: 'Whitfield', passwordHash: adminHash },
        },
        SYSTEM,
      ),
    );
    await db.update(users).set({ position: 'Fleet manager', phone: '+1 312 555 0142', timeZone: 'America/Chicago' }).where(eq(users.id, created.admin.id));
    // A filled-in organization account, so the account screen shows what a carrier enters.
    await db
      .update(organizations)
      .set({ dotNumber: '2718281', mcNumber: '828459', phone: '+1 312 555 0100', addressLine1: '2200 S Halsted St', city: 'Chicago', state: 'IL', postalCode: '60608', country: 'US' })
      .where(eq(organizations.id, created.org.id));
    org = created.org;
  }
  const orgId = org.id;
  let dispatcherRole = (await db.select().from(roles).where(and(eq(roles.organizationId, orgId), eq(roles.name, DISPATCHER_ROLE_NAME))))[0];
  if (!dispatcherRole) {
    dispatcherRole = (
      await db.transaction(async (tx) => {
        const rows = await tx
          .insert(roles)
          .values({ organizationId: orgId, name: DISPATCHER_ROLE_NAME, description: 'Dispatch and compliance, no settings administration', permissions: DISPATCHER_PERMISSIONS })
          .returning();
        await recordActivity(tx, { orgId, actor: SYSTEM, action: 'CREATE', entityType: 'ROLE', entityId: rows[0]?.id, after: rows[0] });
        return rows;
      })
    )[0];
  }
  if (!(await userExists(db, cfg.demoDispatcher.email))) {
    const passwordHash = await hashPassword(cfg.demoDispatcher.password);
    await db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          organizationId: orgId,
          role: 'USER',
          roleId: dispatcherRole?.id,
          email: cfg.demoDispatcher.email,
          username: cfg.demoDispatcher.email,
          firstName: 'Marco',
          lastName: 'Reyes',
          position: 'Dispatcher',
          timeZone: 'America/Chicago',
          passwordHash,
        })
        .returning();
      await recordActivity(tx, { orgId, actor: SYSTEM, action: 'CREATE', entityType: 'USER', entityId: u?.id, after: u });
    });
  }
  return orgId;
}

/**
 * First-start data: the super administrator always, the demo organization when DEMO is on. Names
 * the sign-ins but never their passwords: console output ends up in log files.
 */
export async function seed(db: Db, config: Config, log: (msg: string) => void): Promise<void> {
  await ensureSuperAdmin(db, config.superAdmin);
  const lines = [`  Super administrator: ${config.superAdmin.email}`];
  // The bundled IFTA tax rates (2Q2026), shared by every organization (decision 0123).
  if (await ensureBundledRates(db)) lines.push('  IFTA tax rates: 2Q2026 matrix seeded');
  if (config.demo) {
    const demoOrgId = await ensureDemoOrganization(db, config);
    if (await ensureDemoFleet(db, demoOrgId)) lines.push('  Demo fleet: 25 tractors (101-125) with drivers and devices demo-truck-01..25, 12 trailers, 2 groups');
    lines.push(`  Demo Freight admin:  ${config.demoAdmin.email}`);
    lines.push(`  Demo dispatcher:     ${config.demoDispatcher.email}`);
  }
  const variables = config.demo ? 'SUPERADMIN_PASSWORD, DEMO_ADMIN_PASSWORD and DEMO_DISPATCHER_PASSWORD' : 'SUPERADMIN_PASSWORD';
  lines.push(`  Passwords: as set in ${variables} (the defaults are in README.md)`);
  log(`Sign-in accounts:\n${lines.join('\n')}`);
}
