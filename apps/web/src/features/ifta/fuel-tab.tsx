import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconFileImport, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  FUEL_JURISDICTION_CODES,
  FUEL_TYPES,
  STATE_OPTIONS,
  exceedsTank,
  farThresholdText,
  fuelPurchaseInputSchema,
  priceMismatch,
  tankCapacityMessage,
  tankCapacityText,
  type Asset,
  type FuelPurchase,
  type FuelType,
  type LocationCheck,
  type UnitSystem,
} from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { fromZoneInput, toZoneInput, zoneLabel } from '../../lib/dates.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan, usePagedList } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useUnits } from '../../lib/units.ts';
import { dateTime, usd } from './ifta-format.ts';
import { deletePurchase, savePurchase, useIftaList, useIftaMutation } from './ifta-api.ts';
import { FuelImportDrawer } from './fuel-import-drawer.tsx';
import tones from '../../components/badge-tones.module.css';

// Badge tones darker than Mantine's light variant, which falls under AA contrast at this size.
// The distance in the help is the organization's unit (the threshold is 2 km, decision 0124).
const checkBadges = (units: UnitSystem): Record<LocationCheck, { label: string; color: string; tone: string | undefined; help: string }> => ({
  OK: { label: 'OK', color: 'green', tone: tones.ok, help: 'The vehicle was at the station at that time' },
  FAR: { label: 'Far', color: 'red', tone: tones.danger, help: `The vehicle was more than ${farThresholdText(units)} from the station` },
  OTHER_JURISDICTION: { label: 'Elsewhere', color: 'red', tone: tones.danger, help: 'The vehicle was in another state or province' },
  NO_POSITION: { label: 'Unverified', color: 'gray', tone: tones.muted, help: 'No position of the vehicle within an hour of the purchase' },
});

// Members and the known non-members (AK, HI, DC, PR, the territories, Mexico): what the API accepts.
const STATE_DATA = [
  ...STATE_OPTIONS.filter((s) => FUEL_JURISDICTION_CODES.has(s.code)).map((s) => ({ value: s.code as string, label: `${s.code} · ${s.name}` })),
  { value: 'MX', label: 'MX · Mexico' },
];

/** The vehicles of the organization for the purchase form (up to 500, by unit number). */
export function useVehicleOptions() {
  return useVehicles().map((v) => ({ value: v.id, label: v.unitNumber }));
}

const NO_VEHICLES: Asset[] = [];

function useVehicles(): Asset[] {
  const q = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' });
  return q.data?.content ?? NO_VEHICLES;
}

