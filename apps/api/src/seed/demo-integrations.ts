import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiTokens, users, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../db/schema/index.ts';
import { registerWebhookOrganization, webhookBody } from '../modules/webhooks/webhook-outbox.ts';

// The demo's integrations (issue 48): one API token a TMS would use (its secret was never shown: the
// demo shows the list, last use and revoke) and one webhook endpoint, turned off until someone points
// it at a real receiver, with a delivered test event in its history. Made once per organization.

export async function ensureDemoIntegrations(db: Db, orgId: string, adminEmail: string, now = Date.now()): Promise<boolean> {
  const [has] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.organizationId, orgId));
  if ((has?.n ?? 0) > 0) return false;
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, orgId), eq(users.email, adminEmail)));
  await db.transaction(async (tx) => {
    const token = `fltk_${randomBytes(32).toString('base64url')}`;
    await tx.insert(apiTokens).values({
      organizationId: orgId,
      name: 'TMS load sync (demo)',
      tokenHash: randomBytes(32).toString('hex'),
      prefix: token.slice(0, 9),
      permissions: ['LOAD_LIST', 'DRIVER_LIST', 'ASSET_LIST'],
      createdBy: admin?.id ?? null,
      createdAt: new Date(now - 12 * 86_400_000),
      lastUsedAt: new Date(now - 40 * 60_000),
      lastUsedIp: '203.0.113.24',
    });
    await registerWebhookOrganization(tx, orgId);
    const [sub] = await tx
      .insert(webhookSubscriptions)
      .values({
        organizationId: orgId,
        url: 'https://tms.example.com/hooks/fleetline',
        events: ['load.status_changed', 'load.stop_arrived', 'load.stop_departed', 'hos.duty_status_changed', 'dvir.defect_opened'],
        description: 'Sample endpoint: point it at your TMS and turn it on',
        enabled: false,
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        createdBy: admin?.id ?? null,
        createdAt: new Date(now - 12 * 86_400_000),
      })
      .returning();
    const eventId = randomUUID();
    const at = new Date(now - 12 * 86_400_000 + 60_000);
    await tx.insert(webhookEvents).values({
      organizationId: orgId,
      id: eventId,
      type: 'webhook.test',
      occurredAt: at,
      body: webhookBody(orgId, 'webhook.test', at, { message: 'A test event from Fleetline: your endpoint receives and verifies webhooks.' }),
      createdAt: at,
    });
    await tx.insert(webhookDeliveries).values({
      organizationId: orgId,
      subscriptionId: sub!.id,
      eventId,
      status: 'DELIVERED',
      attempts: 1,
      nextAttemptAt: at,
      lastAttemptAt: at,
      responseCode: 204,
      durationMs: 142,
      deliveredAt: at,
      createdAt: at,
    });
  });
  return true;
}
