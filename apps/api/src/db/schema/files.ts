import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './columns.ts';

/** Uploaded images (avatars, logos, DVIR photos and signatures, load documents): an organization's own, served to its members or through a signed link (decision 0175). */
export const images = pgTable('images', {
  id: id(),
  organizationId: uuid('organization_id'),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/** Server-wide key/value facts such as the development JWT secret of this database. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
