import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { errors, nonJsonResponse } from '../../http/route-schemas.ts';
import { getImage } from './images.service.ts';

const imagesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public by unguessable id so <img src> works without a bearer header; a new upload gets a new id.
  app.get('/images/:imageId', {
    config: { public: true },
    schema: { tags: ['images'], summary: 'An uploaded image', params: z.object({ imageId: z.uuid() }), response: { 200: nonJsonResponse('image/*', 'The image: PNG, JPEG, GIF or WebP, as uploaded', true), ...errors(404) } },
    handler: async (req, reply) => {
      const image = await getImage(app.db, req.params.imageId);
      if (!image) throw notFound('Image');
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(image.data);
    },
  });
};

export default imagesRoutes;
