import { asc, and, eq, isNull, sql } from 'drizzle-orm';
import type { DriverDetail, Driver, Page, RemovalResult } from '@fleet/api-contract';
import type { driverInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { assetDriverAssignments, assets, drivers, driverSearchDoc, organizations, users } from '../../db/schema/index.ts';
import { conflict, forbidden, invalidField } from '../../http/errors.ts';
import { foreignKeyViolation } from '../../db/sql/pg-error.ts';
import { assertMayGrant, driverRoleOf, type MailDeps, rolePermissions, sendInvitationEmail } from '../users/index.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { likeTerm, orderBy, sortKey } from '../../http/paging.ts';
import type { Actor, AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { driverInGroup } from '../groups/index.ts';
import { terminalOf } from '../settings/index.ts';
import { getDriverDetail, lockDriverRow } from './drivers.repository.ts';
import { selectDriverPage } from './drivers.list-query.ts';
import { notifyAuthChange } from '../../db/sql/notify.ts';

export type ParsedDriverInput = z.output<typeof driverInputSchema>;

const SORTS = {
  lastName: sql`lower(${drivers.lastName})`,
  firstName: sql`lower(${drivers.firstName})`,
  email: drivers.email,
  employeeId: drivers.employeeId,
  licenseNumber: drivers.licenseNumber,
  licenseState: drivers.licenseState,
  licenseExpiry: drivers.licenseExpiry,
  status: drivers.status,
  createdAt: drivers.createdAt,
};

export interface DriverFilter {
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  search?: string;
}

export function driverConditions(orgId: string, f: DriverFilter) {
  return and(
    f.status ? eq(drivers.status, f.status) : undefined,
    f.group ? driverInGroup(orgId, f.group, drivers.id) : undefined,
    f.search ? sql`${driverSearchDoc} like ${likeTerm(f.search)}` : undefined,
  );
}

/** A page of drivers, sorted by last name by default (first name breaks ties). */
export async function listDrivers({ db, orgId }: ReadScope, q: DriverFilter & { page: number; size: number; sort?: string }): Promise<Page<Driver>> {
  const order = orderBy(q.sort, SORTS, 'lastName', asc(drivers.id));
  if (!q.sort || q.sort.startsWith('lastName')) order.splice(1, 0, sql`lower(${drivers.firstName})`);
  return selectDriverPage(db, orgId, q, { page: q.page, size: q.size, sortKey: sortKey(q.sort, 'lastName'), order });
}

async function assertUserInOrg(db: DbOrTx, orgId: string, userId: string | null): Promise<void> {
  if (!userId) return;
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, orgId)));
  if (!u) throw invalidField('userId', 'Sign-in account is not a user of this organization');
}

/**
 * The driver's home terminal link and zone (issue 46): a terminal named must be the organization's
 * (else 400 `homeTerminalId`), and its time zone becomes the driver's home time zone, so the log
 * days follow the terminal. Left out (undefined): the stored link stays, the zone is the input's
 * unless the driver keeps a terminal, whose zone stands.
 */
async function terminalValues(
  db: DbOrTx,
  orgId: string,
  input: ParsedDriverInput,
  kept: string | null = null,
): Promise<{ homeTerminalId: string | null; homeTimeZone: string }> {
  const id = input.homeTerminalId === undefined ? kept : input.homeTerminalId;
  if (!id) return { homeTerminalId: null, homeTimeZone: input.homeTimeZone };
  const t = await terminalOf(db, orgId, id);
  if (!t) {
    if (input.homeTerminalId === undefined) return { homeTerminalId: id, homeTimeZone: input.homeTimeZone };
    throw invalidField('homeTerminalId', 'Home terminal must be a terminal of the organization');
  }
  return { homeTerminalId: t.id, homeTimeZone: t.timeZone };
}

export const driverValues = (i: ParsedDriverInput) => ({
  firstName: i.firstName,
  lastName: i.lastName,
  email: i.email,
  phone: i.phone,
  employeeId: i.employeeId,
  licenseNumber: i.licenseNumber,
  licenseState: i.licenseState,
  licenseClass: i.licenseClass,
  licenseExpiry: i.licenseExpiry,
  homeTimeZone: i.homeTimeZone,
  ruleset: i.ruleset,
  shortHaul150: i.shortHaul150,
  sixteenHour: i.sixteenHour,
  oilfield: i.oilfield,
  personalConveyanceAllowed: i.personalConveyanceAllowed,
  yardMovesAllowed: i.yardMovesAllowed,
  eldExempt: i.eldExempt,
  eldExemptReason: i.eldExempt ? i.eldExemptReason : null,
  status: i.status,
  userId: i.userId,
  notes: i.notes,
  ...(i.cardNumber !== undefined ? { cardNumber: i.cardNumber } : {}),
});

