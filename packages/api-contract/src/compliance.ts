import { z } from 'zod';
import { dayField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { DEFECT_STATUSES } from './maintenance.ts';
import { pageQuerySchema, pageSchema, searchText } from './paging.ts';
import { optionalStateCode, optionalText, optionalUpper, repeatedQuery } from './registry-fields.ts';
import { requiredText } from './validation.ts';

// Compliance (issue 71, decisions 0300 and 0301): the driver qualification file of 49 CFR 391.51 and
// the paperwork of vehicles and trailers, each paper one item with its dates; a status computed from
// them (VALID, EXPIRING, EXPIRED, MISSING) by one pure function both the API and the web use; the
// calendar of what runs out soonest. Items the office records count at once; a driver's own
// submission from the phone waits for the office's approval.

defineLabels({
  number: 'Number',
  class: 'Class',
  endorsements: 'Endorsements',
  restrictions: 'Restrictions',
  title: 'Title',
  issuer: 'Issuer',
  examinerRegistryNumber: 'Examiner registry number',
  inspector: 'Inspector',
  result: 'Result',
  failedItems: 'Failed items',
  failedItem: 'Failed item',
  issuedOn: 'Issued on',
  expiresOn: 'Expires on',
  reason: 'Reason',
});

/** The papers of a driver's file (subject DRIVER). */
export const DRIVER_COMPLIANCE_KINDS = [
  'CDL',
  'MEDICAL_CERTIFICATE',
  'MVR',
  'ANNUAL_REVIEW',
  'ROAD_TEST',
  'EMPLOYMENT_APPLICATION',
  'EMPLOYER_INQUIRY',
  'CLEARINGHOUSE_FULL',
  'CLEARINGHOUSE_LIMITED',
] as const;
/** The papers of a vehicle or a trailer (subject VEHICLE or TRAILER). */
export const ASSET_COMPLIANCE_KINDS = ['REGISTRATION', 'IRP_CAB_CARD', 'INSURANCE', 'ANNUAL_INSPECTION', 'PERMIT'] as const;
export const COMPLIANCE_KINDS = [...DRIVER_COMPLIANCE_KINDS, ...ASSET_COMPLIANCE_KINDS] as const;
export type ComplianceKind = (typeof COMPLIANCE_KINDS)[number];
export type DriverComplianceKind = (typeof DRIVER_COMPLIANCE_KINDS)[number];
export type AssetComplianceKind = (typeof ASSET_COMPLIANCE_KINDS)[number];

export const COMPLIANCE_SUBJECT_TYPES = ['DRIVER', 'VEHICLE', 'TRAILER'] as const;
export type ComplianceSubjectType = (typeof COMPLIANCE_SUBJECT_TYPES)[number];

export const COMPLIANCE_STATUSES = ['VALID', 'EXPIRING', 'EXPIRED', 'MISSING'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export const COMPLIANCE_APPROVALS = ['APPROVED', 'PENDING', 'REJECTED'] as const;
export type ComplianceApproval = (typeof COMPLIANCE_APPROVALS)[number];

export const INSPECTION_RESULTS = ['PASS', 'FAIL'] as const;
export type InspectionResult = (typeof INSPECTION_RESULTS)[number];

/** Words of each kind (the web's catalogues may word them again by the kind itself). */
export const COMPLIANCE_KIND_LABELS: Record<ComplianceKind, string> = {
  CDL: 'Commercial driver licence',
  MEDICAL_CERTIFICATE: 'Medical certificate',
  MVR: 'Motor vehicle record',
  ANNUAL_REVIEW: 'Annual review of driving record',
  ROAD_TEST: 'Road test certificate',
  EMPLOYMENT_APPLICATION: 'Employment application',
  EMPLOYER_INQUIRY: 'Previous employer inquiry',
  CLEARINGHOUSE_FULL: 'Clearinghouse full query',
  CLEARINGHOUSE_LIMITED: 'Clearinghouse limited query',
  REGISTRATION: 'Registration',
  IRP_CAB_CARD: 'IRP cab card',
  INSURANCE: 'Insurance',
  ANNUAL_INSPECTION: 'Annual inspection',
  PERMIT: 'Permit',
};

/** Kinds due again a year after `issuedOn` when no `expiresOn` is given (391.25, 391.23, 382.701, 396.17). */
export const ANNUAL_COMPLIANCE_KINDS: readonly ComplianceKind[] = ['MVR', 'ANNUAL_REVIEW', 'CLEARINGHOUSE_LIMITED', 'ANNUAL_INSPECTION'];
/** Kinds a subject may hold several of at once, each counted on its own (not a newer one replacing an older). */
export const MULTIPLE_COMPLIANCE_KINDS: readonly ComplianceKind[] = ['EMPLOYER_INQUIRY', 'PERMIT'];

/**
 * The kinds each subject must hold (MISSING without an approved item). CLEARINGHOUSE_LIMITED is
 * required too, but only once a year has passed since the latest Clearinghouse query of either kind
 * (`complianceChecklist` words that row).
 */
export const REQUIRED_COMPLIANCE_KINDS: Record<ComplianceSubjectType, readonly ComplianceKind[]> = {
  DRIVER: ['CDL', 'MEDICAL_CERTIFICATE', 'MVR', 'ANNUAL_REVIEW', 'ROAD_TEST', 'EMPLOYMENT_APPLICATION', 'EMPLOYER_INQUIRY', 'CLEARINGHOUSE_FULL'],
  VEHICLE: ['REGISTRATION', 'INSURANCE', 'ANNUAL_INSPECTION'],
  TRAILER: ['REGISTRATION', 'ANNUAL_INSPECTION'],
};

/** The kinds of a subject type (drivers' or assets'). */
export const kindsOfSubject = (type: ComplianceSubjectType): readonly ComplianceKind[] =>
  type === 'DRIVER' ? DRIVER_COMPLIANCE_KINDS : ASSET_COMPLIANCE_KINDS;

/** The organization setting `complianceExpiringDays`: an item is EXPIRING this many days before its due date. */
export const COMPLIANCE_EXPIRING_DAYS = { default: 30, min: 1, max: 180 } as const;
/** The driver app warns a driver whose medical certificate or licence is due within this many days. */
export const DRIVER_COMPLIANCE_WARNING_DAYS = 7;
/** The kinds the driver app warns of, and the driver may renew from the phone. */
export const DRIVER_RENEWABLE_KINDS: readonly DriverComplianceKind[] = ['MEDICAL_CERTIFICATE', 'CDL'];
/** The kinds whose expiry keeps a driver or a unit off a load (dispatch, issue 71). */
export const BLOCKING_DRIVER_KINDS: readonly ComplianceKind[] = ['CDL', 'MEDICAL_CERTIFICATE'];
export const BLOCKING_ASSET_KINDS: readonly ComplianceKind[] = ['ANNUAL_INSPECTION', 'REGISTRATION'];

export const COMPLIANCE_LIMITS = {
  text: 200,
  notes: 2000,
  failedItem: 200,
  failedItems: 50,
  reason: 500,
  pages: 20,
} as const;

// ----- Dates and status (pure) -----

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Whole days from `from` to `to` (calendar dates `YYYY-MM-DD`): negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayMs(to) - dayMs(from)) / DAY_MS);
}

