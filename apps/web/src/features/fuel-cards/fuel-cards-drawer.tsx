import { useState } from 'react';
import { ActionIcon, Button, Drawer, Group, Modal, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Asset, Driver } from '@fleet/api-contract';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { usePagedList } from '../../lib/registry-api.ts';
import { assignCard, unassignCard, useFuelCardMutation, useFuelCards } from './fuel-cards-api.ts';

// Fuel cards given to a vehicle or a driver (issue 68): a transaction that names only its card finds
// its truck through them, and one that found none finds it when its card is given.

const NO_ASSETS: Asset[] = [];
const NO_DRIVERS: Driver[] = [];

/** Gives card `last4` to a vehicle or a driver; its transactions without a truck are checked again. */
export function AssignCardModal({ last4, onClose }: { last4: string; onClose: () => void }) {
  const [holder, setHolder] = useState<'vehicle' | 'driver'>('vehicle');
  const [id, setId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const vehicles = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' }).data?.content ?? NO_ASSETS;
  const drivers = usePagedList<Driver>('drivers', { size: 500, sort: 'lastName,asc' }).data?.content ?? NO_DRIVERS;
  const save = useFuelCardMutation(assignCard);
  const data =
    holder === 'vehicle'
      ? vehicles.map((v) => ({ value: v.id, label: v.unitNumber }))
      : drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }));
  return (
    <Modal opened onClose={onClose} title={`Give card …${last4}`}>
      <Stack gap="sm">
        <Text size="sm">Its transactions without a truck find one, become IFTA purchases and are checked against that truck.</Text>
        <SegmentedControl
          aria-label="Give the card to"
          value={holder}
          onChange={(v) => {
            setHolder(v as 'vehicle' | 'driver');
            setId(null);
          }}
          data={[
            { value: 'vehicle', label: 'A vehicle' },
            { value: 'driver', label: 'A driver' },
          ]}
        />
        <Select label={holder === 'vehicle' ? 'Vehicle' : 'Driver'} data={data} value={id} onChange={setId} searchable />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!id}
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { last4, body: holder === 'vehicle' ? { vehicleId: id } : { driverId: id } },
                {
                  onSuccess: (c) => {
                    notify({ type: 'success', title: `Card …${last4} given to ${c.vehicleUnitNumber ?? c.driverName ?? ''}`, timeout: 4000 });
                    onClose();
                  },
                  onError: setError,
                },
              )
            }
          >
            Give card
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The organization's cards and who holds each; a card can be taken back. */
export function FuelCardsDrawer({ opened, onClose, canEdit }: { opened: boolean; onClose: () => void; canEdit: boolean }) {
  const cards = useFuelCards(opened).data?.content ?? [];
  const remove = useFuelCardMutation(unassignCard);
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title="Fuel cards">
      {cards.length === 0 ? (
        <Text size="sm" c="dimmed">
          No card is given to a vehicle or a driver yet. Give one from a transaction marked No vehicle.
        </Text>
      ) : (
        <Table aria-label="Fuel cards" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Card</Table.Th>
              <Table.Th>Held by</Table.Th>
              {canEdit && <Table.Th aria-label="Actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cards.map((c) => (
              <Table.Tr key={c.cardNumberLast4}>
                <Table.Td ff="monospace">…{c.cardNumberLast4}</Table.Td>
                <Table.Td>{c.vehicleUnitNumber ? `Vehicle ${c.vehicleUnitNumber}` : c.driverName ? `Driver ${c.driverName}` : '—'}</Table.Td>
                {canEdit && (
                  <Table.Td ta="right">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Take back card ${c.cardNumberLast4}`}
                      onClick={() => remove.mutate(c.cardNumberLast4)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Drawer>
  );
}
