import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';

/** Stored as saved; readers merge DEFAULT_ORGANIZATION_SETTINGS (api-contract) over missing keys. */
export interface OrganizationSettings {
  units?: 'IMPERIAL' | 'METRIC';
  periodStartTime?: string;
  defaultRuleset?: string;
  darkMode?: { isEnabled: boolean; defaultTheme: 'light' | 'dark' };
  telematics?: { idleMinutes: number; offlineMinutes: number };
  detention?: { freeMinutes: number };
  fuelCards?: { radiusM: number; windowMinutes: number };
  complianceExpiringDays?: number;
  [key: string]: unknown;
}

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('ACTIVE'),
    timeZone: text('time_zone').notNull().default('America/Chicago'),
    dotNumber: text('dot_number'),
    mcNumber: text('mc_number'),
    phone: text('phone'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    country: text('country').notNull().default('US'),
    logoImageId: uuid('logo_image_id'),
    settings: jsonb('settings').$type<OrganizationSettings>().notNull().default({}),
    /** SHA-256 of the Traccar forwarding token (decision 0154); the token is shown once. */
    ingestTokenHash: text('ingest_token_hash'),
    ingestTokenCreatedAt: timestamp('ingest_token_created_at', { withTimezone: true }),
    ingestTokenLastUsedAt: timestamp('ingest_token_last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('organizations_name_idx').on(t.name),
    uniqueIndex('organizations_ingest_token_uq')
      .on(t.ingestTokenHash)
      .where(sql`${t.ingestTokenHash} is not null`),
  ],
);

/** Per-organization named roles holding permission codes. The built-in ADMIN role holds every code, the built-in DRIVER role the driver's own. */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    builtIn: boolean('built_in').notNull().default(false),
    /** Which built-in role (decision 0111): ADMIN holds every code, DRIVER the driver's own; null for custom roles. */
    systemRole: text('system_role', { enum: ['ADMIN', 'DRIVER'] }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roles_org_name_uq').on(t.organizationId, sql`lower(${t.name})`),
    uniqueIndex('roles_org_system_uq')
      .on(t.organizationId, t.systemRole)
      .where(sql`${t.systemRole} is not null`),
  ],
);
