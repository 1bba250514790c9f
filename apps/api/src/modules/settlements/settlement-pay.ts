import type { HourlyBasis, PayAdjustmentCategory, PayAdjustmentType, PayRecurrence, SettlementLineKind, SettlementLineUnit } from '@fleet/api-contract';
import { PAY_ADJUSTMENT_CATEGORY_LABELS } from '@fleet/api-contract';
import { moneyText } from '../../lib/money-text.ts';
import { detentionCents, stopDetention, type DetentionStop } from '../loads/index.ts';

// A settlement's lines from what the driver did (issue 70, decision 0294), pure. Each line's amount
// is exact in cents and can be checked by hand from the figures it shows: miles are paid rounded to
// a tenth, hours to a hundredth, detention by the whole minute; a team load's lines are the driver's
// share of the whole, rounded once per line.

export const METRES_PER_MILE = 1609.344;

/** A pay profile in stored units: mills a mile, basis points, cents, minutes, a whole percent. */
export interface StoredRates {
  loadedMileMills: number;
  emptyMileMills: number;
  lineHaulBp: number;
  flatPerLoadCents: number;
  extraStopCents: number;
  hourlyCents: number;
  hourlyBasis: HourlyBasis;
  detentionCentsPerHour: number;
  detentionFreeMinutes: number;
  teamSharePercent: number;
}

export const NO_PAY: StoredRates = {
  loadedMileMills: 0,
  emptyMileMills: 0,
  lineHaulBp: 0,
  flatPerLoadCents: 0,
  extraStopCents: 0,
  hourlyCents: 0,
  hourlyBasis: 'ON_DUTY_NOT_DRIVING',
  detentionCentsPerHour: 0,
  detentionFreeMinutes: 120,
  teamSharePercent: 50,
};

export interface DraftLine {
  kind: SettlementLineKind;
  loadId: string | null;
  loadNumber: string | null;
  stopSeq: number | null;
  logDate: string | null;
  adjustmentId: string | null;
  description: string;
  source: string;
  quantity: number | null;
  unit: SettlementLineUnit | null;
  rate: number | null;
  baseCents: number | null;
  distanceM: number | null;
  sharePercent: number | null;
  amountCents: number;
}

const blank = (kind: SettlementLineKind, description: string, source: string, amountCents: number): DraftLine => ({
  kind,
  loadId: null,
  loadNumber: null,
  stopSeq: null,
  logDate: null,
  adjustmentId: null,
  description,
  source,
  quantity: null,
  unit: null,
  rate: null,
  baseCents: null,
  distanceM: null,
  sharePercent: null,
  amountCents,
});

/** Tenths of a mile in `metres`, as paid. */
export const milesTenths = (metres: number): number => Math.round(metres / (METRES_PER_MILE / 10));
/** Hundredths of an hour in `ms`, as paid. */
export const hoursHundredths = (ms: number): number => Math.round(ms / 36_000);

/** Dollars as a statement prints them ($1,234.50, -$12.00). */
export const money = (cents: number): string => moneyText(cents, 'USD');

export interface StopFacts extends DetentionStop {
  kind: 'PICKUP' | 'DELIVERY';
  placeName: string | null;
  address: string | null;
  latitude: number;
  longitude: number;
}

export interface LoadFacts {
  id: string;
  number: string;
  lineHaulCents: number;
  loadedM: number | null;
  /** Stops in driving order. */
  stops: StopFacts[];
  /** Where the empty leg before the load started: the driver's previous delivery. */
  empty: { metres: number; fromLoad: string; fromPlace: string; deliveredOn: string } | null;
  /** The driver's share: 100, or their team share on a load with two drivers. */
  sharePercent: number;
}

export const stopName = (s: Pick<StopFacts, 'placeName' | 'address' | 'latitude' | 'longitude'>): string =>
  s.placeName ?? s.address ?? `${s.latitude.toFixed(4)}, ${s.longitude.toFixed(4)}`;

const shareOf = (cents: number, share: number) => Math.round((cents * share) / 100);

