import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { HosLogDay } from '@fleet/api-contract';
import { lazyPart } from '../../../components/on-first-use.ts';
import classes from './driver.module.css';

// The form and its inputs (tags, selects) load on the first tap of Edit (issue 67).
const TripForm = lazyPart(() => import('./trip-form.tsx'));

export interface TripDetailsProps {
  orgId: string;
  userId: string;
  day: HosLogDay;
  /** The truck assigned to the driver now. */
  vehicle: { unitNumber: string } | null;
}

/** Today's vehicle, trailers, shipping documents and co-driver (§395.8 header facts), which the driver keeps up to date. */
export function TripDetails({ orgId, userId, day, vehicle }: TripDetailsProps) {
  const { t } = useTranslation();
  const listed = (items: string[]) => (items.length ? items.join(', ') : t('driver.trip.none'));
  const [editing, setEditing] = useState(false);
  const h = day.header;
  const vehicles = [...new Set([...(vehicle ? [vehicle.unitNumber] : []), ...h.vehicles.map((v) => v.unitNumber)])];
  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('driver.trip.title')}
        </Title>
        <Button variant="light" size="md" leftSection={<IconPencil size={18} aria-hidden />} onClick={() => setEditing(true)}>
          {t('driver.trip.edit')}
        </Button>
      </Group>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
        <Fact label={t('driver.trip.vehicle')} value={listed(vehicles)} />
        <Fact label={t('driver.trip.trailers')} value={listed(h.trailers.map((x) => x.unitNumber))} testId="trip-trailers" />
        <Fact label={t('driver.trip.documents')} value={listed(h.shippingDocuments)} testId="trip-documents" />
        <Fact
          label={t('driver.trip.coDriver')}
          value={h.coDriver ? `${h.coDriver.firstName} ${h.coDriver.lastName}` : t('driver.trip.none')}
          testId="trip-codriver"
        />
      </SimpleGrid>
      {editing && (
        <Suspense fallback={null}>
          <TripForm orgId={orgId} userId={userId} day={day} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Paper>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className={classes.fact}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