/** A driver's licence as the driver form writes it. */
export interface DriverLicence {
  number: string | null;
  state: string | null;
  class: string | null;
  expiry: string | null;
}

/**
 * Called in the driver's transaction when the form wrote a licence (a new driver's, or a change):
 * the qualification file's licence paper follows it (decision 0300). Handed in from the wiring above
 * (routes.ts), since the compliance module stands above this one.
 */
export type LicenceWritten = (tx: DbOrTx, scope: { orgId: string; actor: Actor }, driverId: string, licence: DriverLicence) => Promise<void>;

const licenceOf = (r: {
  licenseNumber: string | null;
  licenseState: string | null;
  licenseClass: string | null;
  licenseExpiry: string | null;
}): DriverLicence => ({
  number: r.licenseNumber,
  state: r.licenseState,
  class: r.licenseClass,
  expiry: r.licenseExpiry,
});

/** What inviting a driver needs: the caller's codes (USER_CREATE, and every code of the Driver role) and the mail. */
export interface InviteDeps {
  ctx: AuthContext;
  mail: Omit<MailDeps, 'db'>;
}

/**
 * Inside the driver's transaction: a new INVITED account with the built-in Driver role for the
 * driver's e-mail, linked to the driver record (decision 0111). Returns it, for the e-mail sent after commit.
 */
async function inviteDriverAccount(
  tx: DbOrTx,
  orgId: string,
  actor: Actor,
  deps: InviteDeps | undefined,
  driver: { id: string; firstName: string; lastName: string; email: string | null; homeTimeZone: string },
) {
  if (!deps || !deps.ctx.permissions.has('USER_CREATE'))
    throw forbidden('Inviting a driver to sign in needs the permission to invite users', 'Missing permission: USER_CREATE');
  if (!driver.email) throw invalidField('email', 'Email is a required field to invite the driver to sign in');
  const role = await driverRoleOf(tx, orgId);
  if (!role) throw conflict('The organization has no built-in Driver role', 'No DRIVER system role');
  assertMayGrant(deps.ctx, rolePermissions(role));
  const [user] = await tx
    .insert(users)
    .values({
      organizationId: orgId,
      role: 'USER',
      roleId: role.id,
      email: driver.email,
      username: driver.email,
      firstName: driver.firstName,
      lastName: driver.lastName,
      position: 'Driver',
      timeZone: driver.homeTimeZone,
      passwordHash: null,
      status: 'INVITED',
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  await tx
    .update(drivers)
    .set({ userId: user.id })
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, driver.id)));
  await notifyAuthChange(tx, [user.id]);
  await recordActivity(tx, { orgId, actor, action: 'INVITE', entityType: 'USER', entityId: user.id, after: user });
  return user;
}

async function sendDriverInvitation(db: Db, orgId: string, deps: InviteDeps, user: { id: string; email: string; firstName: string | null }): Promise<void> {
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  await sendInvitationEmail({ ...deps.mail, db }, user, org?.name ?? 'your carrier');
}

/**
 * A token acts for the organization, never for a person (issue 66, decision 0226): as it invites no
 * one, it does not decide who signs in as a driver (whose logs that person then certifies).
 */
function assertTokenKeepsSignIn(actor: Actor, was: string | null, now: string | null): void {
  if (actor.token && was !== now)
    throw forbidden(
      "API tokens cannot link or unlink a driver's sign-in account: send the driver's userId as it is",
      `API token ${actor.token.name} asked to change the driver's userId`,
      'tokens.endpoint_refused',
    );
}

export async function createDriver(
  { db, orgId, actor }: Scope,
  input: ParsedDriverInput,
  invite?: InviteDeps,
  licenceWritten?: LicenceWritten,
): Promise<DriverDetail> {
  assertTokenKeepsSignIn(actor, null, input.userId);
  await assertUserInOrg(db, orgId, input.userId);
  try {
    const { id, invited } = await db.transaction(async (tx) => {
      const terminal = await terminalValues(tx, orgId, input);
      const [row] = await tx
        .insert(drivers)
        .values({ organizationId: orgId, ...driverValues(input), ...terminal })
        .returning();
      if (!row) throw new Error('driver insert returned nothing');
      // The account it signs in for now has a driver record (db/sql/notify.ts: sent by the API for Citus).
      await notifyAuthChange(tx, [row.userId]);
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'DRIVER', entityId: row.id, after: row });
      if (licenceWritten && (row.licenseNumber || row.licenseExpiry)) await licenceWritten(tx, { orgId, actor }, row.id, licenceOf(row));
      const invited = input.invite ? await inviteDriverAccount(tx, orgId, actor, invite, row) : null;
      return { id: row.id, invited };
    });
    if (invited && invite) await sendDriverInvitation(db, orgId, invite, invited);
    return await getDriverDetail(db, orgId, id);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

