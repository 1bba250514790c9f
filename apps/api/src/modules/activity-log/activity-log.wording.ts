import {
  COMPLIANCE_KIND_LABELS,
  FUEL_TYPES,
  PERMISSION_AREAS,
  RETENTION_KIND_INFO,
  TRAILER_TYPES,
  UNIT_LABELS,
  UNIT_SYSTEM_DETAILS,
  distanceFromKm,
  lengthFromM,
  speedFromKmh,
  volumeFromL,
  type ActivityLabelledChange,
  type ActivityRecord,
  type ComplianceKind,
  type RetentionKind,
  type UnitSystem,
} from '@fleet/api-contract';
import { RULESET_LABELS } from '@fleet/hos/ruleset-facts';
import { diff, isObject } from './activity-log.diff.ts';

// How the activity log reads to a manager: every action code as a sentence, every stored field as a
// label, every value in words. Pure functions over one log row and the linked records of its page
// (looked up once per page by activity-log.names.ts); nothing here reads the database.

/** What a log entry can concern, as a reader tells them apart (ASSET splits into vehicle and trailer). */
export type RecordKind =
  | 'VEHICLE'
  | 'TRAILER'
  | 'DRIVER'
  | 'DEVICE'
  | 'USER'
  | 'ROLE'
  | 'GROUP'
  | 'ORGANIZATION'
  | 'DATA_RETENTION'
  | 'DEVICE_MODEL'
  | 'IFTA_FUEL_PURCHASE'
  | 'FUEL_TRANSACTION'
  | 'FUEL_CARD'
  | 'FUEL_IMPORT_PRESET'
  | 'IFTA_ADJUSTMENT'
  | 'IFTA_FILING'
  | 'IFTA_RATES'
  | 'WORK_ORDER'
  | 'MAINTENANCE_SCHEDULE'
  | 'PLACE'
  | 'LOAD'
  | 'TERMINAL'
  | 'CUSTOMER'
  | 'SAFETY_EVENT'
  | 'SAFETY_SETTINGS'
  | 'API_TOKEN'
  | 'WEBHOOK'
  | 'INVOICE'
  | 'SETTLEMENT';

/** A record found by id: its kind, its name ("117", "Maria Lopez", "demo-truck-07") and a user's e-mail. */
export interface LinkedRecord {
  kind: RecordKind;
  label: string;
  email?: string | null;
}
/**
 * Linked records of the page by id; undefined for an id that is not (or no longer) on file. `units`:
 * the organization's unit system, in which distances, lengths and speeds are written (metric unless said).
 */
export type Lookup = ((id: unknown) => LinkedRecord | undefined) & { readonly units?: UnitSystem };

/** One log row as the wording needs it. */
export interface ActivityFacts {
  action: string;
  entityType: string;
  entityId: string | null;
  actorUserId: string | null;
  /** From actorLabel(). */
  actorLabel: string;
  before: unknown;
  after: unknown;
}

const NOUN: Record<RecordKind, string> = {
  VEHICLE: 'vehicle',
  TRAILER: 'trailer',
  DRIVER: 'driver',
  DEVICE: 'device',
  USER: 'user',
  ROLE: 'role',
  GROUP: 'group',
  ORGANIZATION: 'organization',
  DATA_RETENTION: 'data retention',
  DEVICE_MODEL: 'device model',
  IFTA_FUEL_PURCHASE: 'fuel purchase',
  FUEL_TRANSACTION: 'fuel-card transaction',
  FUEL_CARD: 'fuel card',
  FUEL_IMPORT_PRESET: 'fuel-card import preset',
  IFTA_ADJUSTMENT: 'IFTA mileage adjustment',
  IFTA_FILING: 'IFTA return',
  IFTA_RATES: 'IFTA tax rates',
  WORK_ORDER: 'work order',
  MAINTENANCE_SCHEDULE: 'maintenance schedule',
  PLACE: 'place',
  LOAD: 'load',
  TERMINAL: 'home terminal',
  CUSTOMER: 'customer',
  SAFETY_EVENT: 'safety event',
  SAFETY_SETTINGS: 'safety settings',
  API_TOKEN: 'API token',
  WEBHOOK: 'webhook',
  INVOICE: 'invoice',
  SETTLEMENT: 'settlement',
};

/** Every entity type recordActivity writes: its label in filters and the kind of its records. */
export const ENTITY_TYPES: Record<string, { label: string; kind: RecordKind | null }> = {
  ASSET: { label: 'Vehicle or trailer', kind: null },
  DRIVER: { label: 'Driver', kind: 'DRIVER' },
  GATEWAY: { label: 'Device', kind: 'DEVICE' },
  USER: { label: 'User', kind: 'USER' },
  ROLE: { label: 'Role', kind: 'ROLE' },
  GROUP: { label: 'Group', kind: 'GROUP' },
  ORGANIZATION: { label: 'Organization', kind: 'ORGANIZATION' },
  DATA_RETENTION: { label: 'Data retention', kind: 'DATA_RETENTION' },
  DEVICE_MODEL: { label: 'Device model', kind: 'DEVICE_MODEL' },
  IFTA_FUEL_PURCHASE: { label: 'Fuel purchase', kind: 'IFTA_FUEL_PURCHASE' },
  IFTA_ADJUSTMENT: { label: 'IFTA mileage adjustment', kind: 'IFTA_ADJUSTMENT' },
  FUEL_TRANSACTION: { label: 'Fuel-card transaction', kind: 'FUEL_TRANSACTION' },
  FUEL_CARD: { label: 'Fuel card', kind: 'FUEL_CARD' },
  FUEL_IMPORT_PRESET: { label: 'Fuel-card import preset', kind: 'FUEL_IMPORT_PRESET' },
  IFTA_FILING: { label: 'IFTA return', kind: 'IFTA_FILING' },
  IFTA_RATES: { label: 'IFTA tax rates', kind: 'IFTA_RATES' },
  WORK_ORDER: { label: 'Work order', kind: 'WORK_ORDER' },
  MAINTENANCE_SCHEDULE: { label: 'Maintenance schedule', kind: 'MAINTENANCE_SCHEDULE' },
  PLACE: { label: 'Place', kind: 'PLACE' },
  LOAD: { label: 'Load', kind: 'LOAD' },
  TERMINAL: { label: 'Home terminal', kind: 'TERMINAL' },
  CUSTOMER: { label: 'Customer', kind: 'CUSTOMER' },
  SAFETY_EVENT: { label: 'Safety event', kind: 'SAFETY_EVENT' },
  SAFETY_SETTINGS: { label: 'Safety settings', kind: 'SAFETY_SETTINGS' },
  API_TOKEN: { label: 'API token', kind: 'API_TOKEN' },
  WEBHOOK: { label: 'Webhook', kind: 'WEBHOOK' },
  INVOICE: { label: 'Invoice', kind: 'INVOICE' },
  SETTLEMENT: { label: 'Driver settlement', kind: 'SETTLEMENT' },
  // Issue 71: a paper of a driver's qualification file or of a vehicle or trailer.
  COMPLIANCE_ITEM: { label: 'Compliance paper', kind: null },
  // Facts derived from positions, corrected by a recompute (DERIVED_FACTS, decision 0238).
  PLACE_VISIT: { label: 'Place visit', kind: null },
  TRIP: { label: 'Trip', kind: null },
  VEHICLE_STOP: { label: 'Vehicle stop', kind: null },
  FUEL_EVENT: { label: 'Fuel-level event', kind: null },
};

/** Entity types of facts derived from positions (a recompute's corrections name them). */
const DERIVED_FACTS = new Set(['PLACE_VISIT', 'TRIP', 'VEHICLE_STOP', 'FUEL_EVENT']);

// Screens of the web app (apps/web/src/app/routes.ts) that open a record. The registry lists open
// a record's drawer from `?open=<id>`; users and roles are found by the list's search.
const ORG_SETTINGS = '/settings/organization-settings';

