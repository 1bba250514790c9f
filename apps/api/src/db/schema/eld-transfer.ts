import { sql } from 'drizzle-orm';
import { boolean, date, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { EldTransferFailure, EldTransferMethod, EldTransferStatus, EldValidationMessage } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// The ELD's data transfers to FMCSA (49 CFR 395 Appendix A 4.10.1; issue 45, decision 0185). A send
// is kept as FMCSA answered it. Keys lead with organization_id (decision 0169) so db:distribute
// places the rows with the organization's; no foreign key to drivers or users beyond the
// organization: a record outlives a deactivated driver or a removed account (names are read where
// they still exist).

export const eldTransfers = pgTable(
  'eld_transfers',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    driverId: uuid('driver_id').notNull(),
    method: text('method').$type<EldTransferMethod>().notNull(),
    test: boolean('test').notNull(),
    /** The 25-character name of 4.8.2.2, without extension. */
    fileName: text('file_name').notNull(),
    outputFileComment: text('output_file_comment').notNull(),
    fromDate: date('from_date').notNull(),
    toDate: date('to_date').notNull(),
    status: text('status').$type<EldTransferStatus>().notNull(),
    submissionId: text('submission_id'),
    /** FMCSA's validation messages, as answered. */
    errors: jsonb('errors').$type<EldValidationMessage[]>().notNull().default([]),
    /** Why a FAILED send failed, in words. */
    reason: text('reason'),
    /** The kind of failure of a FAILED send (issue 66); null otherwise and on older rows. */
    failure: text('failure').$type<EldTransferFailure>(),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('eld_transfers_list_idx').on(t.organizationId, t.createdAt),
    index('eld_transfers_driver_idx').on(t.organizationId, t.driverId, t.createdAt),
  ],
);

/**
 * The self-checks of the transfer mechanism (4.6.1.7): one row a Ping. A platform table, not an
 * organization's: the mechanism is the server's, and every organization's drivers depend on it. It
 * stays on the Citus coordinator with job_runs (scripts/db-distribute.ts): only the job writes it.
 */
export const eldTransferChecks = pgTable(
  'eld_transfer_checks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The Ping's status (Success, InvalidRegistrationData, ...) or FAILED when the service could not be reached. */
    status: text('status').notNull(),
    detail: text('detail'),
    ok: boolean('ok').notNull(),
  },
  (t) => [index('eld_transfer_checks_at_idx').on(t.checkedAt)],
);
