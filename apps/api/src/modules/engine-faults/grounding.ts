import { eq } from 'drizzle-orm';
import { j1939Code } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { engineFaultSettings } from '../../db/schema/index.ts';

// The organization's grounding codes (decision 0191): "P0301", "SPN 110 FMI 0", or "SPN 110" for
// every failure mode of the parameter.

/** The organization's grounding codes, as saved (none when it never saved any). */
export async function groundingCodesOf(db: DbOrTx, orgId: string): Promise<string[]> {
  const [row] = await db.select({ codes: engineFaultSettings.groundingCodes }).from(engineFaultSettings).where(eq(engineFaultSettings.organizationId, orgId));
  return row?.codes ?? [];
}

/** Whether a fault's code is one of `codes` (a J1939 fault also by its SPN alone). */
export function grounds(codes: ReadonlySet<string>, f: { code: string; spn: number | null }): boolean {
  return codes.has(f.code) || (f.spn !== null && codes.has(j1939Code(f.spn)));
}
