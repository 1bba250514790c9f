import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { LoadContactRole, LoadNoticeKind, ShareLinkKind } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Customer tracking (issue 69, decision 0282). Keys lead with organization_id (decision 0169). No
// foreign key to loads or assets: only planned or cancelled loads are deleted, and a link of a load
// or vehicle that is gone answers 404 like an unknown one.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** A link that shows one load, or one vehicle for a time box, to whoever holds its token. */
export const shareLinks = pgTable(
  'share_links',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    kind: text('kind').$type<ShareLinkKind>().notNull(),
    loadId: uuid('load_id'),
    assetId: uuid('asset_id'),
    /** SHA-256 of the token, hex: the token itself is shown once, in the created link's url. */
    tokenHash: text('token_hash').notNull(),
    label: text('label'),
    /** The load's link the notices e-mail (made by the notices, one per load). */
    forNotices: boolean('for_notices').notNull().default(false),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
    /** The user who made it; null for an API token (`createdByToken`) or the notices. */
    createdBy: uuid('created_by'),
    createdByToken: uuid('created_by_token'),
    revokedAt: instant('revoked_at'),
    lastViewedAt: instant('last_viewed_at'),
    viewCount: integer('view_count').notNull().default(0),
    /** The carrier lets this load's link show the reefer temperature (decision 0325). */
    showTemperature: boolean('show_temperature').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'share_links_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('share_links_token_uq').on(t.organizationId, t.tokenHash),
    index('share_links_token_hash_idx').on(t.tokenHash),
    index('share_links_load_idx').on(t.organizationId, t.loadId),
    index('share_links_asset_idx').on(t.organizationId, t.assetId),
  ],
);

/** Who hears about a load, and which notices they chose. */
export const loadContacts = pgTable(
  'load_contacts',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    loadId: uuid('load_id').notNull(),
    /** Order in the list as last saved. */
    position: integer('position').notNull(),
    role: text('role').$type<LoadContactRole>().notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    notices: text('notices')
      .array()
      .$type<LoadNoticeKind[]>()
      .notNull()
      .default(sql`'{}'`),
    /** SHA-256 of the contact's one-click unsubscribe token, hex. */
    unsubscribeHash: text('unsubscribe_hash').notNull(),
    unsubscribedAt: instant('unsubscribed_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'load_contacts_pkey', columns: [t.organizationId, t.id] }),
    index('load_contacts_load_idx').on(t.organizationId, t.loadId),
    index('load_contacts_unsubscribe_idx').on(t.unsubscribeHash),
  ],
);

/** Each notice, claimed once by its key before it is sent (a restart or a second instance finds it claimed). */
export const loadNotices = pgTable(
  'load_notices',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    loadId: uuid('load_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    kind: text('kind').$type<LoadNoticeKind>().notNull(),
    /** The stop it is about; -1 for the load's (LINK, DELIVERED). */
    stopSeq: integer('stop_seq').notNull().default(-1),
    /** LATE: the whole hours past the window's end when it was sent (0, 1, 2, …); 0 otherwise. */
    step: integer('step').notNull().default(0),
    status: text('status').$type<'SENDING' | 'SENT' | 'FAILED'>().notNull().default('SENDING'),
    claimedAt: instant('claimed_at').notNull().defaultNow(),
    sentAt: instant('sent_at'),
    error: text('error'),
  },
  (t) => [
    primaryKey({ name: 'load_notices_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('load_notices_key_uq').on(t.organizationId, t.contactId, t.kind, t.stopSeq, t.step),
    index('load_notices_load_idx').on(t.organizationId, t.loadId),
  ],
);

/** The ETA last announced by `load.eta_changed`, per stop. */
export const loadStopEtaMarks = pgTable(
  'load_stop_eta_marks',
  {
    organizationId: orgKey(),
    stopId: uuid('stop_id').notNull(),
    loadId: uuid('load_id').notNull(),
    eta: instant('eta').notNull(),
  },
  (t) => [primaryKey({ name: 'load_stop_eta_marks_pkey', columns: [t.organizationId, t.stopId] })],
);
