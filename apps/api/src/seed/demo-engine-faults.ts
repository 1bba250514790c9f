import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, engineFaultSettings, engineFaults } from '../db/schema/index.ts';
import { DEMO_FAULT } from './simulator/engine-data.ts';

// The demo's engine faults (issue 46, decision 0191): tractor 108's FMC650 reports its coolant
// running hot (J1939 SPN 110 FMI 16) since a day and a half, and the simulated device keeps sending
// it while the engine runs, so it stays active; its DEF level fault of last week cleared. The
// organization's grounding codes: oil pressure very low, coolant level, engine over temperature.

const HOUR = 3_600_000;

/** Once (nothing when the organization has any engine fault): the faults and the grounding codes. Returns the faults written. */
export async function ensureDemoEngineFaults(db: Db, orgId: string, now: number): Promise<number> {
  const [any] = await db.select({ id: engineFaults.id }).from(engineFaults).where(eq(engineFaults.organizationId, orgId)).limit(1);
  if (any) return 0;
  const [truck] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.unitNumber, String(100 + DEMO_FAULT.index))));
  if (!truck) return 0;
  const base = { organizationId: orgId, assetId: truck.id, source: 'J1939' as const, channel: 'dm1Dtc' as const, lamps: null, defectId: null };
  const rows = [
    {
      ...base,
      code: `SPN ${DEMO_FAULT.spn} FMI ${DEMO_FAULT.fmi}`,
      spn: DEMO_FAULT.spn,
      fmi: DEMO_FAULT.fmi,
      occurrences: DEMO_FAULT.occurrences,
      firstSeenAt: new Date(now - 36 * HOUR),
      lastSeenAt: new Date(now - 10 * 60_000),
      clearedAt: null,
    },
    {
      ...base,
      code: 'SPN 1761 FMI 18',
      spn: 1761,
      fmi: 18,
      occurrences: 1,
      firstSeenAt: new Date(now - 5 * 24 * HOUR),
      lastSeenAt: new Date(now - 4 * 24 * HOUR - 2 * HOUR),
      clearedAt: new Date(now - 4 * 24 * HOUR),
    },
  ];
  await db.transaction(async (tx) => {
    await tx.insert(engineFaults).values(rows);
    await tx
      .insert(engineFaultSettings)
      .values({ organizationId: orgId, groundingCodes: ['SPN 100 FMI 1', 'SPN 111', 'P0217'] })
      .onConflictDoNothing();
  });
  return rows.length;
}
