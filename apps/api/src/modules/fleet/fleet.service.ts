import { sql } from 'drizzle-orm';
import { DEVICE_OFFLINE_HOURS, type FleetOverview, type FleetSection, type Permission } from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { liveVehicles } from '../positions/index.ts';
import type { AuthContext, ReadScope } from '../auth/index.ts';

const ORG = '/settings/organization-settings';

/**
 * The fleet overview: vehicles, trailers, drivers and devices by status, and what is missing a link
 * (a vehicle without driver or device, a device not paired, a driver without vehicle). Counts of one
 * statement; each section only for a caller who may open its list. Every sub-select names the
 * organization (the inner ones too), so Citus routes the whole statement to one shard.
 */
export async function fleetOverview(s: ReadScope, caller: AuthContext): Promise<FleetOverview> {
  const { db, orgId } = s;
  const can = (p: Permission) => caller.permissions.has(p);
  const [c] = rowsOf<Record<string, number>>(
    await db.execute(sql`select
      (select count(*) from assets where organization_id = ${orgId} and type = 'VEHICLE')::int as vehicles,
      (select count(*) from assets where organization_id = ${orgId} and type = 'VEHICLE' and status = 'ACTIVE')::int as vehicles_active,
      (select count(*) from assets a where organization_id = ${orgId} and type = 'VEHICLE' and status = 'ACTIVE' and current_driver_id is null)::int as vehicles_no_driver,
      (select count(*) from assets a where organization_id = ${orgId} and type = 'VEHICLE' and status = 'ACTIVE' and not exists (select 1 from gateways g where g.organization_id = ${orgId} and g.asset_id = a.id))::int as vehicles_no_device,
      (select count(*) from assets where organization_id = ${orgId} and type = 'TRAILER')::int as trailers,
      (select count(*) from assets where organization_id = ${orgId} and type = 'TRAILER' and status = 'ACTIVE')::int as trailers_active,
      (select count(*) from assets t where organization_id = ${orgId} and type = 'TRAILER' and status = 'ACTIVE'
         and not exists (select 1 from trailer_attachments ta where ta.organization_id = ${orgId} and ta.trailer_id = t.id and ta.detached_at is null))::int as trailers_detached,
      (select count(*) from drivers where organization_id = ${orgId})::int as drivers,
      (select count(*) from drivers where organization_id = ${orgId} and status = 'ACTIVE')::int as drivers_active,
      (select count(*) from drivers d where organization_id = ${orgId} and status = 'ACTIVE' and not exists (select 1 from assets a where a.organization_id = ${orgId} and a.current_driver_id = d.id))::int as drivers_no_vehicle,
      (select count(*) from gateways where organization_id = ${orgId})::int as devices,
      (select count(*) from gateways where organization_id = ${orgId} and status = 'ACTIVE')::int as devices_active,
      (select count(*) from gateways where organization_id = ${orgId} and asset_id is null)::int as devices_unpaired,
      (select count(*) from gateways where organization_id = ${orgId} and last_seen_at < now() - make_interval(hours => ${DEVICE_OFFLINE_HOURS}))::int as devices_offline,
      (select count(*) from gateways where organization_id = ${orgId} and last_seen_at >= now() - make_interval(hours => ${DEVICE_OFFLINE_HOURS}))::int as devices_online,
      (select count(*) from gateways where organization_id = ${orgId} and last_seen_at is null)::int as devices_never`),
  );
  const n = (k: string) => Number(c?.[k] ?? 0);
  const sections: FleetSection[] = [];
  if (can('ASSET_LIST')) {
    const live = await liveVehicles({ db, orgId });
    const st = (x: string) => live.filter((v) => v.status === x).length;
    sections.push({
      key: 'vehicles',
      label: 'Vehicles',
      total: n('vehicles'),
      link: `${ORG}/vehicles`,
      byStatus: [
        { key: 'ACTIVE', label: 'Active', value: n('vehicles_active'), link: `${ORG}/vehicles?status=ACTIVE` },
        { key: 'INACTIVE', label: 'Inactive', value: n('vehicles') - n('vehicles_active'), link: `${ORG}/vehicles?status=INACTIVE` },
        { key: 'MOVING', label: 'Moving', value: st('MOVING'), link: '/map?status=MOVING' },
        { key: 'IDLING', label: 'Idling', value: st('IDLING'), link: '/map?status=IDLING' },
        { key: 'STOPPED', label: 'Stopped', value: st('STOPPED'), link: '/map?status=STOPPED' },
        { key: 'OFFLINE', label: 'Offline', value: st('OFFLINE'), link: '/map?status=OFFLINE' },
      ],
      unassigned: [
        { key: 'noDriver', label: 'Without driver', value: n('vehicles_no_driver'), link: null },
        { key: 'noDevice', label: 'Without device', value: n('vehicles_no_device'), link: null },
      ],
    });
    sections.push({
      key: 'trailers',
      label: 'Trailers',
      total: n('trailers'),
      link: `${ORG}/trailers`,
      byStatus: [
        { key: 'ACTIVE', label: 'Active', value: n('trailers_active'), link: `${ORG}/trailers?status=ACTIVE` },
        { key: 'INACTIVE', label: 'Inactive', value: n('trailers') - n('trailers_active'), link: `${ORG}/trailers?status=INACTIVE` },
      ],
      unassigned: [{ key: 'detached', label: 'Not attached', value: n('trailers_detached'), link: null }],
    });
  }
  if (can('DRIVER_LIST')) {
    sections.push({
      key: 'drivers',
      label: 'Drivers',
      total: n('drivers'),
      link: `${ORG}/all-drivers`,
      byStatus: [
        { key: 'ACTIVE', label: 'Active', value: n('drivers_active'), link: `${ORG}/all-drivers?status=ACTIVE` },
        { key: 'INACTIVE', label: 'Inactive', value: n('drivers') - n('drivers_active'), link: `${ORG}/all-drivers?status=INACTIVE` },
      ],
      unassigned: [{ key: 'noVehicle', label: 'Without vehicle', value: n('drivers_no_vehicle'), link: null }],
    });
  }
  if (can('GAT_LIST')) {
    sections.push({
      key: 'devices',
      label: 'Devices',
      total: n('devices'),
      link: `${ORG}/devices`,
      byStatus: [
        { key: 'ACTIVE', label: 'Active', value: n('devices_active'), link: `${ORG}/devices?status=ACTIVE` },
        { key: 'INACTIVE', label: 'Inactive', value: n('devices') - n('devices_active'), link: `${ORG}/devices?status=INACTIVE` },
        { key: 'ONLINE', label: `Reported in ${DEVICE_OFFLINE_HOURS} h`, value: n('devices_online'), link: `${ORG}/devices?offline=false` },
        { key: 'OFFLINE', label: `Offline over ${DEVICE_OFFLINE_HOURS} h`, value: n('devices_offline'), link: `${ORG}/devices?offline=true` },
        { key: 'NEVER', label: 'Never reported', value: n('devices_never'), link: null },
      ],
      unassigned: [{ key: 'unpaired', label: 'Not paired', value: n('devices_unpaired'), link: `${ORG}/devices?paired=false` }],
    });
  }
  const unassignedVehicles = can('ASSET_LIST')
    ? rowsOf<{ id: string; unit_number: string; no_driver: boolean; no_device: boolean }>(
        await db.execute(sql`select a.id, a.unit_number, a.current_driver_id is null as no_driver, not exists (select 1 from gateways g where g.organization_id = ${orgId} and g.asset_id = a.id) as no_device
          from assets a where a.organization_id = ${orgId} and a.type = 'VEHICLE' and a.status = 'ACTIVE'
            and (a.current_driver_id is null or not exists (select 1 from gateways g where g.organization_id = ${orgId} and g.asset_id = a.id))
          order by a.unit_number limit 50`),
      ).map((r) => ({
        id: r.id,
        unitNumber: r.unit_number,
        missing: [...(r.no_driver ? (['driver'] as const) : []), ...(r.no_device ? (['device'] as const) : [])],
      }))
    : [];
  const unpairedDevices = can('GAT_LIST')
    ? rowsOf<{ id: string; name: string; unique_id: string; last_seen_at: string | Date | null }>(
        await db.execute(
          sql`select id, name, unique_id, last_seen_at from gateways where organization_id = ${orgId} and asset_id is null order by name limit 50`,
        ),
      ).map((r) => ({ id: r.id, name: r.name, uniqueId: r.unique_id, lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null }))
    : [];
  return { sections, unassignedVehicles, unpairedDevices };
}
