import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  assets,
  deviceModels,
  drivers,
  gateways,
  groups,
  invoices,
  loads,
  maintenanceSchedules,
  organizations,
  places,
  roles,
  terminals,
  customers,
  users,
  workOrders,
} from '../../db/schema/index.ts';
import { DEFAULT_ORGANIZATION_SETTINGS, type OrganizationSettingsValues } from '@fleet/api-contract';
import { notFound } from '../../http/errors.ts';
import type { LinkedRecord, Lookup, RecordKind } from './activity-log.wording.ts';

/**
 * The organization's distance units (the default until saved). Read here, not through the
 * organizations module: that module records activity, so it stands above this one.
 */
async function unitsOf(db: Db, orgId: string): Promise<OrganizationSettingsValues['units']> {
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw notFound('Organization');
  return org.settings?.units ?? DEFAULT_ORGANIZATION_SETTINGS.units;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const personName = (first: SQL | unknown, last: SQL | unknown) => sql<string | null>`nullif(trim(coalesce(${first}, '') || ' ' || coalesce(${last}, '')), '')`;

/**
 * The records a page of the log mentions (its records, linked drivers, vehicles, devices, users,
 * group members), found in one statement whatever the page holds. Only this organization's records
 * answer (and the global device models, and users of no organization: super administrators who
 * acted here), so a stray id from elsewhere names nothing. The lookup also carries the
 * organization's unit system, which the entries' values are written in.
 */
export async function lookupRecords(db: Db, orgId: string, ids: Iterable<string>): Promise<Lookup> {
  const wanted = [...new Set([...ids].filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const found = new Map<string, LinkedRecord>();
  if (wanted.length > 0) {
    const row = (kind: SQL<string>, label: SQL<string | null>, email: SQL<string | null> = sql<string | null>`null::text`) => ({ kind, label, email });
    const rows = await unionAll(
      db
        .select({ id: sql<string>`${assets.id}::text`, ...row(sql<string>`${assets.type}`, sql<string | null>`${assets.unitNumber}`) })
        .from(assets)
        .where(and(eq(assets.organizationId, orgId), inArray(assets.id, wanted))),
      db
        .select({ id: sql<string>`${drivers.id}::text`, ...row(sql<string>`'DRIVER'`, personName(drivers.firstName, drivers.lastName)) })
        .from(drivers)
        .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, wanted))),
      db
        .select({ id: sql<string>`${gateways.id}::text`, ...row(sql<string>`'DEVICE'`, sql<string | null>`${gateways.uniqueId}`) })
        .from(gateways)
        .where(and(eq(gateways.organizationId, orgId), inArray(gateways.id, wanted))),
      db
        .select({
          id: sql<string>`${users.id}::text`,
          ...row(
            sql<string>`'USER'`,
            sql<string | null>`coalesce(${personName(users.firstName, users.lastName)}, ${users.email})`,
            sql<string | null>`${users.email}`,
          ),
        })
        .from(users)
        .where(and(or(eq(users.organizationId, orgId), isNull(users.organizationId)), inArray(users.id, wanted))),
      db
        .select({ id: sql<string>`${roles.id}::text`, ...row(sql<string>`'ROLE'`, sql<string | null>`${roles.name}`) })
        .from(roles)
        .where(and(eq(roles.organizationId, orgId), inArray(roles.id, wanted))),
      db
        .select({ id: sql<string>`${groups.id}::text`, ...row(sql<string>`'GROUP'`, sql<string | null>`${groups.name}`) })
        .from(groups)
        .where(and(eq(groups.organizationId, orgId), inArray(groups.id, wanted))),
      db
        .select({ id: sql<string>`${workOrders.id}::text`, ...row(sql<string>`'WORK_ORDER'`, sql<string | null>`${workOrders.title}`) })
        .from(workOrders)
        .where(and(eq(workOrders.organizationId, orgId), inArray(workOrders.id, wanted))),
      db
        .select({
          id: sql<string>`${maintenanceSchedules.id}::text`,
          ...row(sql<string>`'MAINTENANCE_SCHEDULE'`, sql<string | null>`${maintenanceSchedules.name}`),
        })
        .from(maintenanceSchedules)
        .where(and(eq(maintenanceSchedules.organizationId, orgId), inArray(maintenanceSchedules.id, wanted))),
      db
        .select({ id: sql<string>`${places.id}::text`, ...row(sql<string>`'PLACE'`, sql<string | null>`${places.name}`) })
        .from(places)
        .where(and(eq(places.organizationId, orgId), inArray(places.id, wanted))),
      db
        .select({ id: sql<string>`${terminals.id}::text`, ...row(sql<string>`'TERMINAL'`, sql<string | null>`${terminals.name}`) })
        .from(terminals)
        .where(and(eq(terminals.organizationId, orgId), inArray(terminals.id, wanted))),
      db
        .select({ id: sql<string>`${customers.id}::text`, ...row(sql<string>`'CUSTOMER'`, sql<string | null>`${customers.name}`) })
        .from(customers)
        .where(and(eq(customers.organizationId, orgId), inArray(customers.id, wanted))),
      db
        .select({ id: sql<string>`${loads.id}::text`, ...row(sql<string>`'LOAD'`, sql<string | null>`${loads.number}`) })
        .from(loads)
        .where(and(eq(loads.organizationId, orgId), inArray(loads.id, wanted))),
      db
        .select({ id: sql<string>`${invoices.id}::text`, ...row(sql<string>`'INVOICE'`, sql<string | null>`${invoices.number}`) })
        .from(invoices)
        .where(and(eq(invoices.organizationId, orgId), inArray(invoices.id, wanted))),
      db
        .select({ id: sql<string>`${deviceModels.id}::text`, ...row(sql<string>`'DEVICE_MODEL'`, sql<string | null>`${deviceModels.name}`) })
        .from(deviceModels)
        .where(inArray(deviceModels.id, wanted)),
      db
        .select({ id: sql<string>`${organizations.id}::text`, ...row(sql<string>`'ORGANIZATION'`, sql<string | null>`${organizations.name}`) })
        .from(organizations)
        .where(and(eq(organizations.id, orgId), inArray(organizations.id, wanted))),
    );
    for (const r of rows) found.set(r.id, { kind: r.kind as RecordKind, label: r.label ?? r.email ?? '', email: r.email });
  }
  const units = await unitsOf(db, orgId);
  return Object.assign((id: unknown) => (typeof id === 'string' ? found.get(id.toLowerCase()) : undefined), { units });
}
