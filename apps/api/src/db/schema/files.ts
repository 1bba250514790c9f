import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './columns.ts';

/** Uploaded images (avatars, logos, DVIR photos and signatures, load documents): an organization's own, served to its members or through a signed link (decision 0175). */
export const images = pgTable('images', {
  id: id(),
  organizationId: uuid('organization_id'),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  /** The uploading device's Idempotency-Key: a resent upload answers the first image (decision 0184). */
  clientId: text('client_id'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('images_client_uq').on(t.organizationId, t.clientId).where(sql`${t.clientId} is not null`)]);

/** Server-wide key/value facts such as the development JWT secret of this database. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
