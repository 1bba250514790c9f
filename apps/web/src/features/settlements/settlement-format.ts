import { KM_PER_MILE, type SettlementLine, type SettlementStatus, type UnitSystem } from '@fleet/api-contract';
import { addDays } from '../../lib/dates.ts';
import { formatMoney } from '../../lib/money.ts';

// How the driver-pay screens write a settlement's figures (issue 70): money in its currency, a line's
// quantity in the organization's distance unit (pay per mile stays per mile), the week a new
// settlement defaults to.

export const money = (amount: number | null | undefined, currency = 'USD') => formatMoney(amount, currency);

/** Badge colour of a status. */
export const STATUS_COLOR: Record<SettlementStatus, string> = { DRAFT: 'gray', APPROVED: 'blue', PAID: 'green', VOID: 'red' };

/** A distance in the organization's unit, to a tenth. */
export function distanceText(km: number | null, units: UnitSystem): string {
  if (km === null) return '—';
  return units === 'IMPERIAL' ? `${(km / KM_PER_MILE).toFixed(1)} mi` : `${km.toFixed(1)} km`;
}

/** The line's quantity: miles paid (a metric organization reads its km first), hours, stops, a percent. */
export function quantityText(l: Pick<SettlementLine, 'quantity' | 'unit' | 'distanceKm'>, units: UnitSystem): string {
  if (l.quantity === null) return '';
  switch (l.unit) {
    case 'MILE':
      return units === 'IMPERIAL' ? `${l.quantity.toFixed(1)} mi` : `${distanceText(l.distanceKm, units)} (${l.quantity.toFixed(1)} mi)`;
    case 'HOUR':
      return `${l.quantity.toFixed(2)} h`;
    case 'PERCENT':
      return `${l.quantity}%`;
    default:
      return String(l.quantity);
  }
}

/** The line's rate: per mile with three decimals, per hour, per stop or load, or the amount a percent is of. */
export function rateText(l: Pick<SettlementLine, 'rate' | 'unit' | 'base'>, currency = 'USD'): string {
  if (l.rate === null) return '';
  switch (l.unit) {
    case 'MILE':
      return `${formatMoney(l.rate, currency, 3)}/mi`;
    case 'HOUR':
      return `${formatMoney(l.rate, currency)}/h`;
    case 'PERCENT':
      return l.base === null ? '' : `of ${formatMoney(l.base, currency)}`;
    default:
      return formatMoney(l.rate, currency);
  }
}

/** Monday to Sunday of the week before the one holding `today` (YYYY-MM-DD). */
export function lastWeekOf(today: string): { from: string; to: string } {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const from = addDays(today, -weekday - 7);
  return { from, to: addDays(from, 6) };
}

/** "Nov 10 – Nov 16, 2026" from two days. */
export function daysText(from: string, to: string, lng = 'en-US'): string {
  const f = (d: string, year: boolean) =>
    new Date(`${d}T12:00:00Z`).toLocaleDateString(lng, { timeZone: 'UTC', month: 'short', day: 'numeric', ...(year ? { year: 'numeric' } : {}) });
  return `${f(from, from.slice(0, 4) !== to.slice(0, 4))} – ${f(to, true)}`;
}
