import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Card, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { BillableLoad } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DataState } from '../../components/data-state.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Fact } from '../../components/fact.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { addDays, formatShortDateTime, todayIn, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { cents, dayText } from './invoice-bits.tsx';
import { createInvoice, useBillableLoads, useInvoiceMutation } from './invoices-api.ts';

// `/invoices/new` (issue 70): pick a customer, tick its delivered loads not yet invoiced, see what the
// draft comes to (detention included) and when it falls due, and make it.

interface CustomerLoads {
  id: string;
  name: string;
  termsDays: number;
  loads: BillableLoad[];
}

function byCustomer(loads: readonly BillableLoad[]): CustomerLoads[] {
  const out = new Map<string, CustomerLoads>();
  for (const l of loads) {
    const c = out.get(l.customerId) ?? { id: l.customerId, name: l.customerName, termsDays: l.termsDays, loads: [] };
    c.loads.push(l);
    out.set(l.customerId, c);
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export default function InvoiceNewPage() {
  const q = useBillableLoads();
  const customers = useMemo(() => byCustomer(q.data ?? []), [q.data]);
  return (
    <>
      <PageHeader
        title="New invoice"
        description="An invoice bills one customer’s delivered loads. It starts as a draft: look at it, then send it."
        breadcrumbs={[{ label: 'Billing' }, { label: 'Invoices', to: '/invoices' }, { label: 'New invoice' }]}
      />
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={customers.length === 0}
        emptyTitle="No delivered loads to invoice"
        emptyDescription="Every delivered load of a customer from the customer list is on an invoice already. Loads appear here once delivered."
        emptyAction={
          <Button variant="default" component={Link} to="/invoices">
            Back to invoices
          </Button>
        }
      >
        <NewInvoiceForm customers={customers} />
      </DataState>
    </>
  );
}

function NewInvoiceForm({ customers }: { customers: CustomerLoads[] }) {
  const zone = useViewerZone();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const customer = customers.find((c) => c.id === params.get('customer')) ?? customers[0]!;
  const [picked, setPicked] = useState<Set<string>>(() => new Set(customer.loads.map((l) => l.id)));
  const [invoiceDate, setInvoiceDate] = useState(() => todayIn(zone));
  const [error, setError] = useState<unknown>(null);
  const create = useInvoiceMutation(createInvoice);

  const chooseCustomer = (id: string) => {
    const next = customers.find((c) => c.id === id);
    setParams((prev) => withParams(prev, { customer: id }), { replace: true });
    setPicked(new Set(next?.loads.map((l) => l.id) ?? []));
    setError(null);
  };
  const chosen = customer.loads.filter((l) => picked.has(l.id));
  const total = chosen.reduce((s, l) => s + l.amountCents, 0);
  const detention = chosen.reduce((s, l) => s + l.detentionCents, 0);
  const currency = chosen[0]?.currency ?? customer.loads[0]?.currency ?? 'USD';
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(invoiceDate);
  const allPicked = picked.size === customer.loads.length;
  const toggle = (id: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = () =>
    create.mutate(
      { loadIds: chosen.map((l) => l.id), invoiceDate },
      {
        onSuccess: (inv) => {
          notify({ type: 'success', title: `Invoice ${inv.number} drafted`, timeout: 4000 });
          void navigate(`/invoices/${inv.id}`);
        },
        onError: setError,
      },
    );

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NativeSelect
            label="Customer"
            value={customer.id}
            onChange={(e) => chooseCustomer(e.currentTarget.value)}
            data={customers.map((c) => ({ value: c.id, label: `${c.name} (${c.loads.length} ${c.loads.length === 1 ? 'load' : 'loads'})` }))}
          />
          <TextInput
            type="date"
            label="Invoice date"
            description={
              validDate
                ? `Due ${dayText(addDays(invoiceDate, customer.termsDays))} (${customer.termsDays === 0 ? 'on receipt' : `net ${customer.termsDays}`})`
                : 'A day like 2026-11-30'
            }
            value={invoiceDate}
            onChange={(e) => setInvoiceDate(e.currentTarget.value)}
            error={validDate ? undefined : 'Choose the invoice date'}
          />
        </SimpleGrid>
      </Card>

      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} fz="md">
            Delivered loads not yet invoiced
          </Title>
          <Checkbox
            label="All"
            checked={allPicked}
            indeterminate={picked.size > 0 && !allPicked}
            onChange={() => setPicked(allPicked ? new Set() : new Set(customer.loads.map((l) => l.id)))}
          />
        </Group>
        <Table.ScrollContainer minWidth={560}>
          <Table fz="sm" verticalSpacing={6} aria-label={`Delivered loads of ${customer.name}`} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36}>
                  <VisuallyHidden>Invoice</VisuallyHidden>
                </Table.Th>
                <Table.Th>Load</Table.Th>
                <Table.Th>Lane</Table.Th>
                <Table.Th>Delivered</Table.Th>
                <Table.Th>
                  <abbr title="Proof of delivery">POD</abbr>
                </Table.Th>
                <Table.Th ta="right">Detention</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {customer.loads.map((l) => (
                <Table.Tr key={l.id} onClick={() => toggle(l.id)} style={{ cursor: 'pointer' }}>
                  <Table.Td>
                    <Checkbox
                      checked={picked.has(l.id)}
                      onChange={() => toggle(l.id)}
                      onClick={(e) => e.stopPropagation()}
                      aria-label={`Invoice load ${l.number}`}
                    />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor component={Link} to={`/dispatch/loads/${l.id}`} size="sm" onClick={(e) => e.stopPropagation()}>
                      {l.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{[l.origin, l.destination].filter(Boolean).join(' → ') || '—'}</Table.Td>
                  <Table.Td>{l.deliveredAt ? formatShortDateTime(l.deliveredAt, zone) : '—'}</Table.Td>
                  <Table.Td>
                    {l.hasPod ? (
                      <Badge variant="outline" radius="sm" color="green" className={tones.ok}>
                        Attached
                      </Badge>
                    ) : (
                      <Badge variant="outline" radius="sm" color="orange" className={tones.warn}>
                        Missing
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{l.detentionCents ? cents(l.detentionCents, l.currency) : '—'}</Table.Td>
                  <Table.Td ta="right">{cents(l.amountCents, l.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>

      <Card withBorder radius="md" padding="md" aria-label="Preview">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" mb="md">
          <Fact label="Customer">{customer.name}</Fact>
          <Fact label="Loads">{chosen.length}</Fact>
          <Fact label="Detention">{cents(detention, currency)}</Fact>
          <Fact label="Total">
            <Text component="span" fw={700} fz="lg" data-testid="invoice-preview-total">
              {cents(total, currency)}
            </Text>
          </Fact>
        </SimpleGrid>
        {chosen.some((l) => !l.hasPod) && (
          <Text size="sm" c="dimmed" mb="sm">
            A load without a proof of delivery is invoiced all the same; its PDF goes without one.
          </Text>
        )}
        <ErrorAlert error={error} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" component={Link} to="/invoices">
            Cancel
          </Button>
          <Button leftSection={<IconFileInvoice size={16} />} disabled={chosen.length === 0 || !validDate} loading={create.isPending} onClick={submit}>
            Create draft invoice
          </Button>
        </Group>
      </Card>
    </Stack>
  );
}
