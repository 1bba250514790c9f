import { Badge, Group, Text, useComputedColorScheme } from '@mantine/core';
import { INVOICE_STATUS_LABELS, type InvoiceStatus, type InvoiceSummary } from '@fleet/api-contract/invoices';
import tones from '../../components/badge-tones.module.css';
import { formatMoney } from '../../lib/money.ts';

// Small pieces the invoice screens share (issue 70): the status badge, money in cents, the due date
// with how late it is.

const STATUS_TONES: Record<InvoiceStatus, string> = {
  DRAFT: tones.muted!,
  SENT: tones.muted!,
  PARTIALLY_PAID: tones.warn!,
  PAID: tones.ok!,
  VOID: tones.muted!,
};
const STATUS_COLORS: Record<InvoiceStatus, string> = {
  DRAFT: 'gray',
  SENT: 'blue',
  PARTIALLY_PAID: 'orange',
  PAID: 'green',
  VOID: 'gray',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <Badge variant="outline" radius="sm" color={STATUS_COLORS[status]} className={STATUS_TONES[status]} data-status={status}>
      {INVOICE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The status, and beside it "Overdue" when money owed is past its due date. */
export function InvoiceStatusBadges({ status, overdue }: { status: InvoiceStatus; overdue: boolean }) {
  return (
    <Group gap={4} wrap="nowrap" component="span">
      <InvoiceStatusBadge status={status} />
      {overdue && (
        <Badge variant="outline" radius="sm" color="red" className={tones.danger} data-status="OVERDUE">
          Overdue
        </Badge>
      )}
    </Group>
  );
}

/** "$1,250.00" from cents. */
export const cents = (value: number, currency: string) => formatMoney(value / 100, currency);

const DAY_TEXT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
/** "Nov 5, 2026": an invoice's day as it is (no time zone moves it). */
export const dayText = (day: string) => DAY_TEXT.format(new Date(`${day}T12:00:00Z`));

/** The due date, and in red how many days late an open invoice is. */
export function DueText({ invoice }: { invoice: Pick<InvoiceSummary, 'dueDate' | 'overdue' | 'daysPastDue'> }) {
  const late = useLateColor();
  return (
    <Text size="sm" c={invoice.overdue ? late : undefined} fw={invoice.overdue ? 600 : undefined} component="span">
      {dayText(invoice.dueDate)}
      {invoice.overdue && ` · ${invoice.daysPastDue} ${invoice.daysPastDue === 1 ? 'day' : 'days'} late`}
    </Text>
  );
}

/** Red that reads on either theme (AA contrast, on a striped or hovered row too): late money. */
export function useLateColor(): string {
  return useComputedColorScheme('light') === 'dark' ? 'red.4' : 'red.9';
}
