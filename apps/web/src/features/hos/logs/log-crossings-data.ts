import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { BorderCrossing } from '@fleet/api-contract';
import { crossingsQuery, type CrossingsOwner } from '../hos-crossings-api.ts';
import { clockIn, zoneAbbreviation } from './log-format.ts';

// A log day's border crossings as data (issue 72): the list's query and the graph grid's markers,
// apart from the list and its correction forms, which the driver's home loads on first use.

/** The crossings of a log day (none while `orgId` is empty). */
export function useDayCrossings(orgId: string, owner: CrossingsOwner, dayStart: string, dayEnd: string): BorderCrossing[] {
  const q = useQuery({ ...crossingsQuery(orgId, owner, dayStart, dayEnd), enabled: !!orgId });
  return q.data?.items ?? [];
}

/** The graph grid's markers of the crossings, worded in the viewer's language. */
export function useCrossingMarkers(crossings: readonly BorderCrossing[], timeZone: string) {
  const { t, i18n } = useTranslation();
  return crossings.map((c) => ({
    at: c.at,
    label: t('driver.crossings.marker', {
      country: t(`driver.crossings.country.${c.to}`),
      time: `${clockIn(c.at, timeZone, i18n.language)} ${zoneAbbreviation(c.at, timeZone, i18n.language)}`,
    }),
  }));
}

/** A correction being made: a crossing added, moved or removed. */
export type Editing = { kind: 'add' } | { kind: 'move'; crossing: BorderCrossing } | { kind: 'remove'; crossing: BorderCrossing };
