import { and, eq, inArray } from 'drizzle-orm';
import { KM_PER_MILE, M_PER_FOOT, withVinCheckDigit } from '@fleet/api-contract';
import type { Db, Tx } from '../db/client.ts';
import {
  assetDriverAssignments,
  assets,
  deviceModels,
  drivers,
  gatewayPairings,
  gateways,
  groupAssets,
  groupMembers,
  groups,
  trailerAttachments,
  users,
} from '../db/schema/index.ts';
import { sha256 } from '../modules/auth/crypto.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivityBatch, type ActivityEntry } from '../modules/activity-log/activity-log.service.ts';
import { putDeviceIds } from '../modules/gateways/device-ids.ts';

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

/**
 * Demo trucks with a Teltonika FMC650 and its CAN/J1939 adapter instead of a phone (decision 0156):
 * they report ignition, the engine's total distance and hours, rpm and the VIN over the Teltonika
 * TCP protocol, so the demo's ELD records and file carry engine data. `index` is the truck plan
 * (demo-truck-NN, tractor 100 + NN): spread over both regions, one of them a signed-in demo driver's
 * (103). The device's unique id is its IMEI.
 */
export const DEMO_ENGINE_TRUCKS: ReadonlyArray<{ index: number; imei: string }> = [3, 8, 10, 16, 22].map((index) => ({ index, imei: demoImei(index) }));

export const TELTONIKA_MODEL = {
  name: 'Teltonika FMC650 (CAN/J1939)',
  manufacturer: 'Teltonika',
  protocol: 'teltonika',
  notes: 'LTE tracker with CAN and J1939 inputs; codec 8 Extended over TCP',
} as const;

