import type { TFunction } from 'i18next';
import { HOS_EVENT_TYPES } from '@fleet/api-contract/hos-codes';
import type { HosEvent } from '@fleet/api-contract';

/**
 * What an event records, in the driver's language (issue 44): the words of log-format's eventName
 * (the office's English, which the English catalogue repeats exactly), by the catalogue's `events`.
 */
export function eventWords(t: TFunction, e: Pick<HosEvent, 'eventType' | 'eventCode' | 'status' | 'special'>): string {
  switch (e.eventType) {
    case HOS_EVENT_TYPES.DUTY_STATUS:
      return e.status ? t(`duty.${e.status}`) : t('events.dutyStatus');
    case HOS_EVENT_TYPES.INTERMEDIATE_LOG:
      return t('events.intermediate');
    case HOS_EVENT_TYPES.SPECIAL_CATEGORY:
      return e.special ? t(`events.${e.special}`) : t('events.specialCleared');
    case HOS_EVENT_TYPES.CERTIFICATION:
      return t('events.certification', { code: e.eventCode });
    case HOS_EVENT_TYPES.LOGIN_LOGOUT:
      return e.eventCode === 1 ? t('events.login') : t('events.logout');
    case HOS_EVENT_TYPES.ENGINE_POWER:
      return e.eventCode === 1 || e.eventCode === 2 ? t('events.powerUp') : e.eventCode === 3 || e.eventCode === 4 ? t('events.shutdown') : t('events.engine');
    case HOS_EVENT_TYPES.MALFUNCTION:
      return t('events.malfunction');
    default:
      return t('events.other', { type: e.eventType, code: e.eventCode });
  }
}
