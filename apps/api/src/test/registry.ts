import type { FastifyInstance } from 'fastify';
import { withVinCheckDigit } from '@fleet/api-contract';
import type { Db } from '../db/client.ts';
import { roles, users } from '../db/schema/index.ts';
import { hashPassword } from '../modules/auth/crypto.ts';
import { bearer, DEMO, login, registerOrganization } from './helpers.ts';

/** Signed-in callers for registry tests: the demo admin and dispatcher, and a foreign organization. */
export async function registryActors(app: FastifyInstance) {
  const admin = await login(app, DEMO.admin);
  const dispatcher = await login(app, DEMO.dispatcher);
  const other = await registerOrganization(app, `Other Carrier ${Date.now()}`);
  const orgId = admin.user.organization?.id ?? '';
  const otherOrgId = other.user.organization?.id ?? '';
  return {
    orgId,
    otherOrgId,
    admin: bearer(admin.accessToken),
    dispatcher: bearer(dispatcher.accessToken),
    other: bearer(other.accessToken),
    superAdmin: bearer((await login(app, DEMO.superAdmin)).accessToken),
  };
}

let serial = 0;
/** A valid VIN that no other test uses. */
export function freshVin(prefix = '1FUJGLDR'): string {
  serial += 1;
  return withVinCheckDigit(`${prefix}0N${String.fromCharCode(65 + (serial % 8))}${String(700000 + serial + Math.floor(Math.random() * 90000)).slice(-6)}`);
}

export const vehicleBody = (over: Record<string, unknown> = {}) => ({
  type: 'VEHICLE',
  unitNumber: `V${Date.now().toString(36)}${++serial}`,
  vin: freshVin(),
  make: 'Freightliner',
  model: 'Cascadia',
  year: 2022,
  plate: 'p-123',
  plateState: 'il',
  fuelType: 'DIESEL',
  iftaQualified: true,
  odometerKm: 120000,
  ...over,
});

export const trailerBody = (over: Record<string, unknown> = {}) => ({
  type: 'TRAILER',
  unitNumber: `T${Date.now().toString(36)}${++serial}`,
  trailerType: 'REEFER',
  lengthM: 16.15,
  plateState: 'IN',
  ...over,
});

export const driverBody = (over: Record<string, unknown> = {}) => ({
  firstName: 'Test',
  lastName: `Driver${++serial}`,
  licenseNumber: `LT${Date.now().toString(36).toUpperCase()}${serial}`,
  licenseState: 'IL',
  ...over,
});

export async function activityRows(db: { execute: (q: never) => Promise<unknown> }, entityId: string): Promise<Array<{ action: string; entity_type: string }>> {
  const res = (await db.execute(`select action, entity_type from activity_log where entity_id = '${entityId}' order by id` as never)) as {
    rows: Array<{ action: string; entity_type: string }>;
  };
  return res.rows;
}

/** Signs in a new user of the organization holding exactly `permissions` (through a custom role). */
export async function userWithPermissions(
  t: { app: FastifyInstance; database: { db: Db } },
  orgId: string,
  permissions: string[],
): Promise<Record<string, string>> {
  const email = `limited${Date.now()}${++serial}@demofreight.test`;
  const password = 'Limited#2026';
  const [role] = await t.database.db
    .insert(roles)
    .values({ organizationId: orgId, name: `Limited ${serial}`, permissions: permissions as never })
    .returning();
  await t.database.db.insert(users).values({
    organizationId: orgId,
    role: 'USER',
    roleId: role?.id,
    email,
    username: email,
    firstName: 'Lim',
    lastName: 'Ited',
    passwordHash: await hashPassword(password),
  });
  return bearer((await login(t.app, { email, password })).accessToken);
}
