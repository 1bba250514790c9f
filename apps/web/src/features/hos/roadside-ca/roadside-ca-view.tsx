import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconDownload, IconMail } from '@tabler/icons-react';
import type { HosLogDay, RoadsideCa, RoadsideCaCycle, RoadsideCaDay } from '@fleet/api-contract';
import { Fact } from '../../../components/fact.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { formatDistance, formatOdometer } from '../../../lib/units.ts';
import { OfficerEmailModal } from '../officer-email-modal.tsx';
import { driverName, formatHours, rulesetName, shortDate, zoneAbbreviation } from '../logs/log-format.ts';
import { downloadRoadsideCaPdf, useSendRoadsideCa } from './roadside-ca-api.ts';
import classes from './roadside-ca.module.css';

// The Canadian roadside view's parts (issue 72, decision 0316): the PDF panel, the 15 days, and the
// daily log header SOR/2005-313 lists with the day's and the cycle's totals. The inspection page
// composes them with the graph grid and the records it draws for the US view.

// Canada's display is in kilometres whatever the viewer's own units (the regulation's odometer and distance).
const CANADA_UNITS = 'METRIC' as const;
const STATUSES = ['OFF', 'SB', 'D', 'ON'] as const;

export interface RoadsideCaPanelProps {
  orgId: string;
  driver: { id: string; firstName: string; lastName: string };
  /** The day the officer asks for; the PDF holds it and the 14 days before it. */
  date: string;
}

/** Download or send the PDF of the selected day and the 14 days before it. */
export function RoadsideCaPanel({ orgId, driver, date }: RoadsideCaPanelProps) {
  const { t, i18n } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const [mailing, setMailing] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadRoadsideCaPdf(orgId, driver.id, date, `${driver.lastName}-${driver.firstName}`);
      notify({ type: 'success', timeout: 5000, title: t('roadsideCa.downloaded'), category: name });
    } catch {
      // The API client has shown the error.
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="roadside-ca-file">
      <Title order={2} size="h4" mb="xs">
        {t('roadsideCa.file')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('roadsideCa.fileBody', { date: shortDate(date, i18n.language) })}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Button size="lg" variant="light" leftSection={<IconDownload size={20} aria-hidden />} loading={downloading} onClick={() => void download()}>
          {t('roadsideCa.download')}
        </Button>
        <Button size="lg" variant="light" leftSection={<IconMail size={20} aria-hidden />} onClick={() => setMailing(true)}>
          {t('roadsideCa.sendByEmail')}
        </Button>
      </SimpleGrid>
      <SendModal orgId={orgId} driverId={driver.id} date={date} opened={mailing} onClose={() => setMailing(false)} />
    </Paper>
  );
}

