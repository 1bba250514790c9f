import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  conversationPageSchema,
  messageCreateSchema,
  messageListQuery,
  messagePageSchema,
  messageReadResultSchema,
  messageReadSchema,
  driverMessageSchema,
  messageUnreadSchema,
  orgIdParams,
  uploadedImageSchema,
} from '@fleet/api-contract';
import { checkedElsewhere, imageUploadBody, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { storeOrganizationImage, uploadedFileBytes, uploaderOf } from '../images/index.ts';
import { idempotencyKeyOf } from '../../http/idempotency-key.ts';
import { listConversations, listMessages, markRead, sendMessage, unreadCount } from './messages.service.ts';

// Messages between a driver and dispatch (issue 44, decision 0181): the paths and fields the issue
// spells out, plus the office's inbox and an unread count. Reads take MESSAGE_LIST (every
// conversation) or MESSAGE_SEND (a driver: their own); sending takes MESSAGE_SEND.
const tags = ['messages'];
const READ = { anyPermissions: ['MESSAGE_LIST', 'MESSAGE_SEND'] } as const;

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/messages', {
    config: READ,
    schema: {
      tags,
      summary:
        "Messages newest first: one driver's conversation (driverId; a driver always reads their own), a load's (loadId), older than `before`; with the caller's unread count",
      params: orgIdParams,
      querystring: messageListQuery,
      response: { 200: messagePageSchema, ...orgErrors() },
    },
    handler: (req) => listMessages(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.post('/organizations/:orgId/messages', {
    config: { permissions: ['MESSAGE_SEND'] },
    schema: {
      tags,
      summary:
        "Send a message in a driver's conversation, optionally about a load, with photos (image ids); a resend with the same `clientId` answers the first message (200) and stores nothing; a driver's phone sending a message kept without signal gives `recordedAt`, the time it was written, stored as `sentAt` (`receivedAt` is the server's)",
      params: orgIdParams,
      body: messageCreateSchema,
      response: { 200: driverMessageSchema, 201: driverMessageSchema, ...orgErrors() },
    },
    handler: async (req, reply) => {
      const { message, created } = await sendMessage(scopeOf(req, req.params.orgId), requireAuth(req), req.body);
      return reply.code(created ? 201 : 200).send(message);
    },
  });

  app.post('/organizations/:orgId/messages/images', {
    config: { permissions: ['MESSAGE_SEND'] },
    schema: {
      tags,
      summary: 'Upload a photo for a message (multipart field "file": PNG, JPEG, GIF or WebP; 413 above IMAGE_LIMIT_BYTES); send its id in `imageIds`',
      consumes: ['multipart/form-data'],
      params: orgIdParams,
      body: imageUploadBody,
      response: { 201: uploadedImageSchema, ...orgErrors(413) },
    },
    validatorCompiler: checkedElsewhere({ body: 'handler' }),
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await storeOrganizationImage(req.server.db, req.params.orgId, uploaderOf(requireAuth(req)), await uploadedFileBytes(req), idempotencyKeyOf(req))),
  });

  app.post('/organizations/:orgId/messages/read', {
    config: READ,
    schema: {
      tags,
      summary: "Mark the other side's messages in a driver's conversation read, up to an instant (`upTo`: the newest message the caller saw)",
      params: orgIdParams,
      body: messageReadSchema,
      response: { 200: messageReadResultSchema, ...orgErrors() },
    },
    handler: (req) => markRead(scopeOf(req, req.params.orgId), requireAuth(req), req.body),
  });

  app.get('/organizations/:orgId/messages/conversations', {
    config: { permissions: ['MESSAGE_LIST'] },
    schema: {
      tags,
      summary: "The office's inbox: each driver's latest message and the driver's messages not read yet, latest first",
      params: orgIdParams,
      response: { 200: conversationPageSchema, ...orgErrors() },
    },
    handler: (req) => listConversations(scopeOf(req, req.params.orgId), requireAuth(req)),
  });

  app.get('/organizations/:orgId/messages/unread-count', {
    config: READ,
    schema: {
      tags,
      summary: "Messages to the caller's side not read yet (the menu's and the driver's badge)",
      params: orgIdParams,
      response: { 200: messageUnreadSchema, ...orgErrors() },
    },
    handler: async (req) => ({ unread: await unreadCount(scopeOf(req, req.params.orgId), requireAuth(req)) }),
  });
};

export default messagesRoutes;
