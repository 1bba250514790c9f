import { DEFAULT_ORGANIZATION_SETTINGS, type Organization, type OrganizationSettingsValues, type OrganizationSummary } from '@fleet/api-contract';
import type { OrganizationSettings, organizations } from '../../db/schema/index.ts';
import { imageUrl } from '../users/users.presenter.ts';

type OrganizationRow = typeof organizations.$inferSelect;

/** Saved settings with the defaults filled in for every key never saved. */
export function readSettings(saved: OrganizationSettings | null | undefined): OrganizationSettingsValues {
  const d = DEFAULT_ORGANIZATION_SETTINGS;
  const s = saved ?? {};
  return {
    units: s.units ?? d.units,
    periodStartTime: s.periodStartTime ?? d.periodStartTime,
    defaultRuleset: (s.defaultRuleset as OrganizationSettingsValues['defaultRuleset'] | undefined) ?? d.defaultRuleset,
    darkMode: { ...d.darkMode, ...s.darkMode },
    telematics: { ...d.telematics, ...s.telematics },
  };
}

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
