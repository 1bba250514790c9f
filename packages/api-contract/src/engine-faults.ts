import { z } from 'zod';
import { assetIdParams } from './assets.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';

defineLabels({ codes: 'Grounding codes', faultId: 'Engine fault', safety: 'Affects safe operation' });

// Engine fault codes (issue 46, decision 0191): J1939 DM1 faults (SPN, FMI, occurrence count, lamp
// status) and OBD-II codes as devices report them, per vehicle, active until the device stops
// reporting them. An organization names the codes that ground a vehicle: those become a safety
// defect (and so a work order) on their own.

export const ENGINE_FAULT_SOURCES = ['J1939', 'OBD'] as const;
export type EngineFaultSource = (typeof ENGINE_FAULT_SOURCES)[number];
export const ENGINE_FAULT_STATUSES = ['ACTIVE', 'CLEARED'] as const;
export type EngineFaultStatus = (typeof ENGINE_FAULT_STATUSES)[number];

/** The largest SPN J1939 can carry (19 bits) and the largest FMI (5 bits). */
export const MAX_SPN = 524_287;
export const MAX_FMI = 31;

const OBD_CODE = /^[PCBU][0-3][0-9A-F]{3}$/i;
const J1939_CODE = /^(?:SPN\s*)?(\d{1,6})(?:\s*(?:[/:-]|FMI)\s*(\d{1,2}))?$/i;

/** A J1939 fault's code as shown and stored: "SPN 110 FMI 0" (or "SPN 110": any FMI, grounding codes only). */
export const j1939Code = (spn: number, fmi?: number | null): string => (fmi === undefined || fmi === null ? `SPN ${spn}` : `SPN ${spn} FMI ${fmi}`);

/**
 * A code as a person or a device writes it, in the one form stored: OBD-II "P0301" (upper case), J1939
 * "SPN 110 FMI 0" from "110/0", "110-0", "110:0", "SPN 110 FMI 0"; "SPN 110" from "110" when
 * `spnAlone` (a grounding code matching every FMI). Null when it is no code.
 */
export function normalizeFaultCode(text: string, spnAlone = false): string | null {
  const t = text.trim().replace(/\s+/g, ' ');
  if (OBD_CODE.test(t)) return t.toUpperCase();
  const m = J1939_CODE.exec(t);
  if (!m) return null;
  const spn = Number(m[1]);
  if (spn > MAX_SPN) return null;
  if (m[2] === undefined) return spnAlone ? j1939Code(spn) : null;
  const fmi = Number(m[2]);
  return fmi > MAX_FMI ? null : j1939Code(spn, fmi);
}

/** J1939 lamp status (DM1 bytes 1-2): each lamp on or not (off, error and not available read as off). */
export const faultLampsSchema = z.object({ mil: z.boolean(), redStop: z.boolean(), amberWarning: z.boolean(), protect: z.boolean() });
export type FaultLamps = z.infer<typeof faultLampsSchema>;

export const engineFaultSchema = z.object({
  id: z.string(),
  /** "P0301" (OBD) or "SPN 110 FMI 0" (J1939). */
  code: z.string(),
  source: z.enum(ENGINE_FAULT_SOURCES),
  spn: z.number().int().optional(),
  fmi: z.number().int().optional(),
  /** J1939's occurrence count, as last reported (127: not available, left out). */
  occurrences: z.number().int().optional(),
  /** The standard's words for the code, where it is a standard one we carry. */
  description: z.string().optional(),
  /** The lamps the last DM1 message lit (devices that send whole DM1 messages only). */
  lamps: faultLampsSchema.optional(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** When the device stopped reporting it; absent while active. */
  clearedAt: z.string().optional(),
  /** Whether the organization marks the code as grounding the vehicle. */
  grounding: z.boolean(),
  /** The defect made of this fault, if one was. */
  defectId: z.string().nullable(),
});
export type EngineFault = z.infer<typeof engineFaultSchema>;
export const engineFaultPageSchema = pageSchema(engineFaultSchema);

export const engineFaultListQuery = pageQuerySchema.extend({
  status: z.enum(ENGINE_FAULT_STATUSES, { error: () => 'status must be ACTIVE or CLEARED' }).optional(),
});
export const engineFaultIdParams = assetIdParams.extend({ faultId: z.uuid('faultId must be an engine fault id') });

/** Making a defect of a fault: it affects safe operation when the code grounds the vehicle, unless said here. */
export const engineFaultDefectInputSchema = z.object({ safety: z.boolean({ error: () => 'safety must be true or false' }).optional() }).default({});
export type EngineFaultDefectInput = z.input<typeof engineFaultDefectInputSchema>;

const groundingCode = z.string({ error: () => 'Each grounding code must be text' }).transform((v, ctx) => {
  const code = normalizeFaultCode(v, true);
  if (code === null) {
    ctx.addIssue({ code: 'custom', message: `"${v.trim()}" is not a code: write an OBD-II code (P0301) or a J1939 SPN with an optional FMI (110 or 110/0)` });
    return z.NEVER;
  }
  return code;
});

/** The codes that ground a vehicle: a new active fault of one becomes a safety defect on its own. */
export const groundingCodesSchema = z.object({ codes: z.array(groundingCode).max(200, 'At most 200 grounding codes') });
/** The codes as stored and answered (each in the one form `normalizeFaultCode` writes). */
export const groundingCodesViewSchema = z.object({ codes: z.array(z.string()) });
export type GroundingCodes = z.infer<typeof groundingCodesViewSchema>;
