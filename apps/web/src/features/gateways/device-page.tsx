import { useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconHistory, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import type { Asset } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { StatusBadge } from '../../components/registry-toolbar.tsx';
import { PickAndRun } from '../../components/pick-and-run.tsx';
import { DeviceFormDrawer, IngestTokenModal } from './device-form.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { Fact } from '../../components/fact.tsx';
import { PairDialog } from './pair-dialog.tsx';
import { EngineAttributes, EngineBadge } from './engine-data.tsx';
import { RefusedFixes } from './refused-fixes.tsx';
import { DeviceCommands } from './device-commands.tsx';
import { UnlinkButton } from '../../components/unlink-button.tsx';
import { deleteGateway, pairGateway, regenerateToken, unpairGateway, useGateway, useGatewayMutation } from './gateways-api.ts';

const ORG = '/settings/organization-settings';

/** `.../devices/{id}`: model, pairing (with pair/unpair), pairing history, last seen, ingest token. */
export default function DevicePage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const detail = useGateway(id);
  const g = detail.data;
  const canUpdate = useCan('GAT_UPDATE');
  const canDelete = useCan('GAT_DELETE');
  const canPair = useCan('GAT_PAIR');
  const canCommand = useCan('GAT_COMMAND');
  const [editing, setEditing] = useState(false);
  const [token, setToken] = useState<{ name: string; token: string } | null>(null);
  const call = useGatewayMutation((run: () => Promise<unknown>) => run());
  const [pairing, setPairing] = useState<{ assetId: string; label: string } | null>(null);
  const regenerate = useGatewayMutation(regenerateToken);
  const remove = useGatewayMutation(deleteGateway);

  return (
    <>
      <PageHeader
        title={g?.name ?? 'Device'}
        description={
          g ? (
            <Text span ff="monospace" size="sm">
              {g.uniqueId}
            </Text>
          ) : undefined
        }
        breadcrumbs={[{ label: 'Devices', to: `${ORG}/devices` }, { label: g?.name ?? 'Device' }]}
        actions={
          g && (
            <>
              {canUpdate && (
                <Button
                  variant="default"
                  leftSection={<IconKey size={16} />}
                  onClick={async () => {
                    if (
                      await confirmAction({
                        title: 'Regenerate ingest token?',
                        message: 'The current token stops working at once; the device must be given the new one.',
                        confirmLabel: 'Regenerate',
                      })
                    ) {
                      try {
                        const r = await regenerate.mutateAsync(g.id);
                        setToken({ name: g.name, token: r.ingestToken });
                      } catch {
                        // toast shown
                      }
                    }
                  }}
                >
                  New ingest token
                </Button>
              )}
              {canUpdate && (
                <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
                  Edit
                </Button>
              )}
              {canDelete && (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={async () => {
                    if (
                      !(await confirmAction({
                        title: `Delete ${g.name}?`,
                        message: 'Deleted when it never reported or paired; otherwise deactivated and kept for the records.',
                      }))
                    )
                      return;
                    try {
                      const r = await remove.mutateAsync(g.id);
                      notify({ type: 'success', title: r.message, timeout: 4000 });
                      navigate(`${ORG}/devices`);
                    } catch {
                      // toast shown
                    }
                  }}
                >
                  Delete
                </Button>
              )}
            </>
          )
        }
      />
      <DataState isLoading={detail.isLoading} error={detail.error} onRetry={() => void detail.refetch()}>
        {g && (
          <Stack gap="md">
            <Card withBorder radius="md">
              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
                <Fact label="Status">
                  <StatusBadge status={g.status} />
                </Fact>
                <Fact label="Model">
                  {g.deviceModel ? `${g.deviceModel.name}${g.deviceModel.manufacturer ? ` (${g.deviceModel.manufacturer})` : ''}` : null}
                </Fact>
                <Fact label="Protocol">{g.deviceModel?.protocol}</Fact>
                <Fact label="Unique id / IMEI">
                  <Text span ff="monospace" size="sm">
                    {g.uniqueId}
                  </Text>
                </Fact>
                <Fact label="Last packet">{g.lastSeenAt ? formatDateTime(g.lastSeenAt) : 'Never'}</Fact>
                <Fact label="SIM">{g.phone}</Fact>
                <Fact label="Firmware">{g.firmware}</Fact>
                <Fact label="Ingest token">{g.hasIngestToken ? 'Set' : 'None'}</Fact>
                <Fact label="Groups">{g.groups.map((x) => x.name).join(', ')}</Fact>
                <Fact label="Fix times">{g.useReceivedTime ? 'Time received' : "Device's clock"}</Fact>
              </SimpleGrid>
              {g.notes && (
                <Text size="sm" mt="md">
                  {g.notes}
                </Text>
              )}
            </Card>
            <Card component="section" withBorder radius="md" aria-label="Engine data">
              <Group justify="space-between" mb="xs">
                <Title order={2} fz="md">
                  Engine data
                </Title>
                <EngineBadge data={g.engineData} />
              </Group>
              <Text size="sm" c="dimmed" mb="sm">
                {g.engineData.lastPositionAt
                  ? `From the device's newest positions, up to ${formatDateTime(g.engineData.lastPositionAt)}. An ELD needs the engine's ignition, total mileage and total hours.`
                  : 'No position received yet.'}
              </Text>
              {g.engineData.lastPositionAt && <EngineAttributes data={g.engineData} />}
            </Card>
            <DeviceCommands gatewayId={g.id} protocol={g.deviceModel?.protocol ?? null} canSend={canCommand && g.status === 'ACTIVE'} />
            <RefusedFixes gatewayId={g.id} />
            <Card withBorder radius="md">
              <Title order={2} fz="md" mb="sm">
                Vehicle
              </Title>
              {g.asset ? (
                <Group justify="space-between">
                  <Badge size="lg" variant="light" radius="sm">
                    {g.asset.unitNumber}
                  </Badge>
                  {canPair && (
                    <Group gap="xs">
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconHistory size={14} />}
                        onClick={() => g.asset && setPairing({ assetId: g.asset.id, label: g.asset.unitNumber })}
                      >
                        Earlier positions
                      </Button>
                      <UnlinkButton
                        confirm={{ title: 'Unpair device?', message: `${g.name} will stop reporting for ${g.asset?.unitNumber}.`, confirmLabel: 'Unpair' }}
                        done="Device unpaired"
                        run={() => call.mutateAsync(() => unpairGateway(g.id))}
                      >
                        Unpair
                      </UnlinkButton>
                    </Group>
                  )}
                </Group>
              ) : (
                <Stack gap="sm">
                  <Text size="sm" c="dimmed">
                    Not paired with a vehicle.
                  </Text>
                  {canPair && g.status === 'ACTIVE' && (
                    <PickAndRun
                      label="Pair with vehicle"
                      resource="assets"
                      toOption={(a: Asset) => ({ value: a.id, label: `${a.unitNumber}${a.device ? ` (has ${a.device.name})` : ''}` })}
                      extraQuery={{ type: 'VEHICLE', status: 'ACTIVE', sort: 'unitNumber,asc' }}
                      button="Pair"
                      onRun={async (assetId, label) => setPairing({ assetId, label })}
                    />
                  )}
                </Stack>
              )}
            </Card>
            <Card withBorder radius="md">
              <Title order={2} fz="md" mb="sm">
                Pairing history
              </Title>
              {g.pairingHistory.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Never paired.
                </Text>
              ) : (
                <Table aria-label="Pairing history">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Vehicle</Table.Th>
                      <Table.Th>From</Table.Th>
                      <Table.Th>To</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {g.pairingHistory.map((h, i) => (
                      <Table.Tr key={i}>
                        <Table.Td>{h.asset.unitNumber}</Table.Td>
                        <Table.Td>{formatDateTime(h.from)}</Table.Td>
                        <Table.Td>{h.to ? formatDateTime(h.to) : 'now'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
          </Stack>
        )}
      </DataState>
      {g && pairing && (
        <PairDialog
          device={g}
          vehicle={pairing.label}
          onClose={() => setPairing(null)}
          onPair={async (from) => {
            await call.mutateAsync(() => pairGateway(g.id, pairing.assetId, from ? { from } : undefined));
            notify({ type: 'success', title: 'Device paired', timeout: 4000 });
          }}
        />
      )}
      <DeviceFormDrawer device={g ?? null} opened={editing} onClose={() => setEditing(false)} />
      <IngestTokenModal value={token} onClose={() => setToken(null)} />
    </>
  );
}
