import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArmchair, IconBed, IconBriefcase, IconCar, IconHome, IconHourglass, IconSteeringWheel, IconTruckLoading } from '@tabler/icons-react';
import type { HosDriverStatus } from '@fleet/api-contract';
import { lazyPart, useOnceTrue } from '../../../components/on-first-use.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAgo } from '../availability/clock-format.ts';
import { choiceName, type Choice } from './status-choice.ts';
import classes from './driver.module.css';

// The change's dialog (its inputs, the position, the outbox) loads on the first tap of a status.
const ChangeModal = lazyPart(() => import('./status-change-modal.tsx'));

const STATUS_COLORS = { OFF: 'gray', SB: 'violet', D: 'blue', ON: 'orange' } as const;

export interface StatusPanelProps {
  orgId: string;
  userId: string;
  status: HosDriverStatus;
  /** The clocks' instant plus the local tick: "since" ages with it. */
  now: number;
  /** Today's log has a co-driver: the team's passenger-seat choice is offered (49 CFR 395.1(g)(1)). Default false. */
  team?: boolean;
}

/**
 * The driver's current duty status and the big buttons to change it (decision 0115): Off duty,
 * Sleeper berth and On duty always; personal conveyance and yard moves when the driver record allows
 * them, the passenger seat to a team driver, waiting at a well site to an oilfield driver; Driving is shown but set by the vehicle's motion. Each
 * change asks for an optional note, and for a typed location only when neither the truck's device
 * (a recent fix, issue 46) nor the phone gives a position.
 */
export function StatusPanel({ orgId, userId, status, now, team = false }: StatusPanelProps) {
  const { t, i18n } = useTranslation();
  const [choice, setChoice] = useState<Choice | null>(null);
  const changeUsed = useOnceTrue(choice !== null);
  const c = status.clocks;
  const current: Choice | null = c.status && c.status !== 'D' ? { status: c.status, special: c.special } : null;
  const same = (x: Choice) => !!current && current.status === x.status && current.special === x.special;
  const choices: Array<Choice & { icon: typeof IconHome }> = [
    { status: 'OFF', special: null, icon: IconHome },
    { status: 'SB', special: null, icon: IconBed },
    { status: 'ON', special: null, icon: IconBriefcase },
    ...(status.driver.personalConveyanceAllowed ? [{ status: 'OFF' as const, special: 'PC' as const, icon: IconCar }] : []),
    ...(status.driver.yardMovesAllowed ? [{ status: 'ON' as const, special: 'YM' as const, icon: IconTruckLoading }] : []),
    ...(team ? [{ status: 'OFF' as const, special: 'PASSENGER' as const, icon: IconArmchair }] : []),
    // §395.1(d)(2): a driver with the oilfield exemption marks waiting time at a well site (OFF duty).
    ...(status.engine.options.exemptions?.oilfield ? [{ status: 'OFF' as const, special: 'WAITING' as const, icon: IconHourglass }] : []),
  ];
  const label = c.status ? choiceName(t, { status: c.status, special: c.special }) : t('duty.none');

  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="sm" c="dimmed">
              {t('driver.currentStatus')}
            </Text>
            <Title order={2} size="h2" data-testid="current-status" data-status={c.status ?? 'NONE'}>
              {label}
            </Title>
            {c.since && (
              <Text size="sm" c="dimmed">
                {t('driver.since', {
                  duration: now - Date.parse(c.since) < 60_000 ? t('driver.justNow') : formatAgo(now - Date.parse(c.since)).replace(/ ago$/, ''),
                  time: formatDateTime(c.since, status.driver.homeTimeZone, i18n.language),
                })}
              </Text>
            )}
          </div>
          <span
            className={classes.statusDot}
            style={{ background: `var(--mantine-color-${c.status ? STATUS_COLORS[c.status] : 'gray'}-filled)` }}
            aria-hidden
          />
        </Group>
        {status.moving && (
          <Alert color="blue" variant="light" icon={<IconSteeringWheel size={18} />} title={t('driver.movingTitle')}>
            {t('driver.movingBody')}
          </Alert>
        )}
        <SimpleGrid cols={2} spacing="sm" role="group" aria-label={t('driver.changeGroup')}>
          {choices.map((x) => (
            <Button
              key={`${x.status}-${x.special ?? ''}`}
              size="lg"
              fz="md"
              h={84}
              variant="default"
              data-selected={same(x) || undefined}
              leftSection={<x.icon size={20} aria-hidden />}
              // The status in force is shown pressed; choosing it again changes nothing.
              onClick={() => !same(x) && setChoice(x)}
              disabled={status.moving}
              aria-pressed={same(x)}
              className={classes.statusButton}
              classNames={{ label: classes.buttonLabel, inner: classes.buttonInner, section: classes.buttonSection }}
            >
              {choiceName(t, x)}
            </Button>
          ))}
          <Button
            size="lg"
            fz="md"
            h={84}
            variant="default"
            data-selected={c.status === 'D' || undefined}
            leftSection={<IconSteeringWheel size={20} aria-hidden />}
            disabled
            aria-describedby="driving-note"
            className={classes.statusButton}
            classNames={{ label: classes.buttonLabel, inner: classes.buttonInner, section: classes.buttonSection }}
          >
            {t('duty.D')}
          </Button>
        </SimpleGrid>
        <Text id="driving-note" size="xs" c="dimmed">
          {t('driver.drivingNote')}
        </Text>
      </Stack>
      {changeUsed && (
        <Suspense fallback={null}>
          <ChangeModal
            orgId={orgId}
            userId={userId}
            logId={status.today.id}
            timeZone={status.driver.homeTimeZone}
            vehiclePositionAt={status.vehiclePositionAt}
            choice={choice}
            onClose={() => setChoice(null)}
          />
        </Suspense>
      )}
    </Paper>
  );
}
