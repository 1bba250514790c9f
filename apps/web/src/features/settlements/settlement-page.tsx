import { useState } from 'react';
import { Alert, Anchor, Button, Card, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconBan, IconCash, IconCheck, IconFileTypePdf } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { SETTLEMENT_GROUPS, type Settlement, type SettlementGroup, type SettlementLine, type SettlementLoad, type UnitSystem } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { Fact } from '../../components/fact.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime, formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useUnits } from '../../lib/units.ts';
import { PayTabs } from './pay-tabs.tsx';
import { daysText, distanceText, money, quantityText, rateText } from './settlement-format.ts';
import { StatusBadge } from './settlements-page.tsx';
import { openStatement, settlementStep, useSettlement, useSettlementMutation } from './settlements-api.ts';

// `/settlements/:id` (issue 70): a settlement's loads and its lines by where they came from (loads,
// detention, hours from the log, reimbursements, deductions), its totals, and its steps: approve a
// draft, mark an approved one paid, void either; each asks first.

const GROUP_TITLES: Record<SettlementGroup, string> = {
  LOADS: 'Loads',
  DETENTION: 'Detention',
  HOURLY: "Hours from the driver's log",
  REIMBURSEMENTS: 'Reimbursements',
  DEDUCTIONS: 'Deductions',
};

const errorText = (err: unknown) => (err instanceof ApiError ? (err.body?.message ?? err.message) : 'Something went wrong');

export default function SettlementPage() {
  const { id = '' } = useParams();
  const q = useSettlement(id);
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {q.data && <SettlementView s={q.data} />}
    </DataState>
  );
}

