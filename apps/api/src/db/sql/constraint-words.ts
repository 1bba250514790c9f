import type { ErrorCode } from '@fleet/api-contract';
import { conflict, conflictOn, type AppError } from '../../http/errors.ts';
import { pgError, uniqueViolation } from './pg-error.ts';

// The one place that turns database constraint names into field words. Index and constraint
// names are the schema's internals: no answer carries them; a 409 names the field path instead.

type Values = Record<string, unknown>;

interface UniqueWords {
  /** The request field the index guards. */
  field: string;
  /** What clashed, in words, from the request's values. */
  clash: (v: Values) => string;
  /** The error code (decision 0257): a value taken, or a link someone else changed at the same moment. */
  code: ErrorCode;
}

const shown = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Every unique index a request can run into (db/schema), in words. */
const UNIQUE: Record<string, UniqueWords> = {
  assets_org_unit_uq: {
    field: 'unitNumber',
    clash: (v) => `Unit number ${shown(v.unitNumber)} is already used by another vehicle or trailer`,
    code: 'assets.unit_number_taken',
  },
  assets_org_vin_uq: {
    field: 'vin',
    clash: (v) => `A vehicle or trailer with VIN ${shown(v.vin)} already exists in this organization`,
    code: 'assets.vin_taken',
  },
  drivers_org_license_uq: {
    field: 'licenseNumber',
    clash: (v) => `Licence ${shown(v.licenseNumber)} (${shown(v.licenseState)}) is already used by another driver`,
    code: 'drivers.license_taken',
  },
  drivers_org_card_uq: {
    field: 'cardNumber',
    clash: (v) => `Card ${shown(v.cardNumber)} is already used by another driver`,
    code: 'drivers.card_taken',
  },
  drivers_user_uq: { field: 'userId', clash: () => 'This sign-in account is already linked to another driver', code: 'drivers.account_linked' },
  gateways_unique_id_uq: {
    field: 'uniqueId',
    clash: (v) => `A device with unique id ${shown(v.uniqueId)} is already registered`,
    code: 'gateways.unique_id_taken',
  },
  // On Citus the global check is the device-id directory's (migration 0036) and the gateways' index is per organization.
  device_ids_pkey: { field: 'uniqueId', clash: (v) => `A device with unique id ${shown(v.uniqueId)} is already registered`, code: 'gateways.unique_id_taken' },
  gateways_org_unique_id_uq: {
    field: 'uniqueId',
    clash: (v) => `A device with unique id ${shown(v.uniqueId)} is already registered`,
    code: 'gateways.unique_id_taken',
  },
  device_models_name_uq: { field: 'name', clash: (v) => `A device model named ${shown(v.name)} already exists`, code: 'names.taken' },
  groups_org_name_uq: { field: 'name', clash: (v) => `A group named ${shown(v.name)} already exists`, code: 'names.taken' },
  terminals_org_name_uq: { field: 'name', clash: (v) => `A terminal named ${shown(v.name)} already exists`, code: 'names.taken' },
  customers_org_name_uq: { field: 'name', clash: (v) => `A customer named ${shown(v.name)} already exists`, code: 'names.taken' },
  roles_org_name_uq: { field: 'name', clash: (v) => `A role named ${shown(v.name)} already exists`, code: 'names.taken' },
  users_email_uq: { field: 'email', clash: () => 'An account with this email already exists', code: 'users.email_taken' },
  // Links changed by someone else at the same moment (the services check these first).
  assets_current_driver_uq: { field: 'driverId', clash: () => 'This driver was just assigned to another vehicle', code: 'common.changed_concurrently' },
  asset_driver_assignments_open_asset_uq: { field: 'assetId', clash: () => 'This vehicle was just given another driver', code: 'common.changed_concurrently' },
  asset_driver_assignments_open_driver_uq: {
    field: 'driverId',
    clash: () => 'This driver was just assigned to another vehicle',
    code: 'common.changed_concurrently',
  },
  trailer_attachments_open_trailer_uq: { field: 'id', clash: () => 'This trailer was just attached to another vehicle', code: 'common.changed_concurrently' },
  gateways_asset_uq: { field: 'assetId', clash: () => 'This vehicle was just paired with another device', code: 'common.changed_concurrently' },
  group_members_group_id_member_type_member_id_pk: { field: 'members', clash: () => 'This user or driver is already in the group', code: 'common.duplicate' },
  group_assets_group_id_asset_id_pk: { field: 'assetIds', clash: () => 'This vehicle or trailer is already in the group', code: 'common.duplicate' },
  ifta_fuel_purchases_receipt_uq: {
    field: 'receiptNumber',
    clash: (v) => `A fuel purchase with receipt number ${shown(v.receiptNumber)} is already recorded`,
    code: 'ifta.receipt_taken',
  },
  // A second click on "Create defect" races the first past the service's check.
  vehicle_defects_engine_fault_uq: { field: 'faultId', clash: () => 'A defect was already made of this engine fault', code: 'common.duplicate' },
  // The insert skips the clash and answers 409 itself; two transactions at once still meet here.
  vehicle_defects_compliance_item_uq: { field: 'failedItem', clash: () => 'This failed item is a defect already', code: 'compliance.defect_exists' },
  // Two drafts made at the same moment for one load (the service checks first, decision 0291).
  invoice_loads_load_uq: {
    field: 'loadIds',
    clash: () => 'A load is invoiced once: one of these loads was just put on another invoice',
    code: 'invoices.load_invoiced',
  },
  retention_policies_organization_id_kind_pk: {
    field: 'policies',
    clash: () => 'Retention periods were saved by someone else at the same moment; try again',
    code: 'common.changed_concurrently',
  },
};

