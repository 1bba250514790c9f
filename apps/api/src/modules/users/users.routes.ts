import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordSchema,
  inviteUserSchema,
  orgIdParams,
  pageSchema,
  tokensSchema,
  undoEmailChangeResultSchema,
  undoEmailChangeSchema,
  updateUserSchema,
  userIdParams,
  userListQuerySchema,
  userSchema,
} from '@fleet/api-contract';
import { actorOf, requireAuth, scopeOf } from '../auth/index.ts';
import { uploadedFileBytes } from '../images/index.ts';
import { checkedElsewhere, errors, imageUploadBody, orgErrors } from '../../http/route-schemas.ts';
import { undoEmailChange } from './email-change.ts';
import * as users from './users.service.ts';
import * as admin from './user-admin.service.ts';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const mail = () => ({ mailer: app.mailer, publicUrl: app.config.publicUrl });

  app.get('/organizations/:orgId/users/:userId', {
    schema: { tags: ['users'], summary: 'One user (own profile, or USER_READ)', params: userIdParams, response: { 200: userSchema, ...orgErrors() } },
    handler: (req) => users.getUser(scopeOf(req, req.params.orgId), requireAuth(req), req.params.userId),
  });

  app.put('/organizations/:orgId/users/:userId', {
    schema: {
      tags: ['users'],
      summary:
        'Edit a profile (own, or USER_UPDATE); roleId changes the role (USER_UPDATE, no escalation, last admin kept). ' +
        'Changing your own e-mail needs `currentPassword`, and the old address is told with a link that undoes it for 7 days',
      params: userIdParams,
      body: updateUserSchema,
      response: { 200: userSchema, ...orgErrors(409) },
    },
    handler: (req) => users.updateProfile(scopeOf(req, req.params.orgId), requireAuth(req), mail(), req.params.userId, req.body),
  });

  app.post('/auth/undo-email-change', {
    config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    schema: {
      tags: ['auth'],
      summary:
        'Undo a change of e-mail with the link e-mailed to the old address (valid 7 days, single use): the old e-mail is back, every session ends, ' +
        'the password no longer signs in (a link to choose a new one goes to the restored address), and API tokens the account made since the change are revoked',
      body: undoEmailChangeSchema,
      response: { 200: undoEmailChangeResultSchema, ...errors(400, 409, 429) },
    },
    handler: (req) => undoEmailChange({ db: app.db, ...mail() }, req.body.token, actorOf(req)),
  });

  app.get('/organizations/:orgId/users', {
    config: { permissions: ['USER_LIST'] },
    schema: {
      tags: ['users'],
      summary: 'Users of the organization: paging, search by name or e-mail, filter by roleId and status',
      params: orgIdParams,
      querystring: userListQuerySchema,
      response: { 200: pageSchema(userSchema), ...orgErrors() },
    },
    handler: (req) => admin.listUsers(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/users', {
    config: { permissions: ['USER_CREATE'] },
    schema: {
      tags: ['users'],
      summary: 'Invite a user by e-mail (create-new-password link); the caller must hold every code of the role',
      params: orgIdParams,
      body: inviteUserSchema,
      response: { 201: userSchema, ...orgErrors(409) },
    },
    handler: async (req, reply) => reply.code(201).send(await admin.inviteUser(scopeOf(req, req.params.orgId), requireAuth(req), mail(), req.body)),
  });

  app.post('/organizations/:orgId/users/:userId/deactivate', {
    config: { permissions: ['USER_UPDATE'] },
    schema: {
      tags: ['users'],
      summary: 'Deactivate a user: sessions end at once; never yourself or the last active administrator',
      params: userIdParams,
      response: { 200: userSchema, ...orgErrors(409) },
    },
    handler: (req) => admin.deactivateUser(scopeOf(req, req.params.orgId), requireAuth(req), req.params.userId),
  });

  app.post('/organizations/:orgId/users/:userId/activate', {
    config: { permissions: ['USER_UPDATE'] },
    schema: { tags: ['users'], summary: 'Reactivate a user', params: userIdParams, response: { 200: userSchema, ...orgErrors() } },
    handler: (req) => admin.activateUser(scopeOf(req, req.params.orgId), requireAuth(req), req.params.userId),
  });

  app.post('/organizations/:orgId/users/:userId/password-reset', {
    config: { permissions: ['USER_UPDATE'] },
    schema: {
      tags: ['users'],
      summary: 'E-mail the user a password-reset link, or the invitation again if never accepted',
      params: userIdParams,
      response: { 202: z.object({ sent: z.enum(['RESET', 'INVITATION']) }), ...orgErrors(409) },
    },
    handler: async (req, reply) =>
      reply.code(202).send(await admin.sendPasswordReset(scopeOf(req, req.params.orgId), requireAuth(req), mail(), req.params.userId)),
  });

  app.post('/organizations/:orgId/users/:userId/image', {
    schema: {
      tags: ['users'],
      summary: 'Upload a profile picture (multipart field "file": PNG, JPEG, GIF or WebP)',
      consumes: ['multipart/form-data'],
      params: userIdParams,
      body: imageUploadBody,
      response: { 200: z.object({ profilePicture: z.string() }), ...orgErrors(413) },
    },
    validatorCompiler: checkedElsewhere({ body: 'handler' }),
    handler: async (req) => {
      const data = await uploadedFileBytes(req);
      const url = await users.setProfileImage(scopeOf(req, req.params.orgId), requireAuth(req), req.params.userId, data);
      return { profilePicture: url ?? '' };
    },
  });

  app.delete('/organizations/:orgId/users/:userId/image', {
    schema: { tags: ['users'], summary: 'Remove the profile picture', params: userIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await users.setProfileImage(scopeOf(req, req.params.orgId), requireAuth(req), req.params.userId, null);
      return reply.code(204).send(null);
    },
  });

  app.put('/organizations/:orgId/users/:userId/changePassword', {
    schema: {
      tags: ['users'],
      summary: 'Change own password (current + new): every session ends, and this one goes on with the new tokens answered',
      params: userIdParams,
      body: changePasswordSchema,
      response: { 200: tokensSchema, ...orgErrors() },
    },
    handler: (req) => users.changePassword(scopeOf(req, req.params.orgId), requireAuth(req), app.tokens, req.params.userId, req.body),
  });
};

export default usersRoutes;
