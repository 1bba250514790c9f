import { paymentTermsLabel } from '@fleet/api-contract/customers';
import { formatMoney } from '../../lib/money.ts';

// How a customer's terms read on the customers screen and under the load form's customer.

/** 120 → "2 h", 90 → "1 h 30 min", 45 → "45 min", 0 → "none". */
export function minutesText(minutes: number): string {
  if (minutes <= 0) return 'none';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ');
}

/** "2 h free, then $65.00/h"; "Not charged" without a rate. */
export function detentionText(c: { detentionFreeMinutes: number; detentionCentsPerHour: number }, currency: string): string {
  if (c.detentionCentsPerHour <= 0) return 'Not charged';
  const free = c.detentionFreeMinutes > 0 ? `${minutesText(c.detentionFreeMinutes)} free, then ` : 'From arrival, ';
  return `${free}${formatMoney(c.detentionCentsPerHour / 100, currency)}/h`;
}

/** "Net 30 · 2 h free, then $65.00/h · POD required": a customer's terms on one line. */
export function termsLine(
  c: { paymentTermsDays: number; detentionFreeMinutes: number; detentionCentsPerHour: number; requiresPod: boolean },
  currency: string,
): string {
  const detention = c.detentionCentsPerHour > 0 ? `detention ${detentionText(c, currency).replace(/^F/, 'f')}` : 'no detention charged';
  return [paymentTermsLabel(c.paymentTermsDays), detention, c.requiresPod ? 'proof of delivery required' : null].filter(Boolean).join(' · ');
}
