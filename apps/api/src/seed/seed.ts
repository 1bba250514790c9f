import { and, eq, sql } from 'drizzle-orm';
import type { Permission } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import { assets, drivers, organizations, roles, users } from '../db/schema/index.ts';
import { hashPassword } from '../modules/auth/crypto.ts';
import type { Config } from '../config.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { createOrganizationWithAdmin } from '../modules/organizations/organizations.service.ts';
import { recordActivity } from '../modules/activity-log/activity-log.service.ts';
import { DEMO_ENGINE_TRUCKS, ensureDemoEngineTrucks, ensureDemoFleet } from './demo-fleet.ts';
import { ensureDemoTerminals } from './demo-terminals.ts';
import { ensureDemoIntegrations } from './demo-integrations.ts';
import { ensureBundledRates } from '../modules/ifta/ifta-rates.service.ts';

export const DEMO_ORG_NAME = 'Demo Freight';
export const DISPATCHER_ROLE_NAME = 'Dispatcher';

/** Day-to-day operations without settings administration or super-administration. */
export const DISPATCHER_PERMISSIONS: Permission[] = [
  'ORG_DASH_READ',
  'USER_READ',
  'ORG_READ',
  'ASSET_LIST',
  'HR_READ',
  'DRIVER_LIST',
  'GAT_LIST',
  'GAT_READ',
  'GROUP_LIST',
  'GROUP_READ',
  'HOS_LIST',
  'HOS_READ',
  'VIO_LIST',
  'AVAILABILITY_LIST',
  'IFTA_LIST',
  // Reads the inspections and the shop's work (issue 31); certifying repairs stays with the shop.
  'DVIR_LIST',
  'WORK_ORDER_LIST',
  'MAINTENANCE_LIST',
  // Sees the places and who is at them (issue 32); drawing them stays with the administrators.
  'PLACE_LIST',
  // Plans, assigns and follows loads (issue 33).
  'LOAD_LIST',
  'LOAD_UPDATE',
  // Keeps the customers loads are for (issue 70).
  'CUSTOMER_LIST',
  'CUSTOMER_UPDATE',
  // Reads and answers the drivers' messages (issue 44).
  'MESSAGE_LIST',
  'MESSAGE_SEND',
  // Sees safety events and scores (issue 47); reviewing and coaching stay with the safety managers.
  'SAFETY_LIST',
];

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

async function userExists(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return rows.length > 0;
}

export async function ensureSuperAdmin(db: Db, cfg: { email: string; password: string }): Promise<boolean> {
  if (await userExists(db, cfg.email)) return false;
  const passwordHash = await hashPassword(cfg.password);
  await db.transaction(async (tx) => {
    const [u] = await tx
      .insert(users)
      .values({
        email: cfg.email,
        username: cfg.email,
        role: 'SUPER_ADMIN',
        firstName: 'Super',
        lastName: 'Admin',
        passwordHash,
        position: 'Platform administrator',
      })
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
      .set({
        dotNumber: '2718281',
        mcNumber: '828459',
        phone: '+1 312 555 0100',
        addressLine1: '2200 S Halsted St',
        city: 'Chicago',
        state: 'IL',
        postalCode: '60608',
        country: 'US',
      })
      .where(eq(organizations.id, created.org.id));
    org = created.org;
  }
  const orgId = org.id;
  let dispatcherRole = (
    await db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, orgId), eq(roles.name, DISPATCHER_ROLE_NAME)))
  )[0];
  if (!dispatcherRole) {
    dispatcherRole = (
      await db.transaction(async (tx) => {
        const rows = await tx
          .insert(roles)
          .values({
            organizationId: orgId,
            name: DISPATCHER_ROLE_NAME,
            description: 'Dispatch and compliance, no settings administration',
            permissions: DISPATCHER_PERMISSIONS,
          })
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

/** The demo drivers who sign in: the drivers of tractors 101 (the config's demo driver), 102 and 103. */
export const DEMO_DRIVER_UNITS = ['101', '102', '103'] as const;
export const demoDriverEmail = (cfg: Pick<Config, 'demoDriver'>, i: number) =>
  i === 0 ? cfg.demoDriver.email : cfg.demoDriver.email.replace('@', `${i + 1}@`);

/**
 * Sign-ins for a few demo drivers (decision 0111), with the built-in Driver role and the demo driver's
 * password, linked to the driver records of tractors 101-103 (their trucks move in the simulator).
 * Safe to run on every start: an existing account or linked driver is left as it is.
 */
export async function ensureDemoDriverSignIns(db: Db, orgId: string, cfg: Pick<Config, 'demoDriver'>): Promise<string[]> {
  const [driverRole] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, orgId), eq(roles.systemRole, 'DRIVER')));
  if (!driverRole) return [];
  const made: string[] = [];
  let passwordHash: string | null = null;
  for (const [i, unit] of DEMO_DRIVER_UNITS.entries()) {
    const email = demoDriverEmail(cfg, i);
    const [row] = await db
      .select({ driver: drivers })
      .from(assets)
      .innerJoin(drivers, and(eq(drivers.id, assets.currentDriverId), eq(drivers.organizationId, assets.organizationId)))
      .where(and(eq(assets.organizationId, orgId), eq(assets.unitNumber, unit)));
    if (!row || row.driver.userId || (await userExists(db, email))) continue;
    const d = row.driver;
    passwordHash ??= await hashPassword(cfg.demoDriver.password);
    await db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          organizationId: orgId,
          role: 'USER',
          roleId: driverRole.id,
          email,
          username: email,
          firstName: d.firstName,
          lastName: d.lastName,
          position: 'Driver',
          timeZone: d.homeTimeZone,
          passwordHash,
        })
        .returning();
      if (!u) return;
      await tx.update(drivers).set({ userId: u.id }).where(eq(drivers.id, d.id));
      await recordActivity(tx, { orgId, actor: SYSTEM, action: 'CREATE', entityType: 'USER', entityId: u.id, after: u });
      await recordActivity(tx, {
        orgId,
        actor: SYSTEM,
        action: 'UPDATE',
        entityType: 'DRIVER',
        entityId: d.id,
        before: { userId: null },
        after: { userId: u.id },
      });
    });
    made.push(email);
  }
  return made;
}

