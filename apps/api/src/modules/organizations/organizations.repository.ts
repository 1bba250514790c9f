import { eq } from 'drizzle-orm';
import { DEFAULT_ORGANIZATION_SETTINGS, type OrganizationSettingsValues } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { organizations, type OrganizationSettings } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

// Reading an organization and its settings: what other modules (HoS, IFTA, CSV, activity log) need
// of it, without the organization's services (which invite users, store logos and write the log).

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
    detention: { ...d.detention, ...s.detention },
    fuelCards: { ...d.fuelCards, ...s.fuelCards },
    complianceExpiringDays: s.complianceExpiringDays ?? d.complianceExpiringDays,
  };
}

export async function findOrganization(db: DbOrTx, orgId: string) {
  const rows = await db.select().from(organizations).where(eq(organizations.id, orgId));
  const row = rows[0];
  if (!row) throw notFound('Organization');
  return row;
}

/** The organization's settings with defaults filled in (map thresholds, units, HoS defaults). */
export async function getOrganizationSettings(db: DbOrTx, orgId: string): Promise<OrganizationSettingsValues> {
  const rows = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  if (!rows[0]) throw notFound('Organization');
  return readSettings(rows[0].settings);
}
