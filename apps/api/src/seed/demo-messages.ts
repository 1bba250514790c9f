import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, drivers, loads, messages, roles, users } from '../db/schema/index.ts';
import { DEMO_DRIVER_UNITS, DISPATCHER_ROLE_NAME } from './seed.ts';

// The demo organization's conversations between drivers and dispatch (issue 44): the drivers who
// sign in (tractors 101-103) each have one, about the load on their truck where there is one, so a
// fresh start shows the inbox with an unread message from a driver, and the demo driver's phone a
// message from dispatch not read yet. Written once: an organization with messages gets none.

const MINUTE = 60_000;

interface Line {
  /** Minutes before now. */
  ago: number;
  from: 'DRIVER' | 'OFFICE';
  body: string;
  /** Read by the other side (minutes before now), or unread. */
  readAgo: number | null;
}

const SCRIPTS: Line[][] = [
  [
    { ago: 190, from: 'OFFICE', body: 'Morning! Your pick-up is ready at dock 4, ask for Maria at the window.', readAgo: 185 },
    { ago: 184, from: 'DRIVER', body: 'Got it, 20 minutes out.', readAgo: 180 },
    { ago: 95, from: 'DRIVER', body: 'Loaded and sealed, seal number 448812. Heading out.', readAgo: 90 },
    { ago: 12, from: 'OFFICE', body: 'Receiver moved your appointment 30 minutes later. Gate code is 4471.', readAgo: null },
  ],
  [
    { ago: 240, from: 'OFFICE', body: 'Can you take a reload out of the same customer tomorrow morning?', readAgo: 230 },
    { ago: 228, from: 'DRIVER', body: 'Yes, I will have my 10 hours by 6.', readAgo: 200 },
    { ago: 25, from: 'DRIVER', body: 'Still waiting for a door at the receiver, 2 hours now. Detention?', readAgo: null },
  ],
  [
    { ago: 70, from: 'DRIVER', body: 'Traffic on the interstate, running about 30 minutes late.', readAgo: 66 },
    { ago: 64, from: 'OFFICE', body: 'Thanks, the customer knows. Drive safe.', readAgo: 60 },
  ],
];

/** Writes the demo conversations when the organization has none; answers how many messages it wrote. */
export async function ensureDemoMessages(db: Db, orgId: string, now = Date.now()): Promise<number> {
  const [any] = await db.select({ id: messages.id }).from(messages).where(eq(messages.organizationId, orgId)).limit(1);
  if (any) return 0;
  const [dispatcher] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.organizationId, orgId), eq(roles.name, DISPATCHER_ROLE_NAME)))
    .limit(1);
  const rows: Array<typeof messages.$inferInsert> = [];
  for (const [i, unit] of DEMO_DRIVER_UNITS.entries()) {
    const script = SCRIPTS[i];
    if (!script) continue;
    const [d] = await db
      .select({ id: drivers.id, userId: drivers.userId, assetId: assets.id })
      .from(assets)
      .innerJoin(drivers, and(eq(drivers.id, assets.currentDriverId), eq(drivers.organizationId, assets.organizationId)))
      .where(and(eq(assets.organizationId, orgId), eq(assets.unitNumber, unit), isNotNull(drivers.userId)));
    if (!d) continue;
    // The load on the driver's truck now, if any: the conversation is about it.
    const [load] = await db
      .select({ id: loads.id })
      .from(loads)
      .where(and(eq(loads.organizationId, orgId), eq(loads.driverId, d.id), sql`${loads.status} in ('ASSIGNED', 'EN_ROUTE', 'AT_STOP')`))
      .limit(1);
    for (const line of script) {
      rows.push({
        organizationId: orgId,
        driverId: d.id,
        loadId: load?.id ?? null,
        side: line.from,
        senderUserId: line.from === 'DRIVER' ? d.userId : (dispatcher?.id ?? null),
        body: line.body,
        sentAt: new Date(now - line.ago * MINUTE),
        // Each taken as it was written: none shows as arrived late (issue 66).
        receivedAt: new Date(now - line.ago * MINUTE),
        readAt: line.readAgo === null ? null : new Date(now - line.readAgo * MINUTE),
      });
    }
  }
  if (rows.length) await db.insert(messages).values(rows);
  return rows.length;
}
