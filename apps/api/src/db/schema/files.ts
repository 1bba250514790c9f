import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './columns.ts';

/** Uploaded images (avatars, logos). Served by unguessable id so <img> tags need no bearer token. */
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
