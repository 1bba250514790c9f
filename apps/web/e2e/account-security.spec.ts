import { expect, test, type APIRequestContext } from '@playwright/test';
import { ACCOUNTS, login, readOutbox, signIn, screenshotsLightDark } from './helpers.ts';

// Issue 66: changing your own e-mail asks for your current password, and the old address gets a link
// that puts it back (decisions 0227); the API token list shows the permissions a token lost because
// its creator no longer holds them (decision 0226).

const PASSWORD = 'Member#Pass2026';
let n = 0;

async function adminSession(request: APIRequestContext): Promise<{ token: string; orgId: string }> {
  const res = await request.post('/api/v1/auth/authenticate', { data: ACCOUNTS.admin });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  return { token: body.accessToken, orgId: body.user.organization.id };
}

/** A new member of the demo organization with a role of its own, who chose PASSWORD. */
async function member(request: APIRequestContext, permissions: string[], lastName = 'Secure'): Promise<{ email: string; roleId: string; userId: string }> {
  const { token, orgId } = await adminSession(request);
  const headers = { authorization: `Bearer ${token}` };
  const label = `sec${Date.now().toString(36)}${++n}`;
  const role = await request.post(`/api/v1/organizations/${orgId}/roles`, { headers, data: { name: `Role ${label}`, permissions } });
  expect(role.status(), await role.text()).toBe(201);
  const email = `${label}@member.test`;
  const invited = await request.post(`/api/v1/organizations/${orgId}/users`, {
    headers,
    data: { email, firstName: 'Sam', lastName, roleId: (await role.json()).id },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const link = (await readOutbox(email)).text.match(/create-new-password\/([A-Za-z0-9_-]+)/)![1];
  expect((await request.post('/api/v1/auth/create-new-password', { data: { token: link, password: PASSWORD } })).status()).toBe(204);
  return { email, roleId: (await role.json()).id as string, userId: (await invited.json()).id as string };
}

test('changing your own e-mail asks for your password, and the old address can put it back', async ({ page, request, browser }) => {
  const m = await member(request, ['ORG_READ', 'USER_READ']);
  await login(page, { email: m.email, password: PASSWORD });
  await page.goto('/my-account');
  const form = page.getByRole('form', { name: 'Profile' });
  const next = `moved-${m.email}`;
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  await form.getByLabel('Email').fill(next);
  const current = form.getByLabel('Current password');
  await expect(current).toBeVisible();
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Enter your current password to change your e-mail')).toBeVisible();
  await current.fill('not-my-password');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Current password is not correct')).toBeVisible();
  await screenshotsLightDark(page, 'i66-profile-password');
  await current.fill(PASSWORD);
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await expect(form.getByLabel('Current password')).toHaveCount(0);

  // The old address was told, with a link that undoes the change.
  const notice = await readOutbox(m.email);
  expect(notice.subject).toBe('Your Fleetline e-mail was changed');
  const undoPath = new URL(notice.text.match(/https?:\/\/\S+\/undo-email-change\/[A-Za-z0-9_-]+/)![0]).pathname;
  // The owner reads their mail elsewhere, signed out (the intruder holds the session).
  const owner = await browser.newPage();
  await owner.goto(undoPath);
  await expect(owner.getByRole('heading', { name: 'Undo the change of e-mail' })).toBeVisible();
  await screenshotsLightDark(owner, 'i66-undo');
  await owner.getByRole('button', { name: 'Put my e-mail back' }).click();
  await expect(owner.getByText('Your e-mail is back')).toBeVisible();
  await expect(owner.getByText(`Your account signs in with ${m.email} again.`)).toBeVisible();
  await screenshotsLightDark(owner, 'i66-undone');
  await owner.close();
  // The session that changed it is over.
  await page.goto('/my-account');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // The password no longer signs in; the reset link sent to the restored address is there.
  expect((await request.post('/api/v1/auth/authenticate', { data: { email: m.email, password: PASSWORD } })).status()).toBe(401);
  expect((await readOutbox(m.email)).subject).toBe('Reset your Fleetline password');
});

test('the API token list shows the permissions a token lost when its creator was demoted', async ({ page, request }) => {
  const m = await member(request, ['API_TOKEN_MANAGE', 'LOAD_LIST', 'ASSET_LIST', 'ORG_READ']);
  const session = await request.post('/api/v1/auth/authenticate', { data: { email: m.email, password: PASSWORD } });
  const s = (await session.json()) as { accessToken: string; user: { organization: { id: string } } };
  const orgId = s.user.organization.id;
  const name = `Demoted ${Date.now().toString(36)}`;
  const made = await request.post(`/api/v1/organizations/${orgId}/api-tokens`, {
    headers: { authorization: `Bearer ${s.accessToken}` },
    data: { name, permissions: ['LOAD_LIST', 'ASSET_LIST'] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { token: adminToken } = await adminSession(request);
  const narrowed = await request.put(`/api/v1/organizations/${orgId}/roles/${m.roleId}`, {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { name: `Narrowed ${name}`, permissions: ['API_TOKEN_MANAGE', 'ASSET_LIST', 'ORG_READ'] },
  });
  expect(narrowed.status(), await narrowed.text()).toBe(200);
  const secret = (await made.json()).token as string;
  expect((await request.get(`/api/v1/organizations/${orgId}/loads`, { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(403);

  await signIn(page, 'admin');
  await page.goto('/settings/organization-settings/api-tokens');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByTestId('token-lost')).toHaveText('No longer in force: LOAD_LIST');
  await screenshotsLightDark(page, 'i66-token-lost');
});

test('a user manager editing their own row in Users & Roles is asked for their password to change its e-mail', async ({ page, request }) => {
  const lastName = `Manager${Date.now().toString(36)}`;
  const m = await member(request, ['USER_LIST', 'USER_READ', 'USER_UPDATE', 'ORG_READ'], lastName);
  await login(page, { email: m.email, password: PASSWORD });
  await page.goto('/settings/organization-settings/user-and-roles');
  await page.getByPlaceholder('Search by name or email').fill(lastName);
  await page.getByRole('button', { name: `Actions for Sam ${lastName}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit user' });
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  await form.getByLabel('Email').fill(`renamed-${m.email}`);
  await form.getByRole('button', { name: 'Save user' }).click();
  await expect(form.getByText('Enter your current password to change your e-mail')).toBeVisible();
  await screenshotsLightDark(page, 'i66-user-form-password');
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Save user' }).click();
  await expect(page.getByText('User saved')).toBeVisible();
  expect((await readOutbox(m.email)).subject).toBe('Your Fleetline e-mail was changed');
});
