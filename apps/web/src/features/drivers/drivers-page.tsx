import { useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Divider, Drawer, Group, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, IconUserDollar } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Driver } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useSearchParams } from '../../lib/search-params.ts';
import { useCan } from '../../lib/registry-api.ts';
import { ImportDrawer } from '../../components/import-drawer.tsx';
import { ImportCsvButton, RegistryFilters, StatusBadge, useFilterParam, useFlagParam, useOpenParam } from '../../components/registry-toolbar.tsx';
import { DriverFormDrawer, rulesetLabel } from './driver-form.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { Fact } from '../../components/fact.tsx';
import { deleteDriver, useDriver, useDriverMutation, useDrivers, useTerminalChoices } from './drivers-api.ts';

const name = (d: Pick<Driver, 'firstName' | 'lastName'>) => `${d.firstName} ${d.lastName}`;
const dash = (v: string | null | undefined) => (v ? v : '—');

const COLUMNS: TableColumn<Driver>[] = [
  {
    key: 'lastName',
    header: 'Name',
    sortable: true,
    primary: true,
    render: (d) => (
      <Text fw={600} size="sm">
        {name(d)}
      </Text>
    ),
  },
  { key: 'licenseNumber', header: 'Licence', sortable: true, render: (d) => (d.licenseNumber ? `${d.licenseNumber} (${d.licenseState ?? '—'})` : '—') },
  {
    key: 'licenseExpiry',
    header: 'Licence expiry',
    sortable: true,
    hiddenByDefault: true,
    render: (d) => (d.licenseExpiry ? formatDate(`${d.licenseExpiry}T12:00:00`) : '—'),
  },
  { key: 'employeeId', header: 'Employee id', sortable: true, render: (d) => dash(d.employeeId) },
  { key: 'vehicle', header: 'Vehicle', render: (d) => dash(d.vehicle?.unitNumber) },
  { key: 'homeTerminal', header: 'Home terminal', render: (d) => <TerminalName id={d.homeTerminalId} /> },
  { key: 'ruleset', header: 'Ruleset', hiddenByDefault: true, render: (d) => rulesetLabel(d.ruleset) },
  { key: 'email', header: 'E-mail', sortable: true, hiddenByDefault: true, render: (d) => dash(d.email) },
  { key: 'phone', header: 'Phone', hiddenByDefault: true, render: (d) => dash(d.phone) },
  { key: 'groups', header: 'Groups', hiddenByDefault: true, render: (d) => dash(d.groups.map((g) => g.name).join(', ')) },
  { key: 'status', header: 'Status', sortable: true, render: (d) => <StatusBadge status={d.status} /> },
];

/** The name of a home terminal (issue 46), from the organization's terminals read once for the page. */
function TerminalName({ id }: { id: string | null }) {
  const terminals = useTerminalChoices();
  if (!id) return <>—</>;
  return <>{terminals.data?.content.find((x) => x.id === id)?.name ?? '…'}</>;
}

/** What the app composes into the drivers screen from other features (docs/style.md §10). */
export interface DriversPageProps {
  /** The driver's qualification file (issue 71), a tab of the driver's detail; none: no tab. */
  qualification?: ComponentType<{ driverId: string; driverName: string }>;
  /** More actions in the list's header (issue 71: every qualification file as one ZIP); none: none. */
  listActions?: ComponentType;
}

/** All drivers (`.../all-drivers`), and `.../driver-add` or `?addDriver=true` with the add form open. */
export default function DriversPage({ qualification, listActions: ListActions }: DriversPageProps = {}) {
  const [state, setState, pageQuery] = useTableState({ sort: 'lastName,asc' });
  const [status, setStatus] = useFilterParam('status');
  const [group, setGroup] = useFilterParam('group');
  const [addFlag, setAddFlag] = useFlagParam('addDriver');
  // A vehicle's unknown card (issue 73) opens the add form with the card filled in.
  const [params] = useSearchParams();
  const newCard = addFlag ? params.get('cardNumber') : null;
  const [adding, setAdding] = useState(addFlag || location.pathname.endsWith('/driver-add'));
  const [editing, setEditing] = useState<Driver | null>(null);
  const [detailId, setDetailId] = useOpenParam();
  const [importing, setImporting] = useState(false);
  const canCreate = useCan('DRIVER_CREATE');
  const query = useMemo(() => ({ ...pageQuery, status: status ?? undefined, group: group ?? undefined }), [pageQuery, status, group]);
  const list = useDrivers(query);
  const addButton = canCreate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add driver
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title="All drivers"
        description="Drivers, their licences, hours-of-service rules and vehicles."
        breadcrumbs={[{ label: 'Organization settings' }, { label: 'All drivers' }]}
        actions={
          <>
            {ListActions && <ListActions />}
            {canCreate && <ImportCsvButton onClick={() => setImporting(true)} />}
            {addButton}
          </>
        }
      />
      <ServerTable
        id="drivers"
        label="Drivers"
        columns={COLUMNS}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(d) => d.id}
        onRowClick={(d) => setDetailId(d.id)}
        searchPlaceholder="Name, licence, employee id, e-mail"
        emptyTitle={status || group ? 'No drivers match the filters' : 'No drivers yet'}
        emptyDescription={canCreate ? 'Add your drivers one by one or import a CSV.' : undefined}
        emptyAction={status || group ? undefined : addButton}
        toolbar={
          <RegistryFilters
            status={status}
            onStatus={setStatus}
            group={group}
            onGroup={setGroup}
            exportPath="/drivers/export"
            query={query}
            fileName="drivers.csv"
          />
        }
      />
      <DriverFormDrawer
        driver={editing}
        cardNumber={newCard}
        opened={adding || !!editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
          if (addFlag) setAddFlag(false);
        }}
      />
      <DriverDetailDrawer
        id={detailId}
        qualification={qualification}
        onClose={() => setDetailId(null)}
        onEdit={(d) => {
          setDetailId(null);
          setEditing(d);
        }}
      />
      <ImportDrawer kind="drivers" opened={importing} onClose={() => setImporting(false)} />
    </>
  );
}