/** A 15-digit IMEI: an FMC650-like type allocation code, a serial, and the Luhn check digit. */
function demoImei(index: number): string {
  const body = `86031706${String(418_200 + index * 37)}`;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = Number(body[i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * Unique ids the telematics simulator drives, paired with 101 … 125: demo-truck-01 … demo-truck-25,
 * the Teltonika trucks' IMEIs in their places.
 */
export const DEMO_DEVICE_IDS = Array.from(
  { length: 25 },
  (_, i) => DEMO_ENGINE_TRUCKS.find((e) => e.index === i + 1)?.imei ?? `demo-truck-${String(i + 1).padStart(2, '0')}`,
);

/** The demo devices' batch-ingest token (demo data only, so the simulator can post batches). */
export const demoIngestToken = (uniqueId: string) => `demo-ingest-${uniqueId}`;

// Power units: make, model, the first 8 VIN characters (manufacturer identifier and descriptor).
const TRACTORS = [
  ['Freightliner', 'Cascadia 126', '3AKJHHDR'],
  ['Kenworth', 'T680', '1XKYD49X'],
  ['Peterbilt', '579', '1XPBD49X'],
  ['Volvo', 'VNL 860', '4V4NC9EH'],
  ['International', 'LT625', '3HSDZAPR'],
  ['Mack', 'Anthem 64T', '1M1AN4GY'],
] as const;
const YEAR_CODE: Record<number, string> = { 2019: 'K', 2020: 'L', 2021: 'M', 2022: 'N', 2023: 'P', 2024: 'R', 2025: 'S' };
const PLATE_STATES = ['IL', 'IN', 'OH', 'TX', 'GA', 'TN', 'CO', 'CA', 'AZ', 'PA'];

const DRIVERS = [
  ['James', 'Carter', 'IL'],
  ['Maria', 'Lopez', 'IL'],
  ['Robert', 'Nguyen', 'IN'],
  ['Linda', 'Johnson', 'OH'],
  ['Michael', 'Brown', 'IL'],
  ['Patricia', 'Davis', 'GA'],
  ['David', 'Wilson', 'GA'],
  ['Jennifer', 'Martinez', 'TX'],
  ['William', 'Anderson', 'TX'],
  ['Elizabeth', 'Thomas', 'TN'],
  ['Richard', 'Taylor', 'OH'],
  ['Susan', 'Moore', 'PA'],
  ['Joseph', 'Jackson', 'CO'],
  ['Jessica', 'White', 'CO'],
  ['Thomas', 'Harris', 'AZ'],
  ['Sarah', 'Martin', 'CA'],
  ['Charles', 'Thompson', 'CA'],
  ['Karen', 'Garcia', 'TX'],
  ['Daniel', 'Robinson', 'CA'],
  ['Nancy', 'Clark', 'AZ'],
  ['Matthew', 'Rodriguez', 'TX'],
  ['Lisa', 'Lewis', 'CO'],
  ['Anthony', 'Lee', 'CA'],
  ['Betty', 'Walker', 'CA'],
  ['Mark', 'Hall', 'CO'],
] as const;
/** Home terminals by licence state: the first 12 trucks run east, the rest west. */
const ZONE: Record<string, string> = {
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  OH: 'America/New_York',
  GA: 'America/New_York',
  TN: 'America/Chicago',
  PA: 'America/New_York',
  TX: 'America/Chicago',
  CO: 'America/Denver',
  AZ: 'America/Phoenix',
  CA: 'America/Los_Angeles',
};

const TRAILERS = [
  ['Utility', '3000R', 'REEFER', '1UYVS2530'],
  ['Great Dane', 'Champion', 'DRY_VAN', '1GRAA0622'],
  ['Wabash', 'DuraPlate', 'DRY_VAN', '1JJV532D0'],
  ['Hyundai Translead', 'HT3000', 'REEFER', '3H3V532C0'],
  ['Fontaine', 'Infinity', 'FLATBED', '13N148200'],
  ['Wabash', 'DuraPlate', 'DRY_VAN', '1JJV532D0'],
  ['Utility', '4000D-X', 'DRY_VAN', '1UYVS2530'],
  ['Great Dane', 'Everest', 'REEFER', '1GRAA0622'],
  ['Heil', 'DOT 406', 'TANKER', '5HTAA4227'],
  ['Stoughton', 'Z-Plate', 'DRY_VAN', '1DW1A5322'],
  ['Utility', '3000R', 'REEFER', '1UYVS2530'],
  ['Fontaine', 'Revolution', 'FLATBED', '13N148200'],
] as const;

function vin(prefix8: string, year: number, serial: number): string {
  return withVinCheckDigit(`${prefix8}0${YEAR_CODE[year] ?? 'N'}A${String(100000 + serial).slice(-6)}`);
}

/**
 * The "Demo Freight" fleet: 25 tractors (101-125) with drivers and paired devices, 12 trailers
 * (8 attached), two regional groups. All in one transaction, skipped when unit 101 exists.
 */
export async function ensureDemoFleet(db: Db, orgId: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.unitNumber, '101')));
  if (existing) return false;
  await db.transaction(async (tx) => {
    const log: ActivityEntry[] = [];
    const now = Date.now();
    const daysAgo = (d: number) => new Date(now - d * 86_400_000);

    let [model] = await tx.select().from(deviceModels).where(eq(deviceModels.name, 'Traccar Client (OsmAnd)'));
    if (!model) {
      [model] = await tx
        .insert(deviceModels)
        .values({ name: 'Traccar Client (OsmAnd)', manufacturer: 'Traccar', protocol: 'osmand', notes: 'Phone app sending the OsmAnd HTTP protocol' })
        .returning();
      log.push({ orgId: null, actor: SYSTEM, action: 'CREATE', entityType: 'DEVICE_MODEL', entityId: model?.id, after: model });
    }

    const driverRows = await tx
      .insert(drivers)
      .values(
        DRIVERS.map(([firstName, lastName, state], i) => ({
          organizationId: orgId,
          firstName,
          lastName,
          email: `${firstName}.${lastName}@demofreight.test`.toLowerCase(),
          phone: `+1 312 555 ${String(1100 + i * 7).slice(-4)}`,
          employeeId: `DF-${1001 + i}`,
          licenseNumber: `${lastName.slice(0, 1)}${String(52_318_000 + i * 7919).slice(0, 8)}`,
          licenseState: state,
          licenseClass: 'A',
          licenseExpiry: `${2027 + (i % 4)}-${String((i % 12) + 1).padStart(2, '0')}-28`,
          homeTimeZone: ZONE[state] ?? 'America/Chicago',
          ruleset: i % 9 === 4 ? 'US_PROPERTY_60_7' : i === 7 ? 'TX_INTRASTATE' : 'US_PROPERTY_70_8',
          shortHaul150: i % 6 === 5,
          personalConveyanceAllowed: true,
          yardMovesAllowed: i % 3 !== 2,
        })),
      )
      .returning();

    const tractors = await tx
      .insert(assets)
      .values(
        Array.from({ length: 25 }, (_, i) => {
          const [make, modelName, prefix] = TRACTORS[i % TRACTORS.length] as (typeof TRACTORS)[number];
          const year = 2019 + (i % 7);
          return {
            organizationId: orgId,
            type: 'VEHICLE' as const,
            unitNumber: String(101 + i),
            vin: vin(prefix, year, 40_000 + i * 137),
            make,
            model: modelName,
            year,
            plate: `P${String(734_210 + i * 389).slice(-6)}`,
            plateState: PLATE_STATES[i % PLATE_STATES.length] ?? 'IL',
            fuelType: 'DIESEL',
            iftaQualified: true,
            odometerM: Math.round((95_000 + ((i * 48_311) % 520_000)) * KM_PER_MILE * 1000),
            currentDriverId: driverRows[i]?.id ?? null,
          };
        }),
      )
      .returning();

    const trailerRows = await tx
      .insert(assets)
      .values(
        TRAILERS.map(([make, modelName, trailerType, prefix], i) => ({
          organizationId: orgId,
          type: 'TRAILER' as const,
          unitNumber: `T-${501 + i}`,
          vin: withVinCheckDigit(`${prefix.slice(0, 8)}0${YEAR_CODE[2018 + (i % 7)] ?? 'L'}B${String(200000 + i * 71).slice(-6)}`),
          make,
          model: modelName,
          year: 2018 + (i % 7),
          trailerType,
          lengthM: Math.round((trailerType === 'FLATBED' ? 48 : trailerType === 'TANKER' ? 42 : 53) * M_PER_FOOT * 100) / 100,
          plate: `TR${String(44_100 + i * 17)}`,
          plateState: i < 6 ? 'IN' : 'CA',
          iftaQualified: false,
        })),
      )
      .returning();

    const teltonika = await ensureTeltonikaModel(tx, log);
    const deviceRows = await tx
      .insert(gateways)
      .values(
        DEMO_DEVICE_IDS.map((uniqueId, i) => ({
          organizationId: orgId,
          uniqueId,
          phone: `+1 773 555 ${String(2200 + i).slice(-4)}`,
          assetId: tractors[i]?.id ?? null,
          ...(uniqueId.startsWith('demo-truck-')
            ? {
                name: `Truck ${101 + i} tracker`,
                deviceModelId: model?.id ?? null,
                firmware: 'Traccar Client 9.5',
                ingestTokenHash: sha256(demoIngestToken(uniqueId)),
              }
            : engineDevice(101 + i, teltonika.id)),
        })),
      )
      .returning();
    await putDeviceIds(tx, deviceRows);

    await tx
      .insert(gatewayPairings)
      .values(deviceRows.map((g) => ({ organizationId: orgId, gatewayId: g.id, assetId: g.assetId as string, pairedAt: daysAgo(60) })));
    await tx
      .insert(assetDriverAssignments)
      .values(tractors.map((t, i) => ({ organizationId: orgId, assetId: t.id, driverId: driverRows[i]?.id as string, startedAt: daysAgo(30 - (i % 20)) })));
    // Eight trailers hooked to trucks 101-108; the other four wait in the yard.
    await tx
      .insert(trailerAttachments)
      .values(
        trailerRows.slice(0, 8).map((tr, i) => ({ organizationId: orgId, vehicleId: tractors[i]?.id as string, trailerId: tr.id, attachedAt: daysAgo(2 + i) })),
      );

    const [east, west] = await tx
      .insert(groups)
      .values([
        { organizationId: orgId, name: 'East region', description: 'Chicago, Indianapolis, Columbus and Atlanta terminals' },
        { organizationId: orgId, name: 'West region', description: 'Dallas, Denver, Phoenix and Los Angeles terminals' },
      ])
      .returning();
    if (!east || !west) throw new Error('demo groups were not created');
    const regionOf = (i: number) => (i < 12 ? east.id : west.id);
    await tx
      .insert(groupAssets)
      .values([
        ...tractors.map((t, i) => ({ groupId: regionOf(i), organizationId: orgId, assetId: t.id })),
        ...trailerRows.map((t, i) => ({ groupId: i < 6 ? east.id : west.id, organizationId: orgId, assetId: t.id })),
      ]);
    const orgUsers = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.organizationId, orgId));
    await tx.insert(groupMembers).values([
      ...driverRows.map((d, i) => ({ groupId: regionOf(i), organizationId: orgId, memberType: 'DRIVER' as const, memberId: d.id })),
      // The dispatcher works the east desk.
      ...orgUsers.filter((u) => u.role === 'USER').map((u) => ({ groupId: east.id, organizationId: orgId, memberType: 'USER' as const, memberId: u.id })),
    ]);

    for (const a of [...tractors, ...trailerRows]) log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'ASSET', entityId: a.id, after: a });
    for (const d of driverRows) log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'DRIVER', entityId: d.id, after: d });
    for (const g of deviceRows)
      log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'GATEWAY', entityId: g.id, after: { ...g, ingestTokenHash: undefined } });
    for (const [i, t] of tractors.entries()) {
      log.push({ orgId, actor: SYSTEM, action: 'ASSIGN_DRIVER', entityType: 'ASSET', entityId: t.id, after: { driverId: driverRows[i]?.id } });
      log.push({ orgId, actor: SYSTEM, action: 'PAIR_DEVICE', entityType: 'ASSET', entityId: t.id, after: { gatewayId: deviceRows[i]?.id } });
    }
    for (const g of [east, west]) log.push({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'GROUP', entityId: g.id, after: g });
    await recordActivityBatch(tx, log);
  });
  return true;
}

