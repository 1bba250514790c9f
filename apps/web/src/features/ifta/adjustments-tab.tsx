import { useState } from 'react';
import { ActionIcon, Button, Modal, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import {
  ADJUSTMENT_KIND_LABELS,
  ADJUSTMENT_KINDS,
  STATE_OPTIONS,
  distanceToKm,
  iftaAdjustmentInputSchema,
  quarterDays,
  type IftaAdjustment,
} from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatDistance, unitLabels, useUnits, type UnitSystem } from '../../lib/units.ts';
import { createAdjustment, deleteAdjustment, useIftaList, useIftaMutation } from './ifta-api.ts';
import { day } from './ifta-format.ts';
import { useVehicleOptions } from './fuel-tab.tsx';

const JURISDICTION_DATA = [...STATE_OPTIONS.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` })), { value: 'MX', label: 'MX · Mexico' }];

/** Manual mileage adjustments of the quarter, each with its reason (written to the activity log). */
export function AdjustmentsTab({ quarter }: { quarter: string }) {
  const [state, setState, query] = useTableState({ sort: 'day,desc' }, 'a.');
  const [adding, setAdding] = useState(false);
  const canEdit = useCan('IFTA_UPDATE');
  const units = useUnits();
  const list = useIftaList<IftaAdjustment>('adjustments', { ...query, quarter });
  const remove = useIftaMutation(deleteAdjustment);
  const columns: TableColumn<IftaAdjustment>[] = [
    { key: 'day', header: 'Day', sortable: true, primary: true, render: (a) => day(a.day) },
    { key: 'unitNumber', header: 'Vehicle', render: (a) => a.unitNumber ?? 'Fleet' },
    {
      key: 'jurisdiction',
      header: 'Jurisdiction',
      sortable: true,
      render: (a) => (
        <Text ff="monospace" size="sm">
          {a.jurisdiction}
        </Text>
      ),
    },
    { key: 'adjustmentKind', header: 'Kind', render: (a) => ADJUSTMENT_KIND_LABELS[a.adjustmentKind] },
    { key: 'distanceM', header: 'Distance', align: 'right', render: (a) => formatDistance(a.distanceM, units) },
    { key: 'reason', header: 'Reason', render: (a) => a.reason },
    { key: 'createdBy', header: 'By', hiddenByDefault: true, render: (a) => a.createdBy ?? '—' },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right' as const,
            render: (a: IftaAdjustment) => (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove the adjustment of ${a.day} in ${a.jurisdiction}`}
                onClick={async () => {
                  if (
                    await confirmAction({
                      title: 'Remove this adjustment?',
                      message: `${ADJUSTMENT_KIND_LABELS[a.adjustmentKind]} in ${a.jurisdiction} on ${a.day}: ${a.reason}`,
                    })
                  ) {
                    remove.mutate(a.id, { onSuccess: () => notify({ type: 'success', title: 'Adjustment removed', timeout: 4000 }) });
                  }
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <ServerTable
        id="ifta-adjustments"
        label="Mileage adjustments"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(a) => a.id}
        searchPlaceholder="Reason, jurisdiction, unit"
        emptyTitle="No adjustments this quarter"
        emptyDescription="Add off-highway or trip-permit miles, a trip the device missed, or a correction, with its reason."
        toolbar={
          canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add adjustment
            </Button>
          )
        }
      />
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add a mileage adjustment" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {adding && <AdjustmentForm quarter={quarter} units={units} onClose={() => setAdding(false)} />}
      </Modal>
    </>
  );
}

function AdjustmentForm({ quarter, units, onClose }: { quarter: string; units: UnitSystem; onClose: () => void }) {
  const vehicles = useVehicleOptions();
  const { from, to } = quarterDays(quarter);
  const last = new Date(Date.parse(`${to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  // The box takes miles or km (the organization's units); the contract's own schema checks the metres.
  const schema = z.preprocess((v) => {
    const o = v as Record<string, unknown>;
    const typed = typeof o.distance === 'string' ? o.distance.trim() : '';
    const n = typed === '' ? undefined : Number(typed);
    return {
      ...o,
      assetId: o.assetId || null,
      distanceM: n === undefined || Number.isNaN(n) ? (n === undefined ? undefined : NaN) : distanceToKm(n, units) * 1000,
    };
  }, iftaAdjustmentInputSchema);
  const form = useZodForm(schema as unknown as typeof iftaAdjustmentInputSchema, {
    defaultValues: {
      day: last < new Date().toISOString().slice(0, 10) ? last : from,
      assetId: '',
      jurisdiction: '',
      adjustmentKind: 'MISSING_TRIP',
      reason: '',
    } as never,
  });
  const save = useIftaMutation(createAdjustment);
  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      notify({ type: 'success', title: 'Adjustment added', timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, ['day', 'assetId', 'jurisdiction', 'adjustmentKind', 'distanceM', 'reason']))
        form.setError('root', { message: (err as Error).message });
    }
  });
  const err = (name: string) => (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message;
  return (
    <form onSubmit={submit} noValidate aria-label="Adjustment form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput type="date" label="Day" required min={from} max={last} {...field(form, 'day')} data-autofocus />
          <NativeSelect label="Vehicle" data={[{ value: '', label: 'Whole fleet' }, ...vehicles]} {...form.register('assetId')} error={err('assetId')} />
          <NativeSelect
            label="Jurisdiction"
            required
            data={[{ value: '', label: 'State or province' }, ...JURISDICTION_DATA]}
            {...form.register('jurisdiction')}
            error={err('jurisdiction')}
          />
          <NativeSelect
            label="Kind"
            data={ADJUSTMENT_KINDS.map((k) => ({ value: k, label: ADJUSTMENT_KIND_LABELS[k] }))}
            {...form.register('adjustmentKind')}
          />
          <TextInput
            label={`Distance (${unitLabels(units).distance})`}
            description="Negative only for a correction"
            required
            inputMode="decimal"
            {...form.register('distance' as never)}
            error={err('distanceM')}
          />
        </SimpleGrid>
        <Textarea
          label="Reason"
          required
          description="Why the miles change: kept with the return and in the activity log"
          autosize
          minRows={2}
          {...field(form, 'reason')}
        />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} label="Add adjustment" />
      </Stack>
    </form>
  );
}
