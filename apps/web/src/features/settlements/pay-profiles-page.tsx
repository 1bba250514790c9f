import { useMemo, useState } from 'react';
import { Anchor, Badge, Card, Drawer, Group, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { PayProfile } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatMoney } from '../../lib/money.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { PayProfileEditor } from './pay-profile-drawer.tsx';
import { PayTabs } from './pay-tabs.tsx';
import { money } from './settlement-format.ts';
import { usePayProfiles, useDrivers } from './settlements-api.ts';

// `/settlements/pay` (issue 70): every driver with their pay in one line; a driver opens their pay
// profile and their deductions and reimbursements in a drawer (`?driver=<id>` links to it).

/** The rates a profile pays, in a line ("$0.580/mi loaded · 72% of line haul · …"). */
export function ratesSummary(p: PayProfile): string {
  const parts = [
    p.loadedMileRate > 0 && `${formatMoney(p.loadedMileRate, p.currency, 3)}/mi loaded`,
    p.emptyMileRate > 0 && `${formatMoney(p.emptyMileRate, p.currency, 3)}/mi empty`,
    p.lineHaulPercent > 0 && `${p.lineHaulPercent}% of line haul`,
    p.flatPerLoad > 0 && `${money(p.flatPerLoad)} a load`,
    p.extraStopRate > 0 && `${money(p.extraStopRate)} an extra stop`,
    p.hourlyRate > 0 && `${money(p.hourlyRate)}/h ${p.hourlyBasis === 'ALL_ON_DUTY' ? 'on duty' : 'on duty not driving'}`,
    p.detentionRate > 0 && `detention ${money(p.detentionRate)}/h after ${p.detentionFreeMinutes} min`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'Nothing paid';
}

export default function PayProfilesPage() {
  const drivers = useDrivers();
  const profiles = usePayProfiles();
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState('');
  const open = params.get('driver');
  const setOpen = (id: string | null) => setParams((prev) => withParams(prev, { driver: id }), { replace: !id });
  const byDriver = useMemo(() => new Map((profiles.data ?? []).map((p) => [p.driverId, p])), [profiles.data]);
  const rows = (drivers.data?.content ?? []).filter((d) => `${d.firstName} ${d.lastName}`.toLowerCase().includes(filter.trim().toLowerCase()));
  const openName = (drivers.data?.content ?? []).find((d) => d.id === open);
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const payOf = (p: PayProfile | undefined) =>
    p ? (
      <Text size="sm">{ratesSummary(p)}</Text>
    ) : (
      <Group gap="xs">
        <Badge variant="light" color="gray" radius="sm">
          Not set
        </Badge>
        <Text size="xs" c="dimmed">
          paid nothing until set
        </Text>
      </Group>
    );
  return (
    <>
      <PageHeader
        title="Pay profiles"
        description="How each driver is paid: by loaded and empty distance, a share of line haul, per load and extra stop, by the hour from their own log, detention, and their share of a team load; and their deductions and reimbursements."
        breadcrumbs={[{ label: 'Driver pay' }, { label: 'Pay profiles' }]}
      />
      <PayTabs />
      <Stack gap="sm">
        <TextInput
          aria-label="Find a driver"
          placeholder="Find a driver"
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          maw={320}
        />
        <DataState
          isLoading={drivers.isLoading || profiles.isLoading}
          error={drivers.error ?? profiles.error}
          onRetry={() => void Promise.all([drivers.refetch(), profiles.refetch()])}
          isEmpty={rows.length === 0}
          emptyTitle={filter ? 'No driver matches' : 'No drivers yet'}
          emptyDescription={filter ? 'Try another name.' : 'Add drivers in Settings, then set how each is paid here.'}
        >
          {phone ? (
            <Stack gap="xs" role="list" aria-label="Pay profiles">
              {rows.map((d) => {
                const p = byDriver.get(d.id);
                return (
                  <Card key={d.id} withBorder radius="md" padding="sm" role="listitem">
                    <UnstyledButton onClick={() => setOpen(d.id)} w="100%">
                      <Group justify="space-between" wrap="nowrap" mb={4}>
                        <Text fw={600} size="sm" c="blue">
                          {d.firstName} {d.lastName}
                        </Text>
                        {p && (
                          <Text size="xs" c="dimmed">
                            team {p.teamSharePercent}%
                          </Text>
                        )}
                      </Group>
                      {payOf(p)}
                    </UnstyledButton>
                  </Card>
                );
              })}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Pay profiles">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Driver</Table.Th>
                    <Table.Th>Pay</Table.Th>
                    <Table.Th ta="right">Team share</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((d) => {
                    const p = byDriver.get(d.id);
                    return (
                      <Table.Tr key={d.id} onClick={() => setOpen(d.id)} style={{ cursor: 'pointer' }}>
                        <Table.Td>
                          <Anchor
                            component="button"
                            type="button"
                            size="sm"
                            fw={600}
                            ta="left"
                            onClick={(e) => {
                              e.stopPropagation();
                              setOpen(d.id);
                            }}
                          >
                            {d.firstName} {d.lastName}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{payOf(p)}</Table.Td>
                        <Table.Td ta="right">{p ? `${p.teamSharePercent}%` : '—'}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </DataState>
      </Stack>
      <Drawer
        opened={!!open}
        onClose={() => setOpen(null)}
        position="right"
        size="lg"
        title={openName ? `Pay of ${openName.firstName} ${openName.lastName}` : 'Pay'}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open && <PayProfileEditor driverId={open} />}
      </Drawer>
    </>
  );
}
