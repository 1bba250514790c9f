import type { TFunction } from 'i18next';

/** A status the driver can choose (Driving is set by the vehicle's motion). */
export type Choice = { status: 'OFF' | 'SB' | 'ON'; special: 'PC' | 'YM' | 'PASSENGER' | 'WAITING' | null };

/** The name of a choice, as the buttons and the confirmation say it, in the driver's language. */
export const choiceName = (t: TFunction, c: Pick<Choice, 'special'> & { status: Choice['status'] | 'D' }) => t(`duty.${c.special ?? c.status}`);
