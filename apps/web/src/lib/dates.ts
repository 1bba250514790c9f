import dayjs from 'dayjs';

/** Spec section 9: dates show as mm/dd/yy. */
export const DATE_FORMAT = 'MM/DD/YY';
/** Sunday is the first day of the week in date pickers. */
export const FIRST_DAY_OF_WEEK = 0;

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_FORMAT) : '';
}

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(`${DATE_FORMAT} h:mm A`) : '';
}

/** Spec section 2 (avatar profile card): local time in a time zone, 12-hour en-US, optional long date. */
export function formatLocalTime(timeZone: string | null | undefined, now: Date = new Date(), withLongDate = false): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
  if (withLongDate) Object.assign(options, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: timeZone ?? undefined }).format(now);
  } catch {
    return new Intl.DateTimeFormat('en-US', options).format(now);
  }
}
