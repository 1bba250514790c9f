import { useState } from 'react';
import { Anchor, Button, Card, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '@fleet/api-contract/invoices';
import type { InvoiceAging } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { Fact } from '../../components/fact.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { todayIn, useViewerZone } from '../../lib/dates.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { unparseCsv } from '../../lib/csv.ts';
import { saveCsv } from '../../lib/download.ts';
import { cents, dayText, useLateColor } from './invoice-bits.tsx';
import { useAging } from './invoices-api.ts';

// `/invoices/aging` (issue 70): what each customer owed on a day, by how late: current, 1-30, 31-60,
// 61-90 and over 90 days past due, the largest debts first, with the totals; as CSV too.

type Row = InvoiceAging['customers'][number];

function agingCsv(a: InvoiceAging): string {
  const money = (v: number) => (v / 100).toFixed(2);
  const line = (name: string, r: Omit<Row, 'customerId' | 'customerName'>) => [name, ...AGING_BUCKETS.map((b) => money(r[b])), money(r.total), r.invoices];
  return unparseCsv(
    ['Customer', ...AGING_BUCKETS.map((b) => AGING_BUCKET_LABELS[b]), 'Total', 'Invoices'],
    [...a.customers.map((r) => line(r.customerName, r)), line('Total', a.totals)],
  );
}

export default function AgingPage() {
  const zone = useViewerZone();
  const [params, setParams] = useSearchParams();
  const asOf = params.get('asOf') ?? todayIn(zone);
  const [typed, setTyped] = useState(asOf);
  const q = useAging(asOf);
  const late = useLateColor();
  const a = q.data;

  const choose = (day: string) => {
    setTyped(day);
    if (/^\d{4}-\d{2}-\d{2}$/.test(day)) setParams((prev) => withParams(prev, { asOf: day === todayIn(zone) ? null : day }), { replace: true });
  };
  const money = (v: number, bucket?: string) => (
    <Text
      component="span"
      size="sm"
      c={v === 0 ? 'dimmed' : bucket && bucket !== 'current' ? late : undefined}
      fw={bucket === 'over90' && v > 0 ? 700 : undefined}
    >
      {v === 0 ? '—' : cents(v, a?.currency ?? 'USD')}
    </Text>
  );

  return (
    <>
      <PageHeader
        title="Aging report"
        description="What customers owed on a day, by days past the due date. Drafts and void invoices owe nothing; payments count from the day received."
        breadcrumbs={[{ label: 'Billing' }, { label: 'Invoices', to: '/invoices' }, { label: 'Aging report' }]}
        actions={
          <Button variant="default" leftSection={<IconDownload size={16} />} disabled={!a} onClick={() => a && saveCsv(agingCsv(a), `aging-${a.asOf}.csv`)}>
            Export CSV
          </Button>
        }
      />
      <Card withBorder radius="md" padding="md" mb="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" verticalSpacing="sm">
          <TextInput type="date" label="As of" value={typed} onChange={(e) => choose(e.currentTarget.value)} maw={200} />
          {a && (
            <>
              <Fact label="Owed">
                <Text component="span" fw={700} fz="lg" data-testid="aging-total">
                  {cents(a.totals.total, a.currency)}
                </Text>
              </Fact>
              <Fact label="Past due">{cents(a.totals.total - a.totals.current, a.currency)}</Fact>
              <Fact label="Open invoices">{a.totals.invoices}</Fact>
            </>
          )}
        </SimpleGrid>
      </Card>
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={!!a && a.customers.length === 0}
        emptyTitle="Nothing owed"
        emptyDescription={`No customer owed anything on ${dayText(asOf)}.`}
      >
        {a && (
          <Card withBorder radius="md" padding={0}>
            <Table.ScrollContainer minWidth={720}>
              <Table fz="sm" verticalSpacing={8} horizontalSpacing="md" aria-label={`Aging on ${dayText(a.asOf)}`} striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Customer</Table.Th>
                    {AGING_BUCKETS.map((b) => (
                      <Table.Th key={b} ta="right">
                        {AGING_BUCKET_LABELS[b]}
                      </Table.Th>
                    ))}
                    <Table.Th ta="right">Total</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {a.customers.map((r) => (
                    <Table.Tr key={r.customerId}>
                      <Table.Td>
                        <Anchor component={Link} to={`/invoices?search=${encodeURIComponent(r.customerName)}&view=OPEN`} size="sm">
                          {r.customerName}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {r.invoices} {r.invoices === 1 ? 'invoice' : 'invoices'}
                        </Text>
                      </Table.Td>
                      {AGING_BUCKETS.map((b) => (
                        <Table.Td key={b} ta="right">
                          {money(r[b], b)}
                        </Table.Td>
                      ))}
                      <Table.Td ta="right" fw={600}>
                        {cents(r.total, a.currency)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr>
                    <Table.Th>Total</Table.Th>
                    {AGING_BUCKETS.map((b) => (
                      <Table.Th key={b} ta="right">
                        {cents(a.totals[b], a.currency)}
                      </Table.Th>
                    ))}
                    <Table.Th ta="right">{cents(a.totals.total, a.currency)}</Table.Th>
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
          </Card>
        )}
      </DataState>
    </>
  );
}
