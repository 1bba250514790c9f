import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './columns.ts';

/** What an image can be attached to (modules/images/image-owners.ts, decision 0235). */
export const IMAGE_OWNER_TYPES = ['MESSAGE', 'DVIR', 'DEFECT', 'LOAD', 'USER', 'ORGANIZATION', 'COMPLIANCE_ITEM'] as const;

/**
 * Uploaded images (avatars, logos, DVIR photos and signatures, load documents): an organization's
 * own, served through a signed link (decision 0175) or by id to whoever may read what the image is
 * attached to (decision 0235).
 */
export const images = pgTable(
  'images',
  {
    id: id(),
    organizationId: uuid('organization_id'),
    /** The user, or the API token, that uploaded it; null for images stored before issue 66. */
    uploadedBy: uuid('uploaded_by'),
    /** What it is attached to (null: nothing yet, its uploader's alone); a load's papers are the load's. */
    ownerType: text('owner_type').$type<(typeof IMAGE_OWNER_TYPES)[number]>(),
    ownerId: uuid('owner_id'),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    /** The uploading device's Idempotency-Key: a resent upload answers the first image (decision 0184). */
    clientId: text('client_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('images_client_uq')
      .on(t.organizationId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/** Server-wide key/value facts such as the development JWT secret of this database. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
