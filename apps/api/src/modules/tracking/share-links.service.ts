import {
  SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP,
  VEHICLE_SHARE_LINK_MAX_DAYS,
  type LoadShareLinkCreate,
  type ShareLink,
  type ShareLinkCreated,
  type VehicleShareLinkCreate,
} from '@fleet/api-contract';
import { forbidden, invalidField, notFound } from '../../http/errors.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import * as repo from './tracking.repository.ts';
import { newToken, tokenHash, trackingUrl } from './tracking-tokens.ts';

// Tracking links (issue 69, decision 0282): made for a load (by default until a day after its last
// stop's appointment) or a vehicle (a time box of at most 7 days); listed with their views; revoked,
// never deleted. An API token makes links for its organization: `createdBy` stays empty.

const HOUR = 3_600_000;
const now = (s: ReadScope) => s.now ?? Date.now();

function present(row: Awaited<ReturnType<typeof repo.shareLinksOf>>[number], at: number): ShareLink {
  const l = row.link;
  const who = [row.firstName, row.lastName].filter(Boolean).join(' ') || row.email;
  return {
    id: l.id,
    kind: l.kind,
    label: l.label,
    status: l.revokedAt ? 'REVOKED' : l.expiresAt.getTime() <= at ? 'EXPIRED' : 'ACTIVE',
    expiresAt: l.expiresAt.toISOString(),
    createdAt: l.createdAt.toISOString(),
    createdBy: l.createdBy ? (who ?? null) : null,
    revokedAt: l.revokedAt?.toISOString() ?? null,
    lastViewedAt: l.lastViewedAt?.toISOString() ?? null,
    viewCount: l.viewCount,
    showTemperature: l.showTemperature,
  };
}

function creator(s: Scope): { createdBy: string | null; createdByToken: string | null } {
  // A token acts for its organization, never as the person who made it.
  if (s.actor.token) return { createdBy: null, createdByToken: s.actor.token.id };
  return { createdBy: s.actor.userId, createdByToken: null };
}

function futureExpiry(expiresAt: string, at: number): number {
  const ms = Date.parse(expiresAt);
  if (ms <= at) throw invalidField('expiresAt', 'Expires at must be in the future');
  return ms;
}

/** When a load's link ends by default: a day after its last stop's appointment (a day from now when that is past). */
export function defaultLoadExpiry(lastWindowEnd: number | null, at: number): number {
  const after = (lastWindowEnd ?? at) + SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP * HOUR;
  return Math.max(after, at + SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP * HOUR);
}

async function created(
  s: Scope,
  publicUrl: string,
  values: Omit<Parameters<typeof repo.insertShareLink>[1], 'tokenHash' | 'createdAt' | 'createdBy' | 'createdByToken' | 'orgId'>,
): Promise<ShareLinkCreated> {
  const token = newToken();
  const row = await repo.insertShareLink(s.db, { ...values, orgId: s.orgId, tokenHash: tokenHash(token), createdAt: new Date(now(s)), ...creator(s) });
  return { id: row.id, url: trackingUrl(publicUrl, token), expiresAt: row.expiresAt.toISOString(), createdAt: row.createdAt.toISOString() };
}

export async function createLoadLink(s: Scope, publicUrl: string, loadId: string, body: LoadShareLinkCreate): Promise<ShareLinkCreated> {
  const at = now(s);
  const load = await repo.loadOf(s.db, s.orgId, loadId);
  if (!load) throw notFound('Load');
  let expires: number;
  if (body.expiresAt) expires = futureExpiry(body.expiresAt, at);
  else {
    const stops = await repo.stopsOf(s.db, s.orgId, loadId);
    const last = stops.at(-1)?.stop.windowEnd.getTime() ?? null;
    expires = defaultLoadExpiry(last, at);
  }
  return created(s, publicUrl, {
    kind: 'LOAD',
    loadId,
    assetId: null,
    label: body.label ?? null,
    showTemperature: body.showTemperature ?? false,
    expiresAt: new Date(expires),
  });
}

export async function createVehicleLink(s: Scope, publicUrl: string, assetId: string, body: VehicleShareLinkCreate): Promise<ShareLinkCreated> {
  const at = now(s);
  const vehicle = await repo.vehicleOf(s.db, s.orgId, assetId);
  if (!vehicle || vehicle.type !== 'VEHICLE') throw notFound('Vehicle');
  const expires = futureExpiry(body.expiresAt, at);
  if (expires > at + VEHICLE_SHARE_LINK_MAX_DAYS * 24 * HOUR)
    throw invalidField('expiresAt', `Expires at must be at most ${VEHICLE_SHARE_LINK_MAX_DAYS} days ahead`);
  return created(s, publicUrl, { kind: 'VEHICLE', loadId: null, assetId, label: body.label ?? null, expiresAt: new Date(expires) });
}

export async function listLoadLinks(s: ReadScope, loadId: string): Promise<{ items: ShareLink[] }> {
  if (!(await repo.loadOf(s.db, s.orgId, loadId))) throw notFound('Load');
  const at = now(s);
  return { items: (await repo.shareLinksOf(s.db, s.orgId, { loadId })).map((r) => present(r, at)) };
}

export async function listVehicleLinks(s: ReadScope, assetId: string): Promise<{ items: ShareLink[] }> {
  const vehicle = await repo.vehicleOf(s.db, s.orgId, assetId);
  if (!vehicle || vehicle.type !== 'VEHICLE') throw notFound('Vehicle');
  const at = now(s);
  return { items: (await repo.shareLinksOf(s.db, s.orgId, { assetId })).map((r) => present(r, at)) };
}

/** Revokes a link of the organization (of the load, when named); revoking it again changes nothing. */
export async function revokeLink(s: Scope, linkId: string, loadId?: string): Promise<void> {
  if (!(await repo.revokeShareLink(s.db, s.orgId, linkId, now(s), loadId))) throw notFound('Tracking link');
}

/** The organization-wide revoke: a load's link takes LOAD_UPDATE, a vehicle's ASSET_UPDATE. */
export async function revokeAnyLink(s: Scope, ctx: AuthContext, linkId: string): Promise<void> {
  const link = await repo.linkOf(s.db, s.orgId, linkId);
  if (!link) throw notFound('Tracking link');
  const need = link.kind === 'LOAD' ? 'LOAD_UPDATE' : 'ASSET_UPDATE';
  if (!ctx.permissions.has(need)) throw forbidden('You do not have permission to do this', `Missing permission: ${need}`);
  await revokeLink(s, linkId);
}
