import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { imageIdParams, imageLinkQuery, orgImageParams } from '@fleet/api-contract';
import { errors, nonJsonResponse, orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { mayReadImage, type OwnersInReach } from './image-access.ts';
import { bearerCaller } from './image-caller.ts';
import { getImageByLinkOrCaller, getOrgImage, type ServedImage } from './images.service.ts';

const tags = ['images'];
const imageResponse = nonJsonResponse('image/*', 'The image: PNG, JPEG, GIF or WebP, as uploaded', true);

// Never `public`: an image is an organization's (a DVIR defect photo, a signature, a bill of lading).
function send(reply: FastifyReply, image: ServedImage) {
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', image.maxAgeSeconds > 0 ? `private, max-age=${image.maxAgeSeconds}` : 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .send(image.data);
}

/** The images routes, with each owner module's answer to who may read what an image is attached to. */
const imagesRoutes =
  (owners: OwnersInReach): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/organizations/:orgId/images/:imageId', {
      config: { tokens: true },
      schema: {
        tags,
        summary:
          "One of the organization's uploaded images, for a member who may read what it is attached to (its uploader until it is attached; a page embeds the signed link the API shows with the image instead)",
        params: orgImageParams,
        response: { 200: imageResponse, ...orgErrors() },
      },
      handler: async (req, reply) => {
        const { db, orgId } = scopeOf(req, req.params.orgId);
        return send(reply, await getOrgImage(db, orgId, req.params.imageId, mayReadImage(db, requireAuth(req), owners)));
      },
    });

    app.get('/images/:imageId', {
      // Open to the auth plugin: a signed link is a credential of its own (an <img src> cannot send the
      // Authorization header); without one, the bearer token is checked here, as the plugin would.
      config: { public: true },
      schema: {
        tags,
        summary:
          'An uploaded image, through the signed link the API gave with it (exp and sig, valid 1 to 2 hours) or for a signed-in caller who may read what it is attached to; any other image is a 404',
        params: imageIdParams,
        querystring: imageLinkQuery,
        response: { 200: imageResponse, ...errors(400, 401, 404) },
      },
      handler: async (req, reply) => {
        const caller = await bearerCaller(req);
        const mayRead = caller ? mayReadImage(app.db, caller, owners) : async () => false;
        return send(reply, await getImageByLinkOrCaller(app.db, req.params.imageId, req.query, caller, mayRead));
      },
    });
  };

export default imagesRoutes;
