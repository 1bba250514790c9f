import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { field } from '../lib/form.ts';
import { currentLanguage } from './i18n.ts';

// Messages written in English elsewhere, in the driver's language (issue 44): the contract's
// validation messages ("Email is a required field"), which the forms of the driver's screens show,
// and the messages the API answers the driver's own requests with. Each is recognised by its fixed
// English wording; a message not known here is shown as it came. English is returned as it is.

/** Field names the contract's messages start with, by their catalogue key under `fields`. */
const FIELDS: Record<string, string> = {
  Email: 'email',
  Password: 'password',
  'New password': 'newPassword',
  'Current password': 'currentPassword',
  'Confirm password': 'confirmPassword',
  'First name': 'firstName',
  'Last name': 'lastName',
  Position: 'position',
  Phone: 'phone',
  Name: 'name',
  Location: 'location',
  Annotation: 'note',
  Note: 'note',
  Odometer: 'odometer',
  'Shipping document': 'shippingDocument',
  Remarks: 'remarks',
};

type Rule = [RegExp, (m: RegExpExecArray, t: TFunction) => string | null];

const label = (t: TFunction, name: string | undefined): string | null => {
  const key = name === undefined ? undefined : FIELDS[name];
  return key ? t(`fields.${key}`) : null;
};
const withLabel = (key: string, extra: (m: RegExpExecArray) => Record<string, string> = () => ({})) =>
  ((m, t) => {
    const l = label(t, m[1]);
    return l ? t(key, { label: l, ...extra(m) }) : null;
  }) satisfies Rule[1];

/** The contract's validation messages (packages/api-contract/src/validation.ts) and the forms' own. */
const VALIDATION: Rule[] = [
  [/^(.+) is a required field$/, withLabel('validation.required')],
  [/^(.+) must be a valid email address$/, withLabel('validation.email')],
  [/^(.+) must be at least (\d+) characters$/, withLabel('validation.min', (m) => ({ min: m[2]! }))],
  [/^(.+) must be at most (\d+) characters$/, withLabel('validation.max', (m) => ({ max: m[2]! }))],
  [/^(.+) is not valid\.?$/, withLabel('validation.invalid')],
  [/^Passwords must match$/, (_m, t) => t('validation.passwordsMatch')],
];

/** What the API answers the driver's own requests with (status, certification, edits, claims, trip, inspections). */
const SERVER: Rule[] = [
  [/^Your position is not known/, (_m, t) => t('server.positionUnknown')],
  [/^Recorded at cannot be in the future/, (_m, t) => t('server.recordedFuture')],
  [/^Recorded at cannot be more than (\d+) days ago/, (m, t) => t('server.recordedOld', { days: m[1]! })],
  [/^The truck was moving at (.+?): the Driving the ELD recorded stands/, (m, t) => t('server.movingAt', { time: m[1]! })],
  [/^The vehicle is moving: Driving is recorded until it stops/, (_m, t) => t('server.moving')],
  [/^Driving is recorded from the vehicle's motion/, (_m, t) => t('driver.drivingNote')],
  [/^Time cannot be in the future/, (_m, t) => t('server.timeFuture')],
  [/^This driver is not allowed yard moves/, (_m, t) => t('server.noYardMoves')],
  [/^This driver is not allowed personal conveyance/, (_m, t) => t('server.noPersonalConveyance')],
  [/^The records changed since this edit was proposed/, (_m, t) => t('server.proposalStale')],
  [/^This proposal no longer fits the records/, (_m, t) => t('server.proposalStale')],
  [/^This proposal was already (accepted|rejected)/, (m, t) => (m[1] === 'accepted' ? t('server.proposalAccepted') : t('server.proposalRejected'))],
  [/^This driving is (already )?assigned to a driver/, (_m, t) => t('server.segmentTaken')],
  [/^This driving is proposed to a driver/, (_m, t) => t('server.segmentProposed')],
  [/^The vehicle is still driving/, (_m, t) => t('server.segmentDriving')],
  [/^The co-driver must be another driver/, (_m, t) => t('server.coDriverSelf')],
  [/^Co-driver must be an active driver/, (_m, t) => t('server.coDriverUnknown')],
  [/^Trailer must be an active trailer/, (_m, t) => t('server.trailerUnknown')],
  [/^The log day (.+) has not begun yet/, (_m, t) => t('server.dayNotBegun')],
  [/^The photo is larger than the upload limit|^The request or file is too large/, (_m, t) => t('server.photoTooLarge')],
  [/^(Network request failed|Failed to fetch|NetworkError|Load failed)/, (_m, t) => t('server.network')],
  [/^Oops, something happened/, (_m, t) => t('server.network')],
  [/^Error happened$/, (_m, t) => t('server.unknown')],
  [/^The email or password is incorrect/, (_m, t) => t('auth.failed')],
  [/^Too many failed sign-in attempts/, (_m, t) => t('server.tooManySignIns')],
  [/^Too many requests/, (_m, t) => t('server.tooMany')],
  [/^Enter your current password to change your e-mail/, (_m, t) => t('account.emailNeedsPassword')],
  [/^Current password is not correct/, (_m, t) => t('account.passwordWrong')],
];

/** The notifications the server sends a driver (issue 44): their title, category and button. */
const NOTIFICATIONS: Rule[] = [
  [/^Message from dispatch$/, (_m, t) => t('messages.notifyCategory')],
  [/^Message from (.+?) about (\S+)$/, (m, t) => t('messages.notifyAbout', { from: m[1]!, load: m[2]! })],
  [/^Message from (.+)$/, (m, t) => t('messages.notify', { from: m[1]! })],
  [/^Answer$/, (_m, t) => t('messages.answer')],
];

/** `message` in the current language when its English wording is known here; else as it came. */
export function translateMessage(t: TFunction, message: string): string;
export function translateMessage(t: TFunction, message: string | undefined): string | undefined;
export function translateMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message || currentLanguage() === 'en') return message;
  for (const [pattern, words] of [...VALIDATION, ...SERVER, ...NOTIFICATIONS]) {
    const m = pattern.exec(message);
    const out = m ? words(m, t) : null;
    if (out) return out;
  }
  return message;
}

/** lib/form's `field`, its error message in the current language. */
export function translatedField<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>, t: TFunction) {
  const f = field(form, name);
  return { ...f, error: translateMessage(t, f.error) };
}
