import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Checkbox, Group as Row, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Tooltip, Button } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import { CUSTOMER_LIMITS, customerCreateSchema, paymentTermsLabel } from '@fleet/api-contract/customers';
import { hasDecimals } from '@fleet/api-contract/numbers';
import type { Customer } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useOpenParam } from '../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { field, useZodForm } from '../../lib/form.ts';
import { useTableState } from '../../lib/table-state.ts';
import { showServerError, useCan } from '../../lib/registry-api.ts';
import { notify } from '../../lib/notifications-store.ts';
import { detentionText, minutesText } from './customer-format.ts';
import { deleteCustomer, saveCustomer, useCustomer, useCustomerMutation, useCustomers, useOrgCurrency } from './customers-api.ts';

const RATE_MAX = CUSTOMER_LIMITS.detentionCentsPerHourMax / 100;

/** The contract's rules, with the detention rate typed in currency per hour (the API takes cents). */
const customerFormSchema = customerCreateSchema.omit({ detentionCentsPerHour: true }).extend({
  detentionRate: z
    .number({ error: () => 'Detention rate must be a number' })
    .min(0, 'Detention rate must not be negative')
    .max(RATE_MAX, `Detention rate must be at most ${RATE_MAX.toLocaleString('en-US')} an hour`)
    .refine(hasDecimals(2), 'Detention rate has at most two decimal places'),
});
type FormInput = z.input<typeof customerFormSchema>;

const FIELDS = ['name', 'billingAddress', 'invoiceEmail', 'paymentTermsDays', 'detentionFreeMinutes', 'detentionRate', 'requiresPod', 'notes'];
/** A typed number as a number ('' as undefined, so "required" and the default apply); other text as NaN, which the schema names. */
const num = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
const orNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/**
 * `/dispatch/customers` (issue 70): the brokers and shippers loads are for, with their billing
 * address, the e-mail invoices go to, payment terms and the detention rule. CUSTOMER_LIST reads;
 * CUSTOMER_UPDATE adds, edits and deletes (a customer loads name is refused).
 */
