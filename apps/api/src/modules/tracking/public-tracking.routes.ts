import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_TRACKING_RATE_PER_MINUTE, publicTrackingSchema } from '@fleet/api-contract';
import { errors, nonJsonResponse } from '../../http/route-schemas.ts';
import { unsubscribe } from './load-contacts.service.ts';
import { publicProofOfDelivery, publicTracking } from './public-tracking.service.ts';

// The routes a customer reaches without a sign-in (issue 69, decision 0282): the tracking answer and
// the e-mails' one-click unsubscribe. No credential is read (config.public); each is limited per
// address, so tokens cannot be tried at speed.
const tags = ['tracking'];
// Any text: a malformed token answers as an unknown one (404, or the same unsubscribe page), never a 400 that tells them apart.
const tokenParams = z.object({ token: z.string().describe('The token of the link or the unsubscribe link') });
const UNSUBSCRIBE_RATE_PER_MINUTE = 20;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem}</style></head><body>${body}</body></html>`;

const publicTrackingRoutes: FastifyPluginAsyncZod = async (app) => {
  // RFC 8058's POST and the page's form send `List-Unsubscribe=One-Click` as a form: read, not needed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => done(null, body));
  app.get('/public/tracking/:token', {
    config: { public: true, rateLimit: { max: PUBLIC_TRACKING_RATE_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary:
        'What a tracking link shows, without a sign-in: the carrier, the load’s stops with live ETAs, the truck’s last position while the load runs. Unknown, expired and revoked tokens answer the same 404.',
      params: tokenParams,
      response: { 200: publicTrackingSchema, ...errors(404, 429) },
    },
    handler: async (req, reply) => {
      const answer = await publicTracking(app.db, req.params.token);
      // A position and ETAs change by the minute; no shared cache keeps them, no page linked from it learns the token.
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return answer;
    },
  });

  app.get('/public/tracking/:token/documents/:documentId/pdf', {
    config: { public: true, rateLimit: { max: PUBLIC_TRACKING_RATE_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary:
        'A proof of delivery of the link’s load as a PDF, without a sign-in, once the load is delivered (listed in the tracking answer’s proofOfDelivery). Anything else answers the same 404 as an unknown link.',
      params: tokenParams.extend({ documentId: z.string().describe('The proof of delivery’s id') }),
      response: { 200: nonJsonResponse('application/pdf', 'The proof of delivery, one page per photo', true), ...errors(404, 429) },
    },
    handler: async (req, reply) => {
      const { fileName, pdf } = await publicProofOfDelivery(app.db, req.params.token, req.params.documentId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  });

  // Mail scanners follow links: the GET only shows a button, the POST (RFC 8058 one-click) unsubscribes.
  app.get('/public/unsubscribe/:token', {
    config: { public: true, rateLimit: { max: UNSUBSCRIBE_RATE_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'A page with the button that stops a contact’s load notices (it changes nothing by itself)',
      params: tokenParams,
      response: { 200: nonJsonResponse('text/html', 'A small page with an Unsubscribe button'), ...errors(429) },
    },
    handler: async (req, reply) => {
      const action = `/api/v1/public/unsubscribe/${req.params.token.replace(/[^A-Za-z0-9_-]/g, '')}`;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(
          page(
            'Unsubscribe',
            `<h1>Stop these e-mails?</h1><p>You will get no more notices about this load.</p><form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`,
          ),
        );
    },
  });

  app.post('/public/unsubscribe/:token', {
    config: { public: true, rateLimit: { max: UNSUBSCRIBE_RATE_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'One-click unsubscribe (RFC 8058): the contact gets no more load notices. Answers the same page whatever the token, so tokens cannot be probed.',
      params: tokenParams,
      response: { 200: nonJsonResponse('text/html', 'A small page saying the address is unsubscribed'), ...errors(429) },
    },
    handler: async (req, reply) => {
      await unsubscribe(app.db, req.params.token);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page('Unsubscribed', '<h1>You are unsubscribed</h1><p>You will get no more notices about this load.</p>'));
    },
  });
};

export default publicTrackingRoutes;