/** The registry's Teltonika model (the default IO map: an empty one), created once. */
async function ensureTeltonikaModel(tx: Tx, log: ActivityEntry[]): Promise<{ id: string }> {
  const [found] = await tx.select({ id: deviceModels.id }).from(deviceModels).where(eq(deviceModels.name, TELTONIKA_MODEL.name));
  if (found) return found;
  const [model] = await tx
    .insert(deviceModels)
    .values({ ...TELTONIKA_MODEL, ioMap: {} })
    .returning();
  if (!model) throw new Error('the Teltonika device model was not created');
  log.push({ orgId: null, actor: SYSTEM, action: 'CREATE', entityType: 'DEVICE_MODEL', entityId: model.id, after: model });
  return model;
}

/** A Teltonika gateway's registry fields (no batch-ingest token: it talks TCP). */
const engineDevice = (unit: number, deviceModelId: string) => ({
  name: `Truck ${unit} FMC650`,
  deviceModelId,
  firmware: '03.28.07.Rev.00',
  ingestTokenHash: null,
});

/**
 * A demo fleet seeded before the Teltonika trucks existed: their phones become FMC650s (the same
 * gateway, its unique id now the IMEI), so the next start backfills engine data from there on.
 * Nothing to do on a fresh or an upgraded database. Returns the devices changed.
 */