function SettlementView({ s }: { s: Settlement }) {
  const units = useUnits();
  const zone = useViewerZone();
  const orgId = useEffectiveOrganizationId() ?? '';
  const canUpdate = useCan('SETTLEMENT_UPDATE');
  const step = useSettlementMutation(settlementStep);
  const [paying, setPaying] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const run = async (which: 'approve' | 'paid' | 'void', body?: unknown) => {
    try {
      const after = await step.mutateAsync({ settlementId: s.id, step: which, body });
      notify({ type: 'success', title: `${after.number} ${which === 'approve' ? 'approved' : which === 'paid' ? 'marked paid' : 'voided'}`, timeout: 4000 });
      return true;
    } catch (err) {
      notify({ type: 'alert', title: errorText(err), timeout: 6000 });
      return false;
    }
  };
  const approve = async () => {
    if (
      await confirmAction({
        title: `Approve ${s.number}?`,
        message: `${s.driver.name} is paid ${money(s.totals.net, s.currency)} for ${daysText(s.from, s.to)}. Once approved, the driver sees the statement in their app.`,
        confirmLabel: 'Approve',
        danger: false,
      })
    )
      await run('approve');
  };
  const pdf = async () => {
    try {
      await openStatement(orgId, s);
    } catch (err) {
      notify({ type: 'alert', title: errorText(err), timeout: 6000 });
    }
  };

  return (
    <>
      <PageHeader
        title={`Settlement ${s.number}`}
        description={`${s.driver.name} · ${daysText(s.from, s.to)} (days counted in ${s.timeZone})`}
        breadcrumbs={[{ label: 'Driver pay' }, { label: 'Settlements', to: '/settlements' }, { label: s.number }]}
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconFileTypePdf size={16} />} onClick={() => void pdf()}>
              Statement PDF
            </Button>
            {canUpdate && s.status === 'DRAFT' && (
              <Button leftSection={<IconCheck size={16} />} onClick={() => void approve()} loading={step.isPending}>
                Approve
              </Button>
            )}
            {canUpdate && s.status === 'APPROVED' && (
              <Button leftSection={<IconCash size={16} />} onClick={() => setPaying(true)}>
                Mark paid
              </Button>
            )}
            {canUpdate && (s.status === 'DRAFT' || s.status === 'APPROVED') && (
              <Button variant="default" color="red" leftSection={<IconBan size={16} />} onClick={() => setVoiding(true)}>
                Void
              </Button>
            )}
          </Group>
        }
      />
      <PayTabs />
      <Stack gap="md">
        {s.status === 'VOID' && (
          <Alert color="red" variant="light" title="Void">
            Voided {s.voidedAt ? formatDateTime(s.voidedAt, zone) : ''}
            {s.voidedBy ? ` by ${s.voidedBy}` : ''}
            {s.voidReason ? `: ${s.voidReason}` : ''}. Its loads and one-time deductions went back to the next settlement.
          </Alert>
        )}
        <Card withBorder radius="md" padding="md">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Stack gap={2}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Status
              </Text>
              <div data-testid="settlement-status">
                <StatusBadge status={s.status} />
              </div>
            </Stack>
            <Fact label="Gross pay">{money(s.totals.gross, s.currency)}</Fact>
            <Fact label="Reimbursements less deductions">{money(s.totals.reimbursements - s.totals.deductions, s.currency)}</Fact>
            <Stack gap={0}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Net pay
              </Text>
              <Text fw={700} size="lg" data-testid="settlement-net">
                {money(s.totals.net, s.currency)}
              </Text>
            </Stack>
            <Fact label="Made">{`${formatShortDateTime(s.createdAt, zone)}${s.createdBy ? ` by ${s.createdBy}` : ''}`}</Fact>
            <Fact label="Approved">{s.approvedAt ? `${formatShortDateTime(s.approvedAt, zone)}${s.approvedBy ? ` by ${s.approvedBy}` : ''}` : '—'}</Fact>
            <Fact label="Paid">{s.paidAt ? `${formatShortDateTime(s.paidAt, zone)}${s.paymentReference ? `, ref. ${s.paymentReference}` : ''}` : '—'}</Fact>
            <Fact label="Loads">{String(s.loadCount)}</Fact>
          </SimpleGrid>
        </Card>
        <LoadsCard s={s} units={units} zone={zone} />
        {SETTLEMENT_GROUPS.map((g) => (
          <GroupCard key={g} s={s} group={g} units={units} />
        ))}
      </Stack>
      <Modal opened={paying} onClose={() => setPaying(false)} title={`Mark ${s.number} paid`} closeButtonProps={{ 'aria-label': 'Close' }}>
        {paying && (
          <ReasonForm
            label="Payment reference"
            description="A check number or transfer reference, printed on the statement (optional)."
            confirm={`Mark ${money(s.totals.net, s.currency)} paid`}
            busy={step.isPending}
            onCancel={() => setPaying(false)}
            onConfirm={async (text) => {
              if (await run('paid', { paymentReference: text || null })) setPaying(false);
            }}
          />
        )}
      </Modal>
      <Modal opened={voiding} onClose={() => setVoiding(false)} title={`Void ${s.number}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        {voiding && (
          <ReasonForm
            label="Reason"
            description="Its loads and one-time deductions go back, for a new settlement of these days. The voided statement is kept."
            confirm="Void settlement"
            danger
            multiline
            busy={step.isPending}
            onCancel={() => setVoiding(false)}
            onConfirm={async (text) => {
              if (await run('void', { voidReason: text || null })) setVoiding(false);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function ReasonForm(props: {
  label: string;
  description: string;
  confirm: string;
  danger?: boolean;
  multiline?: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (text: string) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const Input = props.multiline ? Textarea : TextInput;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void props.onConfirm(text.trim());
      }}
    >
      <Stack gap="sm">
        <Input
          label={props.label}
          description={props.description}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={300}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" color={props.danger ? 'red' : undefined} loading={props.busy}>
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Phones read a settlement's loads and lines as stacked items, not tables scrolled sideways. */
const usePhone = () => useMediaQuery('(max-width: 48em)') ?? false;

const seatText = (l: SettlementLoad) =>
  l.seat === 'LEAD' ? (l.teammate ? `Lead with ${l.teammate}, ${l.sharePercent}%` : 'Solo') : `Second to ${l.teammate ?? '—'}, ${l.sharePercent}%`;

function LoadsCard({ s, units, zone }: { s: Settlement; units: UnitSystem; zone: string }) {
  const phone = usePhone();
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} fz="md" mb="xs">
        Loads delivered ({s.loads.length})
      </Title>
      {s.loads.length === 0 ? (
        <Text size="sm" c="dimmed">
          No delivered load in these days that another settlement has not paid.
        </Text>
      ) : phone ? (
        <Stack gap="sm" role="list" aria-label="Loads delivered">
          {s.loads.map((l) => (
            <Stack key={l.loadId} gap={2} role="listitem">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm">
                  <Anchor component={Link} to={`/dispatch/loads/${l.loadId}`} size="sm" fw={600} underline="always">
                    {l.number}
                  </Anchor>{' '}
                  · {l.customer}
                </Text>
                <Text size="sm" fw={600}>
                  {money(l.amount, s.currency)}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                Delivered {formatShortDateTime(l.deliveredAt, zone)} · {seatText(l)}
              </Text>
              <Text size="xs" c="dimmed">
                {distanceText(l.loadedKm, units)} loaded · {distanceText(l.emptyKm, units)} empty · {l.stopCount} stops
              </Text>
            </Stack>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6} aria-label="Loads delivered">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Load</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Delivered</Table.Th>
                <Table.Th>Seat</Table.Th>
                <Table.Th ta="right">Loaded</Table.Th>
                <Table.Th ta="right">Empty</Table.Th>
                <Table.Th ta="right">Stops</Table.Th>
                <Table.Th ta="right">Pay</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.loads.map((l) => (
                <Table.Tr key={l.loadId}>
                  <Table.Td>
                    <Anchor component={Link} to={`/dispatch/loads/${l.loadId}`} size="sm">
                      {l.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{l.customer}</Table.Td>
                  <Table.Td>{formatShortDateTime(l.deliveredAt, zone)}</Table.Td>
                  <Table.Td>{seatText(l)}</Table.Td>
                  <Table.Td ta="right">{distanceText(l.loadedKm, units)}</Table.Td>
                  <Table.Td ta="right">{distanceText(l.emptyKm, units)}</Table.Td>
                  <Table.Td ta="right">{l.stopCount}</Table.Td>
                  <Table.Td ta="right">{money(l.amount, s.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function LineWhere({ l }: { l: SettlementLine }) {
  return l.loadId ? (
    <Anchor component={Link} to={`/dispatch/loads/${l.loadId}`} size="sm" underline="always">
      {l.loadNumber}
    </Anchor>
  ) : (
    <>{l.logDate ?? ''}</>
  );
}

function GroupCard({ s, group, units }: { s: Settlement; group: SettlementGroup; units: UnitSystem }) {
  const phone = usePhone();
  const lines = s.lines.filter((l) => l.group === group);
  if (lines.length === 0) return null;
  const total = lines.reduce((n, l) => n + Math.round(l.amount * 100), 0) / 100;
  return (
    <Card withBorder radius="md" padding="md" data-testid={`settlement-group-${group}`}>
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="md">
          {GROUP_TITLES[group]}
        </Title>
        <Text fw={600}>{money(total, s.currency)}</Text>
      </Group>
      {phone ? (
        <Stack gap="sm" role="list" aria-label={GROUP_TITLES[group]}>
          {lines.map((l) => {
            const figures = [quantityText(l, units), rateText(l, s.currency)].filter(Boolean).join(' × ');
            return (
              <Stack key={l.id} gap={2} role="listitem">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text size="sm">
                    {(l.loadId || l.logDate) && (
                      <>
                        <LineWhere l={l} />
                        {' · '}
                      </>
                    )}
                    {l.description}
                  </Text>
                  <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {money(l.amount, s.currency)}
                  </Text>
                </Group>
                {figures && (
                  <Text size="xs" c="dimmed">
                    {figures}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {l.source}
                </Text>
              </Stack>
            );
          })}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing={6} aria-label={GROUP_TITLES[group]}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{group === 'HOURLY' ? 'Log day' : 'Load'}</Table.Th>
                <Table.Th>Pay</Table.Th>
                <Table.Th>Where it came from</Table.Th>
                <Table.Th ta="right">Quantity</Table.Th>
                <Table.Th ta="right">Rate</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    <LineWhere l={l} />
                  </Table.Td>
                  <Table.Td>{l.description}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {l.source}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {quantityText(l, units)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {rateText(l, s.currency)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {money(l.amount, s.currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