/** Ends the driver's open vehicle assignment, if any. */
async function releaseVehicle(tx: DbOrTx, orgId: string, actor: Actor, driverId: string, at: Date): Promise<void> {
  const released = await tx
    .update(assets)
    .set({ currentDriverId: null, updatedAt: at })
    .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, driverId)))
    .returning({ id: assets.id });
  await tx
    .update(assetDriverAssignments)
    .set({ endedAt: at })
    .where(and(eq(assetDriverAssignments.organizationId, orgId), eq(assetDriverAssignments.driverId, driverId), isNull(assetDriverAssignments.endedAt)));
  for (const r of released) {
    await recordActivity(tx, { orgId, actor, action: 'UNASSIGN_DRIVER', entityType: 'ASSET', entityId: r.id, before: { driverId }, after: { driverId: null } });
  }
}

/** Edits a driver; deactivating one releases their vehicle. */
export async function updateDriver(
  { db, orgId, actor }: Scope,
  id: string,
  input: ParsedDriverInput,
  invite?: InviteDeps,
  licenceWritten?: LicenceWritten,
): Promise<DriverDetail> {
  await assertUserInOrg(db, orgId, input.userId);
  try {
    const invited = await db.transaction(async (tx) => {
      const before = await lockDriverRow(tx, orgId, id);
      assertTokenKeepsSignIn(actor, before.userId, input.userId);
      const now = new Date();
      if (before.status === 'ACTIVE' && input.status === 'INACTIVE') await releaseVehicle(tx, orgId, actor, id, now);
      // Every statement names the organization: on Citus it routes the statement to one shard.
      const terminal = await terminalValues(tx, orgId, input, before.homeTerminalId);
      const [after] = await tx
        .update(drivers)
        .set({ ...driverValues(input), ...terminal, updatedAt: now })
        .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, id)))
        .returning();
      if (after && after.userId !== before.userId) await notifyAuthChange(tx, [before.userId, after.userId]);
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'DRIVER', entityId: id, before, after });
      if (licenceWritten && after && JSON.stringify(licenceOf(after)) !== JSON.stringify(licenceOf(before)))
        await licenceWritten(tx, { orgId, actor }, id, licenceOf(after));
      return input.invite && after ? inviteDriverAccount(tx, orgId, actor, invite, after) : null;
    });
    if (invited && invite) await sendDriverInvitation(db, orgId, invite, invited);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getDriverDetail(db, orgId, id);
}

/** Deletes a driver who never drove; one with assignment history (or logs) is deactivated. */
export async function removeDriver({ db, orgId, actor }: Scope, id: string): Promise<RemovalResult> {
  return db.transaction(async (tx) => {
    const before = await lockDriverRow(tx, orgId, id, 'update');
    const name = `${before.firstName} ${before.lastName}`;
    const [history] = await tx
      .select({ n: countAll })
      .from(assetDriverAssignments)
      .where(and(eq(assetDriverAssignments.organizationId, orgId), eq(assetDriverAssignments.driverId, id)));
    if ((history?.n ?? 0) === 0) {
      try {
        await tx.transaction(async (sp) => {
          await sp.delete(drivers).where(and(eq(drivers.organizationId, orgId), eq(drivers.id, id)));
          await notifyAuthChange(sp, [before.userId]);
          await recordActivity(sp, { orgId, actor, action: 'DELETE', entityType: 'DRIVER', entityId: id, before });
        });
        return { result: 'DELETED' as const, message: `Driver ${name} was deleted` };
      } catch (err) {
        if (!foreignKeyViolation(err)) throw err;
      }
    }
    const now = new Date();
    await releaseVehicle(tx, orgId, actor, id, now);
    await tx
      .update(drivers)
      .set({ status: 'INACTIVE', updatedAt: now })
      .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, id)));
    await recordActivity(tx, { orgId, actor, action: 'DEACTIVATE', entityType: 'DRIVER', entityId: id, before, after: { status: 'INACTIVE' } });
    return { result: 'DEACTIVATED' as const, message: `Driver ${name} has driving history, so they were deactivated instead of deleted` };
  });
}

/** A driver with their vehicle, sign-in and groups. */
export async function getDriver({ db, orgId }: ReadScope, id: string): Promise<DriverDetail> {
  return getDriverDetail(db, orgId, id);
}