function SendModal({ orgId, driverId, date, opened, onClose }: { orgId: string; driverId: string; date: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const send = useSendRoadsideCa(orgId, driverId);
  return (
    <OfficerEmailModal
      opened={opened}
      onClose={onClose}
      title={t('roadsideCa.sendTitle')}
      label={t('roadsideCa.officerEmail')}
      pending={send.isPending}
      send={async (email) => {
        const sent = await send.mutateAsync({ email, date });
        return { title: t('roadsideCa.sent'), category: t('roadsideCa.sentTo', { file: sent.fileName, email: sent.sentTo }) };
      }}
    />
  );
}

export interface RoadsideCaDaysProps {
  view: RoadsideCa;
  /** The day shown below; its row is marked. */
  selected: string | null;
  onSelect: (date: string) => void;
  /** The words' language (the driver's, or English for the officer). */
  lng: string;
}

/** The inspected day and the 14 before it: hours per status and the cycle's on-duty hours at each day's end; a tap shows the day. */
export function RoadsideCaDays({ view, selected, onSelect, lng }: RoadsideCaDaysProps) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lng);
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb={4}>
        {t('roadsideCa.days')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('roadsideCa.daysHelp')}
      </Text>
      <Table className={classes.days} verticalSpacing={4} horizontalSpacing={6} data-testid="roadside-ca-days">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('roadside.header.date')}</Table.Th>
            {STATUSES.map((s) => (
              <Table.Th key={s} ta="right" title={t(`duty.${s}`)}>
                {s}
              </Table.Th>
            ))}
            <Table.Th ta="right">{t('roadsideCa.cycleShort')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.days.map((d) => (
            <Table.Tr key={d.date} data-selected={d.date === selected || undefined} data-testid="roadside-ca-day" data-date={d.date}>
              <Table.Td className={classes.date}>
                {d.id ? (
                  <UnstyledButton className={classes.dayButton} onClick={() => onSelect(d.date)} aria-pressed={d.date === selected}>
                    {shortDate(d.date, lng)}
                  </UnstyledButton>
                ) : (
                  <Text span size="sm" c="dimmed">
                    {shortDate(d.date, lng)}
                  </Text>
                )}
              </Table.Td>
              {d.id ? (
                STATUSES.map((s) => (
                  <Table.Td key={s} ta="right" ff="monospace">
                    {formatHours(d.totals[s])}
                  </Table.Td>
                ))
              ) : (
                <Table.Td colSpan={4} ta="right">
                  <Text span size="sm" c="dimmed">
                    {t('roadsideCa.noRecords')}
                  </Text>
                </Table.Td>
              )}
              <Table.Td ta="right" ff="monospace">
                {formatHours(d.cycle.onDutyMs)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The cycle totals at a day's end (now for today): on duty in the cycle, left, since the last reset. */
export function CycleTotals({ cycle, timeZone, lng }: { cycle: RoadsideCaCycle; timeZone: string; lng: string }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lng);
  return (
    <Stack gap={4} data-testid="roadside-ca-cycle">
      <Group justify="space-between" gap="xs">
        <Text fw={600}>{t('roadsideCa.cycleTitle')}</Text>
        <Text size="xs" c="dimmed">
          {t('roadsideCa.cycleAt', { time: formatDateTime(cycle.at, timeZone, lng) })}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="xs">
        <Fact label={t('roadsideCa.onDuty')}>{formatHours(cycle.onDutyMs)}</Fact>
        <Fact label={t('roadsideCa.remaining')}>{formatHours(cycle.remainingMs)}</Fact>
        <Fact label={t('roadsideCa.sinceReset')}>
          {cycle.sinceResetMs === null || !cycle.lastResetAt
            ? t('roadsideCa.noReset')
            : t('roadsideCa.sinceResetValue', { hours: formatHours(cycle.sinceResetMs), time: formatDateTime(cycle.lastResetAt, timeZone, lng) })}
        </Fact>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The daily log's header as SOR/2005-313 lists it (driver, co-driver, carrier and its principal place
 * of business, home terminal, cycle, the day's start, odometer at start and end, distance, vehicles),
 * the day's totals per status and the cycle totals at its end.
 */
export function CanadianLogHeader({ day, summary, lng }: { day: HosLogDay; summary: RoadsideCaDay; lng: string }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lng);
  const w = (k: string) => t(`roadside.header.${k}`);
  const c = (k: string) => t(`roadsideCa.header.${k}`);
  const h = day.header;
  return (
    <Stack gap="sm" data-testid="roadside-ca-header">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs" component="section" aria-label={c('label')}>
        <Fact label={w('driver')}>{driverName(h.driver)}</Fact>
        <Fact label={w('coDriver')}>{h.coDriver ? driverName(h.coDriver) : w('none')}</Fact>
        <Fact label={w('carrier')}>{h.carrier.name}</Fact>
        <Fact label={c('principalPlace')}>{h.carrier.mainOffice}</Fact>
        <Fact label={w('homeTerminal')}>{h.homeTerminal}</Fact>
        {/* The cycle in force at the day's end: a declared switch (decision 0314) may have changed it. */}
        <Fact label={c('cycle')}>{t(`rulesets.${summary.cycle.ruleset ?? h.ruleset}`, { defaultValue: rulesetName(summary.cycle.ruleset ?? h.ruleset) })}</Fact>
        <Fact label={c('dayStart')}>{`${h.periodStart} (${zoneAbbreviation(day.dayStart, h.timeZone, lng)}, ${h.timeZone})`}</Fact>
        <Fact label={w('vehicles')}>{h.vehicles.map((v) => v.unitNumber).join(', ') || w('none')}</Fact>
        <Fact label={c('odometerStart')}>{formatOdometer(h.startOdometerM === null ? null : h.startOdometerM / 1000, CANADA_UNITS, lng)}</Fact>
        <Fact label={c('odometerEnd')}>{formatOdometer(h.endOdometerM === null ? null : h.endOdometerM / 1000, CANADA_UNITS, lng)}</Fact>
        <Fact label={c('distance')}>{formatDistance(h.totalDistanceM, CANADA_UNITS, lng)}</Fact>
        <Fact label={w('trailers')}>{h.trailers.map((v) => v.unitNumber).join(', ') || w('none')}</Fact>
      </SimpleGrid>
      <Stack gap={4}>
        <Text fw={600}>{t('roadsideCa.totals')}</Text>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs" data-testid="roadside-ca-totals">
          {STATUSES.map((s) => (
            <Fact key={s} label={t(`duty.${s}`)}>
              {formatHours(day.totals[s])}
            </Fact>
          ))}
        </SimpleGrid>
      </Stack>
      <CycleTotals cycle={summary.cycle} timeZone={h.timeZone} lng={lng} />
    </Stack>
  );
}
