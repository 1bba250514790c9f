import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../i18n/i18n.ts';
import { ENGLISH, ruleName, type GridWords } from './graph-grid-text.ts';

/** The graph grid's words in the viewer's language; English is exactly what the grid always said. */
export function useGridWords(): GridWords {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  return useMemo(() => {
    if (!lng || lng.startsWith('en')) return ENGLISH;
    const g = (key: string, options?: Record<string, unknown>) => t(`grid.${key}`, options ?? {});
    return {
      rows: { OFF: t('duty.OFF'), SB: t('duty.SB'), D: t('duty.D'), ON: t('duty.ON') },
      special: { PC: g('pc'), YM: g('ym') },
      mid: g('mid'),
      noon: g('noon'),
      total: g('total'),
      now: g('now'),
      rule: (code) => t(`grid.rules.${code}`, { defaultValue: ruleName(code) }),
      clockLocale: intlLocale(lng),
      table: {
        statusesOn: g('statusesOn'),
        violationsOn: g('violationsOn'),
        start: g('start'),
        end: g('end'),
        status: g('status'),
        duration: g('duration'),
        rule: g('rule'),
        severity: g('severity'),
      },
      legend: { pc: g('legendPC'), ym: g('legendYM'), violation: g('violation') },
      summary: {
        record: g('record'),
        hourDay: (hours) => g('hourDay', { hours }),
        total: g('totalWord'),
        totalSoFar: g('totalSoFar'),
        at: g('at'),
        violations: (count) => g('violations', { count }),
      },
    };
  }, [t, lng]);
}
