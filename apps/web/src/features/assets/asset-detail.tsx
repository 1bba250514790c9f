import { useState, type ComponentType, type ReactNode } from 'react';
import { Badge, Button, Divider, Drawer, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import {
  IconCertificate,
  IconCpu,
  IconEngine,
  IconGasStation,
  IconLink,
  IconPencil,
  IconRoute,
  IconTrash,
  IconTruckDelivery,
  IconUser,
} from '@tabler/icons-react';
import { FUEL_TYPES, TRAILER_TYPES, tankCapacityText, type Asset, type AssetDetail, type Driver, type Gateway } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { StatusBadge } from '../../components/registry-toolbar.tsx';
import { PickAndRun } from '../../components/pick-and-run.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { Fact } from '../../components/fact.tsx';
import { formatLength, formatOdometer, useUnits } from '../../lib/units.ts';
import { GpsImportDrawer } from './gps-import-drawer.tsx';
import { AssetMaintenance, MaintenanceIcon } from './asset-maintenance.tsx';
import { AssetEngineFaults } from './asset-engine-faults.tsx';
import { AssetFuelEconomy } from './asset-fuel-economy.tsx';
import { VehicleShareButton } from './vehicle-share.tsx';
import { VehicleCardReads } from './asset-card-reads.tsx';
import { runAndNotify, UnlinkButton } from '../../components/unlink-button.tsx';
import { assignDriver, attachTrailer, deleteAsset, detachTrailer, pairDevice, unassignDriver, unpairDevice, useAsset, useAssetMutation } from './assets-api.ts';
import { ODOMETER_SOURCE_WORDS } from './odometer-words.ts';

/** Where the odometer shown comes from. */

const fuelLabel = new Map<string, string>(FUEL_TYPES);
const trailerLabel = new Map<string, string>(TRAILER_TYPES);

/** The unit's papers (issue 71: registration, insurance, annual inspection), composed by the app from the compliance feature. */
export type AssetComplianceSlot = ComponentType<{ assetId: string; unitNumber: string }>;
/** A trailer's reefer sensors and temperatures (issue 73), composed by the app from the temperatures feature. */
export type AssetTemperaturesSlot = ComponentType<{ assetId: string }>;

export interface AssetDetailDrawerProps {
  id: string | null;
  onClose: () => void;
  onEdit: (asset: Asset) => void;
  /** The "Compliance" section; none: no section. */
  compliance?: AssetComplianceSlot;
  /** A trailer's "Reefer temperatures" section; none: no section. */
  temperatures?: AssetTemperaturesSlot;
}

/** Vehicle or trailer detail: its record, driver, trailers, device, history and recent activity, with the link actions. */
export function AssetDetailDrawer({ id, onClose, onEdit, compliance, temperatures }: AssetDetailDrawerProps) {
  const detail = useAsset(id);
  const a = detail.data;
  return (
    <Drawer
      opened={!!id}
      onClose={onClose}
      position="right"
      size="xl"
      title={a ? `${a.type === 'VEHICLE' ? 'Vehicle' : 'Trailer'} ${a.unitNumber}` : 'Loading'}
    >
      <DataState isLoading={detail.isLoading} error={detail.error} onRetry={() => void detail.refetch()}>
        {a && <AssetDetailBody asset={a} onEdit={onEdit} onDeleted={onClose} compliance={compliance} temperatures={temperatures} />}
      </DataState>
    </Drawer>
  );
}

function Section({ title, icon, children, action }: { title: string; icon: ReactNode; children: ReactNode; action?: ReactNode }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <Group gap={6}>
          {icon}
          <Title order={3} fz="md">
            {title}
          </Title>
        </Group>
        {action}
      </Group>
      {children}
    </Stack>
  );
}

