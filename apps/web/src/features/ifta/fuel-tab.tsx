import { useState } from 'react';
import { ActionIcon, Badge, Button, Checkbox, Group, Modal, NativeSelect, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconFileImport, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { FUEL_TYPES, STATE_OPTIONS, fuelPurchaseInputSchema, type Asset, type FuelPurchase, type FuelType, type LocationCheck } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan, usePagedList } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { dateTime, usd } from './ifta-format.ts';
import { deletePurchase, savePurchase, useIftaList, useIftaMutation } from './ifta-api.ts';
import { FuelImportDrawer } from './fuel-import-drawer.tsx';
import tones from '../../components/badge-tones.module.css';

// Badge tones darker than Mantine's light variant, which falls under AA contrast at this size.
const CHECK: Record<LocationCheck, { label: string; color: string; tone: string | undefined; help: string }> = {
  OK: { label: 'OK', color: 'green', tone: tones.ok, help: 'The vehicle was at the station at that time' },
  FAR: { label: 'Far', color: 'red', tone: tones.danger, help: 'The vehicle was more than 2 km from the station' },
  OTHER_JURISDICTION: { label: 'Elsewhere', color: 'red', tone: tones.danger, help: 'The vehicle was in another state or province' },
  NO_POSITION: { label: 'Unverified', color: 'gray', tone: tones.muted, help: 'No position of the vehicle within an hour of the purchase' },
};

const STATE_DATA = STATE_OPTIONS.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }));

/** The vehicles of the organization for the purchase form (up to 500, by unit number). */
export function useVehicleOptions() {
  const q = usePagedList<Asset>('assets', { type: 'VEHICLE', size: 500, sort: 'unitNumber,asc' });
  return (q.data?.content ?? []).map((v) => ({ value: v.id, label: v.unitNumber }));
}