/** Fuel purchases of the quarter: list, entry form, CSV import with column mapping. */
export function FuelTab({ quarter, fuelType }: { quarter: string; fuelType: string }) {
  const [state, setState, query] = useTableState({ sort: 'purchasedAt,desc' }, 'f.');
  const [flagged, setFlagged] = useState(false);
  const [editing, setEditing] = useState<FuelPurchase | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const canEdit = useCan('IFTA_UPDATE');
  const units = useUnits();
  const CHECK = checkBadges(units);
  const list = useIftaList<FuelPurchase>('fuel-purchases', { ...query, quarter, fuelType, flagged: flagged ? 'true' : undefined });
  const remove = useIftaMutation(deletePurchase);
  const columns: TableColumn<FuelPurchase>[] = [
    { key: 'purchasedAt', header: 'Date', sortable: true, primary: true, render: (p) => dateTime(p.purchasedAt) },
    { key: 'unitNumber', header: 'Vehicle', sortable: true, render: (p) => p.unitNumber },
    {
      key: 'jurisdiction',
      header: 'Jurisdiction',
      sortable: true,
      render: (p) => (
        <Text ff="monospace" size="sm">
          {p.jurisdiction}
        </Text>
      ),
    },
    {
      key: 'quantity',
      header: 'Quantity',
      sortable: true,
      align: 'right',
      render: (p) =>
        p.volumeUnit === 'GAL'
          ? `${p.quantity.toLocaleString('en-US', { minimumFractionDigits: 1 })} gal`
          : `${p.quantity.toLocaleString('en-US')} L (${p.gallons.toLocaleString('en-US')} gal)`,
    },
    {
      key: 'totalAmount',
      header: 'Amount',
      sortable: true,
      align: 'right',
      render: (p) => (p.totalAmount === null ? '—' : `${usd(p.totalAmount)}${p.currency === 'CAD' ? ' CAD' : ''}`),
    },
    { key: 'vendor', header: 'Vendor', sortable: true, render: (p) => [p.vendor, p.city].filter(Boolean).join(', ') || '—' },
    {
      key: 'receiptNumber',
      header: 'Receipt',
      sortable: true,
      render: (p) => (
        <Text ff="monospace" size="xs">
          {p.receiptNumber}
        </Text>
      ),
    },
    { key: 'taxPaid', header: 'Tax paid', render: (p) => (p.taxPaid ? 'Yes' : 'No') },
    {
      key: 'locationCheck',
      header: 'Location',
      render: (p) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label={CHECK[p.locationCheck].help}>
            <Badge variant="light" radius="sm" color={CHECK[p.locationCheck].color} className={CHECK[p.locationCheck].tone}>
              {CHECK[p.locationCheck].label}
            </Badge>
          </Tooltip>
          {p.priceMismatch && (
            <Tooltip label="Price per unit × quantity is more than 1 % from the total: listed under To review">
              <Badge variant="light" radius="sm" color="red" className={tones.danger}>
                Price
              </Badge>
            </Tooltip>
          )}
          {p.bulk && (
            <Tooltip label="Entered as a bulk or split entry: it may be more than the vehicle's tank">
              <Badge variant="light" radius="sm" color="gray" className={tones.muted}>
                Bulk
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right' as const,
            render: (p: FuelPurchase) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit receipt ${p.receiptNumber}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing(p);
                  }}
                >
                  <IconPencil size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete receipt ${p.receiptNumber}`}
                  onClick={async (e) => {
                    e.stopPropagation();
                    if (
                      await confirmAction({
                        title: `Delete receipt ${p.receiptNumber}?`,
                        message: 'The purchase leaves the return; the activity log keeps a record.',
                      })
                    ) {
                      remove.mutate(p.id, { onSuccess: () => notify({ type: 'success', title: `Receipt ${p.receiptNumber} deleted`, timeout: 4000 }) });
                    }
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <ServerTable
        id="ifta-fuel"
        label="Fuel purchases"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(p) => p.id}
        onRowClick={canEdit ? (p) => setEditing(p) : undefined}
        searchPlaceholder="Receipt, vendor, city, unit"
        emptyTitle="No fuel purchases this quarter"
        emptyDescription={canEdit ? 'Add receipts one by one or import a fuel-card export (WEX, Comdata, EFS or your own columns).' : undefined}
        toolbar={
          <Group gap="xs">
            <Checkbox label="To review only" checked={flagged} onChange={(e) => setFlagged(e.currentTarget.checked)} />
            {canEdit && (
              <>
                <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                  Import CSV
                </Button>
                <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
                  Add purchase
                </Button>
              </>
            )}
          </Group>
        }
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add fuel purchase' : `Edit receipt ${editing?.receiptNumber ?? ''}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && <PurchaseForm purchase={editing === 'new' ? null : editing} fuelType={fuelType} onClose={() => setEditing(null)} />}
      </Modal>
      <FuelImportDrawer opened={importing} onClose={() => setImporting(false)} fuelType={fuelType} />
    </>
  );
}

/** `2026-05-12T10:10` on the viewer's wall clock (decision 0140: not the browser's) for a datetime-local box. */
const localInput = (iso: string) => toZoneInput(iso);
const num = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
const numOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

const FIELDS = [
  'purchasedAt',
  'assetId',
  'jurisdiction',
  'fuelType',
  'quantity',
  'volumeUnit',
  'pricePerUnit',
  'totalAmount',
  'currency',
  'vendor',
  'city',
  'receiptNumber',
  'taxPaid',
  'notes',
  'bulk',
];

