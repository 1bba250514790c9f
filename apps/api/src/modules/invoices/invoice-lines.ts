import { ACCESSORIAL_LABELS, type AccessorialKind, type InvoiceLineKind } from '@fleet/api-contract';
import { detentionCents, stopDetention } from '../loads/index.ts';
import { moneyText } from '../../lib/money-text.ts';

// The lines a draft invoice bills for a delivered load (issue 70, decision 0291), pure: the load's
// line haul and fuel surcharge, each accessorial, detention per stop and the lumper reimbursed.
//
// Detention is counted once. When the customer has a detention rate, it is computed per stop from
// the stop's arrival and departure against the customer's free time (the loads module's rule, the
// same the driver's settlement pays), and the load's hand-entered DETENTION accessorial is left
// out: it would bill the same wait twice. A customer without a rate is billed the accessorial as
// entered. The LUMPER accessorial is the lumper the carrier paid at the dock: it comes back as a
// reimbursement line, and its receipt is appended to the invoice's PDF.

export interface LineStop {
  id: string;
  seq: number;
  kind: 'PICKUP' | 'DELIVERY';
  placeName: string | null;
  address: string | null;
  arrivedAt: Date | null;
  departedAt: Date | null;
}

export interface LineLoad {
  id: string;
  number: string;
  lineHaulCents: number;
  fuelSurchargeCents: number;
  accessorials: ReadonlyArray<{ kind: AccessorialKind; amountCents: number; note: string | null }>;
  stops: readonly LineStop[];
}

export interface DetentionRule {
  freeMinutes: number;
  centsPerHour: number;
}

export interface DraftLine {
  /** A kept line's id (an edit of a draft); new lines have none. */
  id?: string;
  kind: InvoiceLineKind;
  loadId: string | null;
  stopId: string | null;
  stopSeq: number | null;
  description: string;
  minutes: number | null;
  rateCents: number | null;
  amountCents: number;
}

/** Where a stop is, in a few words: its place's name, else the first part of its address. */
export const stopName = (s: Pick<LineStop, 'placeName' | 'address'> | undefined): string | null =>
  s ? (s.placeName ?? s.address?.split('\n')[0]?.trim() ?? null) : null;

/** "2 h 25 min", "45 min", "3 h". */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

function timeText(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

const zoneName = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? zone;

const noted = (text: string, note: string | null) => (note ? `${text}: ${note}` : text);

/** The lines of one load, in the order the invoice prints them. */
export function loadLines(load: LineLoad, rule: DetentionRule, ctx: { zone: string; currency: string }): DraftLine[] {
  const out: DraftLine[] = [];
  const line = (kind: InvoiceLineKind, description: string, amountCents: number, extra: Partial<DraftLine> = {}) =>
    out.push({ kind, loadId: load.id, stopId: null, stopSeq: null, description, minutes: null, rateCents: null, amountCents, ...extra });
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  const lane = [stopName(first), stopName(last)].every(Boolean) ? `: ${stopName(first)} to ${stopName(last)}` : '';
  if (load.lineHaulCents) line('LINE_HAUL', `Line haul, load ${load.number}${lane}`, load.lineHaulCents);
  if (load.fuelSurchargeCents) line('FUEL_SURCHARGE', `Fuel surcharge, load ${load.number}`, load.fuelSurchargeCents);
  const computed = rule.centsPerHour > 0;
  for (const a of load.accessorials) {
    if (a.kind === 'LUMPER' || a.amountCents === 0) continue;
    if (a.kind === 'DETENTION') {
      if (!computed) line('DETENTION', noted(`Detention, load ${load.number}`, a.note), a.amountCents);
      continue;
    }
    line('ACCESSORIAL', noted(`${ACCESSORIAL_LABELS[a.kind]}, load ${load.number}`, a.note), a.amountCents);
  }
  if (computed) {
    const bySeq = new Map(load.stops.map((s) => [s.seq, s]));
    for (const d of stopDetention(load.stops, rule.freeMinutes)) {
      if (d.billableMinutes <= 0) continue;
      const s = bySeq.get(d.seq)!;
      const where = [stopName(s), s.kind === 'PICKUP' ? 'pick-up' : 'delivery'].filter(Boolean).join(', ');
      const on = `arrived ${timeText(s.arrivedAt!, ctx.zone)}, left ${timeText(s.departedAt!, ctx.zone)} ${zoneName(s.departedAt!, ctx.zone)}`;
      line(
        'DETENTION',
        `Detention at stop ${s.seq + 1} (${where}), load ${load.number}: ${on}; ${durationText(d.dwellMinutes)} on site, ` +
          `${durationText(rule.freeMinutes)} free, ${durationText(d.billableMinutes)} billed at ${moneyText(rule.centsPerHour, ctx.currency)}/h`,
        detentionCents(d.billableMinutes, rule.centsPerHour),
        { stopId: s.id, stopSeq: s.seq, minutes: d.billableMinutes, rateCents: rule.centsPerHour },
      );
    }
  }
  for (const a of load.accessorials) {
    if (a.kind === 'LUMPER' && a.amountCents !== 0) line('LUMPER', noted(`Lumper reimbursed, load ${load.number}`, a.note), a.amountCents);
  }
  return out;
}

export const sumCents = (lines: ReadonlyArray<{ amountCents: number }>) => lines.reduce((s, l) => s + l.amountCents, 0);