/** Reports a seeding step under way and the fraction of it done (StartupProgress.at). */
export type SeedProgress = (step: string, fraction: number) => void;
export const SEED_ACCOUNTS_STEP = 'accounts and fleet registry';

/**
 * First-start data: the super administrator always, the demo organization when DEMO is on. Names
 * the sign-ins but never their passwords: console output ends up in log files.
 */
export async function seed(db: Db, config: Config, log: (msg: string) => void, progress: SeedProgress = () => undefined): Promise<void> {
  const step = (fraction: number) => progress(SEED_ACCOUNTS_STEP, fraction);
  await ensureSuperAdmin(db, config.superAdmin);
  const lines = [`  Super administrator: ${config.superAdmin.email}`];
  // The bundled IFTA tax rates (2Q2026), shared by every organization (decision 0123).
  if (await ensureBundledRates(db)) lines.push('  IFTA tax rates: 2Q2026 matrix seeded');
  if (config.demo) {
    step(0.2);
    const demoOrgId = await ensureDemoOrganization(db, config);
    step(0.5);
    const engineUnits = DEMO_ENGINE_TRUCKS.map((e) => 100 + e.index).join(', ');
    if (await ensureDemoFleet(db, demoOrgId))
      lines.push(
        `  Demo fleet: 25 tractors (101-125) with drivers and devices demo-truck-01..25 (on ${engineUnits} Teltonika FMC650s, known by IMEI), 12 trailers, 2 groups`,
      );
    else if (await ensureDemoEngineTrucks(db, demoOrgId)) lines.push(`  Demo fleet: tractors ${engineUnits} now report engine data through Teltonika FMC650s`);
    // Issue 46: each demo driver belongs to the home terminal of their zone (earlier demo databases too).
    const terminalsMade = await ensureDemoTerminals(db, demoOrgId);
    if (terminalsMade) lines.push(`  Demo terminals: ${terminalsMade} home terminals, each demo driver at the one of their time zone`);
    // Issue 48: an API token and a webhook endpoint (off) to look at under Organization settings.
    if (await ensureDemoIntegrations(db, demoOrgId, config.demoAdmin.email))
      lines.push('  Demo integrations: an API token and a sample webhook endpoint (off)');
    lines.push(`  Demo Freight admin:  ${config.demoAdmin.email}`);
    lines.push(`  Demo dispatcher:     ${config.demoDispatcher.email}`);
    step(0.8);
    await ensureDemoDriverSignIns(db, demoOrgId, config);
    lines.push(`  Demo drivers:        ${DEMO_DRIVER_UNITS.map((_, i) => demoDriverEmail(config, i)).join(', ')} (tractors ${DEMO_DRIVER_UNITS.join(', ')})`);
  }
  const variables = config.demo ? 'SUPERADMIN_PASSWORD, DEMO_ADMIN_PASSWORD, DEMO_DISPATCHER_PASSWORD and DEMO_DRIVER_PASSWORD' : 'SUPERADMIN_PASSWORD';
  lines.push(`  Passwords: as set in ${variables} (the defaults are in README.md)`);
  log(`Sign-in accounts:\n${lines.join('\n')}`);
}
