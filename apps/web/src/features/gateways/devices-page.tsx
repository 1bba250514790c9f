import { useMemo, useState } from 'react';
import { Button, Select, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Gateway } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useGateways } from './gateways-api.ts';
import { RegistryFilters, StatusBadge, useFilterParam, useFlagParam } from '../../components/registry-toolbar.tsx';
import { DeviceFormDrawer } from './device-form.tsx';
import { EngineBadge } from './engine-data.tsx';
import { RefusedDevices } from './refused-devices.tsx';

const ORG = '/settings/organization-settings';
const dash = (v: string | null | undefined) => (v ? v : '—');

const COLUMNS: TableColumn<Gateway>[] = [
  {
    key: 'name',
    header: 'Name',
    sortable: true,
    primary: true,
    render: (g) => (
      <Text fw={600} size="sm">
        {g.name}
      </Text>
    ),
  },
  {
    key: 'uniqueId',
    header: 'Unique id',
    sortable: true,
    render: (g) => (
      <Text ff="monospace" size="sm">
        {g.uniqueId}
      </Text>
    ),
  },
  { key: 'model', header: 'Model', render: (g) => dash(g.deviceModel?.name) },
  {
    key: 'protocol',
    header: 'Protocol',
    render: (g) => (
      <Text ff="monospace" size="sm">
        {dash(g.deviceModel?.protocol)}
      </Text>
    ),
  },
  { key: 'engine', header: 'Engine data', render: (g) => <EngineBadge data={g.engineData} /> },
  { key: 'asset', header: 'Vehicle', render: (g) => dash(g.asset?.unitNumber) },
  { key: 'lastSeenAt', header: 'Last packet', sortable: true, render: (g) => (g.lastSeenAt ? formatDateTime(g.lastSeenAt) : 'Never') },
  { key: 'firmware', header: 'Firmware', sortable: true, hiddenByDefault: true, render: (g) => dash(g.firmware) },
  { key: 'phone', header: 'SIM', hiddenByDefault: true, render: (g) => dash(g.phone) },
  { key: 'status', header: 'Status', sortable: true, render: (g) => <StatusBadge status={g.status} /> },
];

/** Devices (`.../devices`), and `.../device-add` or `?addDevice=true` with the add form open. */
export default function DevicesPage() {
  const navigate = useNavigate();
  const [state, setState, pageQuery] = useTableState({ sort: 'name,asc' });
  const [status, setStatus] = useFilterParam('status');
  const [group, setGroup] = useFilterParam('group');
  const [paired, setPaired] = useFilterParam('paired');
  const [offline, setOffline] = useFilterParam('offline');
  const [addFlag, setAddFlag] = useFlagParam('addDevice');
  const [adding, setAdding] = useState(addFlag || location.pathname.endsWith('/device-add'));
  const [prefill, setPrefill] = useState<{ uniqueId: string; name: string } | null>(null);
  const canCreate = useCan('GAT_CREATE');
  const query = useMemo(
    () => ({ ...pageQuery, status: status ?? undefined, group: group ?? undefined, paired: paired ?? undefined, offline: offline ?? undefined }),
    [pageQuery, status, group, paired, offline],
  );
  const list = useGateways(query);
  const addButton = canCreate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add device
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title="Devices"
        description="ELD and telematics devices, their vehicle and when they last reported."
        breadcrumbs={[{ label: 'Organization settings' }, { label: 'Devices' }]}
        actions={addButton}
      />
      {canCreate && (
        <RefusedDevices
          onAdd={(uniqueId, protocol) => {
            setPrefill({ uniqueId, name: `${protocol === 'traccar' ? 'Traccar' : protocol} ${uniqueId}` });
            setAdding(true);
          }}
        />
      )}
      <ServerTable
        id="devices"
        label="Devices"
        columns={COLUMNS}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(g) => g.id}
        onRowClick={(g) => navigate(`${ORG}/devices/${g.id}`)}
        searchPlaceholder="Name, unique id"
        emptyTitle={status || group || paired || offline ? 'No devices match the filters' : 'No devices yet'}
        emptyAction={status || group || paired || offline ? undefined : addButton}
        toolbar={
          <RegistryFilters
            status={status}
            onStatus={setStatus}
            group={group}
            onGroup={setGroup}
            exportPath="/gateways/export"
            query={query}
            fileName="devices.csv"
          >
            <Select
              aria-label="Filter by pairing"
              placeholder="Paired or not"
              data={[
                { value: 'true', label: 'Paired' },
                { value: 'false', label: 'Not paired' },
              ]}
              value={paired}
              onChange={setPaired}
              clearable
              style={{ flex: '1 1 120px', maxWidth: 160 }}
            />
            <Select
              aria-label="Filter by connection"
              placeholder="Online or not"
              data={[
                { value: 'false', label: 'Reported in 24 h' },
                { value: 'true', label: 'Offline over 24 h' },
              ]}
              value={offline}
              onChange={setOffline}
              clearable
              style={{ flex: '1 1 140px', maxWidth: 180 }}
            />
          </RegistryFilters>
        }
      />
      <DeviceFormDrawer
        device={null}
        prefill={prefill}
        opened={adding}
        onClose={() => {
          setAdding(false);
          setPrefill(null);
          if (addFlag) setAddFlag(false);
        }}
      />
    </>
  );
}
