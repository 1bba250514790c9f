import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { DVIR_MIN_RETENTION_DAYS } from './maintenance.ts';

/** Data kinds with a retention period. Minimums are legal (49 CFR 395.8(k): 6 months of RODS; 396.11(a)(4): 3 months of inspection reports; IFTA: 4 years). */
export const RETENTION_KINDS = ['POSITIONS', 'HOS_RECORDS', 'INSPECTIONS', 'ACTIVITY_LOG', 'FUEL_IFTA', 'NOTIFICATIONS'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export interface RetentionKindInfo {
  kind: RetentionKind;
  label: string;
  description: string;
  /** Shortest period a carrier may choose, in days. */
  minimumDays: number;
  defaultDays: number;
  /** Why the minimum is what it is. */
  basis: string;
}

/** Longest period one can type; null (keep forever) is also allowed. */
export const RETENTION_MAX_DAYS = 36_500;

export const RETENTION_KIND_INFO: Record<RetentionKind, RetentionKindInfo> = {
  POSITIONS: {
    kind: 'POSITIONS',
    label: 'Vehicle positions',
    description: 'GPS positions behind the map and route history',
    minimumDays: 30,
    defaultDays: 400,
    basis: 'Route history is needed to answer disputes and detention claims for at least a month',
  },
  HOS_RECORDS: {
    kind: 'HOS_RECORDS',
    label: 'Hours-of-service records',
    description: 'Records of duty status, ELD events and supporting documents',
    minimumDays: 183,
    defaultDays: 400,
    basis: '49 CFR 395.8(k): records of duty status and supporting documents are kept 6 months',
  },
  INSPECTIONS: {
    kind: 'INSPECTIONS',
    label: 'Vehicle inspection reports',
    description:
      'Drivers’ inspection reports with their defects, photos, repair certifications and reviews (kept while a defect is open or on an open work order)',
    minimumDays: DVIR_MIN_RETENTION_DAYS,
    defaultDays: 365,
    basis: '49 CFR 396.11(a)(4): the carrier keeps each report and its certification of repairs 3 months from the report’s date',
  },
  ACTIVITY_LOG: {
    kind: 'ACTIVITY_LOG',
    label: 'Activity log',
    description: 'Who changed what, when, from where',
    minimumDays: 365,
    defaultDays: 730,
    basis: 'ELD edit history must survive the RODS it explains; one year covers audits',
  },
  FUEL_IFTA: {
    kind: 'FUEL_IFTA',
    label: 'Fuel and IFTA records',
    description: 'Fuel receipts, jurisdiction mileage and IFTA returns',
    minimumDays: 1461,
    defaultDays: 1826,
    basis: 'IFTA Articles of Agreement R1010: records are kept 4 years from the return due date',
  },
  NOTIFICATIONS: {
    kind: 'NOTIFICATIONS',
    label: 'Notifications',
    description: 'Alerts shown in the notifications panel',
    minimumDays: 7,
    defaultDays: 90,
    basis: 'No legal minimum; a week keeps recent alerts visible',
  },
};

export const retentionPolicySchema = z.object({
  kind: z.enum(RETENTION_KINDS),
  label: z.string(),
  description: z.string(),
  /** Null keeps the data forever. */
  retentionDays: z.number().int().nullable(),
  minimumDays: z.number().int(),
  defaultDays: z.number().int(),
  basis: z.string(),
  /** False while the product does not store this kind yet (its table does not exist): nothing to purge. */
  stored: z.boolean(),
});

export const retentionJobSchema = z.object({
  lastRunStartedAt: z.string().nullable(),
  lastRunFinishedAt: z.string().nullable(),
  lastRunStatus: z.enum(['OK', 'FAILED', 'RUNNING']).nullable(),
  nextRunAt: z.string(),
  /** Rows of this organization removed by the last run, per kind. */
  lastRemoved: z.record(z.string(), z.number().int()),
});

export const dataRetentionSchema = z.object({
  policies: z.array(retentionPolicySchema),
  job: retentionJobSchema,
});
export type DataRetention = z.infer<typeof dataRetentionSchema>;

defineLabels({ policies: 'Retention policies', 'policies.kind': 'Data kind', 'policies.retentionDays': 'Retention period (days)' });

/** PUT body: every kind listed once; the legal minimum is enforced per kind. */
export const dataRetentionInputSchema = z.object({
  policies: z
    .array(
      z.object({
        kind: z.enum(RETENTION_KINDS),
        retentionDays: z.number().int().max(RETENTION_MAX_DAYS, `Retention period must be at most ${RETENTION_MAX_DAYS} days`).nullable(),
      }),
    )
    .min(1, 'Retention policies must list at least one data kind')
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((p, i) => {
        if (seen.has(p.kind)) ctx.addIssue({ code: 'custom', path: [i, 'kind'], message: `${p.kind} is listed twice` });
        seen.add(p.kind);
        const min = RETENTION_KIND_INFO[p.kind].minimumDays;
        if (p.retentionDays !== null && p.retentionDays < min) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'retentionDays'],
            message: `${RETENTION_KIND_INFO[p.kind].label} must be kept at least ${min} days (${RETENTION_KIND_INFO[p.kind].basis})`,
          });
        }
      });
    }),
});
export type DataRetentionInput = z.input<typeof dataRetentionInputSchema>;
