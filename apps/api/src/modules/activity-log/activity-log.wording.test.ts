import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_SETTINGS, RETENTION_KINDS } from '@fleet/api-contract';
import {
  assets,
  customers,
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
  users,
  workOrders,
} from '../../db/schema/index.ts';
import {
  ACTIONS,
  actorLabel,
  describeActivity,
  ENTITY_TYPES,
  fieldLabel,
  formatValue,
  hasFieldLabel,
  labelledChanges,
  referencedIds,
  type ActivityFacts,
  type LinkedRecord,
  type Lookup,
} from './activity-log.wording.ts';

// ---------------------------------------------------------------- what the code writes

const SRC = path.resolve(import.meta.dirname, '../..');
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}
/** Files that write the log: they call recordActivity, recordActivityBatch or insertWithActivity, or build ActivityEntry rows. */
const writers = sourceFiles(SRC)
  .map((file) => ({ file, code: fs.readFileSync(file, 'utf8') }))
  .filter(
    ({ file, code }) =>
      !path.relative(SRC, file).startsWith(path.join('modules', 'activity-log')) && /recordActivity|insertWithActivity|ActivityEntry/.test(code),
  );

/** Upper-case literals a property is set to, including both arms of a ternary (`data ? 'A' : 'B'`). */
function literalsOf(code: string, property: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(new RegExp(`\\b${property}:\\s*([^,\\n}]+)`, 'g'))) {
    // A literal compared against (`purpose === 'INVITE' ?`) is a condition, not a value: only literals
    // at the start or after `?` / `:` are what the property is set to.
    for (const lit of (m[1] ?? '').matchAll(/(?:^|[?:])\s*'([A-Z][A-Z_]*)'/g)) out.add(lit[1] ?? '');
  }
  return out;
}
const codeActions = new Set(writers.flatMap(({ code }) => [...literalsOf(code, 'action')]));
// Entity types also come in [type, id] pairs (pairing logs the device and the vehicle).
const codeEntityTypes = new Set(
  writers.flatMap(({ code }) => [...literalsOf(code, 'entityType'), ...[...code.matchAll(/\[\s*'([A-Z][A-Z_]*)'\s*,\s*[a-z]/g)].map((m) => m[1] ?? '')]),
);

describe('wording covers the code', () => {
  it('finds the writers of the log and the codes they write', () => {
    expect(writers.length).toBeGreaterThan(10);
    expect([...codeActions]).toEqual(
      expect.arrayContaining(['CREATE', 'UPDATE', 'ASSIGN_DRIVER', 'PAIR_DEVICE', 'PURGE', 'IMPORT', 'ACCEPT_INVITATION', 'DELETE_IMAGE']),
    );
    expect(codeActions.has('INVITATION')).toBe(false);
    expect([...codeEntityTypes]).toEqual(expect.arrayContaining(['ASSET', 'GATEWAY', 'DATA_RETENTION']));
  });

  it('has a sentence and a label for every action code the API writes', () => {
    const missing = [...codeActions].filter((a) => !ACTIONS[a]);
    expect(missing, 'add these actions to ACTIONS in activity-log.wording.ts').toEqual([]);
  });

  it('names every entity type the API writes', () => {
    const missing = [...codeEntityTypes].filter((t) => !ENTITY_TYPES[t]);
    expect(missing, 'add these entity types to ENTITY_TYPES in activity-log.wording.ts').toEqual([]);
  });

  it('labels every stored column of every logged record, every retention kind and every organization setting', () => {
    const tables: Array<[string, PgTable]> = [
      ['ASSET', assets],
      ['DRIVER', drivers],
      ['GATEWAY', gateways],
      ['USER', users],
      ['ROLE', roles],
      ['GROUP', groups],
      ['ORGANIZATION', organizations],
      ['DEVICE_MODEL', deviceModels],
      ['WORK_ORDER', workOrders],
      ['MAINTENANCE_SCHEDULE', maintenanceSchedules],
      ['PLACE', places],
      ['LOAD', loads],
      ['CUSTOMER', customers],
      ['INVOICE', invoices],
    ];
    const unlabelled = tables.flatMap(([type, table]) =>
      Object.keys(getTableColumns(table))
        .filter((c) => !hasFieldLabel(type, c))
        .map((c) => `${type}.${c}`),
    );
    const settings = Object.entries(DEFAULT_ORGANIZATION_SETTINGS).flatMap(([k, v]) => [k, ...(typeof v === 'object' ? Object.keys(v) : [])]);
    unlabelled.push(...settings.filter((k) => !hasFieldLabel('ORGANIZATION', k)).map((k) => `settings.${k}`));
    unlabelled.push(...RETENTION_KINDS.filter((k) => !hasFieldLabel('DATA_RETENTION', k)));
    expect(unlabelled).toEqual([]);
    expect(fieldLabel('GATEWAY', 'gatewayId')).toBe('Device');
    expect(fieldLabel('ASSET', 'odometerM')).toBe('Odometer');
    expect(fieldLabel('ASSET', 'currentDriverId')).toBe('Current driver');
    expect(fieldLabel('ASSET', 'someNewColumn')).toBe('Some new column');
  });

  it("writes stored metric values and the units in labels in the organization's system", () => {
    const imperial: Lookup = Object.assign(() => undefined, { units: 'IMPERIAL' as const });
    const metric: Lookup = Object.assign(() => undefined, { units: 'METRIC' as const });
    expect(formatValue('ASSET', 'odometerM', 160_934_400, {}, imperial)).toBe('100,000 mi');
    expect(formatValue('ASSET', 'odometerM', 160_934_400, {}, metric)).toBe('160,934.4 km');
    expect(formatValue('ASSET', 'lengthM', 16.1544, {}, imperial)).toBe('53 ft');
    expect(formatValue('ASSET', 'lengthM', 16.1544, {}, metric)).toBe('16.15 m');
    expect(formatValue('ORGANIZATION', 'speedLimitKmh', 105, {}, imperial)).toBe('65 mph');
    expect(formatValue('ORGANIZATION', 'speedLimitKmh', 105, {}, metric)).toBe('105 km/h');
    expect(fieldLabel('ORGANIZATION', 'speedLimitKmh', 'IMPERIAL')).toBe('Speeding above (mph)');
    expect(fieldLabel('ORGANIZATION', 'speedLimitKmh', 'METRIC')).toBe('Speeding above (km/h)');
    expect(formatValue('MAINTENANCE_SCHEDULE', 'everyM', 40_233_600, {}, imperial)).toBe('25,000 mi');
    expect(formatValue('WORK_ORDER', 'costCents', 123456, {}, imperial)).toBe('1,234.56');
    expect(formatValue('WORK_ORDER', 'defectIds', ['a', 'b'], {}, imperial)).toBe('2 defects');
    const telematics = formatValue('ORGANIZATION', 'telematics', { idleMinutes: 5, speedLimitKmh: 113 }, {}, imperial);
    expect(telematics).toBe('Idle after (minutes): 5; Speeding above (mph): 70 mph');
  });
});

// ---------------------------------------------------------------- sentences

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const V117 = id(117);
const V107 = id(107);
const V110 = id(110);
const T204 = id(204);
const LUIS = id(1);
const MARIA = id(2);
const DEV07 = id(7);
const DANA = id(10);
const MARCO = id(11);
const AUDITOR = id(20);
const EAST = id(30);
const ORG = id(40);
const MODEL = id(50);
const GONE = id(999);
const ON_FILE: Record<string, LinkedRecord> = {
  [V117]: { kind: 'VEHICLE', label: '117' },
  [V107]: { kind: 'VEHICLE', label: '107' },
  [V110]: { kind: 'VEHICLE', label: '110' },
  [T204]: { kind: 'TRAILER', label: 'T-204' },
  [LUIS]: { kind: 'DRIVER', label: 'Luis Ortiz' },
  [MARIA]: { kind: 'DRIVER', label: 'Maria Lopez' },
  [DEV07]: { kind: 'DEVICE', label: 'demo-truck-07' },
  [DANA]: { kind: 'USER', label: 'Dana Reyes', email: 'dana@demofreight.test' },
  [MARCO]: { kind: 'USER', label: 'Marco Reyes', email: 'marco@demofreight.test' },
  [AUDITOR]: { kind: 'ROLE', label: 'Auditor' },
  [EAST]: { kind: 'GROUP', label: 'East region' },
  [ORG]: { kind: 'ORGANIZATION', label: 'Demo Freight' },
  [MODEL]: { kind: 'DEVICE_MODEL', label: 'Traccar Client' },
  [id(70)]: { kind: 'WORK_ORDER', label: 'Replace brake pads' },
  [id(72)]: { kind: 'MAINTENANCE_SCHEDULE', label: 'Oil change' },
  [id(74)]: { kind: 'LOAD', label: 'L-1001' },
  [id(90)]: { kind: 'INVOICE', label: 'INV-1001' },
  [id(76)]: { kind: 'SETTLEMENT', label: 'S-1001' },
};
const lookup: Lookup = (x) => (typeof x === 'string' ? ON_FILE[x] : undefined);

type Row = [action: string, entityType: string, entityId: string | null, before: unknown, after: unknown, expected: string, actor?: string];
const facts = ([action, entityType, entityId, before, after, , actor = DANA]: Row): ActivityFacts => ({
  action,
  entityType,
  entityId,
  actorUserId: actor === 'SYSTEM' ? null : actor,
  actorLabel: actor === 'SYSTEM' ? 'System' : (ON_FILE[actor]?.label ?? '?'),
  before,
  after,
});

const vehicleRow = { id: V117, type: 'VEHICLE', unitNumber: '117', odometerM: 1_000_000, notes: null, status: 'ACTIVE' };
const driverRow = { id: MARIA, firstName: 'Maria', lastName: 'Lopez', ruleset: 'US_PROPERTY_70_8', status: 'ACTIVE' };
const deviceRow = { id: DEV07, uniqueId: 'demo-truck-07', name: 'Truck 107 tracker', firmware: '9.4', assetId: null };
const marcoRow = { id: MARCO, firstName: 'Marco', lastName: 'Reyes', email: 'marco@demofreight.test', position: 'Dispatcher' };

/** Every action with every entity type it is written for, as a sentence (snapshots shaped as the services write them). */
const SENTENCES: Row[] = [
  ['CREATE', 'ASSET', V117, undefined, vehicleRow, 'Dana Reyes created vehicle 117'],
  ['CREATE', 'DRIVER', MARIA, undefined, driverRow, 'Dana Reyes created driver Maria Lopez'],
  ['CREATE', 'GATEWAY', DEV07, undefined, deviceRow, 'Dana Reyes created device demo-truck-07'],
  ['CREATE', 'USER', MARCO, undefined, marcoRow, 'Dana Reyes created user Marco Reyes'],
  ['CREATE', 'ROLE', AUDITOR, undefined, { name: 'Auditor', permissions: [] }, 'Dana Reyes created role Auditor'],
  ['CREATE', 'GROUP', EAST, undefined, { name: 'East region' }, 'Dana Reyes created group East region'],
  ['CREATE', 'ORGANIZATION', ORG, undefined, { name: 'Demo Freight' }, 'Dana Reyes created organization Demo Freight'],
  ['CREATE', 'DEVICE_MODEL', MODEL, undefined, { name: 'Traccar Client' }, 'System created device model Traccar Client', 'SYSTEM'],
  [
    'UPDATE',
    'ASSET',
    V117,
    { ...vehicleRow, updatedAt: 'a' },
    { ...vehicleRow, odometerM: 1_200_000, notes: 'New tyres', updatedAt: 'b' },
    'Dana Reyes changed vehicle 117: Odometer, Notes',
  ],
  ['UPDATE', 'ASSET', V117, vehicleRow, vehicleRow, 'Dana Reyes saved vehicle 117 without changes'],
  ['UPDATE', 'DRIVER', MARIA, driverRow, { ...driverRow, ruleset: 'US_PROPERTY_60_7' }, 'Dana Reyes changed driver Maria Lopez: HoS ruleset'],
  ['UPDATE', 'GATEWAY', DEV07, deviceRow, { ...deviceRow, firmware: '9.5' }, 'Dana Reyes changed device demo-truck-07: Firmware'],
  ['UPDATE', 'USER', MARCO, marcoRow, { ...marcoRow, position: 'Senior dispatcher' }, 'Dana Reyes changed user Marco Reyes: Position'],
  ['UPDATE', 'USER', MARCO, marcoRow, { ...marcoRow, position: 'Senior dispatcher' }, 'Marco Reyes changed their profile: Position', MARCO],
  [
    'UPDATE',
    'ROLE',
    AUDITOR,
    { name: 'Auditor', permissions: ['USER_LIST'] },
    { name: 'Auditor', permissions: [] },
    'Dana Reyes changed role Auditor: Permissions',
  ],
  [
    'UPDATE',
    'GROUP',
    EAST,
    { name: 'East region', description: null },
    { name: 'East region', description: 'Chicago' },
    'Dana Reyes changed group East region: Description',
  ],
  [
    'UPDATE',
    'ORGANIZATION',
    ORG,
    { name: 'Demo Freight', phone: null, dotNumber: null },
    { name: 'Demo Freight', phone: '+1 312', dotNumber: '123' },
    'Dana Reyes changed organization Demo Freight: Phone, USDOT number',
  ],
  [
    'UPDATE',
    'DATA_RETENTION',
    ORG,
    { POSITIONS: 400, HOS_RECORDS: 400 },
    { POSITIONS: 200, HOS_RECORDS: 400 },
    'Dana Reyes changed the data retention periods: Vehicle positions',
  ],
  [
    'UPDATE',
    'DEVICE_MODEL',
    MODEL,
    { name: 'Traccar Client', manufacturer: null },
    { name: 'Traccar Client', manufacturer: 'Traccar' },
    'Dana Reyes changed device model Traccar Client: Manufacturer',
  ],
  ['DELETE', 'ASSET', T204, { id: T204, type: 'TRAILER', unitNumber: 'T-204' }, undefined, 'Dana Reyes deleted trailer T-204'],
  ['DELETE', 'DRIVER', GONE, { firstName: 'Ann', lastName: 'Lee' }, undefined, 'Dana Reyes deleted driver Ann Lee'],
  ['DELETE', 'GATEWAY', GONE, { uniqueId: 'spare-01', name: 'Spare' }, undefined, 'Dana Reyes deleted device spare-01'],
  ['DELETE', 'ROLE', GONE, { name: 'Night shift' }, undefined, 'Dana Reyes deleted role Night shift'],
  ['DELETE', 'GROUP', GONE, { name: 'Yard' }, undefined, 'Dana Reyes deleted group Yard'],
  ['DELETE', 'DEVICE_MODEL', GONE, { name: 'Old tracker' }, undefined, 'Dana Reyes deleted device model Old tracker'],
  ['DEACTIVATE', 'ASSET', V117, vehicleRow, { ...vehicleRow, status: 'INACTIVE' }, 'Dana Reyes deactivated vehicle 117'],
  ['DEACTIVATE', 'DRIVER', MARIA, driverRow, { status: 'INACTIVE' }, 'Dana Reyes deactivated driver Maria Lopez'],
  ['DEACTIVATE', 'GATEWAY', DEV07, deviceRow, { status: 'INACTIVE' }, 'Dana Reyes deactivated device demo-truck-07'],
  ['DEACTIVATE', 'USER', MARCO, { status: 'ACTIVE' }, { status: 'INACTIVE' }, 'Dana Reyes deactivated user Marco Reyes'],
  ['DEACTIVATE', 'ORGANIZATION', ORG, { status: 'ACTIVE' }, { status: 'INACTIVE' }, 'Dana Reyes deactivated organization Demo Freight'],
  ['ACTIVATE', 'USER', MARCO, { status: 'INACTIVE' }, { status: 'ACTIVE' }, 'Dana Reyes reactivated user Marco Reyes'],
  ['ACTIVATE', 'ORGANIZATION', ORG, { status: 'INACTIVE' }, { status: 'ACTIVE' }, 'Dana Reyes reactivated organization Demo Freight'],
  ['IMPORT', 'ASSET', V117, undefined, { type: 'VEHICLE', unitNumber: '117' }, 'Dana Reyes imported vehicle 117 from a CSV file'],
  ['IMPORT', 'DRIVER', MARIA, undefined, { firstName: 'Maria', lastName: 'Lopez' }, 'Dana Reyes imported driver Maria Lopez from a CSV file'],
  [
    'ASSIGN_DRIVER',
    'ASSET',
    V117,
    { driverId: null, driverPreviousVehicleId: null },
    { driverId: LUIS, driverName: 'Luis Ortiz', unitNumber: '117' },
    'Dana Reyes assigned driver Luis Ortiz to vehicle 117',
  ],
  ['ASSIGN_DRIVER', 'ASSET', V117, undefined, { driverId: LUIS }, 'System assigned driver Luis Ortiz to vehicle 117', 'SYSTEM'],
  [
    'ASSIGN_DRIVER',
    'ASSET',
    V117,
    { driverId: null, driverPreviousVehicleId: V110 },
    { driverId: LUIS, driverName: 'Luis Ortiz', unitNumber: '117' },
    'Dana Reyes assigned driver Luis Ortiz to vehicle 117 (moved from vehicle 110)',
  ],
  ['UNASSIGN_DRIVER', 'ASSET', V117, { driverId: LUIS }, { driverId: null }, 'Dana Reyes removed driver Luis Ortiz from vehicle 117'],
  [
    'ATTACH_TRAILER',
    'ASSET',
    V117,
    null,
    { vehicleId: V117, vehicleUnit: '117', trailerId: T204, trailerUnit: 'T-204' },
    'Dana Reyes attached trailer T-204 to vehicle 117',
  ],
  [
    'ATTACH_TRAILER',
    'ASSET',
    T204,
    { vehicleId: V110 },
    { vehicleId: V117, vehicleUnit: '117', trailerId: T204, trailerUnit: 'T-204' },
    'Dana Reyes attached trailer T-204 to vehicle 117 (moved from vehicle 110)',
  ],
  ['DETACH_TRAILER', 'ASSET', T204, { vehicleId: V117, trailerId: T204 }, null, 'Dana Reyes detached trailer T-204 from vehicle 117'],
  [
    'PAIR_DEVICE',
    'GATEWAY',
    DEV07,
    { assetId: null },
    { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107, unitNumber: '107' },
    'Dana Reyes paired device demo-truck-07 with vehicle 107',
  ],
  [
    'PAIR_DEVICE',
    'ASSET',
    V107,
    { assetId: null },
    { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107, unitNumber: '107' },
    'Dana Reyes paired device demo-truck-07 with vehicle 107',
  ],
  ['PAIR_DEVICE', 'ASSET', V117, undefined, { gatewayId: DEV07 }, 'System paired device demo-truck-07 with vehicle 117', 'SYSTEM'],
  [
    'UNPAIR_DEVICE',
    'GATEWAY',
    DEV07,
    { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107 },
    null,
    'Dana Reyes unpaired device demo-truck-07 from vehicle 107',
  ],
  [
    'UNPAIR_DEVICE',
    'ASSET',
    V107,
    { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107 },
    null,
    'Dana Reyes unpaired device demo-truck-07 from vehicle 107',
  ],
  ['REGENERATE_TOKEN', 'GATEWAY', DEV07, undefined, undefined, 'Dana Reyes issued a new ingest token for device demo-truck-07'],
  ['SEND_COMMAND', 'GATEWAY', DEV07, undefined, { commandId: 'c1', text: 'getinfo' }, 'Dana Reyes sent the command "getinfo" to device demo-truck-07'],
  ['CREATE_TOKEN', 'ORGANIZATION', ORG, undefined, undefined, 'Dana Reyes created an ingest token for organization Demo Freight'],
  ['REGENERATE_TOKEN', 'ORGANIZATION', ORG, undefined, undefined, 'Dana Reyes issued a new ingest token for organization Demo Freight'],
  [
    'INSPECT',
    'ASSET',
    V117,
    undefined,
    { dvirId: GONE, unitNumber: '117', kind: 'PRE_TRIP', driverId: LUIS, driverName: 'Luis Ortiz', defects: 2 },
    'Luis Ortiz recorded a pre-trip inspection of vehicle 117 (2 defects)',
    LUIS,
  ],
  [
    'INSPECT',
    'ASSET',
    V117,
    undefined,
    { unitNumber: '117', kind: 'POST_TRIP', defects: 0 },
    'Luis Ortiz recorded a post-trip inspection of vehicle 117, no defects',
    LUIS,
  ],
  [
    'CERTIFY_DEFECT',
    'ASSET',
    T204,
    { status: 'OPEN' },
    { unitNumber: 'T-204', label: 'Tires', status: 'REPAIRED' },
    'Dana Reyes certified the defect "Tires" of trailer T-204 repaired',
  ],
  [
    'CERTIFY_DEFECT',
    'ASSET',
    V117,
    { status: 'OPEN' },
    { unitNumber: '117', label: 'Horn', status: 'NOT_NEEDED' },
    'Dana Reyes certified that the defect "Horn" of vehicle 117 needs no repair',
  ],
  [
    'ENGINE_FAULT_DEFECT',
    'ASSET',
    V117,
    undefined,
    { code: 'P0301', safety: false, automatic: false },
    'Dana Reyes made the engine fault P0301 of vehicle 117 a defect',
  ],
  [
    'ENGINE_FAULT_DEFECT',
    'ASSET',
    V117,
    undefined,
    { code: 'SPN 110 FMI 0', safety: true, automatic: true },
    'System opened a safety defect of vehicle 117 for the grounding engine fault SPN 110 FMI 0',
    'SYSTEM',
  ],
  [
    'INSPECTION_ITEM_DEFECT',
    'ASSET',
    V117,
    undefined,
    { label: 'Brake adjustment', safety: true },
    'Dana Reyes made the failed annual inspection item "Brake adjustment" of vehicle 117 a safety defect',
  ],
  [
    'REVIEW_INSPECTION',
    'ASSET',
    V117,
    undefined,
    { unitNumber: '117', inspectedAt: '2026-11-24T14:00:00.000Z' },
    'Luis Ortiz reviewed the repair certifications of the inspection of vehicle 117 on Nov 24, 2026, 14:00 UTC',
    LUIS,
  ],
  ['INVITE', 'USER', MARCO, undefined, marcoRow, 'Dana Reyes invited user Marco Reyes'],
  ['RESEND_INVITATION', 'USER', MARCO, undefined, undefined, 'Dana Reyes sent the invitation to user Marco Reyes again'],
  ['SEND_PASSWORD_RESET', 'USER', MARCO, undefined, undefined, 'Dana Reyes sent a password reset link to user Marco Reyes'],
  ['ACCEPT_INVITATION', 'USER', MARCO, undefined, undefined, 'Marco Reyes accepted their invitation and set a password', MARCO],
  ['RESET_PASSWORD', 'USER', MARCO, undefined, undefined, 'Marco Reyes reset their password from an e-mailed link', MARCO],
  ['CHANGE_PASSWORD', 'USER', MARCO, undefined, undefined, 'Marco Reyes changed their password', MARCO],
  [
    'UNDO_EMAIL_CHANGE',
    'USER',
    MARCO,
    { email: 'intruder@evil.test' },
    { email: 'marco@demofreight.test' },
    'Marco Reyes took their account back: e-mail back to marco@demofreight.test, every session ended',
    MARCO,
  ],
  ['LOGOUT_EVERYWHERE', 'USER', MARCO, undefined, undefined, 'Marco Reyes logged out on every device', MARCO],
  ['LOGOUT_EVERYWHERE', 'USER', MARCO, undefined, undefined, 'Dana Reyes logged user Marco Reyes out on every device'],
  ['UPDATE_IMAGE', 'USER', MARCO, { profileImageId: null }, { profileImageId: id(5) }, 'Marco Reyes changed their profile photo', MARCO],
  ['UPDATE_IMAGE', 'USER', MARCO, { profileImageId: null }, { profileImageId: id(5) }, 'Dana Reyes changed the profile photo of user Marco Reyes'],
  ['DELETE_IMAGE', 'USER', MARCO, { profileImageId: id(5) }, { profileImageId: null }, 'Marco Reyes removed their profile photo', MARCO],
  ['UPDATE_IMAGE', 'ORGANIZATION', ORG, { logoImageId: null }, { logoImageId: id(6) }, 'Dana Reyes changed the logo of organization Demo Freight'],
  ['DELETE_IMAGE', 'ORGANIZATION', ORG, { logoImageId: id(6) }, { logoImageId: null }, 'Dana Reyes removed the logo of organization Demo Freight'],
  [
    'UPDATE_SETTINGS',
    'ORGANIZATION',
    ORG,
    { units: 'IMPERIAL', darkMode: { isEnabled: false } },
    { units: 'METRIC', darkMode: { isEnabled: false } },
    'Dana Reyes changed the settings of organization Demo Freight: Units',
  ],
  [
    'ADD_MEMBERS',
    'GROUP',
    EAST,
    undefined,
    {
      added: [
        { memberType: 'DRIVER', memberId: LUIS },
        { memberType: 'USER', memberId: MARCO },
      ],
    },
    'Dana Reyes added driver Luis Ortiz and user Marco Reyes to group East region',
  ],
  [
    'ADD_MEMBERS',
    'GROUP',
    EAST,
    undefined,
    { added: [1, 2, 3, 4, 5].map((n) => ({ memberType: 'DRIVER', memberId: id(n) })) },
    'Dana Reyes added 5 members to group East region',
  ],
  ['ADD_MEMBERS', 'GROUP', EAST, undefined, { added: [] }, 'Dana Reyes added nothing new to group East region'],
  [
    'REMOVE_MEMBER',
    'GROUP',
    EAST,
    { removed: [{ memberType: 'DRIVER', memberId: LUIS }] },
    undefined,
    'Dana Reyes removed driver Luis Ortiz from group East region',
  ],
  ['ADD_ASSETS', 'GROUP', EAST, undefined, { added: [V117, T204] }, 'Dana Reyes added vehicle 117 and trailer T-204 to group East region'],
  ['ADD_ASSETS', 'GROUP', EAST, undefined, { added: [V117, V107, V110, T204] }, 'Dana Reyes added 3 vehicles and 1 trailer to group East region'],
  ['REMOVE_ASSET', 'GROUP', EAST, { assetId: V117 }, undefined, 'Dana Reyes removed vehicle 117 from group East region'],
  [
    'EDIT_HOS_EVENT',
    'DRIVER',
    MARIA,
    { eventId: 'e1', status: 'ON', at: '2026-06-01T11:00:00.000Z' },
    { eventId: 'e2', status: 'OFF', at: '2026-06-01T11:15:00.000Z', annotation: 'Was waiting' },
    'Dana Reyes edited a duty status in the HoS log of driver Maria Lopez from ON to OFF at Jun 1, 2026, 11:15 UTC',
  ],
  [
    'ADD_HOS_EVENT',
    'DRIVER',
    MARIA,
    undefined,
    { eventId: 'e3', status: 'OFF', special: 'PC', at: '2026-06-01T11:15:00.000Z', annotation: 'Drove home' },
    'Dana Reyes added a duty status OFF (PC) to the HoS log of driver Maria Lopez at Jun 1, 2026, 11:15 UTC',
  ],
  [
    'ADD_HOS_EVENT',
    'DRIVER',
    MARIA,
    undefined,
    { eventId: 'e3', status: 'ON', special: null, at: '2026-06-01T11:15:00.000Z' },
    'Dana Reyes added a duty status ON to the HoS log of driver Maria Lopez at Jun 1, 2026, 11:15 UTC',
  ],
  [
    'UPDATE_HOS_LOG',
    'DRIVER',
    MARIA,
    { logDate: '2026-06-01', shippingDocuments: [] },
    { logDate: '2026-06-01', shippingDocuments: ['BL-1'] },
    'Dana Reyes changed the shipping documents, trailers or co-driver of log day Jun 1, 2026 in the HoS log of driver Maria Lopez',
  ],
  [
    'DECLARE_HOS',
    'DRIVER',
    MARIA,
    undefined,
    { kind: 'CYCLE_SWITCH', at: '2026-06-03T12:00:00.000Z', cycle: 2, annotation: 'Long run north' },
    'Dana Reyes declared a switch to cycle 2 at Jun 3, 2026, 12:00 UTC in the HoS log of driver Maria Lopez',
  ],
  [
    'DECLARE_HOS',
    'DRIVER',
    MARIA,
    { kind: 'ADVERSE_DRIVING', at: '2026-06-03T12:00:00.000Z', cycle: null },
    { annotation: 'Claimed by mistake' },
    'Dana Reyes withdrew adverse driving conditions at Jun 3, 2026, 12:00 UTC from the HoS log of driver Maria Lopez',
  ],
  [
    'CORRECT_HOS_CROSSING',
    'DRIVER',
    MARIA,
    undefined,
    { at: '2026-06-01T14:30:00.000Z', to: 'CA', annotation: 'Crossed at the Ambassador Bridge' },
    'Dana Reyes entered a border crossing into Canada at Jun 1, 2026, 14:30 UTC in the HoS log of driver Maria Lopez',
  ],
  [
    'CORRECT_HOS_CROSSING',
    'DRIVER',
    MARIA,
    { at: '2026-06-01T14:30:00.000Z', to: 'US' },
    { at: '2026-06-01T15:00:00.000Z', to: 'US', annotation: 'Waited at customs' },
    'Dana Reyes moved a border crossing into the US from Jun 1, 2026, 14:30 UTC to Jun 1, 2026, 15:00 UTC in the HoS log of driver Maria Lopez',
  ],
  [
    'CORRECT_HOS_CROSSING',
    'DRIVER',
    MARIA,
    { at: '2026-06-01T14:30:00.000Z', to: 'CA' },
    { annotation: 'Never left Michigan' },
    'Dana Reyes removed a border crossing at Jun 1, 2026, 14:30 UTC from the HoS log of driver Maria Lopez',
  ],
  [
    'SET_HOS_DEFERRAL',
    'DRIVER',
    MARIA,
    { logDate: '2026-06-01', declared: false },
    { logDate: '2026-06-01', declared: true },
    'Dana Reyes declared day 1 of an off-duty deferral on log day Jun 1, 2026 in the HoS log of driver Maria Lopez',
  ],
  [
    'SET_HOS_DEFERRAL',
    'DRIVER',
    MARIA,
    { logDate: '2026-06-01', declared: true },
    { logDate: '2026-06-01', declared: false },
    'Dana Reyes withdrew the off-duty deferral on log day Jun 1, 2026 in the HoS log of driver Maria Lopez',
  ],
  [
    'IMPORT_POSITIONS',
    'ASSET',
    V117,
    undefined,
    { imported: 1440, format: 'GPX', from: '2026-10-01T00:00:00.000Z', to: '2026-10-02T00:00:00.000Z' },
    'Dana Reyes imported 1,440 positions of GPS history into vehicle 117 from a GPX file',
  ],
  [
    'IMPORT_HOS_LOG',
    'DRIVER',
    MARIA,
    undefined,
    { source: 'Acme ELD', periods: 12, from: '2026-06-01T11:00:00.000Z', to: '2026-06-02T11:00:00.000Z' },
    'Dana Reyes imported 12 duty periods into the HoS log of driver Maria Lopez from Acme ELD',
  ],
  [
    'PROPOSE_HOS_EDIT',
    'DRIVER',
    MARIA,
    { eventId: 'e1', status: 'OFF', at: '2026-06-01T11:00:00.000Z' },
    { eventId: 'e2', status: 'ON', at: '2026-06-01T11:00:00.000Z', annotation: 'Unloading' },
    'Dana Reyes proposed to change a duty status in the HoS log of driver Maria Lopez from OFF to ON at Jun 1, 2026, 11:00 UTC, for the driver to accept',
  ],
  [
    'PROPOSE_HOS_EVENT',
    'DRIVER',
    MARIA,
    undefined,
    { eventId: 'e3', status: 'SB', at: '2026-06-01T11:15:00.000Z', annotation: 'Rest' },
    'Dana Reyes proposed to add a duty status SB to the HoS log of driver Maria Lopez at Jun 1, 2026, 11:15 UTC, for the driver to accept',
  ],
  [
    'ACCEPT_HOS_PROPOSAL',
    'DRIVER',
    MARIA,
    undefined,
    { proposalId: 'p1', kind: 'EDIT', logDate: '2026-06-01' },
    'Dana Reyes accepted a proposed edit of the HoS log of driver Maria Lopez (log day Jun 1, 2026)',
  ],
  [
    'REJECT_HOS_PROPOSAL',
    'DRIVER',
    MARIA,
    undefined,
    { proposalId: 'p1', kind: 'EDIT', logDate: '2026-06-01', note: 'Not right' },
    'Dana Reyes rejected a proposed edit of the HoS log of driver Maria Lopez (log day Jun 1, 2026): Not right',
  ],
  [
    'CERTIFY_HOS_LOG',
    'DRIVER',
    MARIA,
    undefined,
    { logDate: '2026-06-01', certification: 2 },
    'Dana Reyes certified log day Jun 1, 2026 of driver Maria Lopez (certification 2)',
  ],
  [
    'CLAIM_UNIDENTIFIED',
    'DRIVER',
    MARIA,
    undefined,
    { segmentId: 's1', start: '2026-06-01T11:00:00.000Z' },
    'Dana Reyes took over unidentified driving from Jun 1, 2026, 11:00 UTC as the driving of driver Maria Lopez',
  ],
  [
    'PROPOSE_UNIDENTIFIED',
    'DRIVER',
    MARIA,
    undefined,
    { segmentId: 's1', start: '2026-06-01T11:00:00.000Z' },
    'Dana Reyes proposed unidentified driving from Jun 1, 2026, 11:00 UTC to driver Maria Lopez',
  ],
  [
    'ANNOTATE_UNIDENTIFIED',
    'ASSET',
    V117,
    undefined,
    { segmentId: 's1', reason: 'Shop test drive' },
    "Dana Reyes noted that unidentified driving of vehicle 117 is nobody's driving time: Shop test drive",
  ],
  [
    'SEND_ELD_OUTPUT',
    'DRIVER',
    MARIA,
    undefined,
    { email: 'officer@fmcsa.example', fileName: 'Lopez00000000000-000000000' },
    'Dana Reyes sent the ELD output file of driver Maria Lopez to officer@fmcsa.example',
  ],
  [
    'SEND_ROADSIDE_CA',
    'DRIVER',
    MARIA,
    undefined,
    { email: 'agent@mto.example', fileName: 'daily-log-ca-Lopez-Maria-2026-11-30.pdf', date: '2026-11-30', from: '2026-11-16' },
    'Dana Reyes sent the Canadian daily log (PDF) of driver Maria Lopez to agent@mto.example',
  ],
  [
    'SEND_ELD_TRANSFER',
    'DRIVER',
    MARIA,
    undefined,
    { method: 'WEB_SERVICE', test: true, status: 'INFORMATION', fileName: 'Lopez00000000000-000000000' },
    'Dana Reyes sent the ELD records of driver Maria Lopez to FMCSA by web service (test): received',
  ],
  [
    'SEND_ELD_TRANSFER',
    'DRIVER',
    MARIA,
    undefined,
    { method: 'EMAIL', test: false, status: 'FAILED', reason: 'connection refused' },
    'Dana Reyes sent the ELD records of driver Maria Lopez to FMCSA by e-mail: failed',
  ],
  ['READ_NOTIFICATIONS', 'USER', MARCO, undefined, { notifications: 3, all: true }, 'Marco Reyes marked their notifications read (3 notifications)', MARCO],
  ['READ_NOTIFICATIONS', 'USER', MARCO, undefined, { notifications: 1, all: false }, 'Marco Reyes marked 1 notification read', MARCO],
  ['CLEAR_NOTIFICATIONS', 'USER', MARCO, undefined, { notifications: 2, all: false }, 'Marco Reyes cleared 2 notifications', MARCO],
  [
    'IMPORT',
    'IFTA_FUEL_PURCHASE',
    id(60),
    undefined,
    { receiptNumber: 'R-1001', gallonsMilli: 120500, source: 'CSV import' },
    'Dana Reyes imported fuel purchase R-1001 from a CSV file',
  ],
  [
    'CREATE',
    'IFTA_ADJUSTMENT',
    id(61),
    undefined,
    { jurisdiction: 'IL', day: '2026-05-02', reason: 'Trip permit' },
    'Dana Reyes created IFTA mileage adjustment IL 2026-05-02',
  ],
  [
    'ACCEPT',
    'FUEL_TRANSACTION',
    id(170),
    undefined,
    { transactionId: 'WEX-1', note: 'Receipt checked' },
    'Dana Reyes accepted fuel-card transaction WEX-1: Receipt checked',
  ],
  [
    'DISPUTE',
    'FUEL_TRANSACTION',
    id(171),
    undefined,
    { transactionId: 'WEX-2', note: 'Not our truck' },
    'Dana Reyes disputed fuel-card transaction WEX-2: Not our truck',
  ],
  [
    'IMPORT',
    'FUEL_TRANSACTION',
    id(172),
    undefined,
    { transactionId: 'WEX-3', source: 'WEX', created: 12 },
    'Dana Reyes imported fuel-card transaction WEX-3 from a CSV file',
  ],
  ['UPDATE', 'FUEL_CARD', id(173), undefined, { cardLast4: '0031', vehicleId: null }, 'Dana Reyes changed fuel card ending 0031: Card (last 4 digits)'],
  ['UPDATE', 'FUEL_IMPORT_PRESET', id(174), undefined, { name: 'Our WEX' }, 'Dana Reyes changed fuel-card import preset Our WEX: Name'],
  ['CLOSE', 'IFTA_FILING', id(62), undefined, { quarter: '2026Q2', version: 1 }, 'Dana Reyes filed IFTA return 2026Q2, closing the quarter'],
  ['AMEND', 'IFTA_FILING', id(63), undefined, { quarter: '2026Q2', version: 2 }, 'Dana Reyes filed an amendment of IFTA return 2026Q2 (version 2)'],
  ['CREATE', 'IFTA_RATES', null, undefined, { quarter: '2026Q3', source: 'iftach.org', rates: 612 }, 'Dana Reyes created IFTA tax rates 2026Q3'],
  [
    'CREATE',
    'WORK_ORDER',
    id(70),
    undefined,
    { title: 'Replace brake pads', assetId: V117, unitNumber: '117', status: 'OPEN', costCents: 45000, defectIds: [id(71)] },
    'Dana Reyes created work order Replace brake pads',
  ],
  [
    'UPDATE',
    'WORK_ORDER',
    id(70),
    { title: 'Replace brake pads', status: 'IN_PROGRESS', completedAt: null },
    { title: 'Replace brake pads', status: 'DONE', completedAt: '2026-05-02T15:00:00.000Z' },
    'Dana Reyes changed work order Replace brake pads: Status, Completed',
  ],
  ['DELETE', 'WORK_ORDER', id(70), { title: 'Replace brake pads' }, undefined, 'Dana Reyes deleted work order Replace brake pads'],
  [
    'CREATE',
    'MAINTENANCE_SCHEDULE',
    id(72),
    undefined,
    { name: 'Oil change', groupId: EAST, everyM: 40_233_600, everyDays: 90 },
    'Dana Reyes created maintenance schedule Oil change',
  ],
  [
    'CREATE',
    'PLACE',
    id(73),
    undefined,
    { name: 'Acme Foods DC', category: 'CUSTOMER', geometry: { type: 'Point', coordinates: [-94.6, 39.1] }, radiusM: 300 },
    'Dana Reyes created place Acme Foods DC',
  ],
  [
    'CREATE',
    'TERMINAL',
    id(75),
    undefined,
    { name: 'Reno terminal', addressLine1: '1200 E Commercial Row', city: 'Reno', state: 'NV', timeZone: 'America/Los_Angeles' },
    'Dana Reyes created home terminal Reno terminal',
  ],
  [
    'UPDATE',
    'TERMINAL',
    id(75),
    { name: 'Reno terminal', timeZone: 'America/Los_Angeles' },
    { name: 'Reno terminal', timeZone: 'America/Denver', driversMoved: 2 },
    'Dana Reyes changed home terminal Reno terminal: Time zone, Drivers moved to the new time zone',
  ],
  ['DELETE', 'TERMINAL', id(75), { name: 'Reno terminal' }, undefined, 'Dana Reyes deleted home terminal Reno terminal'],
  ['CREATE', 'CUSTOMER', id(78), undefined, { name: 'Acme Foods', paymentTermsDays: 30 }, 'Dana Reyes created customer Acme Foods'],
  [
    'UPDATE',
    'CUSTOMER',
    id(78),
    { name: 'Acme Foods', paymentTermsDays: 30 },
    { name: 'Acme Foods Inc', paymentTermsDays: 45, loadsRenamed: 3 },
    'Dana Reyes changed customer Acme Foods Inc: Name, Payment terms (days), Loads renamed',
  ],
  [
    'UPDATE',
    'SAFETY_EVENT',
    id(76),
    { status: 'NEW', note: null },
    { status: 'NEEDS_COACHING', note: 'Talk it through' },
    'Dana Reyes changed a safety event: Status, Note',
  ],
  ['UPDATE', 'SAFETY_SETTINGS', id(77), { idlingMinutes: 5 }, { idlingMinutes: 10 }, 'Dana Reyes changed the safety settings: Idling minutes'],
  ['CREATE', 'API_TOKEN', id(78), undefined, { name: 'TMS sync', prefix: 'fltk_ab12' }, 'Dana Reyes created API token TMS sync'],
  ['REVOKE', 'API_TOKEN', id(78), { name: 'TMS sync', prefix: 'fltk_ab12' }, undefined, 'Dana Reyes revoked API token TMS sync'],
  [
    'CREATE',
    'WEBHOOK',
    id(79),
    undefined,
    { url: 'https://tms.example/hooks', description: 'TMS loads', enabled: true },
    'Dana Reyes created webhook TMS loads',
  ],
  [
    'ROTATE_SECRET',
    'WEBHOOK',
    id(79),
    undefined,
    { previousSecretExpiresAt: '2026-06-02T09:00:00.000Z' },
    'Dana Reyes rotated the signing secret of a webhook',
  ],
  ['RESEND', 'WEBHOOK', id(79), undefined, { deliveryId: '12' }, 'Dana Reyes sent a delivery of a webhook again'],
  ['TEST', 'WEBHOOK', id(79), undefined, undefined, 'Dana Reyes sent a test event to a webhook'],
  [
    'DISABLE',
    'WEBHOOK',
    id(79),
    undefined,
    { url: 'https://tms.example/hooks', enabled: false },
    'System turned off webhook https://tms.example/hooks',
    'SYSTEM',
  ],
  ['CREATE', 'LOAD', id(74), undefined, { number: 'L-1001', customer: 'Acme Foods', status: 'PLANNED' }, 'Dana Reyes created load L-1001'],
  [
    'ASSIGN_LOAD',
    'LOAD',
    id(74),
    { number: 'L-1001', driverId: null },
    { number: 'L-1001', driverId: MARIA },
    'Dana Reyes assigned load L-1001 to driver Maria Lopez',
  ],
  ['ASSIGN_LOAD', 'LOAD', id(74), { number: 'L-1001', driverId: MARIA }, { number: 'L-1001', driverId: null }, 'Dana Reyes unassigned load L-1001'],
  [
    'LOAD_STATUS',
    'LOAD',
    id(74),
    { number: 'L-1001', status: 'ASSIGNED' },
    { number: 'L-1001', status: 'CANCELLED' },
    'Dana Reyes marked load L-1001 cancelled',
  ],
  [
    'STOP_ARRIVE',
    'LOAD',
    id(74),
    { seq: 1, arrivedAt: null },
    { seq: 1, arrivedAt: '2026-06-01T14:00:00.000Z' },
    'Dana Reyes marked the arrival at stop 2 of load L-1001',
  ],
  [
    'STOP_DEPART',
    'LOAD',
    id(74),
    { seq: 0, departedAt: null },
    { seq: 0, departedAt: '2026-06-01T09:00:00.000Z' },
    'Dana Reyes marked the departure from stop 1 of load L-1001',
  ],
  ['STOPS_FROM_PLACES', 'LOAD', id(74), [], [], 'System took stop times of load L-1001 from place visits', 'SYSTEM'],
  [
    'CORRECTION',
    'PLACE_VISIT',
    id(76),
    { placeId: id(77), arrivedAt: '2026-06-01T14:00:00.000Z', departedAt: '2026-06-01T15:00:00.000Z' },
    { placeId: id(77), arrivedAt: '2026-06-01T14:00:00.000Z', departedAt: '2026-06-01T15:10:00.000Z' },
    'System corrected a place visit from its positions',
    'SYSTEM',
  ],
  ['CORRECTION', 'TRIP', id(78), { startedAt: '2026-06-01T12:00:00.000Z' }, null, 'System withdrew a trip: its positions no longer show it', 'SYSTEM'],
  [
    'CORRECTION',
    'VEHICLE_STOP',
    id(78),
    { startedAt: '2026-06-01T12:00:00.000Z', idleS: 60 },
    { startedAt: '2026-06-01T12:00:00.000Z', idleS: 90 },
    'System corrected a vehicle stop from its positions',
    'SYSTEM',
  ],
  [
    'CORRECTION',
    'FUEL_EVENT',
    id(79),
    { type: 'REFUEL', quantity_l: 480 },
    { type: 'REFUEL', quantityL: 430 },
    'System corrected a fuel-level event from its positions',
    'SYSTEM',
  ],
  // Invoices (issue 70).
  [
    'CREATE',
    'INVOICE',
    id(90),
    undefined,
    { number: 'INV-1001', customerName: 'Acme Foods', loadNumbers: ['L-1001'], totalCents: 411_328 },
    'Dana Reyes created invoice INV-1001',
  ],
  [
    'SEND_INVOICE',
    'INVOICE',
    id(90),
    { number: 'INV-1001', status: 'DRAFT', sentTo: null },
    { number: 'INV-1001', status: 'SENT', sentTo: 'ap@acme.example' },
    'Dana Reyes e-mailed invoice INV-1001 to ap@acme.example',
  ],
  [
    'RECORD_PAYMENT',
    'INVOICE',
    id(90),
    { number: 'INV-1001', status: 'SENT', paidCents: 0 },
    { number: 'INV-1001', status: 'PARTIALLY_PAID', paidCents: 100_000, amountCents: 100_000, receivedOn: '2026-10-20', currency: 'USD' },
    'Dana Reyes recorded a payment of 1,000.00 USD on invoice INV-1001',
  ],
  [
    'REMOVE_PAYMENT',
    'INVOICE',
    id(90),
    { number: 'INV-1001', status: 'PAID', paidCents: 411_328, amountCents: 311_328, currency: 'USD' },
    { number: 'INV-1001', status: 'PARTIALLY_PAID', paidCents: 100_000 },
    'Dana Reyes removed a payment of 3,113.28 USD from invoice INV-1001',
  ],
  [
    'VOID_INVOICE',
    'INVOICE',
    id(90),
    { number: 'INV-1001', status: 'DRAFT' },
    { number: 'INV-1001', status: 'VOID', voidReason: 'Wrong rate' },
    'Dana Reyes voided invoice INV-1001: Wrong rate',
  ],
  // Issue 71: a compliance paper is named by its kind.
  ['CREATE', 'COMPLIANCE_ITEM', id(95), undefined, { kind: 'MEDICAL_CERTIFICATE', expiresOn: '2027-06-01' }, 'Dana Reyes created a medical certificate'],
  [
    'APPROVE_COMPLIANCE_ITEM',
    'COMPLIANCE_ITEM',
    id(95),
    { kind: 'MEDICAL_CERTIFICATE', approval: 'PENDING' },
    { kind: 'MEDICAL_CERTIFICATE', approval: 'APPROVED' },
    'Dana Reyes approved a medical certificate',
  ],
  [
    'REJECT_COMPLIANCE_ITEM',
    'COMPLIANCE_ITEM',
    id(96),
    { kind: 'CDL', approval: 'PENDING' },
    { kind: 'CDL', approval: 'REJECTED', rejectReason: 'The photo is blurred' },
    'Dana Reyes rejected a commercial driver licence: The photo is blurred',
  ],
  ['ADD_LOAD_DOCUMENT', 'LOAD', id(74), undefined, { kind: 'POD', imageId: id(75) }, 'Dana Reyes added a proof of delivery to load L-1001'],
  ['ADD_LOAD_DOCUMENT', 'LOAD', id(74), undefined, { kind: 'SCALE', pageCount: 2 }, 'Dana Reyes added a scale ticket to load L-1001'],
  [
    'POD_WAIVED',
    'LOAD',
    id(74),
    undefined,
    { stops: [{ stopId: id(75), seq: 1 }], customer: 'Acme Foods' },
    'Dana Reyes let stop 2 of load L-1001 be completed without its proof of delivery',
  ],
  ['DELETE_LOAD_DOCUMENT', 'LOAD', id(74), { kind: 'BOL', imageId: id(75) }, undefined, 'Dana Reyes removed a bill of lading from load L-1001'],
  // Driver settlements (issue 70).
  ['UPDATE_PAY_PROFILE', 'DRIVER', MARIA, undefined, { loadedMileRate: 0.55 }, 'Dana Reyes changed the pay profile of driver Maria Lopez'],
  [
    'ADD_PAY_ADJUSTMENT',
    'DRIVER',
    MARIA,
    undefined,
    { adjustmentType: 'DEDUCTION', description: 'Truck lease', amount: 350, recurrence: 'EACH_SETTLEMENT' },
    'Dana Reyes added the deduction “Truck lease” ($350.00, every settlement) to the pay of driver Maria Lopez',
  ],
  [
    'REMOVE_PAY_ADJUSTMENT',
    'DRIVER',
    MARIA,
    { adjustmentType: 'REIMBURSEMENT', description: 'Tolls', amount: 42.5, recurrence: 'ONCE' },
    undefined,
    'Dana Reyes removed the reimbursement “Tolls” ($42.50, once) from the pay of driver Maria Lopez',
  ],
  ['CREATE', 'SETTLEMENT', id(76), undefined, { number: 'S-1001', driverId: MARIA }, 'Dana Reyes created settlement S-1001'],
  ['APPROVE_SETTLEMENT', 'SETTLEMENT', id(76), { number: 'S-1001' }, { number: 'S-1001' }, 'Dana Reyes approved settlement S-1001'],
  ['PAY_SETTLEMENT', 'SETTLEMENT', id(76), { number: 'S-1001' }, { number: 'S-1001' }, 'Dana Reyes marked settlement S-1001 paid'],
  ['VOID_SETTLEMENT', 'SETTLEMENT', id(76), { number: 'S-1001' }, { number: 'S-1001' }, 'Dana Reyes voided settlement S-1001'],
  [
    'UPDATE_NOTIFICATION_PREFERENCES',
    'USER',
    MARCO,
    { VIOLATION: { inApp: true, email: false } },
    { VIOLATION: { inApp: false, email: true } },
    'Marco Reyes changed their notification choices',
    MARCO,
  ],
  [
    'PURGE',
    'DATA_RETENTION',
    ORG,
    undefined,
    { removed: { POSITIONS: 1204, HOS_RECORDS: 1 }, olderThan: { POSITIONS: '2026-03-03T08:00:00.000Z', HOS_RECORDS: '2025-08-01T08:00:00.000Z' } },
    'System purged 1,204 positions older than Mar 3, 2026 and 1 hours-of-service record older than Aug 1, 2025',
    'SYSTEM',
  ],
];

describe('sentences', () => {
  it.each(SENTENCES.map((row) => [`${row[0]} ${row[1]}`, row] as const))('%s reads as a sentence', (_name, row) => {
    expect(describeActivity(facts(row), lookup).summary).toBe(row[5]);
  });

  it('has a sentence in the table above for every action the API writes, with every entity type it is written for', () => {
    const tested = new Set(SENTENCES.map((r) => r[0]));
    expect([...codeActions].filter((a) => !tested.has(a))).toEqual([]);
    expect(Object.keys(ACTIONS).filter((a) => !tested.has(a))).toEqual([]);
    const testedTypes = new Set(SENTENCES.map((r) => r[1]));
    expect([...codeEntityTypes].filter((t) => !testedTypes.has(t))).toEqual([]);
  });

  it('says so when a linked record was deleted, and words an unknown action or entity type from its code', () => {
    const row: Row = ['ASSIGN_DRIVER', 'ASSET', V117, undefined, { driverId: GONE }, ''];
    expect(describeActivity(facts(row), lookup).summary).toBe('Dana Reyes assigned a deleted driver to vehicle 117');
    const gone = describeActivity(facts(['UNASSIGN_DRIVER', 'ASSET', GONE, { driverId: LUIS }, null, '']), lookup);
    expect(gone.summary).toBe('Dana Reyes removed driver Luis Ortiz from a deleted vehicle');
    expect(gone.record).toEqual({ type: 'VEHICLE', id: GONE, label: 'a deleted vehicle', path: null });
    const odd = describeActivity(facts(['ARCHIVE_LOGS', 'HOS_LOG', 'x1', undefined, undefined, '']), lookup);
    expect(odd.summary).toBe('Dana Reyes did "archive logs" on hos log x1');
    expect(odd.record).toMatchObject({ type: 'HOS_LOG', path: null });
  });

  it('names the actor, or the system for jobs', () => {
    expect(actorLabel({ userId: DANA, email: 'dana@x.test', name: 'Dana Reyes' })).toBe('Dana Reyes');
    expect(actorLabel({ userId: DANA, email: 'dana@x.test', name: null })).toBe('dana@x.test');
    expect(actorLabel({ userId: null, email: 'system', name: null })).toBe('System');
    expect(actorLabel({ userId: null, email: null, name: null })).toBe('System');
  });
});

describe('the record and its screen', () => {
  const recordOf = (row: Row) => describeActivity(facts(row), lookup).record;
  it('links vehicles, trailers and drivers to their list with the drawer open, devices and groups to their pages', () => {
    expect(recordOf(['UPDATE', 'ASSET', V117, vehicleRow, vehicleRow, ''])).toEqual({
      type: 'VEHICLE',
      id: V117,
      label: 'vehicle 117',
      path: `/settings/organization-settings/vehicles?open=${V117}`,
    });
    expect(recordOf(['DETACH_TRAILER', 'ASSET', T204, { vehicleId: V117, trailerId: T204 }, null, ''])?.path).toBe(
      `/settings/organization-settings/trailers?open=${T204}`,
    );
    expect(recordOf(['CREATE', 'DRIVER', MARIA, undefined, driverRow, ''])?.path).toBe(`/settings/organization-settings/all-drivers?open=${MARIA}`);
    expect(recordOf(['PAIR_DEVICE', 'GATEWAY', DEV07, undefined, { gatewayId: DEV07 }, ''])?.path).toBe(`/settings/organization-settings/devices/${DEV07}`);
    expect(recordOf(['CREATE', 'GROUP', EAST, undefined, { name: 'East region' }, ''])?.path).toBe(`/settings/organization-settings/groups/${EAST}/members`);
  });

  it('finds users and roles through their list search, and the organization and retention on their pages', () => {
    expect(recordOf(['INVITE', 'USER', MARCO, undefined, marcoRow, ''])?.path).toBe(
      '/settings/organization-settings/user-and-roles?u.search=marco%40demofreight.test',
    );
    expect(recordOf(['CREATE', 'ROLE', AUDITOR, undefined, { name: 'Auditor' }, ''])?.path).toBe(
      '/settings/organization-settings/user-and-roles?tab=roles&r.search=Auditor',
    );
    expect(recordOf(['UPDATE_SETTINGS', 'ORGANIZATION', ORG, {}, {}, ''])?.path).toBe('/settings/organization-settings/organization-account');
    expect(recordOf(['PURGE', 'DATA_RETENTION', ORG, undefined, {}, ''])).toMatchObject({
      type: 'DATA_RETENTION',
      label: 'the data retention periods',
      path: '/settings/data-retention',
    });
  });

  it('opens work orders and maintenance schedules on the maintenance screens', () => {
    expect(recordOf(['CREATE', 'WORK_ORDER', id(70), undefined, { title: 'Replace brake pads' }, ''])?.path).toBe(`/maintenance/work-orders?open=${id(70)}`);
    expect(recordOf(['CREATE', 'MAINTENANCE_SCHEDULE', id(72), undefined, { name: 'Oil change' }, ''])?.path).toBe(`/maintenance/schedules?open=${id(72)}`);
    expect(recordOf(['DELETE', 'WORK_ORDER', GONE, { title: 'Old order' }, undefined, ''])?.path).toBeNull();
  });

  it('keeps the name a deleted record had, without a link', () => {
    expect(recordOf(['DELETE', 'ASSET', GONE, { type: 'TRAILER', unitNumber: 'T-9' }, undefined, ''])).toEqual({
      type: 'TRAILER',
      id: GONE,
      label: 'trailer T-9',
      path: null,
    });
  });

  it('collects the ids a page mentions for the one lookup', () => {
    const ids = referencedIds({
      entityId: EAST,
      actorUserId: DANA,
      before: { removed: [{ memberType: 'USER', memberId: MARCO }] },
      after: { added: [V117], currentDriverId: LUIS, gatewayId: DEV07, notes: 'x' },
    });
    expect(new Set(ids)).toEqual(new Set([EAST, DANA, MARCO, V117, LUIS, DEV07]));
  });
});

const changesOf = (entityType: string, before: unknown, after: unknown, action = 'UPDATE', entityId: string | null = null) =>
  labelledChanges({ action, entityType, entityId, before, after }, lookup);

describe('labelled changes', () => {
  it('labels fields, names linked records and writes values in words', () => {
    const before = { ...vehicleRow, currentDriverId: LUIS, iftaQualified: true, fuelType: 'DIESEL', updatedAt: 'a' };
    const after = { ...vehicleRow, currentDriverId: MARIA, iftaQualified: false, fuelType: 'GASOLINE', odometerM: 1_234_567, updatedAt: 'b' };
    expect(changesOf('ASSET', before, after)).toEqual([
      { field: 'odometerM', label: 'Odometer', before: '1,000 km', after: '1,234.6 km' },
      { field: 'currentDriverId', label: 'Current driver', before: 'Luis Ortiz', after: 'Maria Lopez' },
      { field: 'iftaQualified', label: 'IFTA-qualified', before: 'Yes', after: 'No' },
      { field: 'fuelType', label: 'Fuel type (IFTA)', before: 'Special Diesel', after: 'Gasoline' },
    ]);
  });

  it('leaves bookkeeping out of a creation and shows a linked id once, by its name at the time', () => {
    const created = changesOf('GATEWAY', undefined, {
      id: DEV07,
      organizationId: ORG,
      createdAt: '2026-01-01T00:00:00Z',
      uniqueId: 'demo-truck-07',
      assetId: V107,
    });
    expect(created.map((c) => c.label)).toEqual(['Unique id (IMEI or serial)', 'Vehicle']);
    const pairing = { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107, unitNumber: '107 (old name)' };
    expect(changesOf('GATEWAY', { assetId: null }, pairing, 'PAIR_DEVICE', DEV07)).toEqual([
      { field: 'assetId', label: 'Vehicle', before: null, after: '107 (old name)' },
    ]);
    expect(changesOf('ASSET', { assetId: null }, pairing, 'PAIR_DEVICE', V107)).toEqual([
      { field: 'gatewayId', label: 'Device', before: null, after: 'demo-truck-07' },
    ]);
    const unpaired = { gatewayId: DEV07, uniqueId: 'demo-truck-07', assetId: V107 };
    expect(changesOf('GATEWAY', unpaired, null, 'UNPAIR_DEVICE', DEV07)).toEqual([{ field: 'assetId', label: 'Vehicle', before: '107', after: null }]);
    const attached = { vehicleId: V117, vehicleUnit: '117', trailerId: T204, trailerUnit: 'T-204' };
    expect(changesOf('ASSET', { vehicleId: V110 }, attached, 'ATTACH_TRAILER', T204)).toEqual([
      { field: 'vehicleId', label: 'Vehicle', before: '110', after: '117' },
    ]);
    expect(changesOf('ASSET', null, attached, 'ATTACH_TRAILER', V117)).toEqual([{ field: 'trailerId', label: 'Trailer', before: null, after: 'T-204' }]);
  });

  it('leaves out what a link action stores only to name things (the sentence says it)', () => {
    const assigned = changesOf(
      'ASSET',
      { driverId: LUIS, driverPreviousVehicleId: V110 },
      { driverId: MARIA, driverName: 'Maria Lopez', unitNumber: '117' },
      'ASSIGN_DRIVER',
    );
    expect(assigned).toEqual([{ field: 'driverId', label: 'Driver', before: 'Luis Ortiz', after: 'Maria Lopez' }]);
  });

  it('writes settings, permissions, retention periods, purge totals, dates and deleted links in words', () => {
    expect(
      changesOf('ORGANIZATION', { darkMode: { isEnabled: false, defaultTheme: 'light' } }, { darkMode: { isEnabled: true, defaultTheme: 'dark' } }),
    ).toEqual([{ field: 'darkMode', label: 'Dark mode', before: 'Available: No; Default theme: Light', after: 'Available: Yes; Default theme: Dark' }]);
    expect(changesOf('ROLE', { permissions: ['USER_LIST'] }, { permissions: ['USER_LIST', 'DRIVER_LIST'] })[0]).toMatchObject({
      before: 'List users',
      after: 'List users, List drivers',
    });
    expect(changesOf('DATA_RETENTION', { POSITIONS: 400 }, { POSITIONS: null })).toEqual([
      { field: 'POSITIONS', label: 'Vehicle positions', before: '400 days', after: null },
    ]);
    expect(changesOf('DATA_RETENTION', undefined, { removed: { POSITIONS: 1204 }, olderThan: { POSITIONS: '2026-03-03T08:00:00.000Z' } })).toEqual([
      { field: 'removed', label: 'Removed', before: null, after: 'Vehicle positions: 1,204' },
      { field: 'olderThan', label: 'Older than', before: null, after: 'Vehicle positions: Mar 3, 2026, 08:00 UTC' },
    ]);
    expect(changesOf('DRIVER', { licenseExpiry: '2027-03-28', userId: GONE }, { licenseExpiry: null, userId: MARCO })).toEqual([
      { field: 'licenseExpiry', label: 'Licence expiry', before: 'Mar 28, 2027', after: null },
      { field: 'userId', label: 'Sign-in account', before: 'a deleted record', after: 'Marco Reyes' },
    ]);
    expect(changesOf('ASSET', { year: 2019 }, { year: 2020 })[0]).toMatchObject({ label: 'Year', before: '2019', after: '2020' });
  });
});
