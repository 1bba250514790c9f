import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createNewPasswordSchema,
  currentUserSchema,
  loginSchema,
  logoutSchema,
  registerSchema,
  resetPasswordSchema,
  signInResponseSchema,
  tokensSchema,
} from '@fleet/api-contract';
import { actorOf, requireAuth } from '../auth/index.ts';
import { errors } from '../../http/route-schemas.ts';
import * as auth from './accounts.service.ts';

const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, tokens: app.tokens };
  // Per-IP throttle on the unauthenticated endpoints that send e-mail or create accounts.
  const throttle = { rateLimit: { max: 20, timeWindow: '1 minute' } };

  app.post('/auth/authenticate', {
    config: { public: true },
    schema: { tags: ['auth'], summary: 'Sign in', body: loginSchema, response: { 200: signInResponseSchema, ...errors(400, 401, 429) } },
    handler: (req) => auth.authenticate(deps, req.body, req.ip),
  });

  app.post('/auth/register', {
    config: { public: true, ...throttle },
    schema: {
      tags: ['auth'],
      summary: 'Create an organization and its first administrator (getting started)',
      body: registerSchema,
      response: { 200: signInResponseSchema, ...errors(400, 409, 429) },
    },
    handler: (req) => auth.register(deps, req.body, req.ip),
  });

  app.post('/auth/refresh-token', {
    config: { public: true },
    schema: {
      tags: ['auth'],
      summary: 'Exchange a refresh token (as bearer) for new tokens; the old one is spent',
      security: [{ bearer: [] }],
      response: { 200: tokensSchema, ...errors(401) },
    },
    handler: (req) => {
      const header = req.headers.authorization;
      return auth.refresh(deps, header?.startsWith('Bearer ') ? header.slice(7).trim() : null);
    },
  });

  app.post('/auth/logout', {
    schema: {
      tags: ['auth'],
      summary: 'End this session (revokes its refresh token family)',
      body: logoutSchema.optional(),
      response: { 204: z.null(), ...errors(401) },
    },
    handler: async (req, reply) => {
      await auth.logout(app.db, requireAuth(req), req.body?.refreshToken);
      return reply.code(204).send(null);
    },
  });

  app.post('/auth/logout-everywhere', {
    schema: {
      tags: ['auth'],
      summary: 'Log out on every device, this one too: every refresh token revoked, access tokens refused, open streams ended on every instance',
      response: { 204: z.null(), ...errors(401) },
    },
    handler: async (req, reply) => {
      await auth.logoutEverywhere(app.db, requireAuth(req), actorOf(req));
      return reply.code(204).send(null);
    },
  });

  for (const path of ['/auth/me', '/users/me']) {
    app.get(path, {
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: currentUserSchema, ...errors(401) } },
      handler: (req) => {
        const ctx = requireAuth(req);
        return app.authCache.me(ctx.userId, () => auth.getCurrentUser(app.db, ctx));
      },
    });
  }

  app.post('/auth/reset-password', {
    config: { public: true, ...throttle },
    schema: {
      tags: ['auth'],
      summary: 'E-mail a single-use link to choose a new password (always 202)',
      body: resetPasswordSchema,
      response: { 202: z.object({ message: z.string() }), ...errors(400, 429) },
    },
    handler: async (req, reply) => {
      await auth.requestPasswordReset({ db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl }, req.body.email);
      return reply.code(202).send({ message: 'If an account exists for this email, a reset link is on its way.' });
    },
  });

  app.post('/auth/create-new-password', {
    config: { public: true, ...throttle },
    schema: {
      tags: ['auth'],
      summary: 'Set a new password with the token from the e-mailed link; ends every session',
      body: createNewPasswordSchema,
      response: { 204: z.null(), ...errors(400, 429) },
    },
    handler: async (req, reply) => {
      await auth.createNewPassword(app.db, req.body, actorOf(req));
      return reply.code(204).send(null);
    },
  });
};

export default accountsRoutes;