/**
 * Unique indexes no request field can clash on (random token hashes; HoS sequence ids and driver-day
 * logs the server assigns): a clash gets the generic words.
 */
export const INTERNAL_UNIQUE_INDEXES = [
  // A crossing found from positions is kept once per driver and time (decision 0313): the follower writes it, no request does.
  'hos_border_crossings_detected_uq',
  'refresh_tokens_hash_uq',
  'password_reset_tokens_hash_uq',
  'email_changes_hash_uq',
  'hos_events_driver_seq_uq',
  'hos_logs_driver_day_uq',
  'roles_org_system_uq',
  'ifta_filings_org_quarter_version_uq',
  // Written with ON CONFLICT DO NOTHING: a repeated transaction id is answered as a duplicate (decision 0274).
  'fuel_transactions_transaction_uq',
  'notification_facts_organization_id_fact_key_pk',
  'vehicle_daily_stats_asset_id_day_pk',
  'notifications_user_fact_uq',
  'organizations_ingest_token_uq',
  // A scheduled report's run, claimed once per schedule by ON CONFLICT DO NOTHING (decision 0163).
  'report_runs_pk',
  // Load numbers come from the per-organization counter, stop numbers from the service (decision 0166).
  'loads_org_number_uq',
  'load_stops_load_seq_uq',
  // The device-id directory's token hashes: random 32-byte tokens (migration 0036).
  'device_ids_token_uq',
  // A message's client id: inserted ON CONFLICT DO NOTHING, a resend answers the first (decision 0181).
  'messages_client_uq',
  // Idempotency-Keys of records a driver's phone sent late (decision 0184): looked up under the
  // driver's row lock before the insert, so a resend answers the first record, never this index.
  'hos_events_client_uq',
  'dvirs_client_uq',
  'images_client_uq',
  // An engine fault's open episode per vehicle and code: written by ingest only (decision 0191).
  'engine_faults_active_uq',
  // A safety event's key (vehicle, type, start): written by the follower's upserts only (decision 0194).
  'safety_events_key_uq',
  // A fuel event's key (vehicle, type, start): written by the fuel-level follower only (decision 0276).
  'fuel_events_key_uq',
  // A temperature excursion's key (load, sensor, start): written by the temperature ingest's upserts only (decision 0321).
  'temperature_excursions_key_uq',
  // A card read's key (device, time): written by the Teltonika ingest ON CONFLICT DO NOTHING only (decision 0324).
  'driver_card_reads_gateway_uq',
  // Tracking links' and notices' keys (decision 0282): random 32-byte token hashes, and each notice
  // claimed by ON CONFLICT DO NOTHING.
  'share_links_token_uq',
  'load_notices_key_uq',
  // API tokens' keyed hashes of random secrets (decision 0197).
  'api_tokens_hash_uq',
  // Invoice numbers come from the per-organization counter (decision 0291).
  'invoices_org_number_uq',
  // A load paper's Idempotency-Key, looked up before the insert so a resend answers the first
  // (decision 0287); its pages' numbers come from the service.
  'load_documents_client_uq',
  'load_document_pages_seq_uq',
  // Settlement numbers from the per-organization counter, line numbers from the service; a load and a
  // one-time adjustment are taken once under the driver's row lock (decision 0294).
  'settlements_number_uq',
  'settlement_lines_seq_uq',
  'settlement_lines_adjustment_uq',
  'settlement_loads_once_uq',
  // A compliance renewal's Idempotency-Key, looked up before the insert so a resend answers the
  // first; its pages' numbers come from the service (decision 0300).
  'compliance_items_client_uq',
  'compliance_item_pages_seq_uq',
];

