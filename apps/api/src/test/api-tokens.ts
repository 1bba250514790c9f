import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { apiTokenCreatedSchema, type ApiTokenCreated } from '@fleet/api-contract';

/** An API token of `orgId` carrying `permissions`, made by the signed-in person whose headers are `by` (its creator). */
export async function createApiToken(
  app: FastifyInstance,
  orgId: string,
  by: Record<string, string>,
  permissions: readonly string[],
  name = `Token ${randomUUID().slice(0, 8)}`,
): Promise<ApiTokenCreated> {
  const res = await app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/api-tokens`, headers: by, payload: { name, permissions } });
  if (res.statusCode !== 201) throw new Error(`token create failed: ${res.statusCode} ${res.body}`);
  return apiTokenCreatedSchema.parse(res.json());
}
