import { useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Card, SegmentedControl, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import type { Asset, Driver, GroupDetail, User } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useCan } from '../../lib/registry-api.ts';
import { PickAndRun } from '../../components/pick-and-run.tsx';
import { GROUPS_PATH } from './groups-page.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { addAsset, addMember, removeAsset, removeMember, useGroup, useGroupMutation } from './groups-api.ts';

/** `.../groups/{id}/members` and `.../groups/{id}/assets`: one group, two tabs. */
export function GroupDetailPage({ tab }: { tab: 'members' | 'assets' }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const detail = useGroup(id);
  const g = detail.data;
  return (
    <>
      <PageHeader
        title={g?.name ?? 'Group'}
        description={g?.description ?? undefined}
        breadcrumbs={[{ label: 'Groups', to: GROUPS_PATH }, { label: g?.name ?? 'Group' }]}
      />
      <Tabs value={tab} onChange={(v) => v && navigate(`${GROUPS_PATH}/${id}/${v}`, { replace: true })} mb="md">
        <Tabs.List>
          <Tabs.Tab value="members">
            Members{' '}
            {g && (
              <Badge size="xs" variant="light" ml={4}>
                {g.members.length}
              </Badge>
            )}
          </Tabs.Tab>
          <Tabs.Tab value="assets">
            Assets{' '}
            {g && (
              <Badge size="xs" variant="light" ml={4}>
                {g.assets.length}
              </Badge>
            )}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <DataState isLoading={detail.isLoading} error={detail.error} onRetry={() => void detail.refetch()}>
        {g && (tab === 'members' ? <Members group={g} /> : <Assets group={g} />)}
      </DataState>
    </>
  );
}

function useGroupCall() {
  return useGroupMutation((run: () => Promise<unknown>) => run());
}

function ListCard({ empty, rows, label }: { empty: string; rows: { key: string; cells: ReactNode[] }[]; label: string }) {
  return (
    <Card withBorder radius="md" p={0}>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm" p="md">
          {empty}
        </Text>
      ) : (
        <Table aria-label={label} verticalSpacing="sm">
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                {r.cells.map((c, i) => (
                  <Table.Td key={i} ta={i === r.cells.length - 1 ? 'right' : undefined}>
                    {c}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

const done = (m: string) => (): void => {
  notify({ type: 'success', title: m, timeout: 4000 });
};

function Members({ group: g }: { group: GroupDetail }) {
  const canUpdate = useCan('GROUP_UPDATE');
  const canListUsers = useCan('USER_LIST');
  const [kind, setKind] = useState<'DRIVER' | 'USER'>('DRIVER');
  const call = useGroupCall();
  const ids = g.members.map((m) => m.id);
  return (
    <Stack gap="md">
      {canUpdate && (
        <Card withBorder radius="md">
          <Stack gap="xs">
            {canListUsers && (
              <SegmentedControl
                aria-label="Member type"
                value={kind}
                onChange={(v) => setKind(v as 'DRIVER' | 'USER')}
                data={[
                  { value: 'DRIVER', label: 'Drivers' },
                  { value: 'USER', label: 'Users' },
                ]}
                w="fit-content"
              />
            )}
            {kind === 'DRIVER' ? (
              <PickAndRun
                key="d"
                label="Add a driver"
                resource="drivers"
                toOption={(d: Driver) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` })}
                extraQuery={{ sort: 'lastName,asc' }}
                exclude={ids}
                button="Add"
                onRun={(id) => call.mutateAsync(() => addMember(g.id, 'DRIVER', id)).then(done('Member added'), () => undefined)}
              />
            ) : (
              <PickAndRun
                key="u"
                label="Add a user"
                resource="users"
                toOption={(u: User) => ({ value: u.id, label: `${u.firstName ?? ''} ${u.lastName ?? ''} · ${u.email}` })}
                extraQuery={{}}
                exclude={ids}
                button="Add"
                onRun={(id) => call.mutateAsync(() => addMember(g.id, 'USER', id)).then(done('Member added'), () => undefined)}
              />
            )}
          </Stack>
        </Card>
      )}
      <ListCard
        label="Members"
        empty="No members yet."
        rows={g.members.map((m) => ({
          key: `${m.type}-${m.id}`,
          cells: [
            <Text key="n" size="sm" fw={600}>
              {m.name}
            </Text>,
            <Badge key="t" variant="light" color={m.type === 'DRIVER' ? 'blue' : 'grape'} radius="sm">
              {m.type === 'DRIVER' ? 'Driver' : 'User'}
            </Badge>,
            canUpdate ? (
              <RemoveButton
                key="r"
                label={`Remove ${m.name}`}
                onClick={async () => {
                  if (await confirmAction({ title: `Remove ${m.name}?`, message: `${m.name} leaves the group ${g.name}.`, confirmLabel: 'Remove' }))
                    await call.mutateAsync(() => removeMember(g.id, m.id)).then(done('Member removed'), () => undefined);
                }}
              />
            ) : null,
          ],
        }))}
      />
    </Stack>
  );
}

function Assets({ group: g }: { group: GroupDetail }) {
  const canUpdate = useCan('GROUP_UPDATE');
  const [type, setType] = useState<'VEHICLE' | 'TRAILER'>('VEHICLE');
  const call = useGroupCall();
  return (
    <Stack gap="md">
      {canUpdate && (
        <Card withBorder radius="md">
          <Stack gap="xs">
            <SegmentedControl
              aria-label="Asset type"
              value={type}
              onChange={(v) => setType(v as 'VEHICLE' | 'TRAILER')}
              data={[
                { value: 'VEHICLE', label: 'Vehicles' },
                { value: 'TRAILER', label: 'Trailers' },
              ]}
              w="fit-content"
            />
            <PickAndRun
              key={type}
              label={type === 'VEHICLE' ? 'Add a vehicle' : 'Add a trailer'}
              resource="assets"
              toOption={(a: Asset) => ({ value: a.id, label: a.unitNumber })}
              extraQuery={{ type, sort: 'unitNumber,asc' }}
              exclude={g.assets.map((a) => a.id)}
              button="Add"
              onRun={(id) => call.mutateAsync(() => addAsset(g.id, id)).then(done('Asset added'), () => undefined)}
            />
          </Stack>
        </Card>
      )}
      <ListCard
        label="Assets"
        empty="No vehicles or trailers yet."
        rows={g.assets.map((a) => ({
          key: a.id,
          cells: [
            <Text key="n" size="sm" fw={600}>
              {a.unitNumber}
            </Text>,
            <Badge key="t" variant="light" color={a.type === 'VEHICLE' ? 'blue' : 'orange'} radius="sm">
              {a.type === 'VEHICLE' ? 'Vehicle' : 'Trailer'}
            </Badge>,
            canUpdate ? (
              <RemoveButton
                key="r"
                label={`Remove ${a.unitNumber}`}
                onClick={async () => {
                  if (await confirmAction({ title: `Remove ${a.unitNumber}?`, message: `${a.unitNumber} leaves the group ${g.name}.`, confirmLabel: 'Remove' }))
                    await call.mutateAsync(() => removeAsset(g.id, a.id)).then(done('Asset removed'), () => undefined);
                }}
              />
            ) : null,
          ],
        }))}
      />
    </Stack>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
