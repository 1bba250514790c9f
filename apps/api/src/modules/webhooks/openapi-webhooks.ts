import type { SwaggerOptions } from '@fastify/swagger';
import { z } from 'zod';
import { WEBHOOK_DATA_SCHEMAS, WEBHOOK_EVENT_INFO, WEBHOOK_EVENT_TYPES, webhookExample } from '@fleet/api-contract';

// The API document's `webhooks` section (OpenAPI 3.1): one entry per event type, the body a receiver
// gets (WEBHOOK_DATA_SCHEMAS in the contract) with an example, and the Standard Webhooks headers.

const headers = [
  {
    name: 'webhook-id',
    description: 'The message id: the same on every attempt, so a receiver can drop repeats',
    example: 'msg_9a3e5f217c4b4d8ea1f23b5c7d9e0f03',
  },
  {
    name: 'webhook-timestamp',
    description: 'Unix seconds of the attempt; refuse ones far from your clock (the libraries allow 5 minutes)',
    example: '1780324200',
  },
  {
    name: 'webhook-signature',
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` under the secret (two during a rotation)',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map((h) => ({ in: 'header', name: h.name, required: true, description: h.description, schema: { type: 'string' as const }, example: h.example }));

type OpenapiOption = NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']>;
type Webhooks = NonNullable<Extract<OpenapiOption, { webhooks?: unknown }>['webhooks']>;

export function openapiWebhooks(): Webhooks {
  const out: Webhooks = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const body = z.object({ type: z.literal(type), timestamp: z.string(), organizationId: z.string(), data: WEBHOOK_DATA_SCHEMAS[type] });
    out[type] = {
      post: {
        tags: ['webhooks'],
        summary: WEBHOOK_EVENT_INFO[type].description,
        description:
          'Sent to the subscriptions that ask for this type, signed as the Standard Webhooks specification says. Answer 2xx within 10 seconds; anything else is retried (5 s, 5 min, 30 min, 2 h, … for about 3 days; Retry-After is honoured); 410 Gone turns the subscription off.',
        parameters: headers,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: z.toJSONSchema(body, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>,
              example: webhookExample(type),
            },
          },
        },
        responses: { '200': { description: 'Received (any 2xx)' }, '410': { description: 'Stop sending: the subscription is turned off' } },
      },
    };
  }
  return out;
}