/**
 * The lines of one load: loaded and empty miles, a share of line haul, flat pay, extra stops and
 * detention, those the rates pay for (a zero rate makes no line). `clock` words a stop's times.
 */
export function loadLines(load: LoadFacts, r: StoredRates, clock: (d: Date) => string): DraftLine[] {
  const out: DraftLine[] = [];
  const share = load.sharePercent;
  const team = share === 100 ? '' : ` (your share: ${share}%)`;
  const base = { loadId: load.id, loadNumber: load.number, sharePercent: share };
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  if (r.loadedMileMills > 0 && load.loadedM !== null) {
    const tenths = milesTenths(load.loadedM);
    out.push({
      ...blank('LOADED_MILES', `Loaded miles${team}`, '', Math.round((tenths * r.loadedMileMills * share) / 10_000)),
      ...base,
      source: `Road distance from ${first ? stopName(first) : 'the first pick-up'} through ${load.stops.length} stops to ${last ? stopName(last) : 'the last delivery'}`,
      quantity: tenths / 10,
      unit: 'MILE',
      rate: r.loadedMileMills / 1000,
      distanceM: load.loadedM,
    });
  }
  if (r.emptyMileMills > 0 && load.empty) {
    const tenths = milesTenths(load.empty.metres);
    out.push({
      ...blank('EMPTY_MILES', `Empty miles${team}`, '', Math.round((tenths * r.emptyMileMills * share) / 10_000)),
      ...base,
      source: `Road distance from the delivery of ${load.empty.fromLoad} (${load.empty.fromPlace}, ${load.empty.deliveredOn}) to the first pick-up${first ? ` (${stopName(first)})` : ''}`,
      quantity: tenths / 10,
      unit: 'MILE',
      rate: r.emptyMileMills / 1000,
      distanceM: load.empty.metres,
    });
  }
  if (r.lineHaulBp > 0) {
    out.push({
      ...blank(
        'LINE_HAUL_PERCENT',
        `${r.lineHaulBp / 100}% of line haul${team}`,
        `The load's line haul of ${money(load.lineHaulCents)} (fuel surcharge and accessorials not included)`,
        Math.round((load.lineHaulCents * r.lineHaulBp * share) / 1_000_000),
      ),
      ...base,
      quantity: r.lineHaulBp / 100,
      unit: 'PERCENT',
      rate: r.lineHaulBp / 100,
      baseCents: load.lineHaulCents,
    });
  }
  if (r.flatPerLoadCents > 0) {
    out.push({
      ...blank('FLAT', `Flat pay per load${team}`, 'One delivered load', shareOf(r.flatPerLoadCents, share)),
      ...base,
      quantity: 1,
      unit: 'LOAD',
      rate: r.flatPerLoadCents / 100,
    });
  }
  const extra = Math.max(0, load.stops.length - 2);
  if (r.extraStopCents > 0 && extra > 0) {
    out.push({
      ...blank(
        'EXTRA_STOPS',
        `${extra} extra ${extra === 1 ? 'stop' : 'stops'}${team}`,
        `${load.stops.length} stops: those beyond the first pick-up and the last delivery`,
        shareOf(extra * r.extraStopCents, share),
      ),
      ...base,
      quantity: extra,
      unit: 'STOP',
      rate: r.extraStopCents / 100,
    });
  }
  if (r.detentionCentsPerHour > 0) {
    for (const d of stopDetention(load.stops, r.detentionFreeMinutes)) {
      if (d.billableMinutes <= 0) continue;
      const s = load.stops.find((x) => x.id === d.stopId)!;
      out.push({
        ...blank(
          'DETENTION',
          `Detention at stop ${d.seq + 1}, ${s.kind === 'PICKUP' ? 'pick-up' : 'delivery'} at ${stopName(s)}${team}`,
          `Arrived ${clock(s.arrivedAt!)}, left ${clock(s.departedAt!)}: ${d.dwellMinutes} min on site, ${r.detentionFreeMinutes} min free, ${d.billableMinutes} min paid`,
          shareOf(detentionCents(d.billableMinutes, r.detentionCentsPerHour), share),
        ),
        ...base,
        stopSeq: d.seq,
        quantity: Math.round((d.billableMinutes / 60) * 100) / 100,
        unit: 'HOUR',
        rate: r.detentionCentsPerHour / 100,
      });
    }
  }
  return out;
}