/** Fuel purchases of the quarter: list, entry form, CSV import with column mapping. */
export function FuelTab({ quarter, fuelType }: { quarter: string; fuelType: string }) {
  const [state, setState, query] = useTableState({ sort: 'purchasedAt,desc' }, 'f.');
  const [flagged, setFlagged] = useState(false);
  const [editing, setEditing] = useState<FuelPurchase | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const canEdit = useCan('IFTA_UPDATE');
  const list = useIftaList<FuelPurchase>('fuel-purchases', { ...query, quarter, fuelType, flagged: flagged ? 'true' : undefined });
  const remove = useIftaMutation(deletePurchase);
  const columns: TableColumn<FuelPurchase>[] = [
    { key: 'purchasedAt', header: 'Date', sortable: true, primary: true, render: (p) => dateTime(p.purchasedAt) },
    { key: 'unitNumber', header: 'Vehicle', sortable: true, render: (p) => p.unitNumber },
    { key: 'jurisdiction', header: 'Jurisdiction', sortable: true, render: (p) => <Text ff="monospace" size="sm">{p.jurisdiction}</Text> },
    {
      key: 'quantity',
      header: 'Quantity',
      sortable: true,
      align: 'right',
      render: (p) => (p.volumeUnit === 'GAL' ? `${p.quantity.toLocaleString('en-US', { minimumFractionDigits: 1 })} gal` : `${p.quantity.toLocaleString('en-US')} L (${p.gallons.toLocaleString('en-US')} gal)`),
    },
    { key: 'totalAmount', header: 'Amount', sortable: true, align: 'right', render: (p) => (p.totalAmount === null ? '—' : `${usd(p.totalAmount)}${p.currency === 'CAD' ? ' CAD' : ''}`) },
    { key: 'vendor', header: 'Vendor', sortable: true, render: (p) => [p.vendor, p.city].filter(Boolean).join(', ') || '—' },
    { key: 'receiptNumber', header: 'Receipt', sortable: true, render: (p) => <Text ff="monospace" size="xs">{p.receiptNumber}</Text> },
    { key: 'taxPaid', header: 'Tax paid', render: (p) => (p.taxPaid ? 'Yes' : 'No') },
    {
      key: 'locationCheck',
      header: 'Location',
      render: (p) => (
        <Tooltip label={CHECK[p.locationCheck].help}>
          <Badge variant="light" radius="sm" color={CHECK[p.locationCheck].color} className={CHECK[p.locationCheck].tone}>
            {CHECK[p.locationCheck].label}
          </Badge>
        </Tooltip>
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
                <ActionIcon variant="subtle" aria-label={`Edit receipt ${p.receiptNumber}`} onClick={(e) => { e.stopPropagation(); setEditing(p); }}>
                  <IconPencil size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete receipt ${p.receiptNumber}`}
                  onClick={async (e) => {
                    e.stopPropagation();
                    if (await confirmAction({ title: `Delete receipt ${p.receiptNumber}?`, message: 'The purchase leaves the return; the activity log keeps a record.' })) {
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
            <Checkbox label="Flagged only" checked={flagged} onChange={(e) => setFlagged(e.currentTarget.checked)} />
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
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add fuel purchase' : `Edit receipt ${editing?.receiptNumber ?? ''}`} size="lg">
        {editing !== null && <PurchaseForm purchase={editing === 'new' ? null : editing} fuelType={fuelType} onClose={() => setEditing(null)} />}
      </Modal>
      <FuelImportDrawer opened={importing} onClose={() => setImporting(false)} fuelType={fuelType} />
    </>
  );
}

/** `2026-05-12T10:10` in the browser's zone for a datetime-local box. */
const localInput = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const num = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
const numOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

const FIELDS = ['purchasedAt', 'assetId', 'jurisdiction', 'fuelType', 'quantity', 'volumeUnit', 'pricePerUnit', 'totalAmount', 'currency', 'vendor', 'city', 'receiptNumber', 'taxPaid', 'notes'];

function PurchaseForm({ purchase: p, fuelType, onClose }: { purchase: FuelPurchase | null; fuelType: string; onClose: () => void }) {
  const vehicles = useVehicleOptions();
  const form = useZodForm(fuelPurchaseInputSchema, {
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
    },
  });
  const save = useIftaMutation(savePurchase);
  const submit = form.handleSubmit(async (values) => {
    try {
      // The box holds local time; the API takes an instant.
      const saved = await save.mutateAsync({ id: p?.id, body: { ...values, purchasedAt: new Date(values.purchasedAt).toISOString() } });
      notify({ type: saved.locationCheck === 'FAR' || saved.locationCheck === 'OTHER_JURISDICTION' ? 'alert' : 'success', title: `Receipt ${saved.receiptNumber} saved${saved.locationCheck === 'FAR' || saved.locationCheck === 'OTHER_JURISDICTION' ? ': flagged, the vehicle was elsewhere at that time' : ''}`, timeout: 5000 });
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
          <TextInput type="datetime-local" label="Purchase time" required {...field(form, 'purchasedAt')} data-autofocus />
          <NativeSelect label="Vehicle" required data={[{ value: '', label: 'Choose a vehicle' }, ...vehicles]} {...form.register('assetId')} error={err('assetId')} />
          <NativeSelect label="Jurisdiction" required data={[{ value: '', label: 'State or province' }, ...STATE_DATA]} {...form.register('jurisdiction')} error={err('jurisdiction')} />
          <NativeSelect label="Fuel type" data={FUEL_TYPES.map(([value, label]) => ({ value, label }))} {...form.register('fuelType')} />
          <TextInput label="Quantity" required inputMode="decimal" {...form.register('quantity', { setValueAs: num })} error={err('quantity')} />
          <NativeSelect label="Volume unit" data={[{ value: 'GAL', label: 'US gallons' }, { value: 'L', label: 'Litres' }]} {...form.register('volumeUnit')} />
          <TextInput label="Price per unit" inputMode="decimal" {...form.register('pricePerUnit', { setValueAs: numOrNull })} error={err('pricePerUnit')} />
          <TextInput label="Total amount" inputMode="decimal" {...form.register('totalAmount', { setValueAs: numOrNull })} error={err('totalAmount')} />
          <NativeSelect label="Currency" data={['USD', 'CAD']} {...form.register('currency')} />
          <TextInput label="Receipt number" required {...field(form, 'receiptNumber')} />
          <TextInput label="Vendor" {...field(form, 'vendor')} />
          <TextInput label="City" {...field(form, 'city')} />
        </SimpleGrid>
        <Switch label="Tax paid at the pump" {...form.register('taxPaid')} defaultChecked={p?.taxPaid ?? true} />
        <Textarea label="Notes" autosize minRows={2} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
