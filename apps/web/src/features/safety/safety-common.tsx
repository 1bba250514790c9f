import { useCallback, useMemo } from 'react';
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { addDays, dayStartIn, todayIn, useViewerZone, zoneLabel } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

// What the safety screens share: the tabs between them and the period filter kept in the URL.

const TABS = [
  { path: '/safety', key: 'inbox', exact: true },
  { path: '/safety/scores', key: 'scores', exact: false },
  { path: '/safety/settings', key: 'settings', exact: false },
] as const;

/** Inbox, Scores, Settings; an event's detail belongs to the inbox. */
export function SafetyTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const canList = useCan('SAFETY_LIST');
  // The period travels between the inbox and the scores.
  const keep = new URLSearchParams([...params].filter(([k]) => PERIOD_KEYS.includes(k)));
  const qs = keep.toString() ? `?${keep}` : '';
  if (!canList) return null;
  return (
    <Group component="nav" aria-label={t('safety.tabs.label')} gap={4} mb="md" wrap="wrap">
      {TABS.map((tab) => {
        const active = tab.exact ? pathname === tab.path || pathname.startsWith('/safety/events') : pathname.startsWith(tab.path);
        return (
          <Button
            key={tab.path}
            component={Link}
            to={tab.key === 'settings' ? tab.path : `${tab.path}${qs}`}
            size="compact-sm"
            variant={active ? 'filled' : 'subtle'}
            aria-current={active ? 'page' : undefined}
          >
            {t(`safety.tabs.${tab.key}`)}
          </Button>
        );
      })}
    </Group>
  );
}

const PERIOD_KEYS = ['period', 'from', 'to'];
export const PERIODS = ['7', '28', '84', 'custom'] as const;
export type PeriodChoice = (typeof PERIODS)[number];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface SafetyPeriod {
  choice: PeriodChoice;
  fromDay: string;
  toDay: string;
  /** The API's bounds: instants at the start of the first day and after the last, in the viewer's zone. */
  from: string;
  to: string;
  /** True for the default (the rolling 4 weeks ending now): the scores then ask for the settings' window. */
  rolling: boolean;
}

/**
 * The period of the safety screens in the URL: `?period=7|28|84` days ending today, or
 * `?period=custom&from=2026-06-01&to=2026-06-28` (days in the viewer's zone). The rolling 4 weeks by default.
 */
export function useSafetyPeriod(): [SafetyPeriod, (patch: { period?: PeriodChoice; from?: string | null; to?: string | null }) => void] {
  const zone = useViewerZone();
  const [params, setParams] = useSearchParams();
  const today = todayIn(zone);
  const period = useMemo<SafetyPeriod>(() => {
    const raw = params.get('period');
    const choice: PeriodChoice = (PERIODS as readonly string[]).includes(raw ?? '') ? (raw as PeriodChoice) : '28';
    let fromDay: string;
    let toDay: string;
    if (choice === 'custom') {
      const to = params.get('to');
      const from = params.get('from');
      toDay = to && DAY.test(to) ? to : today;
      fromDay = from && DAY.test(from) && from <= toDay ? from : addDays(toDay, -27);
    } else {
      toDay = today;
      fromDay = addDays(today, -(Number(choice) - 1));
    }
    return { choice, fromDay, toDay, from: dayStartIn(fromDay, zone), to: dayStartIn(addDays(toDay, 1), zone), rolling: choice === '28' };
  }, [params, today, zone]);
  const set = useCallback(
    (patch: { period?: PeriodChoice; from?: string | null; to?: string | null }) =>
      setParams(
        (prev) =>
          withParams(
            prev,
            {
              ...(patch.period !== undefined ? { period: patch.period === '28' ? null : patch.period } : {}),
              ...(patch.from !== undefined ? { from: patch.from } : {}),
              ...(patch.to !== undefined ? { to: patch.to } : {}),
            },
            'page',
          ),
        { replace: true },
      ),
    [setParams],
  );
  return [period, set];
}

/** The period's select, and its two days when it is custom (labelled with the viewer's zone): siblings for the caller's row or grid. */
export function PeriodFilter({ period, onChange }: { period: SafetyPeriod; onChange: ReturnType<typeof useSafetyPeriod>[1] }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const zoneName = zoneLabel(period.from, zone);
  return (
    <>
      <NativeSelect
        aria-label={t('safety.period.label')}
        value={period.choice}
        onChange={(e) => {
          const v = e.currentTarget.value as PeriodChoice;
          onChange(v === 'custom' ? { period: v, from: period.fromDay, to: period.toDay } : { period: v, from: null, to: null });
        }}
        data={PERIODS.map((p) => ({ value: p, label: t(`safety.period.${p}`) }))}
      />
      {period.choice === 'custom' && (
        <>
          <TextInput
            aria-label={t('safety.period.from', { zone: zoneName })}
            title={t('safety.period.from', { zone: zoneName })}
            type="date"
            value={period.fromDay}
            max={period.toDay}
            onChange={(e) => onChange({ from: e.currentTarget.value || null })}
            miw={150}
          />
          <TextInput
            aria-label={t('safety.period.to', { zone: zoneName })}
            title={t('safety.period.to', { zone: zoneName })}
            type="date"
            value={period.toDay}
            min={period.fromDay}
            onChange={(e) => onChange({ to: e.currentTarget.value || null })}
            miw={150}
          />
        </>
      )}
    </>
  );
}
