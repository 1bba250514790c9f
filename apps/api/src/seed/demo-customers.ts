import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { customers } from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivityBatch } from '../modules/activity-log/index.ts';

// The demo's customers (issue 70, decision 0284): four shippers whose docks are demo places and two
// brokers who book the rest of the freight, with billing addresses, invoice e-mails, net 15/30/45,
// two hours of free time at a stop and $50-75 an hour of detention after it; the brokers and two
// shippers want a proof of delivery before they pay. A demo load is billed to the shipper whose
// dock it is picked up at, else to one of the brokers (demoCustomerOf).

const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

export interface DemoCustomer {
  name: string;
  /** The demo places of the shipper's docks start with this (demo-places.ts); null: a broker. */
  dock: string | null;
  billingAddress: string;
  invoiceEmail: string;
  paymentTermsDays: number;
  detentionFreeMinutes: number;
  detentionCentsPerHour: number;
  requiresPod: boolean;
  notes: string | null;
}

export const DEMO_CUSTOMERS: readonly DemoCustomer[] = [
  {
    name: 'Heartland Foods',
    dock: 'Heartland Foods DC',
    billingAddress: '1800 Grand Blvd\nKansas City, MO 64108',
    invoiceEmail: 'payables@heartlandfoods.example',
    paymentTermsDays: 30,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 7500,
    requiresPod: true,
    notes: 'Grocery distribution: the receiver signs the BOL as the proof of delivery.',
  },
  {
    name: 'Summit Paper Co.',
    dock: 'Summit Paper Co.',
    billingAddress: '455 Mill St\nAppleton, WI 54911',
    invoiceEmail: 'ap@summitpaper.example',
    paymentTermsDays: 45,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 5000,
    requiresPod: false,
    notes: null,
  },
  {
    name: 'Bluewater Beverages',
    dock: 'Bluewater Beverages',
    billingAddress: '2200 Harbor Dr\nTampa, FL 33602',
    invoiceEmail: 'freightbills@bluewaterbev.example',
    paymentTermsDays: 30,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 6000,
    requiresPod: true,
    notes: null,
  },
  {
    name: 'Ironworks Supply',
    dock: 'Ironworks Supply',
    billingAddress: '3100 Furnace Rd\nBirmingham, AL 35203',
    invoiceEmail: 'accounts.payable@ironworkssupply.example',
    paymentTermsDays: 45,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 6500,
    requiresPod: false,
    notes: 'Steel: tarps on flatbeds, billed as an accessorial.',
  },
  {
    name: 'Crossroads Freight Brokerage',
    dock: null,
    billingAddress: '600 W Jackson Blvd, Suite 900\nChicago, IL 60661',
    invoiceEmail: 'carrierpay@crossroadsfreight.example',
    paymentTermsDays: 15,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 5000,
    requiresPod: true,
    notes: 'Quick pay in 15 days once the proof of delivery is uploaded.',
  },
  {
    name: 'Great Lakes Logistics Partners',
    dock: null,
    billingAddress: '1375 E 9th St, Suite 1500\nCleveland, OH 44114',
    invoiceEmail: 'ap@greatlakeslp.example',
    paymentTermsDays: 30,
    detentionFreeMinutes: 120,
    detentionCentsPerHour: 7500,
    requiresPod: true,
    notes: null,
  },
];

const BROKERS = DEMO_CUSTOMERS.filter((c) => c.dock === null);

/** The demo customer a load picked up at `pickupPlace` is billed to; `pick` in [0, 1) chooses the broker. */
export function demoCustomerOf(pickupPlace: string, pick: number): DemoCustomer {
  return DEMO_CUSTOMERS.find((c) => c.dock && pickupPlace.startsWith(c.dock)) ?? BROKERS[Math.floor(pick * BROKERS.length) % BROKERS.length]!;
}

/** Adds the demo customers the organization lacks (by name, whatever its case); returns how many. */
export async function ensureDemoCustomers(db: DbOrTx, orgId: string): Promise<number> {
  const made = await db
    .insert(customers)
    .values(DEMO_CUSTOMERS.map(({ dock: _dock, ...c }) => ({ organizationId: orgId, ...c })))
    .onConflictDoNothing()
    .returning();
  await recordActivityBatch(
    db,
    made.map((c) => ({ orgId, actor: SYSTEM, action: 'CREATE', entityType: 'CUSTOMER', entityId: c.id, after: c })),
  );
  return made.length;
}

/** The organization's customers by name (lower case): the demo loads link theirs. */
export async function customerIdsByName(db: DbOrTx, orgId: string): Promise<Map<string, { id: string; name: string }>> {
  const rows = await db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(eq(customers.organizationId, orgId)));
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}