function PurchaseForm({ purchase: p, fuelType, onClose }: { purchase: FuelPurchase | null; fuelType: string; onClose: () => void }) {
  const fleet = useVehicles();
  const vehicles = fleet.map((v) => ({ value: v.id, label: v.unitNumber }));
  const units = useUnits();
  // The contract's schema plus the tank rule the API applies (it needs the vehicle's capacity).
  const schema = useMemo(
    () =>
      fuelPurchaseInputSchema.superRefine((v, ctx) => {
        const vehicle = fleet.find((x) => x.id === v.assetId);
        if (vehicle && !v.bulk && exceedsTank(v.quantity, v.volumeUnit, vehicle.tankCapacityL)) {
          ctx.addIssue({ code: 'custom', path: ['quantity'], message: tankCapacityMessage(vehicle.unitNumber, vehicle.tankCapacityL, units) });
        }
      }),
    [fleet, units],
  );
  const form = useZodForm(schema, {
    defaultValues: {
      purchasedAt: p ? localInput(p.purchasedAt) : '',
      assetId: p?.assetId ?? '',
      jurisdiction: p?.jurisdiction ?? '',
      fuelType: (p?.fuelType ?? fuelType) as FuelType,
      quantity: p?.quantity,
      volumeUnit: p?.volumeUnit ?? 'GAL',
      pricePerUnit: p?.pricePerUnit ?? null,
      totalAmount: p?.totalAmount ?? null,
      currency: p?.currency ?? 'USD',
      vendor: p?.vendor ?? '',
      city: p?.city ?? '',
      receiptNumber: p?.receiptNumber ?? '',
      taxPaid: p?.taxPaid ?? true,
      notes: p?.notes ?? '',
      bulk: p?.bulk ?? false,
    },
  });
  const [assetId, quantity, pricePerUnit, totalAmount] = form.watch(['assetId', 'quantity', 'pricePerUnit', 'totalAmount']);
  const vehicle = fleet.find((x) => x.id === assetId);
  const numeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const q = numeric(quantity);
  const offTotal = q !== null && priceMismatch(q, numeric(pricePerUnit), numeric(totalAmount));
  const save = useIftaMutation(savePurchase);
  const submit = form.handleSubmit(async (values) => {
    try {
      // The box holds local time; the API takes an instant.
      const saved = await save.mutateAsync({
        id: p?.id,
        body: { ...values, purchasedAt: fromZoneInput(values.purchasedAt) ?? new Date(values.purchasedAt).toISOString() },
      });
      const elsewhere = saved.locationCheck === 'FAR' || saved.locationCheck === 'OTHER_JURISDICTION';
      const why = [elsewhere ? 'the vehicle was elsewhere at that time' : '', saved.priceMismatch ? 'price × quantity is not the total' : '']
        .filter(Boolean)
        .join(' and ');
      notify({ type: why ? 'alert' : 'success', title: `Receipt ${saved.receiptNumber} saved${why ? `: to review, ${why}` : ''}`, timeout: 5000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const err = (name: string) => (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message;
  return (
    <form onSubmit={submit} noValidate aria-label="Fuel purchase form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput type="datetime-local" label={`Purchase time (${zoneLabel(new Date())})`} required {...field(form, 'purchasedAt')} data-autofocus />
          <NativeSelect
            label="Vehicle"
            required
            data={[{ value: '', label: 'Choose a vehicle' }, ...vehicles]}
            {...form.register('assetId')}
            error={err('assetId')}
          />
          <NativeSelect
            label="Jurisdiction"
            required
            data={[{ value: '', label: 'State or province' }, ...STATE_DATA]}
            {...form.register('jurisdiction')}
            error={err('jurisdiction')}
          />
          <NativeSelect label="Fuel type" data={FUEL_TYPES.map(([value, label]) => ({ value, label }))} {...form.register('fuelType')} />
          <TextInput label="Quantity" required inputMode="decimal" {...form.register('quantity', { setValueAs: num })} error={err('quantity')} />
          <NativeSelect
            label="Volume unit"
            data={[
              { value: 'GAL', label: 'US gallons' },
              { value: 'L', label: 'Litres' },
            ]}
            {...form.register('volumeUnit')}
          />
          <TextInput label="Price per unit" inputMode="decimal" {...form.register('pricePerUnit', { setValueAs: numOrNull })} error={err('pricePerUnit')} />
          <TextInput label="Total amount" inputMode="decimal" {...form.register('totalAmount', { setValueAs: numOrNull })} error={err('totalAmount')} />
          <NativeSelect label="Currency" data={['USD', 'CAD']} {...form.register('currency')} />
          <TextInput label="Receipt number" required {...field(form, 'receiptNumber')} />
          <TextInput label="Vendor" {...field(form, 'vendor')} />
          <TextInput label="City" {...field(form, 'city')} />
        </SimpleGrid>
        {offTotal && (
          <Alert variant="light" color="orange" p="xs" role="status">
            Price per unit × quantity is more than 1 % from the total: the purchase will be saved and listed under To review. Check both against the receipt.
          </Alert>
        )}
        <Switch label="Tax paid at the pump" {...form.register('taxPaid')} defaultChecked={p?.taxPaid ?? true} />
        <Checkbox
          label="Bulk or split entry"
          description={`More fuel than one tank holds (${vehicle ? `unit ${vehicle.unitNumber}: ${tankCapacityText(vehicle.tankCapacityL, units)}` : `${tankCapacityText(null, units)} unless the vehicle says otherwise`}): a bulk withdrawal or a receipt shared out later. Listed under To review.`}
          {...form.register('bulk')}
        />
        <Textarea label="Notes" autosize minRows={2} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
