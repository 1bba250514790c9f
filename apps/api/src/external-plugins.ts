import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { errorBody } from './plugins/errors.ts';
import { installSecurityHeaders } from './plugins/security-headers.ts';
import { openapiWebhooks } from './modules/webhooks/openapi-webhooks.ts';

/**
 * The plugins of others the API stands on, registered before any route: security headers, CORS,
 * compression, rate limits, uploads, and the OpenAPI document with its page at /api/docs.
 */
export async function registerExternalPlugins(app: FastifyInstance, config: Config): Promise<void> {
  // The configured map style may live on a plain-http host (a carrier's own tile server on its LAN).
  const mapOrigin = new URL(config.mapStyleUrl).origin;
  const httpsEverywhere = config.publicUrl.startsWith('https:');
  installSecurityHeaders(app, {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine injects CSS variables at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Map tiles, glyphs and sprites come from the configured style's hosts.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', mapOrigin],
      connectSrc: ["'self'", 'https:', mapOrigin],
      workerSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:', 'https:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
    // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is set.
    overHttps: (request) => httpsEverywhere || request.protocol === 'https',
  });
  // Closed unless CORS_ORIGIN names the allowed origins.
  await app.register(cors, { origin: config.corsOrigin ?? false, credentials: false });
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({ ...errorBody(429, 'Too many requests, slow down and try again shortly'), statusCode: 429, after: ctx.after }),
  });
  await app.register(multipart, { limits: { fileSize: config.imageLimit, files: 1 } });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Fleetline API', description: 'Fleet management and hours-of-service API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session access token (JWT) from sign-in' },
          // Listed only on the routes open to API tokens (config.tokens, decision 0226).
          apiToken: { type: 'http', scheme: 'bearer', description: 'An API token (fltk_…) of the organization: accepted only where an operation lists it' },
        },
      },
      // Each webhook event type's body (issue 48).
      webhooks: openapiWebhooks(),
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas registered with an id (JsonValue) become components the routes' $refs point to.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
