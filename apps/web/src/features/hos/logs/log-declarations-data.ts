import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { HosDeclaration, HosDeclarationKind } from '@fleet/api-contract';
import { declarationsQuery, type DeclarationsOwner } from '../hos-declarations-api.ts';
import { clockIn, zoneAbbreviation } from './log-format.ts';

// A log day's declarations as data (issue 72, decisions 0314, 0315): the list's query and the graph
// grid's markers, apart from the list and its form, which the driver's home loads on first use.

/** The declarations touching a log day (none while `orgId` is empty). */
export function useDayDeclarations(orgId: string, owner: DeclarationsOwner, dayStart: string, dayEnd: string): HosDeclaration[] {
  const q = useQuery({ ...declarationsQuery(orgId, owner, dayStart, dayEnd), enabled: !!orgId });
  return q.data?.items ?? [];
}

/** What a driver on `ruleset` may declare: a cycle switch and an emergency only on Canadian rules (s. 29, s. 76). */
export function declarableKinds(ruleset: string): HosDeclarationKind[] {
  // As the contract's isCanadianRuleset, without loading its schemas into the driver's first load.
  const canadian = ruleset.startsWith('CA_SOUTH') || ruleset.startsWith('CA_NORTH');
  return canadian ? ['CYCLE_SWITCH', 'ADVERSE_DRIVING', 'EMERGENCY'] : ['ADVERSE_DRIVING'];
}

/** The graph grid's markers of the declarations, worded in the viewer's language. */
export function useDeclarationMarkers(declarations: readonly HosDeclaration[], timeZone: string) {
  const { t, i18n } = useTranslation();
  return declarations.map((x) => ({
    at: x.at,
    label: t('driver.declarations.marker', {
      what: x.kind === 'CYCLE_SWITCH' ? t('driver.declarations.switchTo', { cycle: x.cycle }) : t(`driver.declarations.kind.${x.kind}`),
      time: `${clockIn(x.at, timeZone, i18n.language)} ${zoneAbbreviation(x.at, timeZone, i18n.language)}`,
    }),
  }));
}

/** A change being made: a declaration added or withdrawn. */
export type DeclarationEditing = { kind: 'add' } | { kind: 'remove'; declaration: HosDeclaration };
