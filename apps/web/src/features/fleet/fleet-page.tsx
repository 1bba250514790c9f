import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { FleetSection } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDate } from '../../lib/dates.ts';
import { useFleetOverview } from './fleet-api.ts';

function Count({ label, value, link }: { label: string; value: number; link: string | null }) {
  const inner = (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm">{label}</Text>
      <Text size="sm" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Group>
  );
  return link ? (
    <Anchor component={Link} to={link} underline="hover" c="inherit" data-testid={`fleet-count-${label}`}>
      {inner}
    </Anchor>
  ) : (
    inner
  );
}

function SectionCard({ s }: { s: FleetSection }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={`fleet-${s.key}`}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} fz="lg">
          {s.label}
        </Title>
        <Text fz={28} fw={700} lh={1}>
          {s.total}
        </Text>
      </Group>
      <Stack gap={6}>
        {s.byStatus.map((c) => (
          <Count key={c.key} label={c.label} value={c.value} link={c.link} />
        ))}
      </Stack>
      {s.unassigned.length > 0 && (
        <>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" mt="md" mb={6}>
            Missing a link
          </Text>
          <Stack gap={6}>
            {s.unassigned.map((c) => (
              <Count key={c.key} label={c.label} value={c.value} link={c.link} />
            ))}
          </Stack>
        </>
      )}
      <Anchor component={Link} to={s.link} size="sm" fw={600} mt="md">
        <Group gap={4} component="span">
          Open {s.label.toLowerCase()} <IconArrowRight size={14} aria-hidden />
        </Group>
      </Anchor>
    </Card>
  );
}

/** `/fleet`: the registry at a glance, counts by status and what is not linked yet. */
export default function FleetPage() {
  const q = useFleetOverview();
  const o = q.data;
  return (
    <>
      <PageHeader title="Fleet" description="Vehicles, trailers, drivers and devices: how many, in what state, and what still needs a driver or a device." />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!o && o.sections.length === 0}
        emptyTitle="Nothing to show"
        emptyDescription="Your role does not include the registry lists."
      >
        {o && (
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
              {o.sections.map((s) => (
                <SectionCard key={s.key} s={s} />
              ))}
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {o.sections.some((s) => s.key === 'vehicles') && (
                <Card withBorder radius="md" padding="md">
                  <Title order={2} fz="md" mb="sm">
                    Vehicles without driver or device
                  </Title>
                  {o.unassignedVehicles.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      Every active vehicle has a driver and a device.
                    </Text>
                  ) : (
                    <Table.ScrollContainer minWidth={280} mah={320}>
                      <Table verticalSpacing={6}>
                        <Table.Tbody>
                          {o.unassignedVehicles.map((v) => (
                            <Table.Tr key={v.id}>
                              <Table.Td>
                                <Anchor component={Link} to={`/settings/organization-settings/vehicles?open=${v.id}`} size="sm" fw={600}>
                                  Vehicle {v.unitNumber}
                                </Anchor>
                              </Table.Td>
                              <Table.Td ta="right">
                                <Group gap={4} justify="flex-end">
                                  {v.missing.map((m) => (
                                    <Badge key={m} variant="light" color="orange" style={{ color: 'var(--mantine-color-text)' }}>
                                      No {m}
                                    </Badge>
                                  ))}
                                </Group>
                              </Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    </Table.ScrollContainer>
                  )}
                </Card>
              )}
              {o.sections.some((s) => s.key === 'devices') && (
                <Card withBorder radius="md" padding="md">
                  <Title order={2} fz="md" mb="sm">
                    Devices not paired
                  </Title>
                  {o.unpairedDevices.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      Every device is paired with a vehicle.
                    </Text>
                  ) : (
                    <Stack gap={6}>
                      {o.unpairedDevices.map((d) => (
                        <Group key={d.id} justify="space-between" wrap="nowrap">
                          <Anchor component={Link} to={`/settings/organization-settings/devices/${d.id}`} size="sm" fw={600}>
                            {d.name}
                          </Anchor>
                          <Text size="xs" c="dimmed">
                            {d.lastSeenAt ? `Seen ${formatDate(d.lastSeenAt)}` : 'Never reported'}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  )}
                </Card>
              )}
            </SimpleGrid>
          </Stack>
        )}
      </DataState>
    </>
  );
}
