// The soak's organizations, set up through the API as the super administrator would (the replay sets
// its copy up with the same calls): "Soak Freight" with one vehicle per device, a driver on every other
// pair of vehicles (automatic duty status then writes the driver's log; the others' driving is
// unidentified), a place at the stop of every other group of four, and its Traccar forwarding token;
// and "Soak Other Carrier", whose three devices send the poisoned fixes.
import { withVinCheckDigit } from '@fleet/api-contract/vin';
import type { Protocol } from './accounting.ts';
import { type ApiClient, inPool } from './api-client.ts';
import type { DeviceSpec } from './device.ts';
import { truckRoute } from './truck-motion.ts';

export const SOAK_ORG = 'Soak Freight';
export const OTHER_ORG = 'Soak Other Carrier';
const PROTOCOLS: readonly Protocol[] = ['osmand', 'teltonika', 'batch', 'traccar'];
/** Requests in flight at once while setting up (the server's own pace, not a load test). */
const SETUP_CONCURRENCY = 8;

export interface SoakFleet {
  orgId: string;
  /** The organization's Traccar forwarding token. */
  ingestToken: string;
  devices: DeviceSpec[];
  drivers: number;
  places: number;
}

/** The second organization's devices: each sends poisoned fixes its own way. */
export interface OtherOrg {
  orgId: string;
  ingestToken: string;
  osmandId: string;
  batchToken: string;
  traccarId: string;
}

export const unitOf = (i: number) => `S${String(i).padStart(4, '0')}`;
const uniqueIdOf = (i: number, protocol: Protocol) =>
  protocol === 'teltonika' ? `359${String(i).padStart(12, '0')}` : `soak-${protocol.slice(0, 3)}-${String(i).padStart(4, '0')}`;
const hasDriver = (i: number) => Math.floor(i / 2) % 2 === 0;
const hasPlace = (i: number) => Math.floor(i / 4) % 2 === 0;
const driverName = (i: number) => ({ firstName: 'Soak', lastName: `Driver ${String(i).padStart(4, '0')}` });

interface Page<T> {
  content: T[];
  totalPages: number;
}

async function allPages<T>(api: ApiClient, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 0; ; page++) {
    const p = await api.call<Page<T>>('GET', `${path}${path.includes('?') ? '&' : '?'}size=500&page=${page}`);
    out.push(...p.content);
    if (page + 1 >= p.totalPages) return out;
  }
}

async function createOrganization(api: ApiClient, name: string, adminEmail: string): Promise<string> {
  const created = await api.call<{ organization: { id: string } }>('POST', '/organizations', {
    name,
    timeZone: 'America/Chicago',
    country: 'US',
    admin: { email: adminEmail, firstName: 'Soak', lastName: 'Admin' },
  });
  return created.organization.id;
}

/** Creates a device and pairs it with the vehicle. */
async function deviceOnVehicle(api: ApiClient, orgId: string, uniqueId: string, assetId: string): Promise<{ gatewayId: string; token: string }> {
  const gw = await api.call<{ id: string; ingestToken: string }>('POST', `/organizations/${orgId}/gateways`, { uniqueId, name: `Soak device ${uniqueId}` });
  await api.call('POST', `/organizations/${orgId}/gateways/${gw.id}/pair/${assetId}`, {});
  return { gatewayId: gw.id, token: gw.ingestToken };
}

