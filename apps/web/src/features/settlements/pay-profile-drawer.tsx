import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Divider, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import {
  HOURLY_BASES,
  HOURLY_BASIS_LABELS,
  PAY_ADJUSTMENT_CATEGORIES,
  PAY_ADJUSTMENT_CATEGORY_LABELS,
  payAdjustmentInputSchema,
  payProfileInputSchema,
  type PayAdjustment,
  type PayProfile,
} from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { money } from './settlement-format.ts';
import { addAdjustment, removeAdjustment, savePayProfile, useAdjustments, usePayProfile, useSettlementMutation } from './settlements-api.ts';

// A driver's pay (issue 70): the profile's rates, and their deductions and reimbursements (each on
// every settlement or once). Read with SETTLEMENT_LIST; changed with SETTLEMENT_UPDATE.

const PROFILE_FIELDS = [
  'loadedMileRate',
  'emptyMileRate',
  'lineHaulPercent',
  'flatPerLoad',
  'extraStopRate',
  'hourlyRate',
  'hourlyBasis',
  'detentionRate',
  'detentionFreeMinutes',
  'teamSharePercent',
  'notes',
] as const;

export function PayProfileEditor({ driverId }: { driverId: string }) {
  const profile = usePayProfile(driverId);
  return (
    <DataState isLoading={profile.isLoading} error={profile.error} onRetry={() => void profile.refetch()}>
      {profile.data && (
        <Stack gap="lg">
          <ProfileForm key={profile.data.updatedAt ?? 'new'} p={profile.data} />
          <Divider />
          <Adjustments driverId={driverId} />
        </Stack>
      )}
    </DataState>
  );
}

