import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { queryNumber } from './numbers.ts';
import { requiredText } from './validation.ts';

// Messages between a driver and dispatch (issue 44): one conversation per driver, a message
// optionally tied to one of the driver's loads, text and photos. The issue fixes the paths and the
// field names (`driverId`, `loadId`, `body`, `imageIds`, `clientId`, `upTo`, `before`, `size`).

defineLabels({ driverId: 'Driver', loadId: 'Load', body: 'Message', imageIds: 'Photos', clientId: 'Client id', upTo: 'Read up to' });

export const MESSAGE_MAX_LENGTH = 2000;
export const MESSAGE_MAX_PHOTOS = 5;
export const MESSAGE_PAGE_SIZE = 30;
/**
 * How old a message a phone wrote without signal may be when it arrives (issue 66, decision 0246):
 * as long as a phone's session lasts unused. Older is taken for a phone whose clock is wrong.
 */
export const MESSAGE_LATE_MAX_DAYS = 30;

/** Who wrote a message: the driver, or someone in the office. */
export const MESSAGE_SIDES = ['DRIVER', 'OFFICE'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];

export const messageCreateSchema = z.object({
  driverId: z.uuid('Driver must be a driver id'),
  loadId: z.uuid('Load must be a load id').nullable().optional(),
  body: requiredText('Message', MESSAGE_MAX_LENGTH),
  imageIds: z.array(z.uuid('Photos must be uploaded image ids')).max(MESSAGE_MAX_PHOTOS, `Photos: at most ${MESSAGE_MAX_PHOTOS} a message`).default([]),
  /** Made by the sender's device once per message: a resend with it stores nothing new and answers the first. */
  clientId: z
    .string()
    .trim()
    .min(8, 'Client id must be 8 to 64 letters, digits, "-" or "_"')
    .max(64, 'Client id must be 8 to 64 letters, digits, "-" or "_"')
    .regex(/^[A-Za-z0-9_-]+$/, 'Client id must be 8 to 64 letters, digits, "-" or "_"')
    .nullable()
    .optional(),
  /**
   * A driver's message written on a phone without signal and sent later (issue 66, decision 0246):
   * the instant the driver wrote it, stored as its `sentAt`. Not in the future (a minute of clock
   * skew is forgiven and taken as now), not more than MESSAGE_LATE_MAX_DAYS days ago; the driver's
   * side only.
   */
  recordedAt: instantField('Recorded at').nullable().optional(),
});
export type MessageCreate = z.input<typeof messageCreateSchema>;

export const messageListQuery = z.object({
  driverId: z.uuid('driverId must be a driver id').optional(),
  loadId: z.uuid('loadId must be a load id').optional(),
  /** Older than this instant (the next page of an endless list). */
  before: instantField('before').optional(),
  size: queryNumber(z.number().int().min(1).max(100)).default(MESSAGE_PAGE_SIZE),
});
export type MessageListQuery = z.input<typeof messageListQuery>;

export const messageReadSchema = z.object({
  driverId: z.uuid('Driver must be a driver id'),
  /** Every message of the other side sent at or before this instant is marked read. */
  upTo: instantField('Read up to'),
});
export type MessageRead = z.input<typeof messageReadSchema>;

const person = z.object({ id: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable() });

export const driverMessageSchema = z.object({
  id: z.string(),
  driverId: z.string(),
  loadId: z.string().nullable(),
  /** The load's reference as the office knows it (its BOL or PO number), when tied to one. */
  loadRef: z.string().nullable(),
  side: z.enum(MESSAGE_SIDES),
  sender: person.nullable(),
  body: z.string(),
  imageIds: z.array(z.string()),
  /** Signed links to the photos, for an <img> (valid about an hour). */
  imageUrls: z.array(z.string()),
  clientId: z.string().nullable(),
  /** When the sender wrote it: for a message a phone sent late, the time it was written (issue 66). */
  sentAt: z.string(),
  /** When the server took it: later than `sentAt` for a message a phone kept without signal. */
  receivedAt: z.string(),
  /** When the other side read it (null: not yet). */
  readAt: z.string().nullable(),
});
export type DriverMessage = z.infer<typeof driverMessageSchema>;

export const messagePageSchema = z.object({
  /** The conversation's driver: the one asked for, or the caller's own (a driver); null for the office's all. */
  driverId: z.string().nullable(),
  content: z.array(driverMessageSchema),
  /** Pass as `before` for the next (older) page; null: no older message. */
  nextBefore: z.string().nullable(),
  /** Messages to the caller's side in this conversation (or all, without driverId) not read yet. */
  unread: z.number().int(),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const messageReadResultSchema = z.object({ updated: z.number().int(), unread: z.number().int() });
export type MessageReadResult = z.infer<typeof messageReadResultSchema>;

/** The office's inbox: one row per driver with a conversation, the latest first. */
export const conversationSchema = z.object({
  driver: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  last: driverMessageSchema,
  /** The driver's messages the office has not read. */
  unread: z.number().int(),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationPageSchema = z.object({ content: z.array(conversationSchema), unread: z.number().int() });
export type ConversationPage = z.infer<typeof conversationPageSchema>;

export const messageUnreadSchema = z.object({ unread: z.number().int() });