/** The unique indexes answered in words (a test checks every unique index of the schema is here or internal). */
export const WORDED_UNIQUE_INDEXES = Object.keys(UNIQUE);

/** What a referenced table holds, in words, for foreign-key answers. */
const TABLE_WORDS: Record<string, string> = {
  organizations: 'organization',
  users: 'user',
  roles: 'role',
  drivers: 'driver',
  assets: 'vehicle or trailer',
  gateways: 'device',
  device_models: 'device model',
  groups: 'group',
  terminals: 'home terminal',
  customers: 'customer',
  images: 'image',
  positions: 'position history',
  latest_positions: 'live map position',
  asset_driver_assignments: 'driver assignment history',
  trailer_attachments: 'trailer attachment history',
  gateway_pairings: 'device pairing history',
  group_members: 'group membership',
  group_assets: 'group membership',
  activity_log: 'activity log',
  invoices: 'invoice',
  invoice_loads: 'invoice',
  compliance_items: 'compliance paper',
};

/**
 * A unique violation as a 409 saying what clashed (`values` are the request's), with the field
 * path as its technical message; null when `err` is not one. `at` prefixes a nested field (`admin`).
 */
export function duplicateError(err: unknown, values: Values = {}, at?: string): AppError | null {
  const name = uniqueViolation(err);
  if (!name) return null;
  // On Citus the name is a shard's: the table's index name with the shard id appended.
  const words = UNIQUE[name] ?? UNIQUE[name.replace(/_\d+$/, '')];
  if (!words) return conflict('This clashes with a record that already exists', 'Unique value already used', 'common.duplicate');
  return conflictOn(at ? `${at}.${words.field}` : words.field, words.clash(values), words.code);
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * A foreign-key violation as a 409 in words: the record it points to was removed, or the record is
 * still used by others. The column (as its field name) and table words come from PostgreSQL's
 * detail line; the constraint name is never shown.
 */
export function foreignKeyError(err: unknown): AppError | null {
  const pg = pgError(err);
  if (pg?.code !== '23503') return null;
  const detail = pg.detail ?? '';
  const column = /^Key \(([a-z_]+)\)/.exec(detail)?.[1];
  const table = /table "([a-z_]+)"/.exec(detail)?.[1];
  const what = (table && TABLE_WORDS[table]) ?? 'record';
  if (/still referenced/.test(detail) || pg.message?.startsWith('update or delete')) {
    return conflict(`This is still used (${what}), so it cannot be removed`, 'Still referenced by other records', 'common.still_referenced');
  }
  const message = `The ${what} this refers to does not exist (it may have just been removed)`;
  return column ? conflictOn(camel(column), message, 'common.reference_missing') : conflict(message, 'Refers to a missing record', 'common.reference_missing');
}
