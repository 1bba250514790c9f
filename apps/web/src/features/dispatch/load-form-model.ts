import { loadInputSchema, type AccessorialKind, type StopKind } from '@fleet/api-contract/loads';
import type { Load, LoadInput } from '@fleet/api-contract';
import type { UnitSystem } from '@fleet/api-contract/units';
import { fromZoneInput, toZoneInput } from '../../lib/dates.ts';
import { weightFromKg, weightToKg } from './dispatch-format.ts';

// The load form's values as a person types them (times on the viewer's wall clock, weight in the
// organization's units, money as text) and their translation to the contract's LoadInput and back;
// the contract's own schema then judges the input, and its paths are mapped onto the form's fields.

export interface StopFormValues {
  kind: StopKind;
  placeId: string | null;
  latitude: string;
  longitude: string;
  address: string;
  /** `datetime-local` text in the viewer's zone. */
  windowStart: string;
  windowEnd: string;
  serviceMinutes: string;
}

export interface LoadFormValues {
  customer: string;
  /** The customer of the registry picked (or the load's own): sent when `customer` still reads its name. */
  customerId: string | null;
  bolNumber: string;
  poNumber: string;
  commodity: string;
  /** In the organization's units (lb or kg). */
  weight: string;
  stops: StopFormValues[];
  lineHaul: string;
  fuelSurcharge: string;
  accessorials: Array<{ kind: AccessorialKind; amount: string; note: string }>;
  leadDriverId: string | null;
  coDriverId: string | null;
  assetId: string | null;
  trailerId: string | null;
  notes: string;
}

export const emptyStop = (kind: StopKind): StopFormValues => ({
  kind,
  placeId: null,
  latitude: '',
  longitude: '',
  address: '',
  windowStart: '',
  windowEnd: '',
  serviceMinutes: '60',
});

export function formValuesOf(load: Load | null, units: UnitSystem, zone: string): LoadFormValues {
  if (!load) {
    return {
      customer: '',
      customerId: null,
      bolNumber: '',
      poNumber: '',
      commodity: '',
      weight: '',
      stops: [emptyStop('PICKUP'), emptyStop('DELIVERY')],
      lineHaul: '',
      fuelSurcharge: '',
      accessorials: [],
      leadDriverId: null,
      coDriverId: null,
      assetId: null,
      trailerId: null,
      notes: '',
    };
  }
  return {
    customer: load.customer,
    customerId: load.customerId,
    bolNumber: load.bolNumber ?? '',
    poNumber: load.poNumber ?? '',
    commodity: load.commodity ?? '',
    weight: load.weightKg === null ? '' : String(weightFromKg(load.weightKg, units)),
    stops: load.stops.map((s) => ({
      kind: s.kind,
      placeId: s.placeId,
      latitude: String(s.latitude),
      longitude: String(s.longitude),
      address: s.address ?? '',
      windowStart: toZoneInput(s.windowStart, zone),
      windowEnd: toZoneInput(s.windowEnd, zone),
      serviceMinutes: String(s.serviceMinutes),
    })),
    lineHaul: String(load.rate.lineHaul),
    fuelSurcharge: String(load.rate.fuelSurcharge),
    accessorials: load.rate.accessorials.map((a) => ({ kind: a.kind, amount: String(a.amount), note: a.note ?? '' })),
    leadDriverId: load.drivers[0]?.id ?? null,
    coDriverId: load.drivers[1]?.id ?? null,
    assetId: load.asset?.id ?? null,
    trailerId: load.trailer?.id ?? null,
    notes: load.notes ?? '',
  };
}

/** Typed text as a number; text that is not one goes as it is, so the contract names the problem. */
const num = (v: string): number | null => (v.trim() === '' ? null : Number.isFinite(Number(v)) ? Number(v) : (v as unknown as number));
const text = (v: string) => (v.trim() === '' ? null : v.trim());

/** The form's values as the API's body (before judging). */
export function inputOf(v: LoadFormValues, units: UnitSystem, zone: string, original: Load | null): unknown {
  const weight = num(v.weight);
  const shownWeight = original?.weightKg === null || original?.weightKg === undefined ? null : String(weightFromKg(original.weightKg, units));
  return {
    customer: v.customer,
    // Without an id the server links the customer of that name, or adds one (decision 0284).
    customerId: v.customerId,
    bolNumber: text(v.bolNumber),
    poNumber: text(v.poNumber),
    commodity: text(v.commodity),
    // A weight left as it was shown goes back exactly as stored (no rounding drift).
    weightKg: weight === null ? null : v.weight.trim() === shownWeight ? original!.weightKg : typeof weight === 'number' ? weightToKg(weight, units) : weight,
    stops: v.stops.map((s) => ({
      kind: s.kind,
      placeId: s.placeId,
      latitude: num(s.latitude),
      longitude: num(s.longitude),
      address: text(s.address),
      windowStart: fromZoneInput(s.windowStart, zone) ?? s.windowStart,
      windowEnd: fromZoneInput(s.windowEnd, zone) ?? s.windowEnd,
      serviceMinutes: num(s.serviceMinutes),
    })),
    rate: {
      lineHaul: num(v.lineHaul),
      fuelSurcharge: num(v.fuelSurcharge) ?? 0,
      accessorials: v.accessorials.map((a) => ({ kind: a.kind, amount: num(a.amount), note: text(a.note) })),
    },
    driverIds: [v.leadDriverId, v.coDriverId].filter((x): x is string => !!x),
    assetId: v.assetId,
    trailerId: v.trailerId,
    notes: text(v.notes),
  };
}

/** A contract path (`rate.lineHaul`, `stops.1.windowEnd`, `weightKg`, `driverIds`) as the form field that shows it. */
export function formPathOf(path: string): string {
  if (path === 'weightKg') return 'weight';
  if (path === 'driverIds' || path.startsWith('driverIds.')) return 'leadDriverId';
  if (path.startsWith('rate.accessorials.')) return path.replace('rate.', '');
  if (path === 'rate.lineHaul' || path === 'rate') return 'lineHaul';
  if (path === 'rate.fuelSurcharge') return 'fuelSurcharge';
  if (path === 'stops') return 'stops.root';
  return path;
}

/** The body checked by the contract's schema: the input, or each problem at its form field. */
export function judge(body: unknown): { ok: true; input: LoadInput } | { ok: false; errors: Array<{ path: string; message: string }> } {
  const r = loadInputSchema.safeParse(body);
  if (r.success) return { ok: true, input: r.data };
  return { ok: false, errors: r.error.issues.map((i) => ({ path: formPathOf(i.path.join('.')), message: i.message })) };
}