export async function ensureDemoEngineTrucks(db: Db, orgId: string): Promise<number> {
  const phones = DEMO_ENGINE_TRUCKS.map((e) => ({ ...e, phone: `demo-truck-${String(e.index).padStart(2, '0')}` }));
  const existing = await db
    .select({ id: gateways.id, uniqueId: gateways.uniqueId })
    .from(gateways)
    .where(
      and(
        eq(gateways.organizationId, orgId),
        inArray(
          gateways.uniqueId,
          phones.map((p) => p.phone),
        ),
      ),
    );
  if (existing.length === 0) return 0;
  return db.transaction(async (tx) => {
    const log: ActivityEntry[] = [];
    const model = await ensureTeltonikaModel(tx, log);
    for (const g of existing) {
      const truck = phones.find((p) => p.phone === g.uniqueId)!;
      const [before] = await tx.select().from(gateways).where(eq(gateways.id, g.id));
      const [after] = await tx
        .update(gateways)
        .set({ uniqueId: truck.imei, ...engineDevice(100 + truck.index, model.id) })
        .where(eq(gateways.id, g.id))
        .returning();
      if (after) await putDeviceIds(tx, [after]);
      log.push({
        orgId,
        actor: SYSTEM,
        action: 'UPDATE',
        entityType: 'GATEWAY',
        entityId: g.id,
        before: { ...before, ingestTokenHash: undefined },
        after: { ...after, ingestTokenHash: undefined },
      });
    }
    await recordActivityBatch(tx, log);
    return existing.length;
  });
}
