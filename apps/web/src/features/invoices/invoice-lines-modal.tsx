import { useState } from 'react';
import { ActionIcon, Button, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { INVOICE_LINE_LABELS, type InvoiceLineKind } from '@fleet/api-contract/invoices';
import type { Invoice } from '@fleet/api-contract';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { cents } from './invoice-bits.tsx';
import { updateLines, useInvoiceMutation } from './invoices-api.ts';

// A draft's lines edited before it is sent (issue 70): a line's words or amount changed, a line
// taken off, one added (a pallet exchange, a discount), the notes printed under the charges.

interface Row {
  key: string;
  id?: string;
  kind: InvoiceLineKind;
  loadId: string | null;
  stopId: string | null;
  loadNumber: string | null;
  description: string;
  amount: number | string;
}

let added = 0;
const amountOf = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v.replace(/[^0-9.-]/g, '')));

export function InvoiceLinesModal({ invoice: inv, onClose }: { invoice: Invoice; onClose: () => void }) {
  const [rows, setRows] = useState<Row[]>(() =>
    inv.lines.map((l) => ({
      key: l.id,
      id: l.id,
      kind: l.kind,
      loadId: l.loadId,
      stopId: l.stopId,
      loadNumber: l.loadNumber,
      description: l.description,
      amount: l.amountCents / 100,
    })),
  );
  const [notes, setNotes] = useState(inv.notes ?? '');
  const [error, setError] = useState<unknown>(null);
  const save = useInvoiceMutation(updateLines);
  const set = (key: string, patch: Partial<Row>) => setRows((prev) => prev.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const invalid = rows.length === 0 || rows.some((r) => !r.description.trim() || !Number.isFinite(amountOf(r.amount)));
  const total = rows.reduce((s, r) => s + (Number.isFinite(amountOf(r.amount)) ? Math.round(amountOf(r.amount) * 100) : 0), 0);

  const submit = () =>
    save.mutate(
      {
        id: inv.id,
        body: {
          lines: rows.map((r) => ({
            ...(r.id ? { id: r.id } : {}),
            kind: r.kind,
            loadId: r.loadId,
            stopId: r.stopId,
            description: r.description.trim(),
            amountCents: Math.round(amountOf(r.amount) * 100),
          })),
          notes: notes.trim() || null,
        },
      },
      {
        onSuccess: (x) => {
          notify({ type: 'success', title: `Invoice ${x.number} saved`, timeout: 4000 });
          onClose();
        },
        onError: setError,
      },
    );

  return (
    <Modal opened onClose={onClose} title={`Edit the lines of ${inv.number}`} size="xl">
      <Stack gap="sm">
        {rows.map((r) => (
          <Group key={r.key} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={`${INVOICE_LINE_LABELS[r.kind]}${r.loadNumber ? `, ${r.loadNumber}` : ''}`}
              value={r.description}
              maxLength={300}
              onChange={(e) => set(r.key, { description: e.currentTarget.value })}
              error={r.description.trim() ? undefined : 'Say what the line is for'}
            />
            <NumberInput
              w={140}
              label="Amount"
              prefix={inv.currency === 'USD' ? '$' : undefined}
              decimalScale={2}
              thousandSeparator=","
              value={r.amount}
              onChange={(v) => set(r.key, { amount: v })}
              error={Number.isFinite(amountOf(r.amount)) ? undefined : 'An amount'}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={26}
              aria-label={`Take off the line “${r.description}”`}
              onClick={() => setRows((prev) => prev.filter((x) => x.key !== r.key))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() =>
              setRows((prev) => [...prev, { key: `new-${++added}`, kind: 'OTHER', loadId: null, stopId: null, loadNumber: null, description: '', amount: '' }])
            }
          >
            Add a line
          </Button>
          <Text fw={700}>Total {cents(total, inv.currency)}</Text>
        </Group>
        <Textarea
          label="Notes"
          description="Printed under the charges."
          autosize
          minRows={2}
          maxLength={1000}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={save.isPending} disabled={invalid} onClick={submit}>
            Save lines
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