/** Web path that shows the record, or null when it has no screen. */
export function recordPath(kind: RecordKind, id: string, linked?: LinkedRecord): string | null {
  const q = encodeURIComponent;
  switch (kind) {
    case 'VEHICLE':
      return `${ORG_SETTINGS}/vehicles?open=${q(id)}`;
    case 'TRAILER':
      return `${ORG_SETTINGS}/trailers?open=${q(id)}`;
    case 'DRIVER':
      return `${ORG_SETTINGS}/all-drivers?open=${q(id)}`;
    case 'DEVICE':
      return `${ORG_SETTINGS}/devices/${q(id)}`;
    case 'GROUP':
      return `${ORG_SETTINGS}/groups/${q(id)}/members`;
    case 'USER':
      return `${ORG_SETTINGS}/user-and-roles?u.search=${q(linked?.email ?? linked?.label ?? '')}`;
    case 'ROLE':
      return `${ORG_SETTINGS}/user-and-roles?tab=roles&r.search=${q(linked?.label ?? '')}`;
    case 'ORGANIZATION':
      return `${ORG_SETTINGS}/organization-account`;
    case 'DATA_RETENTION':
      return '/settings/data-retention';
    case 'SAFETY_EVENT':
      return `/safety?event=${q(id)}`;
    case 'SAFETY_SETTINGS':
      return '/safety/settings';
    case 'API_TOKEN':
      return `${ORG_SETTINGS}/api-tokens`;
    case 'WEBHOOK':
      return `${ORG_SETTINGS}/webhooks`;
    case 'DEVICE_MODEL':
      return '/administration/device-models';
    case 'IFTA_FUEL_PURCHASE':
      return '/ifta?tab=fuel';
    case 'FUEL_TRANSACTION':
    case 'FUEL_CARD':
    case 'FUEL_IMPORT_PRESET':
      return '/fuel-transactions';
    case 'IFTA_ADJUSTMENT':
      return '/ifta?tab=adjustments';
    case 'IFTA_FILING':
      return '/ifta';
    case 'IFTA_RATES':
      return '/administration/ifta-rates';
    // The office's maintenance screens (issue 31) open the record in place.
    case 'WORK_ORDER':
      return `/maintenance/work-orders?open=${q(id)}`;
    case 'MAINTENANCE_SCHEDULE':
      return `/maintenance/schedules?open=${q(id)}`;
    // Issue 32: a place's own page (its shape, visits and detention).
    case 'PLACE':
      return `/places/${q(id)}`;
    // Issue 33: a load's page on the dispatch board.
    case 'LOAD':
      return `/dispatch/loads/${q(id)}`;
    // Issue 46: the organization's home terminals, in settings.
    case 'TERMINAL':
      return `${ORG_SETTINGS}/terminals`;
    // Issue 70: the customers loads are for, beside the loads board.
    case 'CUSTOMER':
      return `/dispatch/customers?open=${q(id)}`;
    // Issue 70: an invoice's own page.
    case 'INVOICE':
      return `/invoices/${q(id)}`;
    // Issue 70: a driver's settlement.
    case 'SETTLEMENT':
      return `/settlements/${q(id)}`;
  }
}

/** Who did it: the user's name, else the e-mail, else "System" (scheduled jobs, seeding). */
export function actorLabel(a: { userId: string | null; email: string | null; name: string | null; tokenName?: string | null }): string {
  // A change made through an API token is the token's (issue 48): its name says which integration.
  if (a.tokenName) return `API token “${a.tokenName}”`;
  if (a.name) return a.name;
  if (a.email && a.email !== 'system') return a.email;
  return 'System';
}

// ---------------------------------------------------------------- values

const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
/** A send to FMCSA's outcome in words (decision 0185). */
const ELD_TRANSFER_OUTCOMES: Record<string, string> = {
  VALID: 'valid',
  ERROR: 'the file has errors',
  WARNING: 'accepted with warnings',
  INFORMATION: 'received',
  NOT_VALIDATED: 'not validated',
  SENT: 'sent',
  FAILED: 'failed',
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);
const num = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