/** Sets up "Soak Freight" with `devices` devices for a traffic window of `runMs`. */
export async function setUpSoakFleet(api: ApiClient, opts: { devices: number; runMs: number; intervalMs: number }): Promise<SoakFleet> {
  const n = opts.devices;
  const orgId = await createOrganization(api, SOAK_ORG, 'soak-admin@soak.test');
  const indexes = Array.from({ length: n }, (_, i) => i);
  // Vehicles and drivers by CSV import: one request each, as a carrier moving from another system would.
  const vehiclesCsv = [
    'Unit number,VIN,Make,Model,Year',
    ...indexes.map((i) => `${unitOf(i)},${withVinCheckDigit(`1FUJGLDR0LL${String(i).padStart(6, '0')}`)},Freightliner,Cascadia,2022`),
  ].join('\n');
  await api.call('POST', `/organizations/${orgId}/imports/vehicles`, vehiclesCsv, { csv: true });
  const withDriver = indexes.filter(hasDriver);
  const driversCsv = [
    'First name,Last name,Licence number,Licence state',
    ...withDriver.map((i) => `${driverName(i).firstName},${driverName(i).lastName},SOAK${String(i).padStart(6, '0')},TX`),
  ].join('\n');
  if (withDriver.length) await api.call('POST', `/organizations/${orgId}/imports/drivers`, driversCsv, { csv: true });
  const vehicleIds = new Map(
    (await allPages<{ id: string; unitNumber: string }>(api, `/organizations/${orgId}/assets?type=VEHICLE`)).map((a) => [a.unitNumber, a.id]),
  );
  const driverIds = new Map((await allPages<{ id: string; lastName: string }>(api, `/organizations/${orgId}/drivers`)).map((d) => [d.lastName, d.id]));

  const devices = await inPool(indexes, SETUP_CONCURRENCY, async (i): Promise<DeviceSpec> => {
    const protocol = PROTOCOLS[i % PROTOCOLS.length]!;
    const uniqueId = uniqueIdOf(i, protocol);
    const assetId = vehicleIds.get(unitOf(i))!;
    const { token } = await deviceOnVehicle(api, orgId, uniqueId, assetId);
    if (hasDriver(i)) await api.call('PUT', `/organizations/${orgId}/assets/${assetId}/driver/${driverIds.get(driverName(i).lastName)!}`);
    const route = truckRoute(i, opts.runMs, hasPlace(i));
    if (route.place) {
      const p = route.place;
      await api.call('POST', `/organizations/${orgId}/places`, {
        name: p.name,
        category: 'CUSTOMER',
        geometry: { type: 'Point', coordinates: [p.center.lon, p.center.lat] },
        radiusMeters: p.radiusM,
        arrivalDwellSeconds: p.arrivalDwellS,
        departureDwellSeconds: p.departureDwellS,
      });
    }
    // Whole seconds, spread over the interval: the fleet's sends arrive evenly, not all at once.
    const offsetMs = Math.floor((i * opts.intervalMs) / n / 1000) * 1000;
    return { index: i, uniqueId, protocol, route, token, offsetMs };
  });
  const { token: ingestToken } = await api.call<{ token: string }>('POST', `/organizations/${orgId}/ingest-token`);
  return { orgId, ingestToken, devices, drivers: withDriver.length, places: devices.filter((d) => d.route.place).length };
}

/** "Soak Other Carrier": three devices on vehicles of their own, and its forwarding token. */
export async function setUpOtherOrg(api: ApiClient): Promise<OtherOrg> {
  const orgId = await createOrganization(api, OTHER_ORG, 'other-admin@soak.test');
  const ids = { osmand: 'poison-osmand', batch: 'poison-batch', traccar: 'poison-traccar' };
  const tokens: Record<string, string> = {};
  for (const [k, uniqueId] of Object.entries(ids)) {
    const unit = `P-${k}`;
    const vehicle = await api.call<{ id: string }>('POST', `/organizations/${orgId}/assets`, {
      type: 'VEHICLE',
      unitNumber: unit,
      vin: withVinCheckDigit(`1FUJGLDR0LLP0000${k.length}`),
    });
    tokens[k] = (await deviceOnVehicle(api, orgId, uniqueId, vehicle.id)).token;
  }
  const { token: ingestToken } = await api.call<{ token: string }>('POST', `/organizations/${orgId}/ingest-token`);
  return { orgId, ingestToken, osmandId: ids.osmand, batchToken: tokens.batch!, traccarId: ids.traccar };
}
