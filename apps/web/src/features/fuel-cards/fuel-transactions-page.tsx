import { useCallback, useState } from 'react';
import { Badge, Button, Chip, Group, Modal, NativeSelect, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconCheck, IconCreditCard, IconFileImport, IconFlag } from '@tabler/icons-react';
import { FUEL_TRANSACTION_CHECK_LABELS, L_PER_US_GALLON, type FuelReviewDecision, type FuelTransaction, type FuelTransactionCheck } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatFuelVolume, useUnits } from '../../lib/units.ts';
import { reviewTransaction, useFuelCardMutation, useFuelTransactions } from './fuel-cards-api.ts';
import { FuelTransactionImport } from './fuel-transaction-import.tsx';
import { AssignCardModal, FuelCardsDrawer } from './fuel-cards-drawer.tsx';
import { FuelTabs } from './fuel-tabs.tsx';
import tones from '../../components/badge-tones.module.css';

// The review queue of fuel-card transactions (issue 68): each one checked against where its truck
// was and what its tank holds; a reviewer accepts or disputes what was not verified, with a note.

const TO_REVIEW: FuelTransactionCheck[] = ['LOCATION_MISMATCH', 'NO_POSITION', 'OVER_TANK', 'NO_FILL_SEEN', 'NO_VEHICLE'];
const VIEWS = ['TO_REVIEW', 'ALL', 'VERIFIED', ...TO_REVIEW] as const;
type View = (typeof VIEWS)[number];

const BADGE: Record<FuelTransactionCheck, { color: string; tone: string | undefined }> = {
  VERIFIED: { color: 'green', tone: tones.ok },
  LOCATION_MISMATCH: { color: 'red', tone: tones.danger },
  OVER_TANK: { color: 'red', tone: tones.danger },
  NO_POSITION: { color: 'gray', tone: tones.muted },
  NO_FILL_SEEN: { color: 'orange', tone: tones.warn },
  NO_VEHICLE: { color: 'orange', tone: tones.warn },
};

