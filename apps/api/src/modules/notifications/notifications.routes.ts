import {
  notificationChangeResultSchema,
  notificationListQuery,
  notificationPageSchema,
  notificationPreferencesInput,
  notificationPreferencesSchema,
  notificationSelectionSchema,
  STREAM_TICKET_TTL_SECONDS,
  unreadCountSchema,
} from '@fleet/api-contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openEventStream } from '../../http/event-stream.ts';
import { nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf, streamTicketRoute } from '../auth/index.ts';
import type { NotificationHub, NotificationSubscriber } from './notifications.hub.ts';
import { clearNotifications, getPreferences, listNotifications, markRead, setPreferences, unreadCount } from './notifications.service.ts';

const params = z.object({ orgId: z.uuid('orgId must be an id') });
const tags = ['notifications'];
/** A stream of a caller holding one of these is also told `hos` when drivers' records change. */
const HOS_READERS = ['HOS_LIST', 'AVAILABILITY_LIST', 'ORG_DASH_READ'] as const;

// Every route here is the caller's own notifications in the organization: sign-in only (spec section
// 2: /notifications), tenancy by the auth plugin, and every query keyed on the caller's user id.
/** Which conversation a caller who is not in the office follows: their own driver record's, if any. */
export type OwnConversation = (db: FastifyInstance['db'], orgId: string, userId: string) => Promise<string | null>;

const notificationsRoutes =
  (hub: NotificationHub, ownConversation: OwnConversation): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/organizations/:orgId/notifications', {
      schema: {
        tags,
        summary: "The caller's notifications, newest first: status all/unread/read, kind, from/to, search; with the unread count",
        params,
        querystring: notificationListQuery,
        response: { 200: notificationPageSchema, ...orgErrors() },
      },
      handler: (req) => listNotifications(scopeOf(req, req.params.orgId), requireAuth(req).userId, req.query),
    });

    app.get('/organizations/:orgId/notifications/unread-count', {
      schema: {
        tags,
        summary: "How many of the caller's notifications are unread (the bell's badge)",
        params,
        response: { 200: unreadCountSchema, ...orgErrors() },
      },
      handler: async (req) => ({ unread: await unreadCount(scopeOf(req, req.params.orgId), requireAuth(req).userId) }),
    });

    app.post('/organizations/:orgId/notifications/read', {
      schema: {
        tags,
        summary: 'Mark notifications read: `ids`, or `all: true`',
        params,
        body: notificationSelectionSchema,
        response: { 200: notificationChangeResultSchema, ...orgErrors() },
      },
      handler: (req) => markRead(scopeOf(req, req.params.orgId), requireAuth(req).userId, req.body),
    });

    app.post('/organizations/:orgId/notifications/clear', {
      schema: {
        tags,
        summary: 'Clear notifications from the panel and the list: `ids`, or `all: true`',
        params,
        body: notificationSelectionSchema,
        response: { 200: notificationChangeResultSchema, ...orgErrors() },
      },
      handler: (req) => clearNotifications(scopeOf(req, req.params.orgId), requireAuth(req).userId, req.body),
    });

    app.get('/organizations/:orgId/notifications/preferences', {
      schema: {
        tags,
        summary: 'The kinds the caller receives, in the app and by e-mail',
        params,
        response: { 200: notificationPreferencesSchema, ...orgErrors() },
      },
      handler: (req) => getPreferences(scopeOf(req, req.params.orgId), requireAuth(req).userId),
    });

    app.put('/organizations/:orgId/notifications/preferences', {
      schema: {
        tags,
        summary: 'Choose, per kind, whether to receive it in the app and by e-mail (kinds left out keep their choice)',
        params,
        body: notificationPreferencesInput,
        response: { 200: notificationPreferencesSchema, ...orgErrors() },
      },
      handler: (req) => setPreferences(scopeOf(req, req.params.orgId), requireAuth(req).userId, req.body),
    });

    streamTicketRoute(app, {
      stream: '/organizations/:orgId/notifications/stream',
      tags,
      summary: `A single-use ticket that opens the notifications stream once within ${STREAM_TICKET_TTL_SECONDS} s (for EventSource)`,
    });

    app.get('/organizations/:orgId/notifications/stream', {
      config: { streamTicket: true },
      schema: {
        tags,
        summary:
          "Server-Sent Events of the caller's notifications: `unread` {unread} on connect and when it changes elsewhere, `notification` {notification, unread} for each new one; " +
          "for callers holding HOS_LIST, AVAILABILITY_LIST or ORG_DASH_READ, `hos` {at} when drivers' duty-status records changed (at most every 250 ms); " +
          '`conversation` {driverId} when a conversation between a driver and dispatch that the caller reads changed (a message, a read mark). ' +
          'Bearer header, or `ticket` from POST …/notifications/stream/ticket. ' +
          'When the caller loses access (deactivated, logged out everywhere, the organization withdrawn) a last `revoked` {reason, message} ends it.',
        params,
        querystring: z.object({ ticket: z.string().optional() }),
        response: {
          200: nonJsonResponse(
            'text/event-stream',
            'Server-Sent Events: `event: unread`, `event: notification`, `event: hos` and a last `event: revoked`, each `data:` JSON',
          ),
          ...orgErrors(),
        },
      },
      handler: async (req, reply) => {
        const s = scopeOf(req, req.params.orgId);
        const { userId, permissions } = requireAuth(req);
        const unread = await unreadCount(s, userId);
        const readsHos = (codes: ReadonlySet<string>) => HOS_READERS.some((code) => codes.has(code));
        // Conversations: every one with MESSAGE_LIST, the caller's own with MESSAGE_SEND alone (a driver).
        const ownDriver = permissions.has('MESSAGE_SEND') ? await ownConversation(s.db, s.orgId, userId) : null;
        const follows = (codes: ReadonlySet<string>): NotificationSubscriber['conversations'] =>
          codes.has('MESSAGE_LIST') ? { all: true } : codes.has('MESSAGE_SEND') && ownDriver ? { driverId: ownDriver } : null;
        const sub: NotificationSubscriber = {
          orgId: s.orgId,
          userId,
          hos: readsHos(permissions),
          conversations: follows(permissions),
          send: (event, data) => stream.send(event, data),
          close: () => stream.end(),
        };
        // Ended when the caller's session does; `hos` follows the caller's permissions while it stays open.
        const stream = openEventStream(
          reply,
          { event: 'unread', data: { unread } },
          app.openStreams.guard(req, (ctx) => {
            sub.hos = readsHos(ctx.permissions);
            sub.conversations = follows(ctx.permissions);
          }),
        );
        stream.onClose(hub.subscribe(sub));
      },
    });
  };

export default notificationsRoutes;
