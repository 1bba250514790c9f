// Number formats of the IFTA screens: the return is in whole miles and US gallons, US dollars.
import { formatDateTime } from '../../lib/dates.ts';

export const int = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v.toLocaleString('en-US'));
export const usd = (v: number | null | undefined): string =>
  v === null || v === undefined
    ? '—'
    : v < 0
      ? `(${Math.abs(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' })})`
      : v.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const rate = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `$${v.toFixed(4)}`);
export const mpg = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v.toFixed(2));
/** An instant in the viewer's zone, labelled (decision 0140); IFTA days themselves are the base jurisdiction's (decision 0189): a calendar day as it is. */
export const dateTime = (iso: string): string => formatDateTime(iso);
export const day = (iso: string): string =>
  new Date(`${iso.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: '2-digit', timeZone: 'UTC' });

/** A categorical colour per jurisdiction (stable: by its code), readable in light and dark. */
const PALETTE = ['#1c7ed6', '#2f9e44', '#e8590c', '#9c36b5', '#0c8599', '#f08c00', '#c2255c', '#5c940d', '#3b5bdb', '#d9480f', '#087f5b', '#862e9c'];
export function jurisdictionColor(code: string): string {
  let h = 0;
  for (const c of code) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}
