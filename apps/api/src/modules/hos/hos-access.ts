import { and, eq } from 'drizzle-orm';
import type { Permission } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthContext } from '../auth/index.ts';

// Who reaches which driver's records (decision 0111). An office user holding the office code reaches
// every driver of the organization (the tenancy check already held it to its own organization); a
// caller holding only the driver's own codes reaches only the driver record linked to its account.
// Anything else answers 404, as a foreign organization does, so a driver cannot even learn that
// another account or driver exists.

/** True when the caller acts only as a driver here: it lacks the office code. */
export const selfOnly = (ctx: AuthContext, officeCode: Permission): boolean => !ctx.permissions.has(officeCode);

/** The driver signing in with account `userId` in the organization; 404 "Driver" when there is none. */
export async function driverIdOfAccount(db: DbOrTx, orgId: string, userId: string): Promise<string> {
  const [d] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.userId, userId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  return d.id;
}

/**
 * The driver of a `users/{userId}/hos_log/...` path: any account's driver for an office user holding
 * `officeCode`, the caller's own driver for a driver (another account answers 404).
 */
export async function driverOfUserPath(db: DbOrTx, ctx: AuthContext, orgId: string, userId: string, officeCode: Permission): Promise<string> {
  if (selfOnly(ctx, officeCode) && userId !== ctx.userId) throw notFound('Driver');
  return driverIdOfAccount(db, orgId, userId);
}

/**
 * Checks a `drivers/{driverId}/...` path the driver may use too: an office user holding `officeCode`
 * reaches any driver of the organization, a driver only the record linked to their account.
 */
export async function assertDriverPath(db: DbOrTx, ctx: AuthContext, orgId: string, driverId: string, officeCode: Permission): Promise<void> {
  const [d] = await db
    .select({ userId: drivers.userId })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  if (selfOnly(ctx, officeCode) && d.userId !== ctx.userId) throw notFound('Driver');
}
