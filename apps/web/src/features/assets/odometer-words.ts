import type { ODOMETER_SOURCES } from '@fleet/api-contract/assets';

/** Where a vehicle's odometer reading comes from, in words (its page and the list say the same). */
export const ODOMETER_SOURCE_WORDS: Record<(typeof ODOMETER_SOURCES)[number], string> = { ENGINE: 'engine', GPS: 'GPS', ENTERED: 'entered' };