export default function CustomersPage() {
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [editing, setEditing] = useState<Customer | 'new' | null>(null);
  const canUpdate = useCan('CUSTOMER_UPDATE');
  const currency = useOrgCurrency();
  const list = useCustomers({ ...query });
  const remove = useCustomerMutation(deleteCustomer);
  // An activity-log entry links a customer with `?open=<id>`: its form opens.
  const [openId, setOpenId] = useOpenParam();
  const linked = useCustomer(openId);
  useEffect(() => {
    if (linked.data) {
      setEditing(linked.data);
      setOpenId(null);
    }
  }, [linked.data, setOpenId]);

  const columns: TableColumn<Customer>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (c) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {c.name}
          </Text>
          {c.invoiceEmail && (
            <Text size="xs" c="dimmed">
              {c.invoiceEmail}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'billingAddress',
      header: 'Billing address',
      render: (c) =>
        c.billingAddress ?? (
          <Text size="sm" c="dimmed">
            Not given
          </Text>
        ),
    },
    { key: 'paymentTermsDays', header: 'Terms', sortable: true, render: (c) => paymentTermsLabel(c.paymentTermsDays) },
    { key: 'detention', header: 'Detention', render: (c) => detentionText(c, currency) },
    {
      key: 'requiresPod',
      header: 'Proof of delivery',
      render: (c) =>
        c.requiresPod ? (
          <Badge variant="light" color="orange">
            Required
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            Not required
          </Text>
        ),
    },
    {
      key: 'loadCount',
      header: 'Loads',
      render: (c) => (
        <Text size="sm" c={c.loadCount ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
          {`${c.loadCount} load${c.loadCount === 1 ? '' : 's'}`}
        </Text>
      ),
    },
  ];
  if (canUpdate) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (c) => (
        <Row gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Edit">
            <ActionIcon
              variant="subtle"
              aria-label={`Edit ${c.name}`}
              onClick={(e) => {
                e.stopPropagation();
                setEditing(c);
              }}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${c.name}`}
              onClick={async (e) => {
                e.stopPropagation();
                const message = c.loadCount
                  ? `${c.loadCount} load${c.loadCount === 1 ? ' names' : 's name'} it: a customer stays while loads name it (their invoices and detention read it), so the delete will be refused.`
                  : 'No load names it. It can be added again later.';
                if (await confirmAction({ title: `Delete ${c.name}?`, message, confirmLabel: 'Delete' }))
                  remove.mutate(c.id, { onSuccess: () => notify({ type: 'success', title: `${c.name} deleted`, timeout: 4000 }) });
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Row>
      ),
    });
  }
  const addButton = canUpdate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
      Add customer
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title="Customers"
        description="The brokers and shippers your loads are for: where invoices go, when they are due, and what detention is charged."
        breadcrumbs={[{ label: 'Dispatch', to: '/dispatch' }, { label: 'Customers' }]}
        actions={addButton}
      />
      <ServerTable
        id="customers"
        label="Customers"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(c) => c.id}
        onRowClick={canUpdate ? (c) => setEditing(c) : undefined}
        searchPlaceholder="Name, address, e-mail or notes"
        emptyTitle="No customers yet"
        emptyDescription="Add the brokers and shippers you haul for, or type a new customer on a load: it is added here."
        emptyAction={addButton}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add customer' : `Edit ${editing?.name ?? ''}`}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && <CustomerForm customer={editing === 'new' ? null : editing} currency={currency} onClose={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function CustomerForm({ customer: c, currency, onClose }: { customer: Customer | null; currency: string; onClose: () => void }) {
  const defaults: FormInput = {
    name: c?.name ?? '',
    billingAddress: c?.billingAddress ?? '',
    invoiceEmail: c?.invoiceEmail ?? '',
    paymentTermsDays: c?.paymentTermsDays ?? 30,
    detentionFreeMinutes: c?.detentionFreeMinutes ?? 120,
    detentionRate: (c?.detentionCentsPerHour ?? 0) / 100,
    requiresPod: c?.requiresPod ?? false,
    notes: c?.notes ?? '',
  };
  const form = useZodForm(customerFormSchema, { defaultValues: defaults });
  const save = useCustomerMutation(saveCustomer);
  const free = form.watch('detentionFreeMinutes');
  const terms = form.watch('paymentTermsDays');
  const submit = form.handleSubmit(async ({ detentionRate, ...values }) => {
    try {
      const saved = await save.mutateAsync({ id: c?.id, body: { ...values, detentionCentsPerHour: Math.round(detentionRate * 100) } });
      notify({ type: 'success', title: `${saved.name} saved`, timeout: 4000 });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const number = (name: 'paymentTermsDays' | 'detentionFreeMinutes' | 'detentionRate') => ({
    ...field(form, name),
    ...form.register(name, { setValueAs: num }),
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Customer form">
      <Stack gap="sm">
        <TextInput label="Name" required maxLength={CUSTOMER_LIMITS.name} placeholder="Great Plains Foods" {...field(form, 'name')} data-autofocus />
        <TextInput
          label="Invoice e-mail"
          type="email"
          placeholder="ap@example.com"
          description="Invoices are sent here"
          {...field(form, 'invoiceEmail')}
          {...form.register('invoiceEmail', { setValueAs: orNull })}
        />
        <Textarea
          label="Billing address"
          autosize
          minRows={2}
          maxLength={CUSTOMER_LIMITS.billingAddress}
          placeholder={'400 Elevator Rd\nSalina, KS 67401'}
          {...field(form, 'billingAddress')}
          {...form.register('billingAddress', { setValueAs: orNull })}
        />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <TextInput
            label="Payment terms (days)"
            inputMode="numeric"
            description={typeof terms === 'number' && Number.isInteger(terms) && terms >= 0 ? paymentTermsLabel(terms) : 'Days to pay an invoice'}
            {...number('paymentTermsDays')}
          />
          <TextInput
            label="Free time (min)"
            inputMode="numeric"
            description={typeof free === 'number' && Number.isInteger(free) && free >= 0 ? `${minutesText(free)}, then detention` : 'Before detention starts'}
            {...number('detentionFreeMinutes')}
          />
          <TextInput label={`Detention rate (${currency}/h)`} inputMode="decimal" description="0: not charged" {...number('detentionRate')} />
        </SimpleGrid>
        <Checkbox
          label="Requires a proof of delivery"
          description="A delivery is not completed without one, unless the office allows it"
          {...form.register('requiresPod')}
        />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          maxLength={CUSTOMER_LIMITS.notes}
          {...field(form, 'notes')}
          {...form.register('notes', { setValueAs: orNull })}
        />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
