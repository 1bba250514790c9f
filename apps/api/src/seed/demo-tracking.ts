import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loadContacts, loads, loadStops, shareLinks } from '../db/schema/index.ts';
import { defaultLoadExpiry, derivedToken, tokenHash, trackingKey, trackingUrl } from '../modules/tracking/index.ts';

// The demo's customer tracking (issue 69): on a running load, a consignee and a broker who chose
// notices, and one tracking link to open. Made once per organization (seed marks, and in one
// transaction that first looks whether the organization has contacts already). The link's token is
// derived from its id under the server's key, so the start-up log can show its url.

export interface DemoTracking {
  loadNumber: string;
  url: string;
}

export async function ensureDemoTracking(db: Db, orgId: string, serverKey: Buffer, publicUrl: string, now = Date.now()): Promise<DemoTracking | null> {
  const [load] = await db
    .select({ id: loads.id, number: loads.number })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), inArray(loads.status, ['EN_ROUTE', 'AT_STOP'])))
    .orderBy(sql`${loads.status} <> 'EN_ROUTE'`, asc(loads.number))
    .limit(1);
  if (!load) return null;
  const key = trackingKey(serverKey);
  return db.transaction(async (tx) => {
    const [has] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(loadContacts)
      .where(eq(loadContacts.organizationId, orgId));
    if ((has?.n ?? 0) > 0) return null;
    const contacts = [
      {
        role: 'CONSIGNEE' as const,
        name: 'Receiving desk, Acme DC',
        email: 'receiving@acme-dc.example',
        notices: ['LINK', 'ARRIVING', 'ARRIVED', 'LATE'] as const,
      },
      { role: 'BROKER' as const, name: 'Tess Broker', email: 'tess@brokerage.example', notices: ['LINK', 'DELIVERED', 'LATE'] as const },
    ];
    for (const [position, c] of contacts.entries()) {
      const id = randomUUID();
      await tx.insert(loadContacts).values({
        organizationId: orgId,
        id,
        loadId: load.id,
        position,
        role: c.role,
        name: c.name,
        email: c.email,
        notices: [...c.notices],
        unsubscribeHash: tokenHash(derivedToken(key, 'unsubscribe', id)),
        createdAt: new Date(now),
      });
    }
    const [last] = await tx
      .select({ windowEnd: loadStops.windowEnd })
      .from(loadStops)
      .where(and(eq(loadStops.organizationId, orgId), eq(loadStops.loadId, load.id)))
      .orderBy(sql`${loadStops.seq} desc`)
      .limit(1);
    const id = randomUUID();
    const token = derivedToken(key, 'demo-link', id);
    await tx.insert(shareLinks).values({
      organizationId: orgId,
      id,
      kind: 'LOAD',
      loadId: load.id,
      tokenHash: tokenHash(token),
      label: 'For the consignee (demo)',
      expiresAt: new Date(defaultLoadExpiry(last?.windowEnd.getTime() ?? null, now)),
      createdAt: new Date(now),
    });
    return { loadNumber: load.number, url: trackingUrl(publicUrl, token) };
  });
}
