import { KM_PER_MILE, type UnitSystem } from '@fleet/api-contract/units';

// Money and money per distance, shared by the dispatch screens and revenue analytics: amounts in the
// organization's currency, per mile or per km by its unit system (the API speaks km).

/** "$2,450.00" in a currency; `digits` decimals (two by default). */
export function formatMoney(amount: number | null | undefined, currency: string, digits = 2): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return '—';
  try {
    return amount.toLocaleString('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch {
    // An unknown currency code still reads as an amount.
    return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
  }
}

/** km (the API's) in the organization's distance unit, whole. */
export function formatKm(km: number | null | undefined, units: UnitSystem): string {
  if (km === null || km === undefined) return '—';
  const v = units === 'IMPERIAL' ? km / KM_PER_MILE : km;
  return `${Math.round(v).toLocaleString('en-US')} ${units === 'IMPERIAL' ? 'mi' : 'km'}`;
}

/** Money per km (the API's) as money per mile or per km: "$2.41/mi". */
export function formatPerDistance(perKm: number | null | undefined, currency: string, units: UnitSystem): string {
  if (perKm === null || perKm === undefined) return '—';
  const v = units === 'IMPERIAL' ? perKm * KM_PER_MILE : perKm;
  return `${formatMoney(Math.round(v * 100) / 100, currency)}/${units === 'IMPERIAL' ? 'mi' : 'km'}`;
}