function useParam(name: string): [string | null, (v: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback((v: string | null) => setParams((prev) => withParams(prev, { [name]: v, page: null }), { replace: true }), [name, setParams]);
  return [params.get(name), set];
}

const money = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US', { style: 'currency', currency: 'USD' }));

/** `/fuel-transactions`: the card transactions with their verification, filtered by result and review. */
export default function FuelTransactionsPage() {
  const [state, setState, query] = useTableState({ sort: 'time,desc' });
  const [viewParam, setView] = useParam('view');
  const [reviewParam, setReview] = useParam('review');
  const view: View = VIEWS.includes(viewParam as View) ? (viewParam as View) : 'TO_REVIEW';
  const review = reviewParam ?? (view === 'TO_REVIEW' ? 'PENDING' : 'ANY');
  const units = useUnits();
  const canReview = useCan('IFTA_UPDATE');
  const [reviewing, setReviewing] = useState<{ t: FuelTransaction; decision: FuelReviewDecision } | null>(null);
  const [importing, setImporting] = useState(false);
  const [giving, setGiving] = useState<string | null>(null);
  const [cards, setCards] = useState(false);
  const verification = view === 'ALL' ? undefined : view === 'TO_REVIEW' ? TO_REVIEW.join(',') : view;
  const list = useFuelTransactions({ ...query, verification, review: review === 'ANY' ? undefined : review });
  const counts = list.data?.counts;
  const countOf = (v: View) =>
    !counts
      ? null
      : v === 'ALL'
        ? Object.values(counts).reduce((a, n) => a + n, 0)
        : v === 'TO_REVIEW'
          ? TO_REVIEW.reduce((a, c) => a + counts[c], 0)
          : counts[v];

  const columns: TableColumn<FuelTransaction>[] = [
    { key: 'time', header: 'Time', sortable: true, primary: true, render: (t) => formatDateTime(t.time) },
    {
      key: 'unitNumber',
      header: 'Truck',
      sortable: true,
      render: (t) => (
        <Stack gap={0}>
          <Text size="sm">{t.vehicleUnitNumber ?? t.unitNumber ?? '—'}</Text>
          {(t.cardNumberLast4 || t.driverName) && (
            <Text size="xs" c="dimmed">
              {[t.cardNumberLast4 ? `card …${t.cardNumberLast4}` : null, t.driverName].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'station',
      header: 'Station',
      render: (t) => [t.merchant, [t.city, t.state].filter(Boolean).join(', ')].filter(Boolean).join(' · ') || '—',
    },
    {
      key: 'quantity',
      header: 'Quantity',
      sortable: true,
      align: 'right',
      render: (t) => formatFuelVolume(t.unit === 'GAL' ? t.quantity * L_PER_US_GALLON : t.quantity, units),
    },
    { key: 'total', header: 'Total', sortable: true, align: 'right', render: (t) => money(t.total) },
    {
      key: 'verification',
      header: 'Verification',
      sortable: true,
      render: (t) => (
        <Badge variant="light" radius="sm" color={BADGE[t.verification].color} className={BADGE[t.verification].tone}>
          {FUEL_TRANSACTION_CHECK_LABELS[t.verification]}
        </Badge>
      ),
    },
    {
      key: 'reason',
      header: 'Reason',
      width: 360,
      render: (t) => (
        <Text size="sm" style={{ whiteSpace: 'normal' }}>
          {t.reason}
        </Text>
      ),
    },
    {
      key: 'review',
      header: 'Review',
      render: (t) =>
        t.review ? (
          <Tooltip label={[t.review.note, t.review.by && `by ${t.review.by}`, formatDateTime(t.review.at)].filter(Boolean).join(' · ')} multiline maw={320}>
            <Badge
              variant="light"
              radius="sm"
              color={t.review.decision === 'ACCEPTED' ? 'green' : 'red'}
              className={t.review.decision === 'ACCEPTED' ? tones.ok : tones.danger}
            >
              {t.review.decision === 'ACCEPTED' ? 'Accepted' : 'Disputed'}
            </Badge>
          </Tooltip>
        ) : canReview && t.verification !== 'VERIFIED' ? (
          <Group gap={4} wrap="wrap">
            {t.verification === 'NO_VEHICLE' && t.cardNumberLast4 && (
              <Button
                size="compact-xs"
                variant="default"
                leftSection={<IconCreditCard size={14} />}
                aria-label={`Give card ${t.cardNumberLast4}`}
                onClick={(e) => {
                  e.stopPropagation();
                  setGiving(t.cardNumberLast4);
                }}
              >
                Give card
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="default"
              leftSection={<IconCheck size={14} />}
              aria-label={`Accept transaction ${t.transactionId}`}
              onClick={(e) => {
                e.stopPropagation();
                setReviewing({ t, decision: 'ACCEPTED' });
              }}
            >
              Accept
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              color="red"
              leftSection={<IconFlag size={14} />}
              aria-label={`Dispute transaction ${t.transactionId}`}
              onClick={(e) => {
                e.stopPropagation();
                setReviewing({ t, decision: 'DISPUTED' });
              }}
            >
              Dispute
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'transactionId',
      header: 'Transaction',
      sortable: true,
      hiddenByDefault: true,
      render: (t) => (
        <Text ff="monospace" size="xs">
          {t.transactionId}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Fuel transactions"
        description="Fuel-card purchases checked against where the truck was and what its tank holds. Each one counts for IFTA; review what was not verified."
        breadcrumbs={[{ label: 'Analytics' }, { label: 'Fuel costs (IFTA)', to: '/ifta' }, { label: 'Fuel transactions' }]}
        actions={
          <>
            <Button variant="default" leftSection={<IconCreditCard size={16} />} onClick={() => setCards(true)}>
              Fuel cards
            </Button>
            {canReview && (
              <Button leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                Import card export
              </Button>
            )}
          </>
        }
      />
      <FuelTabs />
      <Stack gap="sm" mb="sm">
        <Chip.Group value={view} onChange={(v) => setView(v === 'TO_REVIEW' ? null : (v as string))}>
          <Group gap={6} role="radiogroup" aria-label="Verification">
            {VIEWS.map((v) => {
              const n = countOf(v);
              const label = v === 'TO_REVIEW' ? 'Not verified' : v === 'ALL' ? 'All' : FUEL_TRANSACTION_CHECK_LABELS[v];
              return (
                <Chip key={v} value={v} size="sm" variant="outline">
                  {n === null ? label : `${label} (${n.toLocaleString('en-US')})`}
                </Chip>
              );
            })}
          </Group>
        </Chip.Group>
        <Group gap="sm">
          <NativeSelect
            label="Review"
            size="xs"
            value={review}
            onChange={(e) => setReview(e.currentTarget.value)}
            data={[
              { value: 'PENDING', label: 'Not reviewed' },
              { value: 'ACCEPTED', label: 'Accepted' },
              { value: 'DISPUTED', label: 'Disputed' },
              { value: 'ANY', label: 'Any' },
            ]}
            w={160}
          />
        </Group>
      </Stack>
      <ServerTable
        id="fuel-transactions"
        label="Fuel transactions"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(t) => t.id}
        searchPlaceholder="Transaction, merchant, city, unit"
        emptyTitle={view === 'TO_REVIEW' ? 'Nothing to review' : 'No fuel transactions'}
        emptyDescription={
          view === 'TO_REVIEW'
            ? 'Every card transaction shown here was verified against its truck or reviewed.'
            : 'Card processors post them to the API, or import a WEX, EFS, Comdata or Fleet One export.'
        }
      />
      {reviewing && <ReviewModal target={reviewing} onClose={() => setReviewing(null)} />}
      <FuelTransactionImport opened={importing} onClose={() => setImporting(false)} />
      {giving && <AssignCardModal last4={giving} onClose={() => setGiving(null)} />}
      <FuelCardsDrawer opened={cards} onClose={() => setCards(false)} canEdit={canReview} />
    </>
  );
}

function ReviewModal({ target, onClose }: { target: { t: FuelTransaction; decision: FuelReviewDecision }; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const save = useFuelCardMutation(reviewTransaction);
  const dispute = target.decision === 'DISPUTED';
  return (
    <Modal opened onClose={onClose} title={`${dispute ? 'Dispute' : 'Accept'} transaction ${target.t.transactionId}`}>
      <Stack gap="sm">
        <Text size="sm">{target.t.reason}</Text>
        <Textarea
          label="Note"
          description={dispute ? 'Say why (it stays with the transaction and in the activity log).' : 'Optional: why it is right after all.'}
          withAsterisk={dispute}
          autosize
          minRows={2}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          data-autofocus
        />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={dispute ? 'red' : undefined}
            loading={save.isPending}
            disabled={dispute && note.trim() === ''}
            onClick={() =>
              save.mutate(
                { id: target.t.id, body: { decision: target.decision, note: note.trim() || null } },
                {
                  onSuccess: () => {
                    notify({ type: 'success', title: `Transaction ${target.t.transactionId} ${dispute ? 'disputed' : 'accepted'}`, timeout: 4000 });
                    onClose();
                  },
                  onError: setError,
                },
              )
            }
          >
            {dispute ? 'Dispute' : 'Accept'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