/** A log day's on-duty time, split as the log records it. */
export interface LogDayHours {
  date: string;
  /** Line 4, on duty not driving (yard moves included). */
  onMs: number;
  /** Line 3, driving. */
  drivingMs: number;
}

/** One line per log day with paid on-duty time. */
export function hourLines(days: readonly LogDayHours[], r: StoredRates): DraftLine[] {
  if (r.hourlyCents <= 0) return [];
  const all = r.hourlyBasis === 'ALL_ON_DUTY';
  return days.flatMap((d) => {
    const ms = d.onMs + (all ? d.drivingMs : 0);
    const hundredths = hoursHundredths(ms);
    if (hundredths <= 0) return [];
    const h = (x: number) => (hoursHundredths(x) / 100).toFixed(2);
    const source = all
      ? `Log of ${d.date}: ${h(d.drivingMs)} h driving and ${h(d.onMs)} h on duty not driving`
      : `Log of ${d.date}: ${h(d.onMs)} h on duty not driving (driving is paid by the load)`;
    return [
      {
        ...blank('HOURLY', all ? 'On-duty hours' : 'On-duty hours, not driving', source, Math.round((hundredths * r.hourlyCents) / 100)),
        logDate: d.date,
        quantity: hundredths / 100,
        unit: 'HOUR' as const,
        rate: r.hourlyCents / 100,
      },
    ];
  });
}

export interface AdjustmentFacts {
  id: string;
  type: PayAdjustmentType;
  category: PayAdjustmentCategory;
  description: string;
  amountCents: number;
  recurrence: PayRecurrence;
  startsOn: string;
  endsOn: string | null;
}

/** Reimbursements (added) and deductions (taken off), each once. */
export function adjustmentLines(adjustments: readonly AdjustmentFacts[]): DraftLine[] {
  const ordered = [...adjustments].sort((a, b) => (a.type === b.type ? 0 : a.type === 'REIMBURSEMENT' ? -1 : 1));
  return ordered.map((a) => {
    const what = PAY_ADJUSTMENT_CATEGORY_LABELS[a.category].toLowerCase();
    const source =
      a.recurrence === 'ONCE'
        ? `One time (${what}), dated ${a.startsOn}`
        : `Every settlement (${what}), from ${a.startsOn}${a.endsOn ? ` until ${a.endsOn}` : ''}`;
    const sign = a.type === 'DEDUCTION' ? -1 : 1;
    return { ...blank(a.type, a.description, source, sign * a.amountCents), adjustmentId: a.id };
  });
}

export interface Totals {
  loadsCents: number;
  detentionCents: number;
  hourlyCents: number;
  reimbursementCents: number;
  deductionCents: number;
  netCents: number;
}

/** The statement's totals; deductions are counted positive, the net subtracts them. */
export function totalsOf(lines: ReadonlyArray<Pick<DraftLine, 'kind' | 'amountCents'>>): Totals {
  const sum = (kinds: SettlementLineKind[]) => lines.filter((l) => kinds.includes(l.kind)).reduce((s, l) => s + l.amountCents, 0);
  const loadsCents = sum(['LOADED_MILES', 'EMPTY_MILES', 'LINE_HAUL_PERCENT', 'FLAT', 'EXTRA_STOPS']);
  const detention = sum(['DETENTION']);
  const hourly = sum(['HOURLY']);
  const reimbursementCents = sum(['REIMBURSEMENT']);
  const deductionCents = -sum(['DEDUCTION']);
  return {
    loadsCents,
    detentionCents: detention,
    hourlyCents: hourly,
    reimbursementCents,
    deductionCents,
    netCents: loadsCents + detention + hourly + reimbursementCents - deductionCents,
  };
}
