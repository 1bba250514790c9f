import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import { lazyPart, useOnceTrue } from '../../../components/on-first-use.ts';
import type { CrossingsOwner } from '../hos-crossings-api.ts';
import { useDayCrossings, type Editing } from './log-crossings-data.ts';
import { clockIn, zoneAbbreviation } from './log-format.ts';

// The correction dialog (a form in a modal) loads when first opened: the driver's home stays small.
const CrossingDialog = lazyPart(() => import('./log-crossing-dialog.tsx').then((m) => ({ default: m.CrossingDialog })));

// A log day's border crossings (issue 72): one line per crossing with the ruleset in force on each
// side, and the driver's (or office's) correction with an annotation. The graph grid marks them.

export interface LogCrossingsProps {
  orgId: string;
  owner: CrossingsOwner;
  dayStart: string;
  dayEnd: string;
  timeZone: string;
  /** Whether the viewer may correct the crossings. */
  canEdit: boolean;
}

/** The crossings of the day (for the graph grid's markers and the list). */

export function LogCrossings({ orgId, owner, dayStart, dayEnd, timeZone, canEdit }: LogCrossingsProps) {
  const { t, i18n } = useTranslation();
  const crossings = useDayCrossings(orgId, owner, dayStart, dayEnd);
  const [editing, setEditing] = useState<Editing | null>(null);
  const everEdited = useOnceTrue(editing !== null);
  const time = (iso: string) => `${clockIn(iso, timeZone, i18n.language)} ${zoneAbbreviation(iso, timeZone, i18n.language)}`;
  return (
    <Stack gap="xs" data-testid="log-crossings" data-empty={crossings.length === 0 || undefined}>
      {crossings.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('driver.crossings.none')}
        </Text>
      )}
      {crossings.map((c) => (
        <Group key={c.id} justify="space-between" wrap="nowrap" gap="xs" align="flex-start" data-testid="crossing-line">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconFlag size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            <Stack gap={2}>
              <Text size="sm" fw={600}>{`${time(c.at)} · ${t(`driver.crossings.into.${c.to}`)}`}</Text>
              <Text size="sm">{t('driver.crossings.rules', { before: t(`rulesets.${c.rulesetBefore}`), after: t(`rulesets.${c.rulesetAfter}`) })}</Text>
              <Group gap={6}>
                <Badge size="sm" variant="light" color={c.source === 'POSITIONS' ? 'blue' : 'grape'}>
                  {c.source === 'POSITIONS' ? t('driver.crossings.fromPositions') : t('driver.crossings.entered')}
                </Badge>
                {c.annotation && (
                  <Text size="xs" c="dimmed">
                    {c.annotation}
                  </Text>
                )}
              </Group>
            </Stack>
          </Group>
          {canEdit && (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-sm" variant="light" onClick={() => setEditing({ kind: 'move', crossing: c })}>
                {t('driver.crossings.move')}
              </Button>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setEditing({ kind: 'remove', crossing: c })}>
                {t('driver.crossings.remove')}
              </Button>
            </Group>
          )}
        </Group>
      ))}
      {canEdit && (
        <Group>
          <Button size="compact-sm" variant="default" onClick={() => setEditing({ kind: 'add' })}>
            {t('driver.crossings.add')}
          </Button>
        </Group>
      )}
      {everEdited && (
        <Suspense fallback={null}>
          <CrossingDialog orgId={orgId} owner={owner} editing={editing} dayStart={dayStart} timeZone={timeZone} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
