import { useCallback, useState } from 'react';
import { Anchor, Button, Chip, Group, Menu, Stack, Text } from '@mantine/core';
import { IconChartBar, IconDownload, IconFileTypeCsv, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { InvoiceSummary } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { useCan } from '../../lib/registry-api.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { cents, dayText, DueText, InvoiceStatusBadges, useLateColor } from './invoice-bits.tsx';
import { downloadInvoicesCsv, useInvoices } from './invoices-api.ts';

// `/invoices` (issue 70): every invoice with its status, balance and due date, the late ones in red;
// views by status, search by number or customer, the accounting export.

const VIEWS = {
  ALL: { label: 'All', query: {} },
  OPEN: { label: 'Open', query: { status: 'SENT,PARTIALLY_PAID' } },
  OVERDUE: { label: 'Overdue', query: { overdue: 'true' } },
  DRAFT: { label: 'Drafts', query: { status: 'DRAFT' } },
  PAID: { label: 'Paid', query: { status: 'PAID' } },
  VOID: { label: 'Void', query: { status: 'VOID' } },
} as const;
type View = keyof typeof VIEWS;

function useView(): [View, (v: View) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('view');
  const view = raw && raw in VIEWS ? (raw as View) : 'ALL';
  const set = useCallback((v: View) => setParams((prev) => withParams(prev, { view: v === 'ALL' ? null : v, page: null }), { replace: true }), [setParams]);
  return [view, set];
}

export default function InvoicesPage() {
  const [state, setState, query] = useTableState({ sort: 'invoiceDate,desc' });
  const [view, setView] = useView();
  const list = useInvoices({ ...query, ...VIEWS[view].query });
  const navigate = useNavigate();
  const canEdit = useCan('INVOICE_UPDATE');
  const late = useLateColor();
  const [exporting, setExporting] = useState(false);

  const exportCsv = async (per: 'line' | 'invoice') => {
    setExporting(true);
    try {
      await downloadInvoicesCsv({ per, ...('status' in VIEWS[view].query ? VIEWS[view].query : {}) });
    } catch {
      // The API client showed the error.
    } finally {
      setExporting(false);
    }
  };

  const columns: TableColumn<InvoiceSummary>[] = [
    {
      key: 'number',
      header: 'Invoice',
      sortable: true,
      primary: true,
      render: (i) => (
        <Anchor component={Link} to={`/invoices/${i.id}`} size="sm" fw={600} onClick={(e) => e.stopPropagation()}>
          {i.number}
        </Anchor>
      ),
    },
    { key: 'customer', header: 'Customer', sortable: true, render: (i) => i.customerName },
    { key: 'invoiceDate', header: 'Date', sortable: true, render: (i) => <span style={{ whiteSpace: 'nowrap' }}>{dayText(i.invoiceDate)}</span> },
    { key: 'dueDate', header: 'Due', sortable: true, render: (i) => <DueText invoice={i} /> },
    { key: 'total', header: 'Total', sortable: true, align: 'right', render: (i) => cents(i.totalCents, i.currency) },
    {
      key: 'balance',
      header: 'Balance',
      sortable: true,
      align: 'right',
      render: (i) => (
        <Text size="sm" fw={i.balanceCents > 0 ? 600 : undefined} c={i.overdue ? late : i.balanceCents > 0 ? undefined : 'dimmed'} component="span">
          {cents(i.balanceCents, i.currency)}
        </Text>
      ),
    },
    { key: 'status', header: 'Status', sortable: true, render: (i) => <InvoiceStatusBadges status={i.status} overdue={i.overdue} /> },
    { key: 'loads', header: 'Loads', hiddenByDefault: true, render: (i) => i.loadNumbers.join(', ') },
  ];

  return (
    <>
      <PageHeader
        title="Invoices"
        description="Bills for delivered loads: e-mail them with the proof of delivery, record what the customers pay, and follow what is late."
        breadcrumbs={[{ label: 'Billing' }, { label: 'Invoices' }]}
        actions={
          <>
            <Button variant="default" component={Link} to="/invoices/aging" leftSection={<IconChartBar size={16} />}>
              Aging report
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting}>
                  Export CSV
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void exportCsv('line')}>
                  One row per line (QuickBooks, Xero)
                </Menu.Item>
                <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void exportCsv('invoice')}>
                  One row per invoice
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {canEdit && (
              <Button component={Link} to="/invoices/new" leftSection={<IconPlus size={16} />}>
                New invoice
              </Button>
            )}
          </>
        }
      />
      <Stack gap="sm" mb="sm">
        <Chip.Group value={view} onChange={(v) => setView(v as View)}>
          <Group gap={6} role="radiogroup" aria-label="Show">
            {(Object.keys(VIEWS) as View[]).map((v) => (
              <Chip key={v} value={v} size="sm" variant="outline">
                {VIEWS[v].label}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Stack>
      <ServerTable
        id="invoices"
        label="Invoices"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(i) => i.id}
        onRowClick={(i) => void navigate(`/invoices/${i.id}`)}
        searchPlaceholder="Invoice number or customer"
        emptyTitle={view === 'OVERDUE' ? 'Nothing is late' : view === 'ALL' ? 'No invoices yet' : `No ${VIEWS[view].label.toLowerCase()} invoices`}
        emptyDescription={view === 'ALL' ? 'Make one from a customer’s delivered loads.' : undefined}
        emptyAction={
          view === 'ALL' && canEdit ? (
            <Button component={Link} to="/invoices/new" leftSection={<IconPlus size={16} />}>
              New invoice
            </Button>
          ) : undefined
        }
      />
    </>
  );
}
