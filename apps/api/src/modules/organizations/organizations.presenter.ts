import type { Organization, OrganizationSummary } from '@fleet/api-contract';
import type { organizations } from '../../db/schema/index.ts';
import { imageUrl } from '../users/index.ts';
import { readSettings } from './organizations.repository.ts';

type OrganizationRow = typeof organizations.$inferSelect;

function base(o: OrganizationRow) {
  return {
    id: o.id,
    name: o.name,
    status: o.status,
    dotNumber: o.dotNumber,
    mcNumber: o.mcNumber,
    phone: o.phone,
    addressLine1: o.addressLine1,
    addressLine2: o.addressLine2,
    city: o.city,
    state: o.state,
    postalCode: o.postalCode,
    country: o.country,
    timeZone: o.timeZone,
    logo: imageUrl(o.logoImageId),
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export function presentOrganization(o: OrganizationRow): Organization {
  return { ...base(o), settings: readSettings(o.settings) };
}

export function presentOrganizationSummary(o: OrganizationRow, counts: { userCount: number; activeUserCount: number }): OrganizationSummary {
  return { ...base(o), ...counts };
}