/** The same calendar date `years` later (29 February falls on 28 February in a common year). */
export function addYears(day: string, years = 1): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = y + years;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The calendar date `days` after `day` (before when negative). */
export function addDays(day: string, days: number): string {
  return new Date(dayMs(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar date of an instant in a time zone (the organization's "today"). */
export function calendarDayIn(instant: Date | number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const part = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** What the status of an item reads. */
export interface ComplianceDates {
  kind: ComplianceKind;
  issuedOn: string | null;
  expiresOn: string | null;
  result?: InspectionResult | null;
}

/**
 * An item's due date: `expiresOn` when given, else a year after `issuedOn` for the annual kinds
 * (MVR, annual review, limited Clearinghouse query, annual inspection), else none (never expires).
 */
export function complianceDueDate(item: ComplianceDates): string | null {
  if (item.expiresOn) return item.expiresOn;
  if (item.issuedOn && ANNUAL_COMPLIANCE_KINDS.includes(item.kind)) return addYears(item.issuedOn);
  return null;
}

export interface ComplianceStatusAnswer {
  status: Exclude<ComplianceStatus, 'MISSING'>;
  dueDate: string | null;
  /** Due date minus today, in days (negative once expired); null without a due date. */
  daysLeft: number | null;
}

/** The status of a due date on `today`: VALID, EXPIRING within `expiringDays` (the due date itself too), EXPIRED from the day after. */
export function statusOfDueDate(dueDate: string | null, today: string, expiringDays: number): ComplianceStatusAnswer {
  if (dueDate === null) return { status: 'VALID', dueDate: null, daysLeft: null };
  const daysLeft = daysBetween(today, dueDate);
  const status = daysLeft < 0 ? 'EXPIRED' : daysLeft <= expiringDays ? 'EXPIRING' : 'VALID';
  return { status, dueDate, daysLeft };
}

/**
 * The status of one item on `today` (the organization's calendar date): VALID through its due
 * date, EXPIRING from `expiringDays` before it through the due date itself, EXPIRED from the day
 * after; an annual inspection that failed is EXPIRED whatever its date. The approval is not read
 * here: only approved items count toward a file (`complianceChecklist`).
 */
export function complianceStatus(item: ComplianceDates, today: string, expiringDays: number = COMPLIANCE_EXPIRING_DAYS.default): ComplianceStatusAnswer {
  const answer = statusOfDueDate(complianceDueDate(item), today, expiringDays);
  if (item.kind === 'ANNUAL_INSPECTION' && item.result === 'FAIL') return { ...answer, status: 'EXPIRED' };
  return answer;
}

/** What the checklist reads of an item. */
export interface ChecklistItem extends ComplianceDates {
  id: string;
  approval: ComplianceApproval;
  createdAt: string;
}

export interface ChecklistRow<T extends ChecklistItem> {
  kind: ComplianceKind;
  status: ComplianceStatus;
  dueDate: string | null;
  daysLeft: number | null;
  /** The approved item the row stands for; null when MISSING (or a limited query not yet taken). */
  current: T | null;
}

/**
 * Newest first: by `issuedOn`, an item without one by the day it was recorded (an office's
 * certificate entered with its expiry only still replaces an older dated one), then by when recorded.
 */
export const newestComplianceFirst = <T extends Pick<ChecklistItem, 'issuedOn' | 'createdAt'>>(a: T, b: T) =>
  (b.issuedOn ?? b.createdAt.slice(0, 10)).localeCompare(a.issuedOn ?? a.createdAt.slice(0, 10)) || b.createdAt.localeCompare(a.createdAt);
const newestFirst = newestComplianceFirst;

const STATUS_RANK: Record<ComplianceStatus, number> = { EXPIRED: 0, MISSING: 1, EXPIRING: 2, VALID: 3 };

/**
 * A subject's file on `today`: one row per kind it must hold or holds approved (the kinds'
 * order), plus one row per further approved item of a kind held several times (employer inquiries,
 * permits: each on its own). The current item of a kind is the newest approved one. The limited
 * Clearinghouse query is due a year after the latest query of either kind: its row shows from the
 * full query on, MISSING once that year has passed with no limited query taken.
 */
export function complianceChecklist<T extends ChecklistItem>(
  subjectType: ComplianceSubjectType,
  items: readonly T[],
  today: string,
  expiringDays: number = COMPLIANCE_EXPIRING_DAYS.default,
): Array<ChecklistRow<T>> {
  const approved = items.filter((i) => i.approval === 'APPROVED');
  const required = REQUIRED_COMPLIANCE_KINDS[subjectType];
  const rows: Array<ChecklistRow<T>> = [];
  for (const kind of kindsOfSubject(subjectType)) {
    const ofKind = approved.filter((i) => i.kind === kind).sort(newestFirst);
    if (kind === 'CLEARINGHOUSE_LIMITED') {
      const full = approved.filter((i) => i.kind === 'CLEARINGHOUSE_FULL' && i.issuedOn).sort(newestFirst)[0];
      const limited = ofKind[0] ?? null;
      const latest = [full?.issuedOn, limited?.issuedOn]
        .filter((d): d is string => !!d)
        .sort()
        .at(-1);
      if (!latest) continue;
      const due = statusOfDueDate(addYears(latest), today, expiringDays);
      const status = due.status === 'EXPIRED' && !limited ? 'MISSING' : due.status;
      rows.push({ kind, status, dueDate: due.dueDate, daysLeft: due.daysLeft, current: limited });
      continue;
    }
    if (ofKind.length === 0) {
      if (required.includes(kind)) rows.push({ kind, status: 'MISSING', dueDate: null, daysLeft: null, current: null });
      continue;
    }
    const counted = MULTIPLE_COMPLIANCE_KINDS.includes(kind) ? ofKind : ofKind.slice(0, 1);
    for (const item of counted) rows.push({ kind, ...complianceStatus(item, today, expiringDays), current: item });
  }
  return rows;
}

/** The worst of some statuses (EXPIRED, MISSING, EXPIRING, VALID); VALID for none. */
export function worstStatus(statuses: Iterable<ComplianceStatus>): ComplianceStatus {
  let worst: ComplianceStatus = 'VALID';
  for (const s of statuses) if (STATUS_RANK[s] < STATUS_RANK[worst]) worst = s;
  return worst;
}

/**
 * The driver app's warning (issue 71): the driver's medical certificate or licence rows due within
 * `DRIVER_COMPLIANCE_WARNING_DAYS` days or already expired.
 */
export function driverWarnings<T extends ChecklistItem>(checklist: ReadonlyArray<ChecklistRow<T>>): Array<ChecklistRow<T>> {
  return checklist.filter(
    (r) => DRIVER_RENEWABLE_KINDS.includes(r.kind as DriverComplianceKind) && r.daysLeft !== null && r.daysLeft <= DRIVER_COMPLIANCE_WARNING_DAYS,
  );
}

// ----- Fields of an item -----

/** The fields each kind requires (400 naming the field when one is missing). */
export const COMPLIANCE_REQUIRED_FIELDS: Record<ComplianceKind, ReadonlyArray<'number' | 'state' | 'title' | 'issuedOn' | 'expiresOn' | 'result'>> = {
  CDL: ['number', 'state', 'expiresOn'],
  MEDICAL_CERTIFICATE: ['expiresOn'],
  MVR: ['issuedOn'],
  ANNUAL_REVIEW: ['issuedOn'],
  ROAD_TEST: ['issuedOn'],
  EMPLOYMENT_APPLICATION: ['issuedOn'],
  EMPLOYER_INQUIRY: ['issuedOn'],
  CLEARINGHOUSE_FULL: ['issuedOn'],
  CLEARINGHOUSE_LIMITED: ['issuedOn'],
  REGISTRATION: ['number', 'state', 'expiresOn'],
  IRP_CAB_CARD: ['expiresOn'],
  INSURANCE: ['expiresOn'],
  ANNUAL_INSPECTION: ['issuedOn', 'result'],
  PERMIT: ['title'],
};

const FIELD_WORDS: Record<string, string> = {
  number: 'Number',
  state: 'State',
  title: 'Title',
  issuedOn: 'Issued on',
  expiresOn: 'Expires on',
  result: 'Result',
};

/** The fields the problems read. */
export interface ComplianceFieldValues {
  kind: ComplianceKind;
  number?: string | null;
  state?: string | null;
  title?: string | null;
  issuedOn?: string | null;
  expiresOn?: string | null;
  result?: InspectionResult | null;
}

/** What is wrong with an item's fields for its kind (required fields, an expiry before the issue date); empty when none. */
export function complianceFieldProblems(v: ComplianceFieldValues): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  for (const f of COMPLIANCE_REQUIRED_FIELDS[v.kind]) {
    if (v[f] == null || v[f] === '') out.push({ path: f, message: `${FIELD_WORDS[f]} is required for ${COMPLIANCE_KIND_LABELS[v.kind].toLowerCase()}` });
  }
  if (v.issuedOn && v.expiresOn && v.expiresOn < v.issuedOn) out.push({ path: 'expiresOn', message: 'Expires on must not be before Issued on' });
  return out;
}

const day = (label: string) =>
  dayField(label)
    .nullish()
    .transform((v) => v ?? null);
const text = (max: number = COMPLIANCE_LIMITS.text) => optionalText(max);

const itemFields = {
  number: optionalUpper(64),
  state: optionalStateCode('State'),
  class: text(8),
  endorsements: text(32),
  restrictions: text(64),
  title: text(),
  issuer: text(),
  examinerRegistryNumber: text(32),
  inspector: text(),
  result: z
    .enum(INSPECTION_RESULTS, { error: () => 'Result must be PASS or FAIL' })
    .nullish()
    .transform((v) => v ?? null),
  failedItems: z
    .array(requiredText('Failed item', COMPLIANCE_LIMITS.failedItem), { error: () => 'Failed items must be a list of texts' })
    .max(COMPLIANCE_LIMITS.failedItems, `Failed items must be at most ${COMPLIANCE_LIMITS.failedItems}`)
    .nullish()
    .transform((v) => v ?? []),
  issuedOn: day('Issued on'),
  expiresOn: day('Expires on'),
  notes: text(COMPLIANCE_LIMITS.notes),
};

const addProblems = (v: ComplianceFieldValues, ctx: z.RefinementCtx) => {
  for (const p of complianceFieldProblems(v)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
};

/** POST `drivers/{driverId}/qualification/items` and `assets/{assetId}/compliance/items`: the kind and its fields. */
export const complianceItemCreateSchema = z
  .object({
    kind: z.enum(COMPLIANCE_KINDS, { error: () => `Kind must be one of ${COMPLIANCE_KINDS.join(', ')}` }),
    ...itemFields,
    /** Pages uploaded before (`POST images`), attached in the order given. */
    imageIds: z
      .array(z.uuid('Pages must be image ids'))
      .max(COMPLIANCE_LIMITS.pages, `At most ${COMPLIANCE_LIMITS.pages} pages`)
      .optional()
      .transform((v) => v ?? []),
  })
  .superRefine(addProblems);
export type ComplianceItemCreateInput = z.input<typeof complianceItemCreateSchema>;
export type ComplianceItemCreate = z.infer<typeof complianceItemCreateSchema>;

/**
 * PATCH `compliance/items/{itemId}`: only the fields sent change (null clears one); the kind stays.
 * The kind's required fields are checked on the item as it would be (the service).
 */
export const complianceItemUpdateSchema = z
  .object(itemFields)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change: send at least one field' });
export type ComplianceItemUpdateInput = z.input<typeof complianceItemUpdateSchema>;
export type ComplianceItemUpdate = z.infer<typeof complianceItemUpdateSchema>;

/**
 * POST `compliance/items/{itemId}/defects`: one failed item of a failed annual inspection made a
 * defect of its unit (open until a mechanic certifies it; a safety defect unless said otherwise).
 */
export const complianceDefectSchema = z.object({
  failedItem: requiredText('Failed item', COMPLIANCE_LIMITS.failedItem),
  safety: z.boolean({ error: () => 'Safety must be true or false' }).default(true),
});
export type ComplianceDefectInput = z.input<typeof complianceDefectSchema>;

/** A failed item of an annual inspection that was made a defect, and where that defect stands. */
export const complianceItemDefectSchema = z.object({
  failedItem: z.string(),
  defectId: z.string(),
  status: z.enum(DEFECT_STATUSES),
});
export type ComplianceItemDefect = z.infer<typeof complianceItemDefectSchema>;

/** POST `compliance/items/{itemId}/reject`. */
export const complianceRejectSchema = z.object({ reason: requiredText('Reason', COMPLIANCE_LIMITS.reason) });
export type ComplianceReject = z.infer<typeof complianceRejectSchema>;

/** POST `compliance/items/{itemId}/pages` as JSON: images uploaded before, appended in order (multipart takes files). */
export const compliancePagesSchema = z.object({
  imageIds: z
    .array(z.uuid('Pages must be image ids'), { error: () => 'Pages must be a list of image ids' })
    .min(1, 'Send at least one page')
    .max(COMPLIANCE_LIMITS.pages, `At most ${COMPLIANCE_LIMITS.pages} pages`),
});

export const complianceSubjectSchema = z.object({ type: z.enum(COMPLIANCE_SUBJECT_TYPES), id: z.string(), name: z.string() });
export type ComplianceSubject = z.infer<typeof complianceSubjectSchema>;

export const complianceItemSchema = z.object({
  id: z.string(),
  subject: complianceSubjectSchema,
  kind: z.enum(COMPLIANCE_KINDS),
  approval: z.enum(COMPLIANCE_APPROVALS),
  number: z.string().nullable(),
  state: z.string().nullable(),
  class: z.string().nullable(),
  endorsements: z.string().nullable(),
  restrictions: z.string().nullable(),
  title: z.string().nullable(),
  issuer: z.string().nullable(),
  examinerRegistryNumber: z.string().nullable(),
  inspector: z.string().nullable(),
  result: z.enum(INSPECTION_RESULTS).nullable(),
  failedItems: z.array(z.string()),
  /** The failed items made defects (`POST compliance/items/{itemId}/defects`), in the order made. */
  defects: z.array(complianceItemDefectSchema),
  issuedOn: z.string().nullable(),
  expiresOn: z.string().nullable(),
  notes: z.string().nullable(),
  /** The user who recorded it (the driver for their own submission). */
  submittedBy: z.string().nullable(),
  submittedByName: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** On today's date in the organization's zone (approval aside). */
  status: z.enum(COMPLIANCE_STATUSES),
  dueDate: z.string().nullable(),
  daysLeft: z.number().int().nullable(),
  /** Pages of its document (0: none yet); `GET compliance/items/{itemId}/pdf` prints them. */
  pageCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ComplianceItem = z.infer<typeof complianceItemSchema>;

export const complianceChecklistRowSchema = z.object({
  kind: z.enum(COMPLIANCE_KINDS),
  status: z.enum(COMPLIANCE_STATUSES),
  dueDate: z.string().nullable(),
  daysLeft: z.number().int().nullable(),
  current: complianceItemSchema.nullable(),
});
export type ComplianceChecklistRow = z.infer<typeof complianceChecklistRowSchema>;

/** GET `drivers/{driverId}/qualification`: every item (pending, rejected and older ones too, newest first) and the checklist. */
export const driverQualificationSchema = z.object({
  driverId: z.string(),
  driverName: z.string(),
  /** Today in the organization's zone, the date the statuses are of. */
  today: z.string(),
  expiringDays: z.number().int(),
  items: z.array(complianceItemSchema),
  checklist: z.array(complianceChecklistRowSchema),
  /** The medical certificate or licence rows due within 7 days or expired: the driver app's warning. */
  warnings: z.array(complianceChecklistRowSchema),
});
export type DriverQualification = z.infer<typeof driverQualificationSchema>;

/** GET `assets/{assetId}/compliance`. */
export const assetComplianceSchema = z.object({
  assetId: z.string(),
  assetName: z.string(),
  assetType: z.enum(['VEHICLE', 'TRAILER']),
  today: z.string(),
  expiringDays: z.number().int(),
  items: z.array(complianceItemSchema),
  checklist: z.array(complianceChecklistRowSchema),
});
export type AssetCompliance = z.infer<typeof assetComplianceSchema>;

// ----- The calendar -----

/** One row of the compliance calendar: an item's current state, or a required paper that is missing. */
export const complianceCalendarRowSchema = z.object({
  /** Null for a MISSING row (and for a limited Clearinghouse query not yet taken). */
  itemId: z.string().nullable(),
  subject: complianceSubjectSchema,
  kind: z.enum(COMPLIANCE_KINDS),
  status: z.enum(COMPLIANCE_STATUSES),
  dueDate: z.string().nullable(),
  daysLeft: z.number().int().nullable(),
  number: z.string().nullable(),
  /** A permit's name. */
  title: z.string().nullable(),
});
export type ComplianceCalendarRow = z.infer<typeof complianceCalendarRowSchema>;
export const complianceCalendarPageSchema = pageSchema(complianceCalendarRowSchema);

/** The calendar's default statuses: what needs doing. */
export const DEFAULT_CALENDAR_STATUSES: readonly ComplianceStatus[] = ['EXPIRING', 'EXPIRED', 'MISSING'];

/**
 * GET `compliance/items?status=EXPIRING,EXPIRED,MISSING&kind=…&subject=DRIVER|VEHICLE|TRAILER&q=&page&size`:
 * rows EXPIRED first, then MISSING, EXPIRING, VALID; within a status by due date (soonest first),
 * then by the subject's name.
 */
export const complianceCalendarQuery = pageQuerySchema.extend({
  status: repeatedQuery.pipe(
    z
      .array(z.enum(COMPLIANCE_STATUSES, { error: () => `status must be among ${COMPLIANCE_STATUSES.join(', ')}` }))
      .optional()
      .transform((v) => (v && v.length > 0 ? v : [...DEFAULT_CALENDAR_STATUSES])),
  ),
  kind: repeatedQuery.pipe(z.array(z.enum(COMPLIANCE_KINDS, { error: () => `kind must be among ${COMPLIANCE_KINDS.join(', ')}` })).optional()),
  subject: repeatedQuery.pipe(z.array(z.enum(COMPLIANCE_SUBJECT_TYPES, { error: () => 'subject must be DRIVER, VEHICLE or TRAILER' })).optional()),
  /** Search in the subject's name and the item's number. */
  q: searchText('q', 200).optional(),
  /** Only this driver's or asset's rows. */
  subjectId: z.uuid('subjectId must be a driver or asset id').optional(),
});
export type ComplianceCalendarQuery = z.infer<typeof complianceCalendarQuery>;

/** GET `compliance/summary`: the dashboard tile "Compliance: n expiring, n expired". */
export const complianceSummarySchema = z.object({
  expiring: z.number().int(),
  expired: z.number().int(),
  missing: z.number().int(),
  /** Drivers' submissions waiting for the office. */
  pendingApproval: z.number().int(),
});
export type ComplianceSummary = z.infer<typeof complianceSummarySchema>;

export const complianceItemIdParams = z.object({ orgId: z.uuid(), itemId: z.uuid('itemId must be a compliance item id') });
export const complianceDriverParams = z.object({ orgId: z.uuid(), driverId: z.uuid('driverId must be a driver id') });
export const complianceAssetParams = z.object({ orgId: z.uuid(), assetId: z.uuid('assetId must be an asset id') });

/** A blocking item (dispatch): an expired licence or medical certificate, an expired inspection or registration. */
export interface BlockingComplianceItem {
  subject: ComplianceSubject;
  kind: ComplianceKind;
  itemId: string | null;
  dueDate: string | null;
  /** "Dana Driver's medical certificate expired on 2026-11-20". */
  message: string;
}
