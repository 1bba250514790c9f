import { useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Anchor, Button, Card, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconCash, IconFileTypePdf, IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { INVOICE_LINE_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@fleet/api-contract/invoices';
import type { Invoice } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Fact } from '../../components/fact.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { describeError } from '../../lib/api-client.ts';
import { formatDateTime, formatShortDateTime, todayIn, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { cents, dayText, DueText, InvoiceStatusBadges } from './invoice-bits.tsx';
import { InvoiceLinesModal } from './invoice-lines-modal.tsx';
import { downloadInvoicePdf, recordPayment, removePayment, sendInvoice, useInvoice, useInvoiceMutation, voidInvoice } from './invoices-api.ts';

// `/invoices/:id` (issue 70): the invoice as the customer gets it (loads, lines, payments, balance),
// its PDF, sending it with a confirmation, recording a payment, and voiding a mistaken one.

export default function InvoicePage() {
  const { id = '' } = useParams();
  const q = useInvoice(id);
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {q.data && <InvoiceView invoice={q.data} />}
    </DataState>
  );
}

function InvoiceView({ invoice: inv }: { invoice: Invoice }) {
  const zone = useViewerZone();
  const canEdit = useCan('INVOICE_UPDATE');
  const canSeeLoads = useCan('LOAD_LIST');
  const send = useInvoiceMutation(sendInvoice);
  const voiding = useInvoiceMutation(voidInvoice);
  const [pdfBusy, setPdfBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const isVoid = inv.status === 'VOID';
  const open = !isVoid && inv.balanceCents > 0;

  const pdf = async () => {
    setPdfBusy(true);
    try {
      await downloadInvoicePdf(inv);
    } catch {
      // The API client showed the error.
    } finally {
      setPdfBusy(false);
    }
  };
  const askSend = async () => {
    if (!inv.invoiceEmail) return;
    const again = !!inv.sentAt;
    const ok = await confirmAction({
      title: `${again ? 'Send again' : 'Send'} invoice ${inv.number}?`,
      message: `The invoice PDF, with the proof of delivery, is e-mailed to ${inv.invoiceEmail}${inv.status === 'DRAFT' ? ' and the invoice is marked sent' : ''}.`,
      confirmLabel: again ? 'Send again' : 'Send',
      danger: false,
    });
    if (!ok) return;
    send.mutate(inv.id, {
      onSuccess: (x) => notify({ type: 'success', title: `Invoice ${x.number} sent to ${x.sentTo}`, timeout: 4000 }),
      onError: (err) => notify({ type: 'alert', title: describeError(err).title, isClosable: true, timeout: 10_000 }),
    });
  };
  const askVoid = async () => {
    const ok = await confirmAction({
      title: `Void invoice ${inv.number}?`,
      message: 'It stays listed as void with its number, and its loads can be invoiced again.',
      confirmLabel: 'Void invoice',
    });
    if (!ok) return;
    voiding.mutate(
      { id: inv.id, reason: null },
      {
        onSuccess: (x) => notify({ type: 'success', title: `Invoice ${x.number} voided`, timeout: 4000 }),
        onError: (err) => notify({ type: 'alert', title: describeError(err).title, isClosable: true, timeout: 10_000 }),
      },
    );
  };

  return (
    <>
      <PageHeader
        title={`Invoice ${inv.number}`}
        description={`${inv.customerName} · ${inv.loads.length} ${inv.loads.length === 1 ? 'load' : 'loads'}`}
        breadcrumbs={[{ label: 'Billing' }, { label: 'Invoices', to: '/invoices' }, { label: inv.number }]}
        actions={
          <>
            <Button variant="default" leftSection={<IconFileTypePdf size={16} />} loading={pdfBusy} onClick={() => void pdf()}>
              PDF
            </Button>
            {canEdit && !isVoid && (
              <Button leftSection={<IconSend size={16} />} disabled={!inv.invoiceEmail} loading={send.isPending} onClick={() => void askSend()}>
                {inv.sentAt ? 'Send again' : 'Send'}
              </Button>
            )}
            {canEdit && !isVoid && inv.paidCents === 0 && (
              <Button variant="default" color="red" leftSection={<IconBan size={16} />} loading={voiding.isPending} onClick={() => void askVoid()}>
                Void
              </Button>
            )}
          </>
        }
      />
      <Stack gap="md">
        {canEdit && !isVoid && !inv.invoiceEmail && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="No e-mail for invoices">
            {inv.customerName} has no e-mail address for invoices: add one to the customer to send this invoice, or download the PDF.
          </Alert>
        )}
        {isVoid && (
          <Alert color="gray" variant="light" icon={<IconBan size={18} />} title="Void">
            Voided {inv.voidedAt ? formatDateTime(inv.voidedAt, zone) : ''}
            {inv.voidReason ? `: ${inv.voidReason}` : ''}. Its loads can be invoiced again.
          </Alert>
        )}
        <Card withBorder radius="md" padding="md">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Fact label="Status">
              <InvoiceStatusBadges status={inv.status} overdue={inv.overdue} />
            </Fact>
            <Fact label="Invoice date">{dayText(inv.invoiceDate)}</Fact>
            <Fact label="Due">
              <DueText invoice={inv} />
            </Fact>
            <Fact label="Terms">{inv.termsDays === 0 ? 'Due on receipt' : `Net ${inv.termsDays}`}</Fact>
            <Fact label="Total">{cents(inv.totalCents, inv.currency)}</Fact>
            <Fact label="Paid">{cents(inv.paidCents, inv.currency)}</Fact>
            <Fact label="Balance">
              <Text component="span" fw={700} fz="lg" data-testid="invoice-balance">
                {cents(inv.balanceCents, inv.currency)}
              </Text>
            </Fact>
            <Fact label="Sent">{inv.sentAt ? `${formatShortDateTime(inv.sentAt, zone)}${inv.sentTo ? ` to ${inv.sentTo}` : ''}` : 'Not yet'}</Fact>
          </SimpleGrid>
        </Card>

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="xs">
              Bill to
            </Title>
            <Text size="sm" fw={600}>
              {inv.customerName}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }} c={inv.billingAddress ? undefined : 'dimmed'}>
              {inv.billingAddress ?? 'No billing address on file'}
            </Text>
            <Text size="sm" mt="xs" c="dimmed">
              Invoices to: {inv.invoiceEmail ?? 'no e-mail'}
            </Text>
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="xs">
              Loads
            </Title>
            <Table.ScrollContainer minWidth={420}>
              <Table fz="sm" verticalSpacing={4} aria-label="Loads">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Load</Table.Th>
                    <Table.Th>Lane</Table.Th>
                    <Table.Th>Delivered</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {inv.loads.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {canSeeLoads ? (
                          <Anchor component={Link} to={`/dispatch/loads/${l.id}`} size="sm">
                            {l.number}
                          </Anchor>
                        ) : (
                          l.number
                        )}
                      </Table.Td>
                      <Table.Td>{[l.origin, l.destination].filter(Boolean).join(' → ') || '—'}</Table.Td>
                      <Table.Td>{l.deliveredAt ? formatShortDateTime(l.deliveredAt, zone) : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </SimpleGrid>

        <Card withBorder radius="md" padding="md">
          <Group justify="space-between" mb="xs">
            <Title order={2} fz="md">
              Charges
            </Title>
            {canEdit && inv.status === 'DRAFT' && (
              <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)}>
                Edit lines
              </Button>
            )}
          </Group>
          <Table.ScrollContainer minWidth={480}>
            <Table fz="sm" verticalSpacing={6} aria-label="Charges">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {inv.lines.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{INVOICE_LINE_LABELS[l.kind]}</Table.Td>
                    <Table.Td>{l.description}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {cents(l.amountCents, inv.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th colSpan={2}>Total</Table.Th>
                  <Table.Th ta="right">{cents(inv.totalCents, inv.currency)}</Table.Th>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
          {inv.notes && (
            <Text size="sm" c="dimmed" mt="xs">
              {inv.notes}
            </Text>
          )}
        </Card>

        <Payments invoice={inv} canEdit={canEdit && open} canRemove={canEdit && !isVoid} />
      </Stack>
      {editing && <InvoiceLinesModal invoice={inv} onClose={() => setEditing(false)} />}
    </>
  );
}

function Payments({ invoice: inv, canEdit, canRemove }: { invoice: Invoice; canEdit: boolean; canRemove: boolean }) {
  const remove = useInvoiceMutation(removePayment);
  const askRemove = async (p: Invoice['payments'][number]) => {
    const ok = await confirmAction({
      title: 'Remove this payment?',
      message: `The payment of ${cents(p.amountCents, inv.currency)} received ${dayText(p.receivedOn)} is taken off invoice ${inv.number}.`,
      confirmLabel: 'Remove payment',
    });
    if (ok) remove.mutate({ id: inv.id, paymentId: p.id });
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} fz="md" mb="xs">
        Payments
      </Title>
      {inv.payments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No payment recorded yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table fz="sm" verticalSpacing={4} aria-label="Payments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Received</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>Reference</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                {canRemove && (
                  <Table.Th w={40}>
                    <span aria-hidden />
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {inv.payments.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{dayText(p.receivedOn)}</Table.Td>
                  <Table.Td>{p.method ? PAYMENT_METHOD_LABELS[p.method] : '—'}</Table.Td>
                  <Table.Td>{p.reference ?? '—'}</Table.Td>
                  <Table.Td ta="right">{cents(p.amountCents, inv.currency)}</Table.Td>
                  {canRemove && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove the payment of ${cents(p.amountCents, inv.currency)}`}
                        onClick={() => void askRemove(p)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canEdit && <PaymentForm invoice={inv} />}
    </Card>
  );
}

function PaymentForm({ invoice: inv }: { invoice: Invoice }) {
  const zone = useViewerZone();
  const [amount, setAmount] = useState<number | string>(inv.balanceCents / 100);
  const [receivedOn, setReceivedOn] = useState(() => todayIn(zone));
  const [method, setMethod] = useState<PaymentMethod | ''>('');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<unknown>(null);
  const save = useInvoiceMutation(recordPayment);
  // Mantine answers a number, or text where it keeps the typed form ("5000.00" with fixed decimals).
  const amountCents = Math.round((typeof amount === 'number' ? amount : amount.trim() === '' ? NaN : Number(amount.replace(/[^0-9.-]/g, ''))) * 100);
  const amountError =
    !Number.isFinite(amountCents) || amountCents <= 0
      ? 'Enter the amount received'
      : amountCents > inv.balanceCents
        ? `At most the balance, ${cents(inv.balanceCents, inv.currency)}`
        : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (amountError) return;
    setError(null);
    save.mutate(
      { id: inv.id, body: { amountCents, receivedOn, method: method || null, reference: reference.trim() || null } },
      {
        onSuccess: (x) => {
          notify({ type: 'success', title: x.status === 'PAID' ? `Invoice ${x.number} is paid` : `Payment recorded on ${x.number}`, timeout: 4000 });
          setAmount(x.balanceCents / 100);
          setReference('');
        },
        onError: setError,
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Record a payment">
      <Title order={3} fz="sm" mt="md" mb="xs">
        Record a payment
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <NumberInput
          label="Amount"
          prefix={inv.currency === 'USD' ? '$' : undefined}
          suffix={inv.currency === 'USD' ? undefined : ` ${inv.currency}`}
          decimalScale={2}
          fixedDecimalScale
          thousandSeparator=","
          min={0}
          value={amount}
          onChange={setAmount}
          error={amount === '' ? undefined : amountError}
          required
        />
        <TextInput type="date" label="Received on" value={receivedOn} max={todayIn(zone)} onChange={(e) => setReceivedOn(e.currentTarget.value)} required />
        <NativeSelect
          label="Method"
          value={method}
          onChange={(e) => setMethod(e.currentTarget.value as PaymentMethod | '')}
          data={[{ value: '', label: 'Not said' }, ...PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))]}
        />
        <TextInput
          label="Reference"
          placeholder="Check or transfer number"
          maxLength={80}
          value={reference}
          onChange={(e) => setReference(e.currentTarget.value)}
        />
      </SimpleGrid>
      <ErrorAlert error={error} />
      <Group justify="flex-end" mt="sm">
        <Button type="submit" leftSection={<IconCash size={16} />} loading={save.isPending} disabled={!!amountError}>
          Record payment
        </Button>
      </Group>
    </form>
  );
}