function AssetDetailBody({
  asset: a,
  onEdit,
  onDeleted,
  compliance: Compliance,
  temperatures: Temperatures,
}: {
  asset: AssetDetail;
  onEdit: (a: Asset) => void;
  onDeleted: () => void;
  compliance?: AssetComplianceSlot;
  temperatures?: AssetTemperaturesSlot;
}) {
  const canUpdate = useCan('ASSET_UPDATE');
  const canDelete = useCan('ASSET_DELETE');
  const canPair = useCan('GAT_PAIR');
  const canList = useCan('ASSET_LIST');
  const units = useUnits();
  const vehicle = a.type === 'VEHICLE';
  const call = useAssetMutation((run: () => Promise<unknown>) => run());
  const remove = useAssetMutation(() => deleteAsset(a.id));
  const active = a.status === 'ACTIVE';
  const device = a.device;
  const [importing, setImporting] = useState(false);
  const showMaintenance = [useCan('DVIR_LIST'), useCan('WORK_ORDER_LIST'), useCan('MAINTENANCE_LIST')].some(Boolean);
  // A vehicle's engine faults are read as its maintenance data is (decision 0191).
  const showFaults = useCan('MAINTENANCE_LIST') && vehicle;
  // Fuel economy and idling are fleet performance's figures (issue 68).
  const showFuel = useCan('ANALYTICS_FLEET_PERFORMANCE') && vehicle;
  // The unit's papers (issue 71) are compliance's to show.
  const showCompliance = useCan('COMPLIANCE_LIST') && !!Compliance;

  const del = async () => {
    const ok = await confirmAction({
      title: `Delete ${a.unitNumber}?`,
      message:
        'It is deleted when nothing references it; when its history (drivers, trailers, devices, logs) does, it is deactivated instead and kept for the records.',
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    try {
      const r = await remove.mutateAsync(undefined);
      notify({ type: r.result === 'DELETED' ? 'success' : 'alert', title: r.message, timeout: 6000 });
      onDeleted();
    } catch {
      // toast shown
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Group gap="xs">
          <StatusBadge status={a.status} />
          {a.groups.map((g) => (
            <Badge key={g.id} variant="outline" radius="sm">
              {g.name}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          {canUpdate && vehicle && active && <VehicleShareButton vehicle={a} canList={canList} />}
          {canUpdate && vehicle && (
            <Button size="xs" variant="default" leftSection={<IconRoute size={14} />} onClick={() => setImporting(true)}>
              Import GPS history
            </Button>
          )}
          {canUpdate && (
            <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={() => onEdit(a)}>
              Edit
            </Button>
          )}
          {canDelete && (
            <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={del}>
              Delete
            </Button>
          )}
        </Group>
      </Group>
      {vehicle && <GpsImportDrawer vehicle={a} opened={importing} onClose={() => setImporting(false)} />}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Fact label="VIN">
          {a.vin && (
            <Text span ff="monospace" size="sm">
              {a.vin}
            </Text>
          )}
        </Fact>
        <Fact label="Make / model">{[a.make, a.model].filter(Boolean).join(' ')}</Fact>
        <Fact label="Year">{a.year}</Fact>
        <Fact label="Plate">{a.plate ? `${a.plate}${a.plateState ? ` (${a.plateState})` : ''}` : null}</Fact>
        {vehicle ? (
          <>
            <Fact label="Fuel">{a.fuelType ? fuelLabel.get(a.fuelType) : null}</Fact>
            <Fact label="IFTA qualified">{a.iftaQualified ? 'Yes' : 'No'}</Fact>
            {/* The vehicle's one odometer, as its log, ELD file and schedules read it (issue 66). */}
            <Fact label="Odometer">
              {a.currentOdometer && (
                <span data-testid="asset-odometer" data-source={a.currentOdometer.source}>
                  {formatOdometer(a.currentOdometer.km, units)} · {ODOMETER_SOURCE_WORDS[a.currentOdometer.source]}
                </span>
              )}
            </Fact>
            <Fact label="Fuel tank">{a.tankCapacityL === null ? `${tankCapacityText(null, units)} (default)` : tankCapacityText(a.tankCapacityL, units)}</Fact>
          </>
        ) : (
          <>
            <Fact label="Trailer type">{a.trailerType ? trailerLabel.get(a.trailerType) : null}</Fact>
            <Fact label="Length">{a.lengthM === null ? null : formatLength(a.lengthM, units)}</Fact>
            <Fact label="Attached to">{a.attachedTo?.unitNumber}</Fact>
          </>
        )}
      </SimpleGrid>
      {a.notes && <Fact label="Notes">{a.notes}</Fact>}

      {vehicle && (
        <>
          <Divider />
          <Section title="Driver" icon={<IconUser size={18} />}>
            {a.currentDriver ? (
              <Group justify="space-between">
                <Text size="sm" fw={600}>
                  {a.currentDriver.firstName} {a.currentDriver.lastName}
                </Text>
                {canUpdate && (
                  <UnlinkButton
                    confirm={{
                      title: 'Unassign driver?',
                      message: `${a.currentDriver.firstName} ${a.currentDriver.lastName} will no longer drive ${a.unitNumber}. The assignment stays in the history.`,
                      confirmLabel: 'Unassign',
                    }}
                    done="Driver unassigned"
                    run={() => call.mutateAsync(() => unassignDriver(a.id))}
                  >
                    Unassign driver
                  </UnlinkButton>
                )}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                No driver assigned.
              </Text>
            )}
            {canUpdate && active && (
              <PickAndRun
                label={a.currentDriver ? 'Assign another driver' : 'Assign a driver'}
                resource="drivers"
                toOption={(d: Driver) => ({ value: d.id, label: `${d.firstName} ${d.lastName}${d.vehicle ? ` (drives ${d.vehicle.unitNumber})` : ''}` })}
                extraQuery={{ status: 'ACTIVE', sort: 'lastName,asc' }}
                button="Assign"
                onRun={async (driverId, label) => {
                  if (
                    await confirmAction({
                      title: 'Assign driver?',
                      message: `${label} will drive ${a.unitNumber}; any previous assignment of either ends now.`,
                      confirmLabel: 'Assign',
                      danger: false,
                    })
                  )
                    await runAndNotify('Driver assigned', () => call.mutateAsync(() => assignDriver(a.id, driverId)));
                }}
              />
            )}
            <VehicleCardReads assetId={a.id} />
          </Section>
          <Divider />
          <Section title="Trailers" icon={<IconTruckDelivery size={18} />}>
            {a.trailers.length === 0 && (
              <Text size="sm" c="dimmed">
                No trailer attached.
              </Text>
            )}
            {a.trailers.map((t) => (
              <Group key={t.id} justify="space-between">
                <Text size="sm" fw={600}>
                  {t.unitNumber}
                </Text>
                {canUpdate && (
                  <UnlinkButton
                    aria-label={`Detach trailer ${t.unitNumber}`}
                    confirm={{ title: 'Detach trailer?', message: `${t.unitNumber} will be detached from ${a.unitNumber}.`, confirmLabel: 'Detach' }}
                    done="Trailer detached"
                    run={() => call.mutateAsync(() => detachTrailer(a.id, t.id))}
                  >
                    Detach
                  </UnlinkButton>
                )}
              </Group>
            ))}
            {canUpdate && active && (
              <PickAndRun
                label="Attach a trailer"
                resource="assets"
                toOption={(t: Asset) => ({ value: t.id, label: `${t.unitNumber}${t.attachedTo ? ` (on ${t.attachedTo.unitNumber})` : ''}` })}
                extraQuery={{ type: 'TRAILER', status: 'ACTIVE', sort: 'unitNumber,asc' }}
                exclude={a.trailers.map((t) => t.id)}
                button="Attach"
                onRun={async (trailerId, label) => {
                  if (
                    await confirmAction({
                      title: 'Attach trailer?',
                      message: `${label} will be attached to ${a.unitNumber}.`,
                      confirmLabel: 'Attach',
                      danger: false,
                    })
                  )
                    await runAndNotify('Trailer attached', () => call.mutateAsync(() => attachTrailer(a.id, trailerId)));
                }}
              />
            )}
          </Section>
          <Divider />
          <Section title="Device" icon={<IconCpu size={18} />}>
            {device ? (
              <Group justify="space-between">
                <Stack gap={0}>
                  <Text size="sm" fw={600}>
                    {device.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {device.uniqueId} · last seen {device.lastSeenAt ? formatDateTime(device.lastSeenAt) : 'never'}
                  </Text>
                </Stack>
                {canPair && (
                  <UnlinkButton
                    confirm={{ title: 'Unpair device?', message: `${device.name} will stop reporting for ${a.unitNumber}.`, confirmLabel: 'Unpair' }}
                    done="Device unpaired"
                    run={() => call.mutateAsync(() => unpairDevice(device.id))}
                  >
                    Unpair device
                  </UnlinkButton>
                )}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                No device paired.
              </Text>
            )}
            {canPair && active && !a.device && (
              <PickAndRun
                label="Pair a device"
                resource="gateways"
                toOption={(g: Gateway) => ({ value: g.id, label: `${g.name} · ${g.uniqueId}` })}
                extraQuery={{ status: 'ACTIVE', paired: 'false', sort: 'name,asc' }}
                button="Pair"
                onRun={async (gatewayId, label) => {
                  if (await confirmAction({ title: 'Pair device?', message: `${label} will report for ${a.unitNumber}.`, confirmLabel: 'Pair', danger: false }))
                    await runAndNotify('Device paired', () => call.mutateAsync(() => pairDevice(gatewayId, a.id)));
                }}
              />
            )}
          </Section>
        </>
      )}

      {Temperatures && !vehicle && canList && (
        <>
          <Divider />
          <Temperatures assetId={a.id} />
        </>
      )}
      {showCompliance && Compliance && (
        <>
          <Divider />
          <Section title="Compliance" icon={<IconCertificate size={18} />}>
            <Compliance assetId={a.id} unitNumber={a.unitNumber} />
          </Section>
        </>
      )}
      {showFuel && (
        <>
          <Divider />
          <Section title="Fuel economy and idling" icon={<IconGasStation size={18} />}>
            <AssetFuelEconomy assetId={a.id} />
          </Section>
        </>
      )}
      {showFaults && (
        <>
          <Divider />
          <Section title="Engine faults" icon={<IconEngine size={18} />}>
            <AssetEngineFaults assetId={a.id} />
          </Section>
        </>
      )}
      {showMaintenance && (
        <>
          <Divider />
          <Section title="Inspections and maintenance" icon={<MaintenanceIcon size={18} />}>
            <AssetMaintenance asset={a} />
          </Section>
        </>
      )}
      <Divider />
      <Section title="History" icon={<IconLink size={18} />}>
        <History asset={a} />
      </Section>
      <Divider />
      <Section title="Recent activity" icon={<IconPencil size={18} />}>
        {a.recentActivity.length === 0 ? (
          <Text size="sm" c="dimmed">
            No activity recorded.
          </Text>
        ) : (
          <Timeline bulletSize={10} lineWidth={2}>
            {a.recentActivity.map((e) => (
              <Timeline.Item key={e.id} title={<Text size="sm">{e.action.replaceAll('_', ' ').toLowerCase()}</Text>}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.createdAt)} · {e.actorEmail ?? 'system'}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Section>
    </Stack>
  );
}

function History({ asset: a }: { asset: AssetDetail }) {
  const rows = [
    ...a.driverHistory.map((h) => ({ from: h.from, to: h.to, what: `Driver ${h.driver.firstName} ${h.driver.lastName}` })),
    ...a.trailerHistory.map((h) => ({ from: h.from, to: h.to, what: `${a.type === 'VEHICLE' ? 'Trailer' : 'Vehicle'} ${h.asset.unitNumber}` })),
    ...a.deviceHistory.map((h) => ({ from: h.from, to: h.to, what: `Device ${h.device.name}` })),
  ].sort((x, y) => y.from.localeCompare(x.from));
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No assignments yet.
      </Text>
    );
  return (
    <Stack gap={4}>
      {rows.slice(0, 20).map((r, i) => (
        <Group key={i} justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm">{r.what}</Text>
          <Text size="xs" c="dimmed" ta="right">
            {formatDateTime(r.from)} – {r.to ? formatDateTime(r.to) : 'now'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
