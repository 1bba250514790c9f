import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { notify } from '../../../lib/notifications-store.ts';
import { IconBed, IconBriefcase, IconCar, IconHome, IconSteeringWheel, IconTruckLoading } from '@tabler/icons-react';
import type { HosDriverStatus } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAgo } from '../availability/clock-format.ts';
import { useChangeStatus } from './driver-api.ts';
import classes from './driver.module.css';

type Choice = { status: 'OFF' | 'SB' | 'ON'; special: 'PC' | 'YM' | null };

const STATUS_WORDS = { OFF: 'Off duty', SB: 'Sleeper berth', D: 'Driving', ON: 'On duty' } as const;
const SPECIAL_WORDS = { PC: 'Personal conveyance', YM: 'Yard moves' } as const;
const STATUS_COLORS = { OFF: 'gray', SB: 'violet', D: 'blue', ON: 'orange' } as const;

/** The name of a choice, as the buttons and the confirmation say it. */
const choiceName = (c: Choice) => (c.special ? SPECIAL_WORDS[c.special] : STATUS_WORDS[c.status]);

export interface StatusPanelProps {
  orgId: string;
  userId: string;
  status: HosDriverStatus;
  /** The clocks' instant plus the local tick: "since" ages with it. */
  now: number;
}

/**
 * The driver's current duty status and the big buttons to change it (decision 0115): Off duty,
 * Sleeper berth and On duty always; personal conveyance and yard moves when the driver record allows
 * them; Driving is shown but set by the vehicle's motion. Each change asks for an optional note.
 */
export function StatusPanel({ orgId, userId, status, now }: StatusPanelProps) {
  const [choice, setChoice] = useState<Choice | null>(null);
  const c = status.clocks;
  const current: Choice | null = c.status && c.status !== 'D' ? { status: c.status, special: c.special } : null;
  const same = (x: Choice) => !!current && current.status === x.status && current.special === x.special;
  const choices: Array<Choice & { icon: typeof IconHome }> = [
    { status: 'OFF', special: null, icon: IconHome },
    { status: 'SB', special: null, icon: IconBed },
    { status: 'ON', special: null, icon: IconBriefcase },
    ...(status.driver.personalConveyanceAllowed ? [{ status: 'OFF' as const, special: 'PC' as const, icon: IconCar }] : []),
    ...(status.driver.yardMovesAllowed ? [{ status: 'ON' as const, special: 'YM' as const, icon: IconTruckLoading }] : []),
  ];
  const label = c.status ? (c.special ? SPECIAL_WORDS[c.special] : STATUS_WORDS[c.status]) : 'No status yet';

  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="sm" c="dimmed">
              Current status
            </Text>
            <Title order={2} size="h2" data-testid="current-status" data-status={c.status ?? 'NONE'}>
              {label}
            </Title>
            {c.since && (
              <Text size="sm" c="dimmed">
                {`${formatAgo(now - Date.parse(c.since)).replace(/ ago$/, '')} · since ${formatDateTime(c.since, status.driver.homeTimeZone)}`}
              </Text>
            )}
          </div>
          <span className={classes.statusDot} style={{ background: `var(--mantine-color-${c.status ? STATUS_COLORS[c.status] : 'gray'}-filled)` }} aria-hidden />
        </Group>
        {status.moving && (
          <Alert color="blue" variant="light" icon={<IconSteeringWheel size={18} />} title="The truck is moving">
            Driving is recorded from the truck's motion. Change your status once it has stopped.
          </Alert>
        )}
        <SimpleGrid cols={2} spacing="sm" role="group" aria-label="Change duty status">
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
              {choiceName(x)}
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
            Driving
          </Button>
        </SimpleGrid>
        <Text id="driving-note" size="xs" c="dimmed">
          Driving is set by the vehicle's motion and cannot be chosen.
        </Text>
      </Stack>
      <ChangeModal orgId={orgId} userId={userId} logId={status.today.id} choice={choice} onClose={() => setChoice(null)} />
    </Paper>
  );
}

function ChangeModal({ orgId, userId, logId, choice, onClose }: { orgId: string; userId: string; logId: string; choice: Choice | null; onClose: () => void }) {
  const change = useChangeStatus(orgId, userId);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setNote('');
    setError(null);
    change.reset();
    onClose();
  };
  const submit = async () => {
    if (!choice) return;
    const annotation = note.trim() || null;
    if (annotation !== null && annotation.length < 4) {
      setError('A note must be at least 4 characters');
      return;
    }
    try {
      await change.mutateAsync({ logId, body: { status: choice.status, special: choice.special, annotation } });
      notify({ type: 'success', timeout: 5000, title: `${choiceName(choice)} from now`, category: 'Your status is recorded.' });
      close();
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Modal opened={choice !== null} onClose={close} title={choice ? `Change to ${choiceName(choice)}` : ''} centered size="sm">
      <Stack gap="sm">
        <Text size="sm">Your new status starts now, at the truck's location.</Text>
        <Textarea
          label="Note (optional)"
          description="4 to 60 characters, e.g. 'Fuel stop' or 'Loading at the shipper'"
          maxLength={60}
          autosize
          minRows={2}
          value={note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
        />
        <Group grow>
          <Button variant="default" size="md" onClick={close}>
            Cancel
          </Button>
          <Button size="md" loading={change.isPending} onClick={() => void submit()}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
