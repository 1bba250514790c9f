import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STATE_OPTIONS, UNIT_SYSTEM_DETAILS, US_TIME_ZONES } from '@fleet/api-contract';
import { requireAuth } from '../auth/index.ts';
import { errors } from '../../http/route-schemas.ts';

const tags = ['settings'];

/** Reference lists for forms: states and provinces, time zones, unit systems (static, cacheable). */
const referenceListsRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = { 'cache-control': 'private, max-age=3600' };

  app.get('/settings/states', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'US states and Canadian provinces and territories',
      response: { 200: z.array(z.object({ code: z.string(), name: z.string(), country: z.enum(['US', 'CA']) })), ...errors(401) },
    },
    handler: async (req, reply) => {
      requireAuth(req);
      return reply.headers(cache).send(STATE_OPTIONS);
    },
  });

  app.get('/settings/time-zone/us', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'US and Canadian home-terminal time zones (IANA ids)',
      response: { 200: z.array(z.object({ id: z.string(), label: z.string() })), ...errors(401) },
    },
    handler: async (req, reply) => {
      requireAuth(req);
      return reply.headers(cache).send([...US_TIME_ZONES]);
    },
  });

  app.get('/settings/units', {
    config: { tokens: true },
    schema: {
      tags,
      summary: 'Unit systems (data is stored metric and shown per the organization setting)',
      response: {
        200: z.array(
          z.object({
            id: z.string(),
            label: z.string(),
            distance: z.string(),
            volume: z.string(),
            temperature: z.string(),
            length: z.string(),
            weight: z.string(),
            speed: z.string(),
          }),
        ),
        ...errors(401),
      },
    },
    handler: async (req, reply) => {
      requireAuth(req);
      return reply.headers(cache).send([...UNIT_SYSTEM_DETAILS]);
    },
  });
};

export default referenceListsRoutes;
