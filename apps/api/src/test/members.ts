import type { FastifyInstance } from 'fastify';
import type { SignInResponse } from '@fleet/api-contract';
import { bearer, login, readOutbox } from './helpers.ts';
import { driverBody } from './registry.ts';

let n = 0;
const ip = () => `10.77.${Math.floor(++n / 200) % 250}.${n % 200}`;

/** The token of the newest create-new-password link e-mailed to `email`. */
export function linkToken(dataDir: string, email: string): string {
  const mail = readOutbox(dataDir)
    .filter((m) => m.to === email.toLowerCase())
    .at(-1);
  const token = mail?.text.match(/create-new-password\/([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no create-new-password link e-mailed to ${email}`);
  return token;
}

/** Accepts the invitation e-mailed to `email` by choosing `password`, then signs in. */
export async function acceptInvitation(app: FastifyInstance, dataDir: string, email: string, password = 'Member#Pass2026'): Promise<SignInResponse> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/create-new-password',
    payload: { token: linkToken(dataDir, email), password },
    remoteAddress: ip(),
  });
  if (res.statusCode !== 204) throw new Error(`accept invitation failed: ${res.statusCode} ${res.body}`);
  return login(app, { email, password }, ip());
}

/** Creates a role (as `admin`) and a signed-in member holding it. */
export async function memberWithRole(
  app: FastifyInstance,
  dataDir: string,
  admin: SignInResponse,
  permissions: string[],
  label = `r${Date.now().toString(36)}${++n}`,
): Promise<{ session: SignInResponse; roleId: string; email: string }> {
  const orgId = admin.user.organization?.id;
  const role = await app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/roles`,
    headers: bearer(admin.accessToken),
    payload: { name: `Role ${label}`, permissions },
  });
  if (role.statusCode !== 201) throw new Error(`role create failed: ${role.statusCode} ${role.body}`);
  const roleId = role.json().id as string;
  const email = `${label}@member.test`;
  const inv = await app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/users`,
    headers: bearer(admin.accessToken),
    payload: { email, firstName: 'Mem', lastName: label, roleId },
  });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  return { session: await acceptInvitation(app, dataDir, email), roleId, email };
}

/**
 * A driver created through the driver form with an invitation, who chose a password and signed in:
 * the built-in Driver role. `admin` is the organization administrator's headers.
 */
export async function invitedDriver(
  app: FastifyInstance,
  dataDir: string,
  orgId: string,
  admin: Record<string, string>,
  over: Record<string, unknown> = {},
): Promise<{ driver: { id: string; firstName: string; lastName: string }; headers: Record<string, string>; name: string }> {
  const email = `drv${Date.now().toString(36)}${++n}@demofreight.test`;
  const created = await app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/drivers`,
    headers: admin,
    payload: driverBody({ email, invite: true, ...over }),
  });
  if (created.statusCode !== 201) throw new Error(`driver create failed: ${created.statusCode} ${created.body}`);
  const driver = created.json() as { id: string; firstName: string; lastName: string };
  const session = await acceptInvitation(app, dataDir, email, 'Driver#Pass2026');
  return { driver, headers: bearer(session.accessToken), name: `${driver.firstName} ${driver.lastName}` };
}
