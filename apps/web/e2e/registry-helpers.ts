import type { Page } from '@playwright/test';
import { withVinCheckDigit } from '@fleet/api-contract/vin';
import { ACCOUNTS } from './helpers.ts';

export const ORG = '/settings/organization-settings';
export const ADMIN = ACCOUNTS.admin;
export const DISPATCHER = ACCOUNTS.dispatcher;

export { login, signIn } from './helpers.ts';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** A random VIN with a valid North American check digit. */
export function freshVin(): string {
  let v = '';
  for (let i = 0; i < 17; i++) v += VIN_CHARS[Math.floor(Math.random() * VIN_CHARS.length)];
  return withVinCheckDigit(v.slice(0, 9) + v.slice(9, 10).replace(/[0-9]/, 'N') + v.slice(10));
}

export const uniq = () => Math.random().toString(36).slice(2, 7).toUpperCase();

/** Confirms the open confirmation dialog by its button. */
export async function confirm(page: Page, button: string): Promise<void> {
  const dialog = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('button', { name: 'Cancel' }) })
    .last();
  await dialog.getByRole('button', { name: button, exact: true }).click();
}

/** Picks `text` in a searchable Select labelled `label`. */
export async function pick(page: Page, label: string, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: label }).or(page.getByLabel(label)).first();
  await input.click();
  await input.fill(text);
  await page
    .getByRole('option', { name: new RegExp(text) })
    .first()
    .click();
}
