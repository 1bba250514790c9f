import { and, eq, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { drivers, terminals } from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivityBatch, type ActivityEntry } from '../modules/activity-log/activity-log.service.ts';

// The demo's home terminals (issue 46, decision 0188): the five hubs the trucks run from (the
// TERMINAL places of demo-places.ts), and the Denver and Phoenix yards the West region's Mountain-time
// drivers report to. Each demo driver belongs to the terminal of their home time zone, so a Pacific
// driver's log reads the Los Angeles terminal, not the Chicago office.

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

export interface DemoTerminal {
  /** The simulator's city code (CITIES of simulator/network.ts). */
  code: string;
  name: string;
  addressLine1: string;
  city: string;
  state: string;
  postalCode: string;
  timeZone: string;
}

export const DEMO_TERMINAL_ROWS: readonly DemoTerminal[] = [
  { code: 'CHI', name: 'Chicago terminal', addressLine1: '4800 S Central Ave', city: 'Chicago', state: 'IL', postalCode: '60638', timeZone: 'America/Chicago' },
  { code: 'DFW', name: 'Dallas terminal', addressLine1: '3301 Irving Blvd', city: 'Dallas', state: 'TX', postalCode: '75247', timeZone: 'America/Chicago' },
  {
    code: 'IND',
    name: 'Indianapolis terminal',
    addressLine1: '2750 S Harding St',
    city: 'Indianapolis',
    state: 'IN',
    postalCode: '46221',
    timeZone: 'America/Indiana/Indianapolis',
  },
  {
    code: 'ATL',
    name: 'Atlanta terminal',
    addressLine1: '1500 Jonesboro Rd SE',
    city: 'Atlanta',
    state: 'GA',
    postalCode: '30315',
    timeZone: 'America/New_York',
  },
  {
    code: 'LAX',
    name: 'Los Angeles terminal',
    addressLine1: '2401 E Washington Blvd',
    city: 'Los Angeles',
    state: 'CA',
    postalCode: '90021',
    timeZone: 'America/Los_Angeles',
  },
  { code: 'DEN', name: 'Denver terminal', addressLine1: '5200 N Washington St', city: 'Denver', state: 'CO', postalCode: '80216', timeZone: 'America/Denver' },
  { code: 'PHX', name: 'Phoenix terminal', addressLine1: '4310 W Buckeye Rd', city: 'Phoenix', state: 'AZ', postalCode: '85043', timeZone: 'America/Phoenix' },
];

/**
 * The terminal of a demo driver: the one in their home time zone; of the two Central ones, Dallas for
 * a Texas licence, Chicago for the others.
 */
export function demoTerminalCodeOf(homeTimeZone: string, licenseState: string | null): string | null {
  const inZone = DEMO_TERMINAL_ROWS.filter((t) => t.timeZone === homeTimeZone);
  if (inZone.length <= 1) return inZone[0]?.code ?? null;
  return inZone.find((t) => t.state === licenseState)?.code ?? inZone.find((t) => t.code === 'CHI')?.code ?? inZone[0]!.code;
}

/**
 * Creates the demo terminals once (none yet in the organization) and gives every demo driver without
 * a terminal the one of their zone. Returns how many terminals were created (0 when there were some).
 */
export async function ensureDemoTerminals(db: Db, orgId: string): Promise<number> {
  const [has] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(terminals)
    .where(eq(terminals.organizationId, orgId));
  if ((has?.n ?? 0) > 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(terminals)
      .values(DEMO_TERMINAL_ROWS.map(({ code: _code, ...t }) => ({ organizationId: orgId, ...t })))
      .returning();
    const byCode = new Map(DEMO_TERMINAL_ROWS.map((t, i) => [t.code, rows[i]!]));
    const log: ActivityEntry[] = rows.map((t) => ({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'TERMINAL', entityId: t.id, after: t }));
    const demoDrivers = await tx
      .select({ id: drivers.id, zone: drivers.homeTimeZone, state: drivers.licenseState })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), isNull(drivers.homeTerminalId), like(drivers.email, '%@demofreight.test')));
    for (const d of demoDrivers) {
      const code = demoTerminalCodeOf(d.zone, d.state);
      const terminal = code ? byCode.get(code) : undefined;
      if (!terminal) continue;
      await tx
        .update(drivers)
        .set({ homeTerminalId: terminal.id, homeTimeZone: terminal.timeZone })
        .where(and(eq(drivers.organizationId, orgId), eq(drivers.id, d.id)));
      log.push({
        orgId,
        actor: SYSTEM,
        action: 'UPDATE',
        entityType: 'DRIVER',
        entityId: d.id,
        before: { homeTerminalId: null },
        after: { homeTerminalId: terminal.id },
      });
    }
    await recordActivityBatch(tx, log);
    return rows.length;
  });
}
