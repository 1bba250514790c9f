import { useMemo, useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { FUEL_TYPES, TRAILER_TYPES, type Asset, type AssetListItem, type AssetType } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { useTableState } from '../../lib/table-state.ts';
import { formatDate } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useAssets } from './assets-api.ts';
import { ImportCsvButton, RegistryFilters, StatusBadge, useFilterParam, useFlagParam, useOpenParam } from '../../components/registry-toolbar.tsx';
import { ImportDrawer } from '../../components/import-drawer.tsx';
import { AssetFormDrawer } from './asset-form.tsx';
import { AssetDetailDrawer, type AssetComplianceSlot, type AssetTemperaturesSlot } from './asset-detail.tsx';
import { formatLength, formatOdometer, useUnits, type UnitSystem } from '../../lib/units.ts';
import { ODOMETER_SOURCE_WORDS } from './odometer-words.ts';

const fuelLabel = new Map<string, string>(FUEL_TYPES);
const trailerLabel = new Map<string, string>(TRAILER_TYPES);
const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : String(v));

function columnsFor(type: AssetType, units: UnitSystem): TableColumn<AssetListItem>[] {
  const common: TableColumn<AssetListItem>[] = [
    {
      key: 'unitNumber',
      header: 'Unit',
      sortable: true,
      primary: true,
      render: (a) => (
        <Text fw={600} size="sm">
          {a.unitNumber}
        </Text>
      ),
    },
    {
      key: 'vin',
      header: 'VIN',
      sortable: true,
      render: (a) => (
        <Text ff="monospace" size="sm">
          {dash(a.vin)}
        </Text>
      ),
    },
  ];
  const tail: TableColumn<AssetListItem>[] = [
    { key: 'plate', header: 'Plate', sortable: true, render: (a) => (a.plate ? `${a.plate}${a.plateState ? ` (${a.plateState})` : ''}` : '—') },
    { key: 'status', header: 'Status', sortable: true, render: (a) => <StatusBadge status={a.status} /> },
    { key: 'groups', header: 'Groups', hiddenByDefault: true, render: (a) => dash(a.groups.map((g) => g.name).join(', ')) },
    { key: 'createdAt', header: 'Added', sortable: true, hiddenByDefault: true, render: (a) => formatDate(a.createdAt) },
  ];
  if (type === 'VEHICLE') {
    return [
      ...common,
      { key: 'make', header: 'Make / model', sortable: true, render: (a) => dash([a.make, a.model, a.year].filter(Boolean).join(' ')) },
      { key: 'driver', header: 'Driver', render: (a) => (a.currentDriver ? `${a.currentDriver.firstName} ${a.currentDriver.lastName}` : '—') },
      { key: 'device', header: 'Device', render: (a) => dash(a.device?.name) },
      { key: 'trailers', header: 'Trailers', hiddenByDefault: true, render: (a) => dash(a.trailers.map((t) => t.unitNumber).join(', ')) },
      { key: 'fuelType', header: 'Fuel', hiddenByDefault: true, render: (a) => dash(a.fuelType ? fuelLabel.get(a.fuelType) : null) },
      // The vehicle's odometer now, as its page, log and schedules read it (issue 66): the engine's or the device's, else the one entered.
      {
        key: 'odometer',
        header: 'Odometer',
        hiddenByDefault: true,
        render: (a) =>
          a.currentOdometer ? (
            <span data-testid="list-odometer" data-source={a.currentOdometer.source}>
              {formatOdometer(a.currentOdometer.km, units)}
              <Text span size="xs" c="dimmed">
                {' '}
                · {ODOMETER_SOURCE_WORDS[a.currentOdometer.source]}
              </Text>
            </span>
          ) : (
            '—'
          ),
      },
      ...tail,
    ];
  }
  return [
    ...common,
    { key: 'trailerType', header: 'Type', render: (a) => dash(a.trailerType ? trailerLabel.get(a.trailerType) : null) },
    { key: 'lengthM', header: 'Length', hiddenByDefault: true, render: (a) => formatLength(a.lengthM, units) },
    { key: 'attachedTo', header: 'Attached to', render: (a) => dash(a.attachedTo?.unitNumber) },
    ...tail,
  ];
}

/** Vehicles or trailers: the server-paged list, its filters, export, import, add form and detail. */
export function AssetsListPage({
  type,
  compliance,
  temperatures,
}: {
  type: AssetType;
  compliance?: AssetComplianceSlot;
  temperatures?: AssetTemperaturesSlot;
}) {
  const vehicle = type === 'VEHICLE';
  const title = vehicle ? 'Vehicles' : 'Trailers';
  const [state, setState, pageQuery] = useTableState({ sort: 'unitNumber,asc' });
  const [status, setStatus] = useFilterParam('status');
  const [group, setGroup] = useFilterParam('group');
  const [addFlag, setAddFlag] = useFlagParam(vehicle ? 'addVehicle' : 'addTrailer');
  const addRoute = location.pathname.endsWith(vehicle ? '/vehicle-add' : '/trailer-add');
  const [adding, setAdding] = useState(addFlag || addRoute);
  const [editing, setEditing] = useState<Asset | null>(null);
  const [detailId, setDetailId] = useOpenParam();
  const [importing, setImporting] = useState(false);
  const canCreate = useCan('ASSET_CREATE');
  const query = useMemo(() => ({ ...pageQuery, type, status: status ?? undefined, group: group ?? undefined }), [pageQuery, type, status, group]);
  const list = useAssets(query);
  const units = useUnits();
  const columns = useMemo(() => columnsFor(type, units), [type, units]);
  const closeAdd = () => {
    setAdding(false);
    setEditing(null);
    if (addFlag) setAddFlag(false);
  };
  const addButton = canCreate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add {vehicle ? 'vehicle' : 'trailer'}
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title={title}
        description={vehicle ? 'Power units: their driver, trailers and paired device.' : 'Trailers and the vehicle pulling each one.'}
        breadcrumbs={[{ label: 'Organization settings' }, { label: title }]}
        actions={
          <>
            {canCreate && <ImportCsvButton onClick={() => setImporting(true)} />}
            {addButton}
          </>
        }
      />
      <ServerTable
        id={vehicle ? 'vehicles' : 'trailers'}
        label={title}
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(a) => a.id}
        onRowClick={(a) => setDetailId(a.id)}
        searchPlaceholder={vehicle ? 'Unit, VIN, plate, make' : 'Unit, VIN, plate'}
        emptyTitle={status || group ? `No ${title.toLowerCase()} match the filters` : `No ${title.toLowerCase()} yet`}
        emptyDescription={canCreate ? `Add one, or import a CSV of your ${title.toLowerCase()}.` : undefined}
        emptyAction={status || group ? undefined : addButton}
        toolbar={
          <RegistryFilters
            status={status}
            onStatus={setStatus}
            group={group}
            onGroup={setGroup}
            exportPath="/assets/export"
            query={query}
            fileName={`${title.toLowerCase()}.csv`}
          />
        }
      />
      <AssetFormDrawer type={type} asset={editing} opened={adding || !!editing} onClose={closeAdd} />
      <AssetDetailDrawer
        id={detailId}
        compliance={compliance}
        temperatures={temperatures}
        onClose={() => setDetailId(null)}
        onEdit={(a) => {
          setDetailId(null);
          setEditing(a);
        }}
      />
      <ImportDrawer kind={vehicle ? 'vehicles' : 'trailers'} opened={importing} onClose={() => setImporting(false)} />
    </>
  );
}
