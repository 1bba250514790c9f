import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';

export interface OrganizationSettings {
  darkMode?: { isEnabled: boolean; defaultTheme: 'light' | 'dark' };
  [key: string]: unknown;
}

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] }).notNull().default('ACTIVE'),
    timeZone: text('time_zone').notNull().default('America/Chicago'),
    settings: jsonb('settings').$type<OrganizationSettings>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('organizations_name_idx').on(t.name)],
);

/** Per-organization named roles holding permission codes. The built-in ADMIN role holds every code. */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('roles_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);
