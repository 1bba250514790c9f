import { isErrorCode, type ErrorCode, type ErrorParams } from '@fleet/api-contract/error-code-list';
import type { TFunction } from 'i18next';

// The API's errors in the driver's language (issue 44), by the body's code (decision 0257): the code
// says what happened, `params` the values the words need. A code not worded here, and every error in
// English, shows the server's message as it came.

type Words = (t: TFunction, params: ErrorParams) => string;

const WORDS: Partial<Record<ErrorCode, Words>> = {
  'hos.position_unknown': (t) => t('server.positionUnknown'),
  'hos.time_in_future': (t) => t('server.timeFuture'),
  'hos.moved_since': (t, p) => t('server.movingAt', { time: p.time }),
  'hos.vehicle_moving': (t) => t('server.moving'),
  'hos.driving_automatic': (t) => t('driver.drivingNote'),
  'hos.yard_moves_not_allowed': (t) => t('server.noYardMoves'),
  'hos.personal_conveyance_not_allowed': (t) => t('server.noPersonalConveyance'),
  'hos.waiting_time_not_allowed': (t) => t('server.noWaitingTime'),
  'hos.proposal_stale': (t) => t('server.proposalStale'),
  'hos.proposal_accepted': (t) => t('server.proposalAccepted'),
  'hos.proposal_rejected': (t) => t('server.proposalRejected'),
  'hos.segment_assigned': (t) => t('server.segmentTaken'),
  'hos.segment_proposed': (t) => t('server.segmentProposed'),
  'hos.segment_driving': (t) => t('server.segmentDriving'),
  'hos.co_driver_self': (t) => t('server.coDriverSelf'),
  'hos.co_driver_unknown': (t) => t('server.coDriverUnknown'),
  'hos.trailer_unknown': (t) => t('server.trailerUnknown'),
  'hos.day_not_begun': (t) => t('server.dayNotBegun'),
  'loads.pod_required': (t, p) => t('server.podRequired', { stop: p.stop }),
  // Office screens (their words load with them): who or what, which paper, since when (decision 0302).
  'loads.driver_not_qualified': (t, p) =>
    t('dispatchRefusals.driverNotQualified', { driver: p.driver, item: t(`dispatchRefusals.papers.${p.kind}`), date: p.date }),
  'loads.vehicle_not_compliant': (t, p) =>
    p.failed
      ? t('dispatchRefusals.inspectionFailed', { unit: p.unit })
      : t('dispatchRefusals.vehicleNotCompliant', { unit: p.unit, item: t(`dispatchRefusals.papers.${p.kind}`), date: p.date }),
  'sync.recorded_in_future': (t) => t('server.recordedFuture'),
  'sync.recorded_too_old': (t, p) => t('server.recordedOld', { days: p.days }),
  'common.payload_too_large': (t) => t('server.photoTooLarge'),
  'common.rate_limited': (t) => t('server.tooMany'),
  'auth.invalid_credentials': (t) => t('auth.failed'),
  'auth.too_many_sign_ins': (t) => t('server.tooManySignIns'),
  'users.current_password_required': (t) => t('account.emailNeedsPassword'),
  'users.current_password_wrong': (t) => t('account.passwordWrong'),
};

/** What an error body, or a refusal kept from one, carries: its code may be one this app does not know. */
export interface CodedWords {
  code?: string | undefined;
  message: string;
  params?: ErrorParams | undefined;
}

/** An error body's words in `language`: by its code where worded here, else its message. */
export function errorBodyWordsIn(language: string, t: TFunction, body: CodedWords): string {
  if (language === 'en') return body.message;
  const words = isErrorCode(body.code) ? WORDS[body.code] : undefined;
  return words ? words(t, body.params ?? {}) : body.message;
}
