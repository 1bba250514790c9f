import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Accordion, Badge, Group, Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Dvir } from '@fleet/api-contract';
import { DataState } from '../../../components/data-state.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useUnits } from '../../../lib/units.ts';
import { dvirListQuery } from '../dvir-api.ts';
import { DvirReport, kindWords, unitsOf } from './dvir-report.tsx';
import classes from './dvir-driver.module.css';

// The roadside inspection view's reports (issue 31): the driver's current vehicle's inspection reports
// of the last 8 days, with their defects, certifications and reviews, for an officer to read.

const DAYS = 8;

export interface VehicleReportsProps {
  orgId: string;
  /** The driver's current vehicle; none shows a line saying so. */
  vehicle: { id: string; unitNumber: string } | null;
  /** The driver's home-terminal zone. */
  timeZone: string;
}

/** The report's state at a glance: open safety defect, open defect, defects certified, or none. */
function ReportBadge({ dvir }: { dvir: Dvir }) {
  const { t } = useTranslation();
  const certified = dvir.defects.every((d) => d.status !== 'OPEN');
  const [color, words] = dvir.unsafe
    ? ['red', t('inspection.openSafety')]
    : !dvir.hasDefects
      ? ['green', t('inspection.noDefects')]
      : certified
        ? ['teal', dvir.review ? t('inspection.repairsReviewed') : t('inspection.defectsCertified')]
        : ['orange', t('inspection.openDefect')];
  return (
    <Badge color={color} variant="light">
      {words}
    </Badge>
  );
}

export function VehicleReports({ orgId, vehicle, timeZone }: VehicleReportsProps) {
  const { t, i18n } = useTranslation();
  const units = useUnits();
  // The window starts when the screen opens (a fixed key while it stays open).
  const [from] = useState(() => new Date(Date.now() - DAYS * 86_400_000).toISOString());
  const reports = useQuery(dvirListQuery(orgId, { assetId: vehicle?.id, from, size: 50 }, !!vehicle));
  const list = reports.data?.content ?? [];
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid="vehicle-reports">
      <Title order={2} size="h4" mb="xs">
        {t('inspection.reports')}
      </Title>
      {!vehicle ? (
        <Text size="sm" c="dimmed">
          {t('inspection.noVehicleDriver')}
        </Text>
      ) : (
        <DataState isLoading={reports.isLoading} error={reports.error} onRetry={() => void reports.refetch()}>
          <Text size="sm" c="dimmed" mb="sm">
            {t('inspection.reportsCount', { unit: vehicle.unitNumber, days: DAYS, count: list.length })}
          </Text>
          {list.length > 0 && (
            <Accordion multiple defaultValue={[list[0]!.id]} variant="separated" chevronPosition="right">
              {list.map((r) => (
                <Accordion.Item key={r.id} value={r.id}>
                  <Accordion.Control>
                    <Group gap="xs" justify="space-between" wrap="wrap" pr="xs">
                      <Text fw={600} size="sm">{`${kindWords(t, r.kind)} · ${unitsOf(r)} · ${formatDateTime(r.inspectedAt, timeZone, i18n.language)}`}</Text>
                      <ReportBadge dvir={r} />
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <DvirReport dvir={r} timeZone={timeZone} units={units} listPassed />
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          )}
        </DataState>
      )}
    </Paper>
  );
}