/** "a", "a and b", "a, b and c". */
export function joinAnd(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const instantFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' });
/** A stored day or instant in words; instants in UTC, said so (the log has no reader's zone). */
function formatDate(v: string): string {
  const day = DAY.test(v);
  const d = new Date(day ? `${v}T12:00:00Z` : v);
  if (Number.isNaN(d.getTime())) return v;
  return day ? dayFormat.format(d) : `${instantFormat.format(d)} UTC`;
}

const PERMISSION_LABEL = new Map<string, string>(PERMISSION_AREAS.flatMap((a) => a.permissions.map((p) => [p.code, p.label] as [string, string])));
const ENUM_LABEL: Record<string, Record<string, string>> = {
  status: { ACTIVE: 'Active', INACTIVE: 'Inactive', INVITED: 'Invited', OPEN: 'Open', IN_PROGRESS: 'In progress', DONE: 'Done' },
  type: { VEHICLE: 'Vehicle', TRAILER: 'Trailer' },
  role: { ADMIN: 'Administrator', USER: 'User', SUPER_ADMIN: 'Super administrator' },
  fuelType: Object.fromEntries(FUEL_TYPES),
  trailerType: Object.fromEntries(TRAILER_TYPES),
  licenseClass: { A: 'Class A CDL', B: 'Class B CDL', C: 'Class C CDL', NON_CDL: 'Non-CDL' },
  ruleset: RULESET_LABELS,
  defaultRuleset: RULESET_LABELS,
  units: Object.fromEntries(UNIT_SYSTEM_DETAILS.map((u) => [u.id, u.label])),
  defaultTheme: { light: 'Light', dark: 'Dark' },
  memberType: { USER: 'User', DRIVER: 'Driver' },
};

/** Fields holding the id of another record, and the field of the same snapshot that names it. */
const LINK_FIELDS: Record<string, string | null> = {
  currentDriverId: null,
  driverId: 'driverName',
  driverPreviousVehicleId: null,
  vehicleId: 'vehicleUnit',
  trailerId: 'trailerUnit',
  assetId: 'unitNumber',
  gatewayId: 'uniqueId',
  deviceModelId: null,
  roleId: null,
  userId: null,
  groupId: null,
  createdByUserId: null,
  customerId: null,
};
/** Fields that only name a linked id of the same snapshot: shown through that id, not twice. */
const COMPANIONS = new Map(Object.entries(LINK_FIELDS).flatMap(([id, companion]) => (companion ? [[companion, id] as const] : [])));
const BOOKKEEPING = new Set(['id', 'organizationId', 'createdAt', 'updatedAt']);
/** Fields a link action stores to name things as they were, not changes of the record: its sentence says them. */
const CONTEXT: Record<string, readonly string[]> = {
  ASSIGN_DRIVER: ['unitNumber', 'driverPreviousVehicleId', 'cardNumber'],
  RECORD_PAYMENT: ['currency', 'paymentId'],
  REMOVE_PAYMENT: ['currency', 'paymentId'],
};
const RETENTION_KIND_SET = new Set(Object.keys(RETENTION_KIND_INFO));

/** Names a linked id: by the name stored beside it (the name at the time), else as on file now. */
function linkName(lookup: Lookup, id: unknown, companion?: unknown): string {
  return text(companion) ?? lookup(id)?.label ?? 'a deleted record';
}

/** `{ memberType, memberId }` or an asset id, as "driver Luis Ortiz" / "vehicle 117". */
function memberPhrase(lookup: Lookup, m: unknown): string {
  if (isObject(m)) {
    const linked = lookup(m.memberId);
    const noun = m.memberType === 'DRIVER' ? 'driver' : 'user';
    return linked ? `${noun} ${linked.label}` : `a deleted ${noun}`;
  }
  const linked = lookup(m);
  return linked ? `${NOUN[linked.kind]} ${linked.label}` : 'a deleted vehicle or trailer';
}

/**
 * One field's value in words; null when empty. `side` is the snapshot it comes from (for the name
 * stored beside a linked id), `entityType` the entry's (a retention kind is a field there).
 */
export function formatValue(entityType: string, field: string, value: unknown, side: unknown, lookup: Lookup): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (field in LINK_FIELDS) return linkName(lookup, value, obj(side)[LINK_FIELDS[field] ?? '']);
  if (entityType === 'DATA_RETENTION' && RETENTION_KIND_SET.has(field)) return typeof value === 'number' ? plural(value, 'day') : String(value);
  if (entityType === 'DATA_RETENTION' && (field === 'removed' || field === 'olderThan') && isObject(value)) {
    const per = Object.entries(value).map(([kind, v]) => `${fieldLabel(entityType, kind)}: ${typeof v === 'number' ? num(v) : formatDate(String(v))}`);
    return per.join('; ') || null;
  }
  if (entityType === 'GROUP' && (field === 'added' || field === 'removed') && Array.isArray(value)) {
    return value.length ? value.map((m) => memberPhrase(lookup, m)).join(', ') : null;
  }
  // Stored metric, written in the organization's units.
  const units = lookup.units ?? 'METRIC';
  switch (field) {
    case 'odometerM':
      return typeof value === 'number' ? `${num(distanceFromKm(value / 1000, units), 1)} ${UNIT_LABELS[units].distance}` : String(value);
    case 'lengthM':
      return typeof value === 'number' ? `${num(lengthFromM(value, units), units === 'IMPERIAL' ? 1 : 2)} ${UNIT_LABELS[units].length}` : String(value);
    case 'tankCapacityL':
      return typeof value === 'number' ? `${num(volumeFromL(value, units), 1)} ${UNIT_LABELS[units].volume}` : String(value);
    case 'speedLimitKmh':
      return typeof value === 'number' ? `${num(speedFromKmh(value, units))} ${UNIT_LABELS[units].speed}` : String(value);
    case 'radiusM':
      return typeof value === 'number' ? `${num(lengthFromM(value, units), 0)} ${UNIT_LABELS[units].length}` : String(value);
    case 'geometry':
      // A shape in words: its kind and size, not its coordinates.
      return isObject(value) && value.type === 'Polygon' && Array.isArray(value.coordinates)
        ? `Polygon of ${Math.max(0, ((value.coordinates[0] as unknown[] | undefined)?.length ?? 1) - 1)} corners`
        : isObject(value) && value.type === 'Point'
          ? 'Circle'
          : String(value);
    case 'everyM':
      return typeof value === 'number' ? `${num(distanceFromKm(value / 1000, units), 1)} ${UNIT_LABELS[units].distance}` : String(value);
    // Money in cents (work orders; invoices, issue 70), in the entry's currency when it names one.
    case 'costCents':
    case 'totalCents':
    case 'paidCents':
    case 'amountCents': {
      if (typeof value !== 'number') return String(value);
      const amount = (value / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      const currency = text(obj(side).currency);
      return currency ? `${amount} ${currency}` : amount;
    }
    case 'defectIds':
      return Array.isArray(value) ? (value.length ? plural(value.length, 'defect') : null) : String(value);
    case 'profileImageId':
    case 'logoImageId':
      return 'Uploaded';
    case 'permissions':
      return Array.isArray(value) ? value.map((p) => PERMISSION_LABEL.get(String(p)) ?? String(p)).join(', ') || null : String(value);
  }
  const enumLabel = ENUM_LABEL[field]?.[String(value)];
  if (enumLabel) return enumLabel;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return DAY.test(value) || INSTANT.test(value) ? formatDate(value) : value;
  if (Array.isArray(value))
    return (
      value
        .map((v) => formatValue(entityType, field, v, side, lookup))
        .filter(Boolean)
        .join(', ') || null
    );
  if (isObject(value)) {
    const parts = Object.entries(value).map(
      ([k, v]) => `${fieldLabel(entityType, k, lookup.units)}: ${formatValue(entityType, k, v, value, lookup) ?? 'none'}`,
    );
    return parts.join('; ') || null;
  }
  return String(value);
}

// ---------------------------------------------------------------- field labels

const COMMON_LABELS: Record<string, string> = {
  id: 'Id',
  organizationId: 'Organization',
  createdAt: 'Created',
  updatedAt: 'Last changed',
  name: 'Name',
  description: 'Description',
  notes: 'Notes',
  status: 'Status',
  email: 'E-mail',
  phone: 'Phone',
  firstName: 'First name',
  lastName: 'Last name',
  // Snapshots of the link actions (assign, attach, pair).
  driverId: 'Driver',
  driverName: 'Driver',
  driverPreviousVehicleId: "Driver's previous vehicle",
  vehicleId: 'Vehicle',
  vehicleUnit: 'Vehicle',
  trailerId: 'Trailer',
  trailerUnit: 'Trailer',
  gatewayId: 'Device',
  uniqueId: 'Unique id (IMEI or serial)',
  assetId: 'Vehicle',
  unitNumber: 'Unit number',
  // Nested in the organization's settings.
  isEnabled: 'Available',
  defaultTheme: 'Default theme',
  idleMinutes: 'Idle after (minutes)',
  offlineMinutes: 'Offline after (minutes)',
  speedLimitKmh: 'Speeding above',
  freeMinutes: 'Detention free time (minutes)',
  radiusM: 'Fuel station radius (m)',
  cardLast4: 'Card (last 4 digits)',
  windowMinutes: 'Fuel purchase time window (± minutes)',
};
/** Fields whose label names the unit their value is written in (the organization's). */
const UNIT_OF_FIELD: Record<string, keyof (typeof UNIT_LABELS)[UnitSystem]> = { speedLimitKmh: 'speed' };

/** Labels per entity type, over COMMON_LABELS; the wording test checks every stored column has one. */
export const FIELD_LABELS: Record<string, Record<string, string>> = {
  ASSET: {
    type: 'Type',
    vin: 'VIN',
    make: 'Make',
    model: 'Model',
    year: 'Year',
    plate: 'Licence plate',
    plateState: 'Plate state or province',
    fuelType: 'Fuel type (IFTA)',
    iftaQualified: 'IFTA-qualified',
    odometerM: 'Odometer',
    trailerType: 'Trailer type',
    lengthM: 'Length',
    tankCapacityL: 'Tank capacity',
    currentDriverId: 'Current driver',
  },
  DRIVER: {
    employeeId: 'Employee id',
    licenseNumber: 'Licence number',
    licenseState: 'Licence state or province',
    licenseClass: 'Licence class',
    licenseExpiry: 'Licence expiry',
    homeTimeZone: 'Home terminal time zone',
    homeTerminalId: 'Home terminal',
    ruleset: 'HoS ruleset',
    shortHaul150: 'Short-haul 150 air-mile exemption',
    sixteenHour: '16-hour short-haul exception',
    oilfield: 'Oilfield operations (§395.1(d))',
    personalConveyanceAllowed: 'Personal conveyance allowed',
    yardMovesAllowed: 'Yard moves allowed',
    eldExempt: 'Exempt from the ELD rule',
    eldExemptReason: 'ELD exemption reason',
    userId: 'Sign-in account',
    cardNumber: 'Driver card',
  },
  GATEWAY: {
    deviceModelId: 'Device model',
    phone: 'SIM phone number',
    firmware: 'Firmware',
    lastSeenAt: 'Last seen',
    ingestTokenHash: 'Ingest token',
    useReceivedTime: 'Use the time received',
  },
  USER: {
    username: 'Username',
    position: 'Position',
    timeZone: 'Time zone',
    role: 'Account type',
    roleId: 'Role',
    passwordHash: 'Password',
    profileImageId: 'Profile photo',
    lastLoginAt: 'Last sign-in',
    sessionEpoch: 'Sessions ended',
  },
  ROLE: { permissions: 'Permissions', builtIn: 'Built-in', systemRole: 'Built-in role' },
  GROUP: { added: 'Added', removed: 'Removed', assetId: 'Vehicle or trailer' },
  ORGANIZATION: {
    timeZone: 'Time zone',
    dotNumber: 'USDOT number',
    mcNumber: 'MC number',
    addressLine1: 'Address line 1',
    addressLine2: 'Address line 2',
    city: 'City',
    state: 'State or province',
    postalCode: 'ZIP or postal code',
    country: 'Country',
    logoImageId: 'Logo',
    settings: 'Settings',
    units: 'Units',
    periodStartTime: '24-hour period starts at',
    defaultRuleset: 'Default HoS ruleset',
    darkMode: 'Dark mode',
    telematics: 'Idle and offline thresholds',
    detention: 'Detention',
    fuelCards: 'Fuel-card checks',
    complianceExpiringDays: 'Compliance papers expiring within (days)',
    ingestTokenHash: 'Device forwarding token',
    ingestTokenCreatedAt: 'Device forwarding token created',
    ingestTokenLastUsedAt: 'Device forwarding token last used',
  },
  DATA_RETENTION: {
    ...Object.fromEntries(Object.values(RETENTION_KIND_INFO).map((k) => [k.kind, k.label])),
    removed: 'Removed',
    olderThan: 'Older than',
  },
  DEVICE_MODEL: { manufacturer: 'Manufacturer', protocol: 'Protocol', ioMap: 'IO map' },
  TERMINAL: {
    addressLine1: 'Address',
    city: 'City',
    state: 'State or province',
    postalCode: 'ZIP or postal code',
    timeZone: 'Time zone',
    driversMoved: 'Drivers moved to the new time zone',
  },
  CUSTOMER: {
    billingAddress: 'Billing address',
    invoiceEmail: 'Invoice e-mail',
    paymentTermsDays: 'Payment terms (days)',
    detentionFreeMinutes: 'Detention free time (minutes)',
    detentionCentsPerHour: 'Detention rate (cents per hour)',
    requiresPod: 'Requires proof of delivery',
    loadsRenamed: 'Loads renamed',
  },
  WORK_ORDER: {
    assetId: 'Vehicle or trailer',
    title: 'Title',
    assignee: 'Mechanic or shop',
    parts: 'Parts',
    laborHours: 'Labour hours',
    costCents: 'Cost',
    scheduleId: 'Maintenance schedule',
    defectIds: 'Defects',
    createdByUserId: 'Created by',
    completedAt: 'Completed',
  },
  MAINTENANCE_SCHEDULE: { groupId: 'Group', everyM: 'Every (distance)', everyEngineHours: 'Every (engine hours)', everyDays: 'Every (days)' },
  PLACE: {
    category: 'Category',
    geometry: 'Shape',
    radiusM: 'Radius',
    arrivalDwellS: 'Arrival dwell (seconds)',
    departureDwellS: 'Departure dwell (seconds)',
    groupId: 'Group',
    address: 'Address',
    minLat: 'South edge',
    minLon: 'West edge',
    maxLat: 'North edge',
    maxLon: 'East edge',
  },
  INVOICE: {
    number: 'Invoice number',
    customerId: 'Customer',
    customerName: 'Customer',
    billingAddress: 'Billing address',
    currency: 'Currency',
    invoiceDate: 'Invoice date',
    dueDate: 'Due date',
    termsDays: 'Payment terms (days)',
    totalCents: 'Total',
    paidCents: 'Paid',
    sentAt: 'Sent',
    sentTo: 'Sent to',
    voidedAt: 'Voided',
    voidReason: 'Reason for voiding',
    createdBy: 'Created by',
    createdByToken: 'Created by API token',
    loadNumbers: 'Loads',
    lines: 'Lines',
    paymentId: 'Payment',
    amountCents: 'Amount',
    receivedOn: 'Received on',
    reference: 'Reference',
  },
  LOAD: {
    number: 'Load number',
    customer: 'Customer',
    customerId: 'Customer in the registry',
    customerPlaceId: 'Customer place',
    bolNumber: 'BOL number',
    poNumber: 'PO number',
    commodity: 'Commodity',
    weightKg: 'Weight (kg)',
    lineHaulCents: 'Line haul (cents)',
    fuelSurchargeCents: 'Fuel surcharge (cents)',
    accessorials: 'Accessorials',
    currency: 'Currency',
    driverId: 'Lead driver',
    coDriverId: 'Co-driver',
    assetId: 'Tractor',
    loadedM: 'Loaded distance (m)',
    atRisk: 'At risk',
    riskReason: 'Risk reason',
    riskNotifiedAt: 'Risk notified',
    etaUpdatedAt: 'ETA updated',
    deliveredAt: 'Delivered',
    stops: 'Stops',
    // A stop's snapshot (stop events, stops from place visits).
    seq: 'Stop number',
    kind: 'Stop kind',
    arrivedAt: 'Arrived',
    departedAt: 'Departed',
    arrivalSource: 'Arrival from',
    departureSource: 'Departure from',
    placeVisitId: 'Place visit',
    // Reefer settings (issue 73, decision 0320).
    reeferSetPointC: 'Reefer set point (°C)',
    reeferToleranceC: 'Reefer tolerance (°C)',
    reeferDelayMinutes: 'Reefer excursion delay (min)',
  },
};

/** True when the field has a written label (not the camelCase fallback). */
export const hasFieldLabel = (entityType: string, field: string) => !!(FIELD_LABELS[entityType]?.[field] ?? COMMON_LABELS[field]);

/**
 * "Odometer" for odometerM; an unknown field reads as its name in words ("someField" -> "Some field").
 * A field whose label names a unit names the organization's (`units`, metric unless said).
 */
export function fieldLabel(entityType: string, field: string, units: UnitSystem = 'METRIC'): string {
  const known = FIELD_LABELS[entityType]?.[field] ?? COMMON_LABELS[field];
  const unit = UNIT_OF_FIELD[field];
  if (known) return unit ? `${known} (${UNIT_LABELS[units][unit]})` : known;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The difference for a reader: bookkeeping and context left out, a linked id and its stored name
 * shown once, and no link from the record to itself (a device's pairing names the device).
 */
export function labelledChanges(f: Pick<ActivityFacts, 'action' | 'entityType' | 'entityId' | 'before' | 'after'>, lookup: Lookup): ActivityLabelledChange[] {
  const { entityType, before, after } = f;
  const context = CONTEXT[f.action] ?? [];
  const isSelf = (c: { field: string; before: unknown; after: unknown }) => c.field in LINK_FIELDS && !!f.entityId && (c.after ?? c.before) === f.entityId;
  const changed = diff(before, after).filter((c) => !BOOKKEEPING.has(c.field) && !context.includes(c.field));
  const fields = new Set(changed.map((c) => c.field));
  return changed
    .filter((c) => !isSelf(c) && !(COMPANIONS.has(c.field) && fields.has(COMPANIONS.get(c.field) ?? '')))
    .map((c) => ({
      field: c.field,
      label: fieldLabel(entityType, c.field, lookup.units),
      before: formatValue(entityType, c.field, c.before, before, lookup),
      after: formatValue(entityType, c.field, c.after, after, lookup),
    }));
}

// ---------------------------------------------------------------- the record and the sentence

/** The name a full snapshot of the record carries (the name at the time), if any. */
function snapshotName(entityType: string, s: unknown): string | null {
  const o = obj(s);
  switch (entityType) {
    case 'ASSET':
      return text(o.unitNumber);
    case 'DRIVER':
      return text([text(o.firstName), text(o.lastName)].filter(Boolean).join(' '));
    case 'USER':
      return text([text(o.firstName), text(o.lastName)].filter(Boolean).join(' ')) ?? text(o.email);
    case 'GATEWAY':
      return text(o.uniqueId);
    case 'IFTA_FUEL_PURCHASE':
      return text(o.receiptNumber);
    case 'FUEL_TRANSACTION':
      return text(o.transactionId);
    case 'FUEL_CARD':
      return text(o.cardLast4) ? `ending ${text(o.cardLast4)}` : null;
    case 'IFTA_ADJUSTMENT':
      return text([text(o.jurisdiction), text(o.day)].filter(Boolean).join(' '));
    case 'IFTA_FILING':
    case 'IFTA_RATES':
      return text(o.quarter);
    case 'WORK_ORDER':
      return text(o.title);
    case 'LOAD':
    case 'INVOICE':
    case 'SETTLEMENT':
      return text(o.number);
    case 'WEBHOOK':
      return text(o.description) ?? text(o.url);
    default:
      return text(o.name);
  }
}

/** Vehicle or trailer: from the record on file, the snapshot, or what the action implies. */
function assetKind(f: ActivityFacts, linked: LinkedRecord | undefined): RecordKind {
  if (linked) return linked.kind;
  const type = obj(f.after).type ?? obj(f.before).type;
  if (type === 'TRAILER' || type === 'VEHICLE') return type;
  if (f.action === 'ATTACH_TRAILER' || f.action === 'DETACH_TRAILER') {
    return (obj(f.after).trailerId ?? obj(f.before).trailerId) === f.entityId ? 'TRAILER' : 'VEHICLE';
  }
  return 'VEHICLE';
}

export interface ResolvedRecord {
  record: ActivityRecord | null;
  /** "vehicle 117", as the sentence says it. */
  phrase: string;
}

/** The record an entry concerns: its kind, its name at the time (else now), and the screen that opens it. */
export function resolveRecord(f: ActivityFacts, lookup: Lookup): ResolvedRecord {
  const known = ENTITY_TYPES[f.entityType];
  const linked = f.entityId ? lookup(f.entityId) : undefined;
  if (!known) {
    const phrase = `${f.entityType.toLowerCase().replace(/_/g, ' ')}${f.entityId ? ` ${f.entityId}` : ''}`;
    return { phrase, record: { type: f.entityType, id: f.entityId, label: phrase, path: null } };
  }
  // A fact derived from positions has no screen of its own: named by what it is (decision 0238).
  if (DERIVED_FACTS.has(f.entityType)) {
    const phrase = `a ${known.label.toLowerCase()}`;
    return { phrase, record: { type: f.entityType, id: f.entityId, label: phrase, path: null } };
  }
  // Issue 71: a compliance paper is named by its kind ("the medical certificate"), as the entry stored it.
  if (f.entityType === 'COMPLIANCE_ITEM') {
    const paper = text(obj(f.after).kind) ?? text(obj(f.before).kind);
    const label = paper && Object.hasOwn(COMPLIANCE_KIND_LABELS, paper) ? COMPLIANCE_KIND_LABELS[paper as ComplianceKind].toLowerCase() : 'compliance paper';
    const phrase = `a ${label}`;
    return { phrase, record: { type: f.entityType, id: f.entityId, label: phrase, path: null } };
  }
  const kind = known.kind ?? assetKind(f, linked);
  // Issue 47: an event has no name of its own; the settings are the organization's one set.
  if (kind === 'SAFETY_EVENT' || kind === 'SAFETY_SETTINGS') {
    const phrase = kind === 'SAFETY_EVENT' ? 'a safety event' : 'the safety settings';
    return { phrase, record: { type: kind, id: f.entityId, label: phrase, path: recordPath(kind, f.entityId ?? '') } };
  }
  // Issue 48: tokens and webhooks have no lookup of their own; what is not in the entry is "an API token".
  if (kind === 'API_TOKEN' || kind === 'WEBHOOK') {
    const name = snapshotName(f.entityType, f.after) ?? snapshotName(f.entityType, f.before) ?? linked?.label ?? null;
    const phrase = name ? `${NOUN[kind]} ${name}` : kind === 'WEBHOOK' ? 'a webhook' : 'an API token';
    return { phrase, record: { type: kind, id: f.entityId, label: phrase, path: recordPath(kind, f.entityId ?? '') } };
  }
  if (kind === 'DATA_RETENTION') {
    const phrase = 'the data retention periods';
    return { phrase, record: { type: kind, id: f.entityId, label: phrase, path: recordPath(kind, f.entityId ?? '') } };
  }
  const name = snapshotName(f.entityType, f.after) ?? snapshotName(f.entityType, f.before) ?? linked?.label ?? null;
  const phrase = name ? `${NOUN[kind]} ${name}` : `a deleted ${NOUN[kind]}`;
  const path = linked && f.entityId ? recordPath(kind, f.entityId, linked) : null;
  return { phrase, record: { type: kind, id: f.entityId, label: phrase, path } };
}

interface Ctx {
  /** The record, as the sentence names it, and its kind. */
  r: string;
  kind: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** The actor is the user the entry is about (own password, own photo). */
  self: boolean;
  f: ActivityFacts;
  lookup: Lookup;
}

const changedList = (c: Ctx) => {
  const labels = [...new Set(labelledChanges(c.f, c.lookup).map((x) => x.label))];
  if (labels.length === 0) return null;
  return labels.length > 5 ? `${labels.slice(0, 4).join(', ')} and ${labels.length - 4} more` : labels.join(', ');
};
/**
 * The other record of a link action ("driver Luis Ortiz" of an assignment): by the name stored in
 * the snapshot, else as on file. A snapshot without it (seeded rows) may mean the entry's own record.
 */
function other(c: Ctx, kind: 'DRIVER' | 'DEVICE' | 'VEHICLE' | 'TRAILER', s: Record<string, unknown>, idField: string, nameField: string): string {
  const name = text(s[nameField]) ?? c.lookup(s[idField])?.label;
  if (name) return `${NOUN[kind]} ${name}`;
  const id = s[idField];
  if (c.kind === kind && (id === undefined || id === null || id === c.f.entityId)) return c.r;
  return `a deleted ${NOUN[kind]}`;
}
const driverOf = (c: Ctx, s: Record<string, unknown>) => other(c, 'DRIVER', s, 'driverId', 'driverName');
const deviceOf = (c: Ctx, s: Record<string, unknown>) => other(c, 'DEVICE', s, 'gatewayId', 'uniqueId');
const vehicleOf = (c: Ctx, s: Record<string, unknown>, idField: string, nameField: string) => other(c, 'VEHICLE', s, idField, nameField);
const trailerOf = (c: Ctx, s: Record<string, unknown>) => other(c, 'TRAILER', s, 'trailerId', 'trailerUnit');
/** " (moved from vehicle 120)" when the driver or trailer left another vehicle for this one. */
const movedFrom = (c: Ctx, vehicleId: unknown) => (vehicleId ? ` (moved from ${phraseOrDeleted(c.lookup(vehicleId), 'vehicle')})` : '');
const phraseOrDeleted = (linked: LinkedRecord | undefined, noun: string) => (linked ? `${NOUN[linked.kind]} ${linked.label}` : `a deleted ${noun}`);
const whose = (c: Ctx, thing: string) => (c.self ? `their ${thing}` : `the ${thing} of ${c.r}`);

/** Several members or assets: named up to three, counted beyond. */
function listed(c: Ctx, items: unknown[], many: (n: number) => string): string {
  if (items.length === 0) return 'nothing new';
  if (items.length <= 3) return joinAnd(items.map((m) => memberPhrase(c.lookup, m)));
  return many(items.length);
}
const assetCount = (c: Ctx, ids: unknown[]) => {
  const kinds = ids.map((id) => c.lookup(id)?.kind);
  const v = kinds.filter((k) => k === 'VEHICLE').length;
  const t = kinds.filter((k) => k === 'TRAILER').length;
  const gone = ids.length - v - t;
  return joinAnd([v ? plural(v, 'vehicle') : '', t ? plural(t, 'trailer') : '', gone ? plural(gone, 'deleted asset') : ''].filter(Boolean));
};

/** What the retention purge removed, per kind: "1,204 positions older than Mar 3, 2026". */
const PURGED: Record<RetentionKind, [string, string]> = {
  POSITIONS: ['position', 'positions'],
  HOS_RECORDS: ['hours-of-service record', 'hours-of-service records'],
  INSPECTIONS: ['vehicle inspection report', 'vehicle inspection reports'],
  ACTIVITY_LOG: ['activity-log entry', 'activity-log entries'],
  FUEL_IFTA: ['fuel or IFTA record', 'fuel and IFTA records'],
  NOTIFICATIONS: ['notification', 'notifications'],
};
function purged(c: Ctx): string {
  const removed = obj(c.after.removed);
  const cutoffs = obj(c.after.olderThan);
  const parts = Object.entries(removed).map(([kind, n]) => {
    const [one, many] = PURGED[kind as RetentionKind] ?? [`${kind.toLowerCase()} row`, `${kind.toLowerCase()} rows`];
    const cutoff = text(cutoffs[kind]);
    // The cutoff is an instant (run time minus the period); the day says enough.
    return `${typeof n === 'number' ? plural(n, one, many) : many}${cutoff ? ` older than ${formatDate(cutoff.slice(0, 10))}` : ''}`;
  });
  return parts.length ? `purged ${joinAnd(parts)}` : 'ran the retention purge';
}

interface Wording {
  /** The action in the filter drop-down. */
  label: string;
  /** The sentence after the actor's name. */
  says: (c: Ctx) => string;
}

/** Stops are numbered from 0 (decision 0166); people count from 1. */
const stopOf = (s: Record<string, unknown>) => (typeof s.seq === 'number' ? `stop ${s.seq + 1}` : 'a stop');
const paperOf = (s: Record<string, unknown>) =>
  (({ BOL: 'a bill of lading', POD: 'a proof of delivery', LUMPER: 'a lumper receipt', SCALE: 'a scale ticket' }) as Record<string, string>)[String(s.kind)] ??
  'a document';

/** " of 1,250.00 USD": a payment's amount in its entry's currency. */
const moneyOf = (s: Record<string, unknown>) =>
  typeof s.amountCents === 'number'
    ? ` of ${(s.amountCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${text(s.currency) ? ` ${text(s.currency)}` : ''}`
    : '';

/** "the deduction “Truck lease” ($350.00, every settlement)". */
const adjustmentOf = (s: Record<string, unknown>) => {
  const what = s.adjustmentType === 'REIMBURSEMENT' ? 'the reimbursement' : 'the deduction';
  const amount = typeof s.amount === 'number' ? `$${s.amount.toFixed(2)}` : null;
  const when = s.recurrence === 'ONCE' ? 'once' : s.recurrence === 'EACH_SETTLEMENT' ? 'every settlement' : null;
  const facts = [amount, when].filter(Boolean).join(', ');
  return `${what}${text(s.description) ? ` “${text(s.description)}”` : ''}${facts ? ` (${facts})` : ''}`;
};

/** Every action code recordActivity writes (the wording test fails on a code missing here). */
export const ACTIONS: Record<string, Wording> = {
  CREATE: { label: 'Create', says: (c) => `created ${c.r}` },
  // Integrations (issue 48, decision 0197-0198).
  REVOKE: { label: 'Revoke', says: (c) => `revoked ${c.r}` },
  DISABLE: { label: 'Turn off', says: (c) => `turned off ${c.r}` },
  ROTATE_SECRET: { label: 'Rotate secret', says: (c) => `rotated the signing secret of ${c.r}` },
  RESEND: { label: 'Resend delivery', says: (c) => `sent a delivery of ${c.r} again` },
  TEST: { label: 'Send test event', says: (c) => `sent a test event to ${c.r}` },
  // Loads (issue 33, decision 0166).
  ASSIGN_LOAD: { label: 'Assign load', says: (c) => (c.after.driverId ? `assigned ${c.r} to ${driverOf(c, c.after)}` : `unassigned ${c.r}`) },
  LOAD_STATUS: {
    label: 'Change load status',
    says: (c) =>
      `marked ${c.r} ${({ CANCELLED: 'cancelled', PLANNED: 'planned again', DELIVERED: 'delivered' } as Record<string, string>)[String(c.after.status)] ?? 'with a new status'}`,
  },
  STOP_ARRIVE: { label: 'Arrive at stop', says: (c) => `marked the arrival at ${stopOf(c.after)} of ${c.r}` },
  STOP_DEPART: { label: 'Depart from stop', says: (c) => `marked the departure from ${stopOf(c.after)} of ${c.r}` },
  STOPS_FROM_PLACES: { label: 'Stop times from places', says: (c) => `took stop times of ${c.r} from place visits` },
  // A recompute from positions found a recorded fact different, or no longer (decision 0238).
  CORRECTION: {
    label: 'Correction from positions',
    says: (c) => (Object.keys(c.after).length ? `corrected ${c.r} from its positions` : `withdrew ${c.r}: its positions no longer show it`),
  },
  // Compliance papers (issue 71, decision 0300): the office decides a driver's renewal.
  APPROVE_COMPLIANCE_ITEM: { label: 'Approve compliance paper', says: (c) => `approved ${c.r}` },
  REJECT_COMPLIANCE_ITEM: {
    label: 'Reject compliance paper',
    says: (c) => `rejected ${c.r}${text(c.after.rejectReason) ? `: ${text(c.after.rejectReason)}` : ''}`,
  },
  // Invoices (issue 70, decision 0291).
  SEND_INVOICE: { label: 'Send invoice', says: (c) => `e-mailed ${c.r}${text(c.after.sentTo) ? ` to ${text(c.after.sentTo)}` : ''}` },
  RECORD_PAYMENT: {
    label: 'Record payment',
    says: (c) => `recorded a payment${moneyOf(c.after)} on ${c.r}${c.after.status === 'PAID' ? ', paying it in full' : ''}`,
  },
  REMOVE_PAYMENT: { label: 'Remove payment', says: (c) => `removed a payment${moneyOf(c.before)} from ${c.r}` },
  VOID_INVOICE: { label: 'Void invoice', says: (c) => `voided ${c.r}${text(c.after.voidReason) ? `: ${text(c.after.voidReason)}` : ''}` },
  POD_WAIVED: {
    label: 'Proof of delivery waived',
    says: (c) => {
      const seqs = Array.isArray(c.after.stops) ? c.after.stops.map((x) => (isObject(x) && typeof x.seq === 'number' ? x.seq + 1 : '?')) : [];
      const which = seqs.length === 1 ? `stop ${seqs[0]}` : seqs.length ? `stops ${seqs.join(', ')}` : 'a delivery';
      return `let ${which} of ${c.r} be completed without its proof of delivery`;
    },
  },
  ADD_LOAD_DOCUMENT: { label: 'Add load paper', says: (c) => `added ${paperOf(c.after)} to ${c.r}` },
  DELETE_LOAD_DOCUMENT: { label: 'Remove load paper', says: (c) => `removed ${paperOf(c.before)} from ${c.r}` },
  // Driver settlements (issue 70, decision 0294).
  UPDATE_PAY_PROFILE: { label: 'Change pay profile', says: (c) => `changed the pay profile of ${c.r}` },
  ADD_PAY_ADJUSTMENT: { label: 'Add deduction or reimbursement', says: (c) => `added ${adjustmentOf(c.after)} to the pay of ${c.r}` },
  REMOVE_PAY_ADJUSTMENT: { label: 'Remove deduction or reimbursement', says: (c) => `removed ${adjustmentOf(c.before)} from the pay of ${c.r}` },
  APPROVE_SETTLEMENT: { label: 'Approve settlement', says: (c) => `approved ${c.r}` },
  PAY_SETTLEMENT: { label: 'Mark settlement paid', says: (c) => `marked ${c.r} paid` },
  VOID_SETTLEMENT: { label: 'Void settlement', says: (c) => `voided ${c.r}` },
  UPDATE: {
    label: 'Update',
    says: (c) => {
      const what = c.self ? 'their profile' : c.r;
      const list = changedList(c);
      return list ? `changed ${what}: ${list}` : `saved ${what} without changes`;
    },
  },
  DELETE: { label: 'Delete', says: (c) => `deleted ${c.r}` },
  DEACTIVATE: { label: 'Deactivate', says: (c) => `deactivated ${c.r}` },
  ACTIVATE: { label: 'Reactivate', says: (c) => `reactivated ${c.r}` },
  IMPORT: { label: 'Import', says: (c) => `imported ${c.r} from a CSV file` },
  CLOSE: { label: 'File IFTA return', says: (c) => `filed ${c.r}, closing the quarter` },
  AMEND: {
    label: 'Amend IFTA return',
    says: (c) => `filed an amendment of ${c.r}${typeof c.after.version === 'number' ? ` (version ${c.after.version})` : ''}`,
  },
  ASSIGN_DRIVER: {
    label: 'Assign driver',
    // A driver card read in the vehicle (decision 0324) says which card identified the driver.
    says: (c) =>
      `assigned ${driverOf(c, c.after)} to ${c.r}${movedFrom(c, c.before.driverPreviousVehicleId)}${typeof c.after.cardNumber === 'string' ? `, identified by card ${c.after.cardNumber}` : ''}`,
  },
  UNASSIGN_DRIVER: { label: 'Unassign driver', says: (c) => `removed ${driverOf(c, c.before)} from ${c.r}` },
  ATTACH_TRAILER: {
    label: 'Attach trailer',
    says: (c) => `attached ${trailerOf(c, c.after)} to ${vehicleOf(c, c.after, 'vehicleId', 'vehicleUnit')}${movedFrom(c, c.before.vehicleId)}`,
  },
  DETACH_TRAILER: { label: 'Detach trailer', says: (c) => `detached ${trailerOf(c, c.before)} from ${vehicleOf(c, c.before, 'vehicleId', 'vehicleUnit')}` },
  PAIR_DEVICE: { label: 'Pair device', says: (c) => `paired ${deviceOf(c, c.after)} with ${vehicleOf(c, c.after, 'assetId', 'unitNumber')}` },
  UNPAIR_DEVICE: { label: 'Unpair device', says: (c) => `unpaired ${deviceOf(c, c.before)} from ${vehicleOf(c, c.before, 'assetId', 'unitNumber')}` },
  // Commands to devices (issue 73, decision 0318).
  SEND_COMMAND: { label: 'Send device command', says: (c) => `sent the command "${text(c.after.text) ?? ''}" to ${c.r}` },
  REGENERATE_TOKEN: { label: 'New ingest token', says: (c) => `issued a new ingest token for ${c.r}` },
  CREATE_TOKEN: { label: 'Ingest token', says: (c) => `created an ingest token for ${c.r}` },
  INVITE: { label: 'Invite', says: (c) => `invited ${c.r}` },
  RESEND_INVITATION: { label: 'Resend invitation', says: (c) => `sent the invitation to ${c.r} again` },
  SEND_PASSWORD_RESET: { label: 'Send password reset', says: (c) => `sent a password reset link to ${c.r}` },
  ACCEPT_INVITATION: {
    label: 'Accept invitation',
    says: (c) => (c.self ? 'accepted their invitation and set a password' : `accepted the invitation of ${c.r}`),
  },
  RESET_PASSWORD: { label: 'Reset password', says: (c) => (c.self ? 'reset their password from an e-mailed link' : `reset the password of ${c.r}`) },
  CHANGE_PASSWORD: { label: 'Change password', says: (c) => `changed ${whose(c, 'password')}` },
  // Decision 0227: the old address's link puts the e-mail back, ends every session and voids the password.
  UNDO_EMAIL_CHANGE: {
    label: 'Undo e-mail change',
    says: (c) => {
      const back = typeof c.after.email === 'string' ? ` back to ${c.after.email}` : ' back';
      return c.self ? `took their account back: e-mail${back}, every session ended` : `put the e-mail of ${c.r}${back}`;
    },
  },
  LOGOUT_EVERYWHERE: { label: 'Log out everywhere', says: (c) => (c.self ? 'logged out on every device' : `logged ${c.r} out on every device`) },
  UPDATE_IMAGE: { label: 'Change picture', says: (c) => `changed ${whose(c, c.f.entityType === 'ORGANIZATION' ? 'logo' : 'profile photo')}` },
  DELETE_IMAGE: { label: 'Remove picture', says: (c) => `removed ${whose(c, c.f.entityType === 'ORGANIZATION' ? 'logo' : 'profile photo')}` },
  UPDATE_SETTINGS: {
    label: 'Change settings',
    says: (c) => {
      const list = changedList(c);
      return list ? `changed the settings of ${c.r}: ${list}` : `saved the settings of ${c.r} without changes`;
    },
  },
  ADD_MEMBERS: {
    label: 'Add group members',
    says: (c) => `added ${listed(c, Array.isArray(c.after.added) ? c.after.added : [], (n) => plural(n, 'member'))} to ${c.r}`,
  },
  REMOVE_MEMBER: {
    label: 'Remove group member',
    says: (c) => `removed ${listed(c, Array.isArray(c.before.removed) ? c.before.removed : [], (n) => plural(n, 'member'))} from ${c.r}`,
  },
  ADD_ASSETS: {
    label: 'Add group assets',
    says: (c) => {
      const ids = Array.isArray(c.after.added) ? c.after.added : [];
      return `added ${listed(c, ids, () => assetCount(c, ids))} to ${c.r}`;
    },
  },
  REMOVE_ASSET: { label: 'Remove group asset', says: (c) => `removed ${memberPhrase(c.lookup, c.before.assetId)} from ${c.r}` },
  PURGE: { label: 'Purge old data', says: purged },
  EDIT_HOS_EVENT: {
    label: 'Edit HoS event',
    says: (c) => {
      const from = text(c.before.status);
      const to = text(c.after.status);
      const at = text(c.after.at);
      return `edited a duty status in the HoS log of ${c.r}${from && to ? ` from ${from} to ${to}` : ''}${at ? ` at ${formatDate(at)}` : ''}`;
    },
  },
  ADD_HOS_EVENT: {
    label: 'Add HoS event',
    says: (c) => {
      const status = text(c.after.status);
      const special = text(c.after.special);
      const at = text(c.after.at);
      return `added a duty status${status ? ` ${status}${special ? ` (${special})` : ''}` : ''} to the HoS log of ${c.r}${at ? ` at ${formatDate(at)}` : ''}`;
    },
  },
  UPDATE_HOS_LOG: {
    label: 'Edit HoS log header',
    says: (c) => {
      const day = text(c.after.logDate);
      return `changed the shipping documents, trailers or co-driver${day ? ` of log day ${formatDate(day)}` : ''} in the HoS log of ${c.r}`;
    },
  },
  SET_HOS_DEFERRAL: {
    label: 'HoS off-duty deferral',
    says: (c) => {
      const day = text(c.after.logDate);
      const on = day ? ` on log day ${formatDate(day)}` : '';
      return c.after.declared === true
        ? `declared day 1 of an off-duty deferral${on} in the HoS log of ${c.r}`
        : `withdrew the off-duty deferral${on} in the HoS log of ${c.r}`;
    },
  },
  CORRECT_HOS_CROSSING: {
    label: 'HoS border crossing',
    says: (c) => {
      const at = text(c.after.at);
      const was = text(c.before.at);
      const to = text(c.after.to) === 'CA' ? 'into Canada' : text(c.after.to) === 'US' ? 'into the US' : '';
      if (at && was) return `moved a border crossing ${to} from ${formatDate(was)} to ${formatDate(at)} in the HoS log of ${c.r}`;
      if (at) return `entered a border crossing ${to} at ${formatDate(at)} in the HoS log of ${c.r}`;
      return `removed a border crossing${was ? ` at ${formatDate(was)}` : ''} from the HoS log of ${c.r}`;
    },
  },
  DECLARE_HOS: {
    label: 'HoS declaration',
    says: (c) => {
      const kind = text(c.after.kind) || text(c.before.kind);
      const what =
        kind === 'CYCLE_SWITCH'
          ? `a switch to cycle ${text(c.after.cycle) || text(c.before.cycle)}`
          : kind === 'ADVERSE_DRIVING'
            ? 'adverse driving conditions'
            : kind === 'EMERGENCY'
              ? 'an emergency'
              : 'a declaration';
      const at = text(c.after.at);
      if (at) return `declared ${what} at ${formatDate(at)} in the HoS log of ${c.r}`;
      const was = text(c.before.at);
      return `withdrew ${what}${was ? ` at ${formatDate(was)}` : ''} from the HoS log of ${c.r}`;
    },
  },
  PROPOSE_HOS_EDIT: {
    label: 'Propose HoS edit',
    says: (c) => {
      const from = text(c.before.status);
      const to = text(c.after.status);
      const at = text(c.after.at);
      return `proposed to change a duty status in the HoS log of ${c.r}${from && to ? ` from ${from} to ${to}` : ''}${at ? ` at ${formatDate(at)}` : ''}, for the driver to accept`;
    },
  },
  PROPOSE_HOS_EVENT: {
    label: 'Propose HoS event',
    says: (c) => {
      const status = text(c.after.status);
      const at = text(c.after.at);
      return `proposed to add a duty status${status ? ` ${status}` : ''} to the HoS log of ${c.r}${at ? ` at ${formatDate(at)}` : ''}, for the driver to accept`;
    },
  },
  ACCEPT: {
    label: 'Accept',
    says: (c) => `accepted ${c.r}${text(c.after.note) ? `: ${text(c.after.note)}` : ''}`,
  },
  DISPUTE: {
    label: 'Dispute',
    says: (c) => `disputed ${c.r}${text(c.after.note) ? `: ${text(c.after.note)}` : ''}`,
  },
  ACCEPT_HOS_PROPOSAL: {
    label: 'Accept HoS edit',
    says: (c) => `accepted a proposed edit of the HoS log of ${c.r}${text(c.after.logDate) ? ` (log day ${formatDate(text(c.after.logDate)!)})` : ''}`,
  },
  REJECT_HOS_PROPOSAL: {
    label: 'Reject HoS edit',
    says: (c) =>
      `rejected a proposed edit of the HoS log of ${c.r}${text(c.after.logDate) ? ` (log day ${formatDate(text(c.after.logDate)!)})` : ''}${text(c.after.note) ? `: ${text(c.after.note)}` : ''}`,
  },
  CERTIFY_HOS_LOG: {
    label: 'Certify HoS log',
    says: (c) =>
      `certified log day ${text(c.after.logDate) ? formatDate(text(c.after.logDate)!) : ''} of ${c.r}${typeof c.after.certification === 'number' && c.after.certification > 1 ? ` (certification ${c.after.certification})` : ''}`,
  },
  CLAIM_UNIDENTIFIED: {
    label: 'Claim unidentified driving',
    says: (c) => `took over unidentified driving${text(c.after.start) ? ` from ${formatDate(text(c.after.start)!)}` : ''} as the driving of ${c.r}`,
  },
  PROPOSE_UNIDENTIFIED: {
    label: 'Propose unidentified driving',
    says: (c) => `proposed unidentified driving${text(c.after.start) ? ` from ${formatDate(text(c.after.start)!)}` : ''} to ${c.r}`,
  },
  ANNOTATE_UNIDENTIFIED: {
    label: 'Annotate unidentified driving',
    says: (c) => `noted that unidentified driving of ${c.r} is nobody's driving time${text(c.after.reason) ? `: ${text(c.after.reason)}` : ''}`,
  },
  SEND_ELD_OUTPUT: {
    label: 'Send ELD output file',
    says: (c) => `sent the ELD output file of ${c.r}${text(c.after.email) ? ` to ${text(c.after.email)}` : ''}`,
  },
  SEND_ROADSIDE_CA: {
    label: 'Send Canadian daily log',
    says: (c) => `sent the Canadian daily log (PDF) of ${c.r}${text(c.after.email) ? ` to ${text(c.after.email)}` : ''}`,
  },
  SEND_ELD_TRANSFER: {
    label: 'Send ELD records to FMCSA',
    says: (c) => {
      const how = c.after.method === 'EMAIL' ? 'by e-mail' : 'by web service';
      const outcome = ELD_TRANSFER_OUTCOMES[text(c.after.status) ?? ''];
      return `sent the ELD records of ${c.r} to FMCSA ${how}${c.after.test === true ? ' (test)' : ''}${outcome ? `: ${outcome}` : ''}`;
    },
  },
  INSPECT: {
    label: 'Vehicle inspection',
    says: (c) => {
      const kind = c.after.kind === 'PRE_TRIP' ? 'a pre-trip' : c.after.kind === 'POST_TRIP' ? 'a post-trip' : 'an';
      const n = typeof c.after.defects === 'number' ? c.after.defects : 0;
      return `recorded ${kind} inspection of ${c.r}${n ? ` (${plural(n, 'defect')})` : ', no defects'}`;
    },
  },
  CERTIFY_DEFECT: {
    label: 'Certify defect',
    says: (c) => {
      const what = text(c.after.label) ? `the defect "${text(c.after.label)}" of ${c.r}` : `a defect of ${c.r}`;
      return c.after.status === 'NOT_NEEDED' ? `certified that ${what} needs no repair` : `certified ${what} repaired`;
    },
  },
  // Issue 46 (decision 0191): an engine fault made a defect, by a person or by the grounding codes.
  ENGINE_FAULT_DEFECT: {
    label: 'Engine fault to defect',
    says: (c) => {
      const code = text(c.after.code) ?? 'an engine fault';
      if (c.after.automatic === true) return `opened a safety defect of ${c.r} for the grounding engine fault ${code}`;
      return `made the engine fault ${code} of ${c.r} a ${c.after.safety === true ? 'safety ' : ''}defect`;
    },
  },
  // Issue 71 (decision 0305): a failed item of an annual inspection made a defect.
  INSPECTION_ITEM_DEFECT: {
    label: 'Annual inspection item to defect',
    says: (c) => `made the failed annual inspection item "${text(c.after.label) ?? '?'}" of ${c.r} a ${c.after.safety === true ? 'safety ' : ''}defect`,
  },
  REVIEW_INSPECTION: {
    label: 'Review inspection repairs',
    says: (c) =>
      `reviewed the repair certifications of the inspection of ${c.r}${text(c.after.inspectedAt) ? ` on ${formatDate(text(c.after.inspectedAt)!)}` : ''}`,
  },
  READ_NOTIFICATIONS: {
    label: 'Read notifications',
    says: (c) => {
      const n = typeof c.after.notifications === 'number' ? c.after.notifications : 0;
      return c.after.all === true ? `marked ${whose(c, 'notifications')} read (${plural(n, 'notification')})` : `marked ${plural(n, 'notification')} read`;
    },
  },
  CLEAR_NOTIFICATIONS: {
    label: 'Clear notifications',
    says: (c) => {
      const n = typeof c.after.notifications === 'number' ? c.after.notifications : 0;
      return c.after.all === true ? `cleared ${whose(c, 'notifications')} (${plural(n, 'notification')})` : `cleared ${plural(n, 'notification')}`;
    },
  },
  UPDATE_NOTIFICATION_PREFERENCES: { label: 'Notification choices', says: (c) => `changed ${whose(c, 'notification choices')}` },
  IMPORT_HOS_LOG: {
    label: 'Import HoS log',
    says: (c) => {
      const n = typeof c.after.periods === 'number' ? plural(c.after.periods, 'duty period') : 'duty periods';
      const source = text(c.after.source);
      return `imported ${n} into the HoS log of ${c.r}${source ? ` from ${source}` : ''}`;
    },
  },
  IMPORT_POSITIONS: {
    label: 'Import GPS history',
    says: (c) => {
      const n = typeof c.after.imported === 'number' ? plural(c.after.imported, 'position') : 'positions';
      const format = text(c.after.format);
      return `imported ${n} of GPS history into ${c.r}${format ? ` from a ${format} file` : ''}`;
    },
  },
};

/** The action's label for filters; an unknown code reads as its words ("SOME_CODE" -> "Some code"). */
export function actionLabel(action: string): string {
  return ACTIONS[action]?.label ?? action.charAt(0) + action.slice(1).toLowerCase().replace(/_/g, ' ');
}

export const entityTypeLabel = (entityType: string) => ENTITY_TYPES[entityType]?.label ?? fieldLabel('', entityType.toLowerCase());

/** The entry as a sentence and the record it concerns. */
export function describeActivity(f: ActivityFacts, lookup: Lookup): { summary: string; record: ActivityRecord | null } {
  const { phrase, record } = resolveRecord(f, lookup);
  const ctx: Ctx = {
    r: phrase,
    kind: record?.type ?? null,
    before: obj(f.before),
    after: obj(f.after),
    self: f.entityType === 'USER' && !!f.actorUserId && f.actorUserId === f.entityId,
    f,
    lookup,
  };
  const wording = ACTIONS[f.action];
  const says = wording ? wording.says(ctx) : `did "${actionLabel(f.action).toLowerCase()}" on ${phrase}`;
  return { summary: `${f.actorLabel} ${says}`, record };
}

/** Ids a page's entries mention (the record, linked fields, group members), for one lookup per page. */
export function referencedIds(f: Pick<ActivityFacts, 'entityId' | 'before' | 'after' | 'actorUserId'>): string[] {
  const ids: unknown[] = [f.entityId, f.actorUserId];
  for (const side of [obj(f.before), obj(f.after)]) {
    for (const field of Object.keys(LINK_FIELDS)) ids.push(side[field]);
    for (const list of [side.added, side.removed]) {
      if (Array.isArray(list)) for (const m of list) ids.push(isObject(m) ? m.memberId : m);
    }
  }
  return ids.filter((x): x is string => typeof x === 'string' && x !== '');
}
