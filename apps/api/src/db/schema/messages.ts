import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

// Messages between a driver and dispatch (issue 44, decision 0181): one conversation per driver. Keys
// lead with organization_id (decision 0169) so db:distribute places them with the organization's
// other rows. No foreign key to drivers, loads or users beyond the organization: a driver or a load
// deleted later leaves the conversation readable as it was (the names are read where they still exist).

export const messages = pgTable(
  'messages',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    driverId: uuid('driver_id').notNull(),
    loadId: uuid('load_id'),
    /** DRIVER or OFFICE: which side wrote it (and so which side's read mark it waits for). */
    side: text('side').$type<'DRIVER' | 'OFFICE'>().notNull(),
    senderUserId: uuid('sender_user_id'),
    body: text('body').notNull(),
    imageIds: jsonb('image_ids').$type<string[]>().notNull().default([]),
    /** The sender device's id of the message: a resend with it is the same message. */
    clientId: text('client_id'),
    /**
     * When the sender wrote it: the server's time, or a driver's phone's time of writing for a message
     * kept without signal (issue 66). Milliseconds, as the API shows it: `upTo` and `before` taken
     * from a message name exactly that message.
     */
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** When the server took it (later than sent_at for a message a phone sent late). */
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('messages_conversation_idx').on(t.organizationId, t.driverId, t.sentAt),
    index('messages_load_idx')
      .on(t.organizationId, t.loadId, t.sentAt)
      .where(sql`${t.loadId} is not null`),
    index('messages_unread_idx')
      .on(t.organizationId, t.side, t.driverId)
      .where(sql`${t.readAt} is null`),
    uniqueIndex('messages_client_uq')
      .on(t.organizationId, t.driverId, t.side, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);
