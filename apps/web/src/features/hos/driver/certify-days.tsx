import { useState } from 'react';
import { Alert, Blockquote, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notify } from '../../../lib/notifications-store.ts';
import { IconCircleCheck } from '@tabler/icons-react';
import { HOS_CERTIFICATION_STATEMENT } from '@fleet/api-contract/hos-driver';
import { describeError } from '../../../lib/api-client.ts';
import { longDate } from '../logs/log-format.ts';
import { useCertifyDay } from './driver-api.ts';
import classes from './driver.module.css';

export interface CertifyDaysProps {
  orgId: string;
  userId: string;
  /** Past days waiting for certification, oldest first. */
  days: ReadonlyArray<{ id: string; date: string }>;
  /** Today's log, which may be certified at the end of the shift. */
  today: { id: string; date: string };
}

/**
 * Certification (Appendix A 4.3.2.3): each past day not certified, or changed since, is listed; the
 * driver reads the statement and agrees, or leaves it for later ("Not ready").
 */
export function CertifyDays({ orgId, userId, days, today }: CertifyDaysProps) {
  const [day, setDay] = useState<{ id: string; date: string } | null>(null);
  return (
    <Stack gap="sm">
      {days.length === 0 ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={20} />} title="All past days are certified">
          Certify today at the end of your shift.
        </Alert>
      ) : (
        <Text size="sm">
          {`${days.length} ${days.length === 1 ? 'day waits' : 'days wait'} for your certification. A day edited after you certified it asks again.`}
        </Text>
      )}
      {[...days].reverse().map((d) => (
        <Paper key={d.id} withBorder radius="md" p="sm" className={classes.card} data-testid="uncertified-day">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>{longDate(d.date)}</Text>
            <Button size="md" onClick={() => setDay(d)} aria-label={`Certify ${longDate(d.date)}`}>
              Certify
            </Button>
          </Group>
        </Paper>
      ))}
      <Button variant="default" size="md" onClick={() => setDay(today)}>
        Certify today
      </Button>
      <CertifyModal orgId={orgId} userId={userId} day={day} onClose={() => setDay(null)} />
    </Stack>
  );
}

function CertifyModal({ orgId, userId, day, onClose }: { orgId: string; userId: string; day: { id: string; date: string } | null; onClose: () => void }) {
  const certify = useCertifyDay(orgId, userId);
  const [error, setError] = useState<string | null>(null);
  const agree = async () => {
    if (!day) return;
    try {
      await certify.mutateAsync({ logId: day.id });
      notify({ type: 'success', timeout: 5000, title: `${longDate(day.date)} certified`, category: 'Your certification is recorded.' });
      setError(null);
      onClose();
    } catch (err) {
      setError(describeError(err).title);
    }
  };
  return (
    <Modal opened={day !== null} onClose={onClose} title={day ? `Certify ${longDate(day.date)}` : ''} centered>
      <Stack gap="md">
        <Title order={3} size="h5">
          Certification statement
        </Title>
        <Blockquote color="blue" p="sm" data-testid="certification-statement">
          {HOS_CERTIFICATION_STATEMENT}.
        </Blockquote>
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group grow>
          <Button variant="default" size="md" onClick={onClose}>
            Not ready
          </Button>
          <Button size="md" loading={certify.isPending} onClick={() => void agree()}>
            Agree
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
