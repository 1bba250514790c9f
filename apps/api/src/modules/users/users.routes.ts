import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePasswordSchema, userIdParams, userProfileSchema, userSchema } from '@fleet/api-contract';
import { actorOf, requireAuth } from '../../plugins/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { orgErrors } from '../../lib/route-schemas.ts';
import * as users from './users.service.ts';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const scope = (req: Parameters<typeof actorOf>[0], orgId: string) => ({
    db: app.db,
    orgId,
    ctx: requireAuth(req),
    actor: actorOf(req),
  });

  app.get('/organizations/:orgId/users/:userId', {
    schema: { tags: ['users'], summary: 'One user (own profile, or USER_READ)', params: userIdParams, response: { 200: userSchema, ...orgErrors() } },
    handler: (req) => users.getUser(scope(req, req.params.orgId), req.params.userId),
  });

  app.put('/organizations/:orgId/users/:userId', {
    schema: {
      tags: ['users'],
      summary: 'Edit a profile (own, or USER_UPDATE)',
      params: userIdParams,
      body: userProfileSchema,
      response: { 200: userSchema, ...orgErrors(409) },
    },
    handler: (req) => users.updateProfile(scope(req, req.params.orgId), req.params.userId, req.body),
  });

  app.post('/organizations/:orgId/users/:userId/image', {
    schema: {
      tags: ['users'],
      summary: 'Upload a profile picture (multipart field "file": PNG, JPEG, GIF or WebP)',
      consumes: ['multipart/form-data'],
      params: userIdParams,
      response: { 200: z.object({ profilePicture: z.string() }), ...orgErrors(413) },
    },
    handler: async (req) => {
      const file = await req.file();
      if (!file) throw badRequest('file: an image file is required');
      const data = await file.toBuffer();
      const url = await users.setProfileImage(scope(req, req.params.orgId), req.params.userId, data);
      return { profilePicture: url ?? '' };
    },
  });

  app.delete('/organizations/:orgId/users/:userId/image', {
    schema: { tags: ['users'], summary: 'Remove the profile picture', params: userIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await users.setProfileImage(scope(req, req.params.orgId), req.params.userId, null);
      return reply.code(204).send(null);
    },
  });

  app.put('/organizations/:orgId/users/:userId/changePassword', {
    schema: {
      tags: ['users'],
      summary: 'Change own password (current + new); other sessions end',
      params: userIdParams,
      body: changePasswordSchema,
      response: { 204: z.null(), ...orgErrors() },
    },
    handler: async (req, reply) => {
      await users.changePassword(scope(req, req.params.orgId), req.params.userId, req.body);
      return reply.code(204).send(null);
    },
  });
};

export default usersRoutes;