function DriverDetailDrawer({
  id,
  onClose,
  onEdit,
  qualification: QualificationSlot,
}: {
  id: string | null;
  onClose: () => void;
  onEdit: (d: Driver) => void;
  qualification?: DriversPageProps['qualification'];
}) {
  const { t: words } = useTranslation();
  const detail = useDriver(id);
  const d = detail.data;
  const canUpdate = useCan('DRIVER_UPDATE');
  const canDelete = useCan('DRIVER_DELETE');
  // Issue 70: the driver's pay profile and deductions live with the settlements.
  const canSeePay = useCan('SETTLEMENT_LIST');
  const remove = useDriverMutation(deleteDriver);
  // Issue 71: the qualification file is compliance's to show.
  const Qualification = useCan('COMPLIANCE_LIST') ? QualificationSlot : undefined;
  // A link may open the drawer on its qualification file (`?open=<id>&tab=qualification`, issue 71).
  const [params] = useSearchParams();
  const [tab, setTab] = useState(params.get('tab') === 'qualification' ? 'qualification' : 'details');
  const exemptions = d
    ? [
        d.shortHaul150 && 'Short-haul 150 air-miles',
        d.sixteenHour && '16-hour exception',
        d.personalConveyanceAllowed && 'Personal conveyance',
        d.yardMovesAllowed && 'Yard moves',
        d.oilfield && 'Oilfield operations',
      ].filter(Boolean)
    : [];
  const details = d && (
    <Stack gap="lg">
      <Group justify="space-between">
        <StatusBadge status={d.status} />
        <Group gap="xs">
          {canSeePay && (
            <Button size="xs" variant="default" leftSection={<IconUserDollar size={14} />} component={Link} to={`/settlements/pay?driver=${d.id}`}>
              Pay
            </Button>
          )}
          {canUpdate && (
            <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={() => onEdit(d)}>
              Edit
            </Button>
          )}
          {canDelete && (
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={async () => {
                const ok = await confirmAction({
                  title: `Delete ${name(d)}?`,
                  message:
                    'The driver is deleted when nothing references them; when logs or assignments do, they are deactivated instead and kept for the records.',
                });
                if (!ok) return;
                try {
                  const r = await remove.mutateAsync(d.id);
                  notify({ type: r.result === 'DELETED' ? 'success' : 'alert', title: r.message, timeout: 6000 });
                  onClose();
                } catch {
                  // toast shown
                }
              }}
            >
              Delete
            </Button>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Fact label="Licence">{d.licenseNumber}</Fact>
        <Fact label="State / class">{[d.licenseState, d.licenseClass === 'NON_CDL' ? 'Non-CDL' : d.licenseClass].filter(Boolean).join(' · ')}</Fact>
        <Fact label="Expires">{d.licenseExpiry ? formatDate(`${d.licenseExpiry}T12:00:00`) : null}</Fact>
        <Fact label="E-mail">{d.email}</Fact>
        <Fact label="Phone">{d.phone}</Fact>
        <Fact label="Employee id">{d.employeeId}</Fact>
        <Fact label={words('driverCard.label')}>{d.cardNumber}</Fact>
        <Fact label="Home terminal">{d.homeTerminalId ? <TerminalName id={d.homeTerminalId} /> : 'The main office'}</Fact>
        <Fact label="Home terminal zone">{d.homeTimeZone}</Fact>
        <Fact label="Ruleset">{rulesetLabel(d.ruleset)}</Fact>
        <Fact label="Vehicle">{d.vehicle?.unitNumber}</Fact>
        <Fact label="Sign-in account">{d.user?.email}</Fact>
        <Fact label="ELD">{d.eldExempt ? `Exempt: ${d.eldExemptReason ?? ''}` : 'Required'}</Fact>
      </SimpleGrid>
      <Group gap="xs">
        {exemptions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No exemptions.
          </Text>
        ) : (
          exemptions.map((e) => (
            <Badge key={String(e)} variant="light" radius="sm">
              {e}
            </Badge>
          ))
        )}
      </Group>
      {d.notes && <Fact label="Notes">{d.notes}</Fact>}
      <Divider label="Vehicle history" labelPosition="left" />
      {d.vehicleHistory.length === 0 ? (
        <Text size="sm" c="dimmed">
          Never assigned to a vehicle.
        </Text>
      ) : (
        d.vehicleHistory.map((h, i) => (
          <Group key={i} justify="space-between">
            <Text size="sm">{h.asset.unitNumber}</Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(h.from)} – {h.to ? formatDateTime(h.to) : 'now'}
            </Text>
          </Group>
        ))
      )}
    </Stack>
  );
  return (
    <Drawer opened={!!id} onClose={onClose} position="right" size={Qualification && tab === 'qualification' ? 'xl' : 'lg'} title={d ? name(d) : 'Loading'}>
      <DataState isLoading={detail.isLoading} error={detail.error} onRetry={() => void detail.refetch()}>
        {d &&
          (Qualification ? (
            <Tabs value={tab} onChange={(v) => setTab(v ?? 'details')} keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="details">Details</Tabs.Tab>
                <Tabs.Tab value="qualification">Qualification file</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="details">{details}</Tabs.Panel>
              <Tabs.Panel value="qualification">
                <Qualification driverId={d.id} driverName={name(d)} />
              </Tabs.Panel>
            </Tabs>
          ) : (
            details
          ))}
      </DataState>
    </Drawer>
  );
}
