import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertOctagon, IconCloudStorm, IconRefresh } from '@tabler/icons-react';
import { lazyPart, useOnceTrue } from '../../../components/on-first-use.ts';
import type { DeclarationsOwner } from '../hos-declarations-api.ts';
import { declarableKinds, useDayDeclarations, type DeclarationEditing } from './log-declarations-data.ts';
import { clockIn, zoneAbbreviation } from './log-format.ts';

// The form (a modal) loads when first opened: the driver's home stays small.
const DeclarationDialog = lazyPart(() => import('./log-declaration-dialog.tsx').then((m) => ({ default: m.DeclarationDialog })));

// A log day's declarations (issue 72, decisions 0314, 0315): the cycle switches, adverse driving
// conditions and emergencies the driver or office declared, each with its annotation; a new one is
// declared here and a wrong one withdrawn with an annotation. The graph grid marks them.

export interface LogDeclarationsProps {
  orgId: string;
  owner: DeclarationsOwner;
  /** The driver's ruleset: what may be declared (a cycle switch and an emergency on Canadian rules only). */
  ruleset: string;
  dayStart: string;
  dayEnd: string;
  timeZone: string;
  /** Whether the viewer may declare and withdraw. */
  canEdit: boolean;
  /** Opens the form at once (the driver's home opens the list with its Declare button). */
  startDeclaring?: boolean;
}

const icons = { CYCLE_SWITCH: IconRefresh, ADVERSE_DRIVING: IconCloudStorm, EMERGENCY: IconAlertOctagon } as const;

export function LogDeclarations({ orgId, owner, ruleset, dayStart, dayEnd, timeZone, canEdit, startDeclaring = false }: LogDeclarationsProps) {
  const { t, i18n } = useTranslation();
  const declarations = useDayDeclarations(orgId, owner, dayStart, dayEnd);
  const [editing, setEditing] = useState<DeclarationEditing | null>(startDeclaring ? { kind: 'add' } : null);
  const everEdited = useOnceTrue(editing !== null);
  const time = (iso: string) => `${clockIn(iso, timeZone, i18n.language)} ${zoneAbbreviation(iso, timeZone, i18n.language)}`;
  return (
    <Stack gap="xs" data-testid="log-declarations" data-empty={declarations.length === 0 || undefined}>
      {declarations.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('driver.declarations.none')}
        </Text>
      )}
      {declarations.map((x) => {
        const Icon = icons[x.kind];
        return (
          <Group key={x.id} justify="space-between" wrap="nowrap" gap="xs" align="flex-start" data-testid="declaration-line">
            <Group gap="xs" wrap="nowrap" align="flex-start" style={{ flex: 1, minWidth: 0 }}>
              <Icon size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {`${time(x.at)}${x.until ? `–${time(x.until)}` : ''} · ${
                    x.kind === 'CYCLE_SWITCH' ? t('driver.declarations.switchTo', { cycle: x.cycle }) : t(`driver.declarations.kind.${x.kind}`)
                  }`}
                </Text>
                <Text size="sm">{t(`driver.declarations.rule.${x.kind}`)}</Text>
                <Group gap={6}>
                  <Badge size="sm" variant="light" color={x.kind === 'EMERGENCY' ? 'red' : x.kind === 'ADVERSE_DRIVING' ? 'orange' : 'grape'}>
                    {t('driver.declarations.declared')}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {x.annotation}
                  </Text>
                </Group>
              </Stack>
            </Group>
            {canEdit && (
              <Button size="compact-sm" variant="light" color="red" style={{ flex: 'none' }} onClick={() => setEditing({ kind: 'remove', declaration: x })}>
                {t('driver.declarations.withdraw')}
              </Button>
            )}
          </Group>
        );
      })}
      {canEdit && (
        <Group>
          <Button size="compact-sm" variant="default" onClick={() => setEditing({ kind: 'add' })}>
            {t('driver.declarations.add')}
          </Button>
        </Group>
      )}
      {everEdited && (
        <Suspense fallback={null}>
          <DeclarationDialog
            orgId={orgId}
            owner={owner}
            kinds={declarableKinds(ruleset)}
            editing={editing}
            dayStart={dayStart}
            timeZone={timeZone}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