function MoneyField<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  description?: string;
  prefix?: string;
  suffix?: string;
  decimals: number;
  max: number;
  disabled: boolean;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field: f, fieldState }) => (
        <NumberInput
          label={props.label}
          description={props.description}
          prefix={props.prefix}
          suffix={props.suffix}
          decimalScale={props.decimals}
          fixedDecimalScale={!!props.prefix}
          min={0}
          max={props.max}
          disabled={props.disabled}
          value={typeof f.value === 'number' ? f.value : ''}
          onChange={(v) => f.onChange(typeof v === 'number' ? v : v === '' ? 0 : Number(v))}
          onBlur={f.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function ProfileForm({ p }: { p: PayProfile }) {
  const canUpdate = useCan('SETTLEMENT_UPDATE');
  const form = useZodForm(payProfileInputSchema, {
    defaultValues: Object.fromEntries(PROFILE_FIELDS.map((k) => [k, p[k] ?? (k === 'notes' ? '' : 0)])) as never,
  });
  const save = useSettlementMutation(savePayProfile);
  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ driverId: p.driverId, body });
      notify({ type: 'success', title: 'Pay profile saved', timeout: 4000 });
    } catch (err) {
      if (!showServerError(form, err, PROFILE_FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const c = form.control;
  const off = !canUpdate;
  return (
    <form onSubmit={submit} noValidate aria-label="Pay profile">
      <Stack gap="sm">
        <Group justify="space-between" gap={4}>
          <Title order={3} fz="md">
            Pay profile
          </Title>
          <Text size="xs" c="dimmed">
            {p.updatedAt ? `Saved ${new Date(p.updatedAt).toLocaleDateString('en-US')}${p.updatedBy ? ` by ${p.updatedBy}` : ''}` : 'Not set yet: paid nothing'}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          A zero pays nothing of that kind. Miles are the road distance of each load (loaded) and from the previous delivery to the next pick-up (empty).
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <MoneyField control={c} name="loadedMileRate" label="Pay per loaded mile" prefix="$" decimals={3} max={100} disabled={off} />
          <MoneyField control={c} name="emptyMileRate" label="Pay per empty mile" prefix="$" decimals={3} max={100} disabled={off} />
          <MoneyField
            control={c}
            name="lineHaulPercent"
            label="Share of line haul"
            description="Not of fuel surcharge or accessorials"
            suffix="%"
            decimals={2}
            max={100}
            disabled={off}
          />
          <MoneyField control={c} name="flatPerLoad" label="Flat pay per load" prefix="$" decimals={2} max={100000} disabled={off} />
          <MoneyField
            control={c}
            name="extraStopRate"
            label="Pay per extra stop"
            description="Beyond the first pick-up and the last delivery"
            prefix="$"
            decimals={2}
            max={100000}
            disabled={off}
          />
          <MoneyField
            control={c}
            name="hourlyRate"
            label="Hourly pay"
            description="From the driver's own log"
            prefix="$"
            decimals={2}
            max={1000}
            disabled={off}
          />
          <NativeSelect
            label="Hours paid"
            disabled={off}
            data={HOURLY_BASES.map((b) => ({ value: b, label: HOURLY_BASIS_LABELS[b] }))}
            {...field(form, 'hourlyBasis')}
          />
          <MoneyField control={c} name="detentionRate" label="Detention pay per hour" prefix="$" decimals={2} max={1000} disabled={off} />
          <MoneyField control={c} name="detentionFreeMinutes" label="Detention free time" suffix=" min" decimals={0} max={1440} disabled={off} />
          <MoneyField
            control={c}
            name="teamSharePercent"
            label="Share of a team load"
            description="Of each team load's pay, lead or second"
            suffix="%"
            decimals={0}
            max={100}
            disabled={off}
          />
        </SimpleGrid>
        <Textarea label="Notes" autosize minRows={2} maxLength={500} disabled={off} {...field(form, 'notes')} />
        {canUpdate && <FormFooter form={form} busy={save.isPending} onCancel={() => form.reset()} label="Save pay profile" />}
      </Stack>
    </form>
  );
}

function whenText(a: PayAdjustment): string {
  if (a.recurrence === 'ONCE') return `Once, from ${a.startsOn}${a.appliedIn ? ` · taken by ${a.appliedIn.number}` : ' · waiting for the next settlement'}`;
  return `Every settlement from ${a.startsOn}${a.endsOn ? ` until ${a.endsOn}` : ''}${a.timesApplied ? ` · on ${a.timesApplied} so far` : ''}`;
}

function Adjustments({ driverId }: { driverId: string }) {
  const list = useAdjustments(driverId);
  const canUpdate = useCan('SETTLEMENT_UPDATE');
  const [adding, setAdding] = useState(false);
  const remove = useSettlementMutation(removeAdjustment);
  const drop = async (a: PayAdjustment) => {
    if (
      !(await confirmAction({
        title: `Remove “${a.description}”?`,
        message: 'No later settlement takes it. The settlements that did keep their line.',
        confirmLabel: 'Remove',
      }))
    )
      return;
    try {
      await remove.mutateAsync({ driverId, adjustmentId: a.id });
      notify({ type: 'success', title: 'Removed', timeout: 3000 });
    } catch (err) {
      notify({ type: 'alert', title: err instanceof ApiError ? (err.body?.message ?? err.message) : 'Something went wrong', timeout: 6000 });
    }
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} fz="md">
          Deductions and reimbursements
        </Title>
        {canUpdate && !adding && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            Add
          </Button>
        )}
      </Group>
      {adding && <AdjustmentForm driverId={driverId} onClose={() => setAdding(false)} />}
      <DataState
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        isEmpty={(list.data ?? []).length === 0}
        emptyTitle="None"
        emptyDescription="A truck lease, insurance or escrow taken on every settlement; an advance taken once; tolls or a lumper paid back once."
      >
        <Stack gap="xs" role="list" aria-label="Deductions and reimbursements">
          {(list.data ?? []).map((a) => (
            <Card key={a.id} withBorder radius="md" padding="sm" role="listitem">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600} size="sm">
                      {a.description}
                    </Text>
                    <Badge variant="light" radius="sm" color={a.adjustmentType === 'DEDUCTION' ? 'orange' : 'teal'}>
                      {a.adjustmentType === 'DEDUCTION' ? 'Deduction' : 'Reimbursement'}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {PAY_ADJUSTMENT_CATEGORY_LABELS[a.adjustmentCategory]} · {whenText(a)}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Text fw={600} size="sm">
                    {a.adjustmentType === 'DEDUCTION' ? money(-a.amount) : money(a.amount)}
                  </Text>
                  {canUpdate && (
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove ${a.description}`} onClick={() => void drop(a)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      </DataState>
    </Stack>
  );
}

function AdjustmentForm({ driverId, onClose }: { driverId: string; onClose: () => void }) {
  const form = useZodForm(payAdjustmentInputSchema, {
    defaultValues: {
      adjustmentType: 'DEDUCTION',
      adjustmentCategory: 'LEASE',
      description: '',
      recurrence: 'EACH_SETTLEMENT',
      startsOn: null,
      endsOn: null,
    } as never,
  });
  const add = useSettlementMutation(addAdjustment);
  const recurring = form.watch('recurrence') === 'EACH_SETTLEMENT';
  const submit = form.handleSubmit(async (body) => {
    try {
      await add.mutateAsync({ driverId, body });
      notify({ type: 'success', title: `${body.adjustmentType === 'DEDUCTION' ? 'Deduction' : 'Reimbursement'} added`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, ['adjustmentType', 'adjustmentCategory', 'description', 'amount', 'recurrence', 'startsOn', 'endsOn']))
        form.setError('root', { message: (err as Error).message });
    }
  });
  const day = (name: 'startsOn' | 'endsOn') => ({
    ...form.register(name, { setValueAs: (v: unknown) => (v === '' || v === undefined ? null : v) }),
    error: form.formState.errors[name]?.message,
  });
  return (
    <Card withBorder radius="md" padding="sm">
      <form onSubmit={submit} noValidate aria-label="Add a deduction or reimbursement">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect
              label="Kind"
              data={[
                { value: 'DEDUCTION', label: 'Deduction (taken off)' },
                { value: 'REIMBURSEMENT', label: 'Reimbursement (paid back)' },
              ]}
              {...field(form, 'adjustmentType')}
            />
            <NativeSelect
              label="Category"
              data={PAY_ADJUSTMENT_CATEGORIES.map((k) => ({ value: k, label: PAY_ADJUSTMENT_CATEGORY_LABELS[k] }))}
              {...field(form, 'adjustmentCategory')}
            />
          </SimpleGrid>
          <TextInput label="Description" required maxLength={120} placeholder="Truck lease, tractor 102" {...field(form, 'description')} data-autofocus />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <MoneyField control={form.control} name="amount" label="Amount" prefix="$" decimals={2} max={100000} disabled={false} />
            <NativeSelect
              label="Applies"
              data={[
                { value: 'EACH_SETTLEMENT', label: 'On every settlement' },
                { value: 'ONCE', label: 'Once' },
              ]}
              {...field(form, 'recurrence')}
            />
            <TextInput type="date" label={recurring ? 'From' : 'Dated'} description="Empty: today" {...day('startsOn')} />
            {recurring && <TextInput type="date" label="Until" description="Empty: until removed" {...day('endsOn')} />}
          </SimpleGrid>
          <FormFooter form={form} busy={add.isPending} onCancel={onClose} label="Add" />
        </Stack>
      </form>
    </Card>
  );
}
