import { useMemo, useState, type ComponentType } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ACCESSORIAL_LABELS, LOAD_STATUS_LABELS, STOP_KIND_LABELS } from '@fleet/api-contract/loads';
import type { Load, LoadStop } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { Fact } from '../../components/fact.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, toastApiError, toastNetworkError } from '../../lib/api-client.ts';
import { formatShortDateTime, useViewerZone } from '../../lib/dates.ts';
import { formatKm, formatMoney } from '../../lib/money.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';
import { useUnits } from '../../lib/units.ts';
import { CandidatesList } from './candidates-list.tsx';
import { CANDIDATES_PAGE, isPodRefusal, setLoadStatus, setStopStatus, useCandidates, useLoad, useLoadMutation, usePlan } from './dispatch-api.ts';
import { formatMinutes, formatWeight, freeAtText, laneText, stopName, stopNumber } from './dispatch-format.ts';
import classes from './dispatch.module.css';
import { AtRiskBadge, LoadStatusBadge, windowText } from './load-bits.tsx';
import { LoadContactsCard } from './load-contacts.tsx';
import { LoadDocumentsCard } from './load-documents.tsx';
import { LoadMap } from './load-map.tsx';
import { LoadShareButton } from './load-share.tsx';
import { EtaBadge, PlanTimeline } from './plan-timeline.tsx';

const RUNNING = new Set(['ASSIGNED', 'EN_ROUTE', 'AT_STOP']);

/** A conversation with the load's driver about the load (issue 44): the app composes it from the messages feature. */
export type LoadMessagesSlot = ComponentType<{ driverId: string; loadId: string; driverName: string }>;
/** The load's reefer temperatures (issue 73): the app composes them from the temperatures feature. */
export type LoadTemperaturesSlot = ComponentType<{ loadId: string; loadNumber: string }>;

/** `/dispatch/loads/:id`: the load on the map, its legal plan as a timeline, its stops, the candidates, its rate, history, documents and messages. */
export default function LoadPage({ messages, temperatures }: { messages?: LoadMessagesSlot; temperatures?: LoadTemperaturesSlot } = {}) {
  const { id = '' } = useParams();
  const q = useLoad(id);
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {q.data && <LoadView load={q.data} messages={messages} temperatures={temperatures} />}
    </DataState>
  );
}

function LoadView({ load, messages: Messages, temperatures: Temperatures }: { load: Load; messages?: LoadMessagesSlot; temperatures?: LoadTemperaturesSlot }) {
  const units = useUnits();
  const zone = useViewerZone();
  const canEdit = useCan('LOAD_UPDATE');
  const canList = useCan('LOAD_LIST');
  const canSeeCustomers = useCan('CUSTOMER_LIST');
  const [params, setParams] = useSearchParams();
  const closed = load.status === 'CANCELLED' || load.status === 'DELIVERED';
  // A load on the road keeps its driver; other drivers are only asked for when the dispatcher looks
  // for someone to hand it over to (a repower).
  const underWay = load.status === 'EN_ROUTE' || load.status === 'AT_STOP';
  const [repower, setRepower] = useState(false);
  const showCandidates = !closed && (!underWay || repower);
  // The first page of candidates (the list below reads the same query): an unassigned load shows the
  // best-ranked driver's plan until the dispatcher picks another.
  const candidates = useCandidates(load.id, { page: 0, size: CANDIDATES_PAGE }, showCandidates);
  // The plan shown: a driver picked from the candidates (kept in the URL), else the load's lead driver, else the best candidate.
  const planDriverId = params.get('plan') ?? load.drivers[0]?.id ?? candidates.data?.content[0]?.driverId ?? null;
  const plan = usePlan(load.id, planDriverId, !!planDriverId && load.status !== 'CANCELLED' && load.status !== 'DELIVERED');
  const status = useLoadMutation(setLoadStatus);
  const mapStops = useMemo(
    () =>
      load.stops.map((s) => ({
        key: s.id,
        latitude: s.latitude,
        longitude: s.longitude,
        kind: s.kind,
        title: `${STOP_KIND_LABELS[s.kind]}: ${stopName(s)}`,
        done: !!s.departedAt,
      })),
    [load.stops],
  );
  // A driver picked from a searched page of the list is not on the first page: the list names them.
  const [pickedName, setPickedName] = useState<{ driverId: string; name: string } | null>(null);
  const planDriverName =
    load.drivers.find((d) => d.id === planDriverId)?.name ??
    candidates.data?.content.find((c) => c.driverId === planDriverId)?.name ??
    (pickedName?.driverId === planDriverId ? pickedName.name : undefined);
  // The deadhead runs from the driver to the next stop not yet left.
  const next = load.stops.findIndex((s) => !s.departedAt);

  const cancel = async () => {
    if (
      await confirmAction({
        title: `Cancel load ${load.number}?`,
        message: 'The load leaves the board’s running columns and its driver is free for other loads. The history keeps the cancellation.',
        confirmLabel: 'Cancel load',
        cancelLabel: 'Keep it',
      })
    ) {
      status.mutate(
        { id: load.id, status: 'CANCELLED' },
        { onSuccess: () => notify({ type: 'success', title: `Load ${load.number} cancelled`, timeout: 4000 }), onError: showError },
      );
    }
  };
  const deliver = async () => {
    if (
      await confirmAction({
        title: `Mark ${load.number} delivered?`,
        message: 'Use this when the delivery was not recorded by the place or the driver.',
        confirmLabel: 'Mark delivered',
        danger: false,
      })
    ) {
      const send = (podWaived?: boolean) =>
        status.mutate(
          { id: load.id, status: 'DELIVERED', podWaived },
          {
            onSuccess: () => notify({ type: 'success', title: `Load ${load.number} delivered`, timeout: 4000 }),
            onError: async (err) => {
              if (await podWaiverAsked(err)) send(true);
            },
          },
        );
      send();
    }
  };

  return (
    <>
      <PageHeader
        title={`Load ${load.number}`}
        description={`${load.customer} · ${laneText(load)}`}
        breadcrumbs={[{ label: 'Dispatch', to: '/dispatch' }, { label: load.number }]}
        actions={
          canEdit && (
            <Group gap="xs">
              <LoadShareButton load={load} canList={canList} />
              {!closed && (
                <Button component={Link} to={`/dispatch/loads/${load.id}/edit`} variant="default" leftSection={<IconPencil size={16} />}>
                  Edit
                </Button>
              )}
              {RUNNING.has(load.status) && (
                <Button variant="default" leftSection={<IconCheck size={16} />} onClick={() => void deliver()}>
                  Mark delivered
                </Button>
              )}
              {!closed && (
                <Button
                  variant="outline"
                  className={classes.dangerButton}
                  leftSection={<IconX size={16} />}
                  onClick={() => void cancel()}
                  loading={status.isPending}
                >
                  Cancel load
                </Button>
              )}
            </Group>
          )
        }
      />
      <Group gap="xs" mb="md">
        <LoadStatusBadge status={load.status} />
        {load.atRisk && <AtRiskBadge reason={load.riskReason} />}
        {load.atRisk && load.riskReason && (
          <Text size="sm" className={classes.danger}>
            {load.riskReason}
          </Text>
        )}
      </Group>
      <div className={classes.loadGrid}>
        <Stack gap="md">
          <LoadMap
            stops={mapStops}
            origin={plan.data?.origin ?? null}
            originTo={next < 0 ? null : next}
            route={plan.data?.route ?? null}
            label={`Load ${load.number} on the map`}
          />
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              {planDriverName ? `Plan for ${planDriverName}` : 'Plan'}
            </Title>
            {closed ? (
              <Text size="sm" c="dimmed">
                The load is {LOAD_STATUS_LABELS[load.status].toLowerCase()}: no plan to make.
              </Text>
            ) : !planDriverId ? (
              <Text size="sm" c="dimmed">
                No driver to plan for yet. Choose “Show plan” on a candidate to see their legal trip, or assign one.
              </Text>
            ) : (
              <DataState isLoading={plan.isLoading} error={plan.error} onRetry={() => void plan.refetch()}>
                {plan.data?.after && (
                  <Text size="sm" mb="xs" data-testid="plan-after">
                    After{' '}
                    <Anchor component={Link} to={`/dispatch/loads/${plan.data.after.loadId}`} underline="always">
                      {plan.data.after.number}
                    </Anchor>
                    {plan.data.after.loads > 1 ? ` (${plan.data.after.loads} loads)` : ''}: {planDriverName ?? 'the driver'} is free
                    {plan.data.after.place ? ` in ${plan.data.after.place}` : ''} at {freeAtText(plan.data.after, zone)}, with{' '}
                    {formatMinutes(Math.min(plan.data.after.clocks.driveMinutes, plan.data.after.clocks.windowMinutes, plan.data.after.clocks.cycleMinutes))} to
                    drive.
                  </Text>
                )}
                {plan.data && <PlanTimeline plan={plan.data} stops={load.stops} />}
              </DataState>
            )}
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Stops
            </Title>
            <StopsTable load={load} canEdit={canEdit && !closed} />
          </Card>
        </Stack>
        <Stack gap="md">
          {underWay && !repower && (
            <Card withBorder radius="md" padding="md">
              <Title order={2} fz="md" mb={4}>
                Hand over
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                The load is on the road with {load.drivers.map((d) => d.name).join(' & ') || 'its driver'}. To hand it to another driver, see who could still
                deliver it on time.
              </Text>
              <Button variant="default" onClick={() => setRepower(true)}>
                Find a driver to hand over to
              </Button>
            </Card>
          )}
          {showCandidates && (
            <Card withBorder radius="md" padding="md">
              <Title order={2} fz="md" mb={4}>
                {underWay ? 'Hand over to' : 'Who can take it'}
              </Title>
              <Text size="xs" c="dimmed" mb="sm">
                Ranked by delivering on time within the hours-of-service rules, then deadhead and hours left; a driver on other loads from where and when those
                end.
              </Text>
              <CandidatesList
                loadId={load.id}
                loadNumber={load.number}
                assignedIds={load.drivers.map((d) => d.id)}
                canAssign={canEdit}
                planDriverId={planDriverId}
                onShowPlan={(driverId, name) => {
                  setPickedName({ driverId, name });
                  setParams((prev) => withParams(prev, { plan: driverId }), { replace: true });
                }}
              />
            </Card>
          )}
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Load
            </Title>
            <SimpleGrid cols={2} spacing="xs">
              <Fact label="Customer">
                {load.customerId && canSeeCustomers ? (
                  <Anchor component={Link} to={`/dispatch/customers?open=${load.customerId}`} underline="always">
                    {load.customer}
                  </Anchor>
                ) : (
                  load.customer
                )}
              </Fact>
              <Fact label="Drivers">{load.drivers.map((d) => d.name).join(' & ') || 'None'}</Fact>
              <Fact label="Tractor">{load.asset?.unitNumber ?? '—'}</Fact>
              <Fact label="Trailer">{load.trailer?.unitNumber ?? '—'}</Fact>
              <Fact label="BOL number">{load.bolNumber ?? '—'}</Fact>
              <Fact label="PO number">{load.poNumber ?? '—'}</Fact>
              <Fact label="Commodity">{load.commodity ?? '—'}</Fact>
              <Fact label="Weight">{formatWeight(load.weightKg, units)}</Fact>
              <Fact label="Loaded distance">{formatKm(load.loadedKm, units)}</Fact>
              <Fact label="ETA updated">{load.etaUpdatedAt ? formatShortDateTime(load.etaUpdatedAt) : '—'}</Fact>
            </SimpleGrid>
            {load.notes && (
              <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {load.notes}
              </Text>
            )}
          </Card>
          {canList && <LoadContactsCard loadId={load.id} canEdit={canEdit} />}
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Rate
            </Title>
            <Table fz="sm" verticalSpacing={4} aria-label="Rate">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Line haul</Table.Td>
                  <Table.Td ta="right">{formatMoney(load.rate.lineHaul, load.currency)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Fuel surcharge</Table.Td>
                  <Table.Td ta="right">{formatMoney(load.rate.fuelSurcharge, load.currency)}</Table.Td>
                </Table.Tr>
                {load.rate.accessorials.map((a, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>
                      {ACCESSORIAL_LABELS[a.kind]}
                      {a.note ? ` (${a.note})` : ''}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(a.amount, load.currency)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr fw={700}>
                  <Table.Td>Total</Table.Td>
                  <Table.Td ta="right">{formatMoney(load.rate.total, load.currency)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={2} fz="md" mb="sm">
              Status history
            </Title>
            {load.statusHistory.length === 0 ? (
              <Text size="sm" c="dimmed">
                No changes yet.
              </Text>
            ) : (
              <Timeline bulletSize={14} lineWidth={2} active={load.statusHistory.length - 1}>
                {load.statusHistory.map((h, i) => (
                  <Timeline.Item key={i} title={LOAD_STATUS_LABELS[h.status]}>
                    <Text size="xs" c="dimmed">
                      {formatShortDateTime(h.at)}
                      {h.by ? ` · ${h.by}` : ''}
                    </Text>
                    {h.note && <Text size="xs">{h.note}</Text>}
                  </Timeline.Item>
                ))}
              </Timeline>
            )}
          </Card>
          {Temperatures && <Temperatures loadId={load.id} loadNumber={load.number} />}
          <LoadDocumentsCard load={load} />
          {Messages && load.drivers[0] && (
            <Card withBorder radius="md" padding="md">
              <Messages driverId={load.drivers[0].id} loadId={load.id} driverName={load.drivers[0].name} />
            </Card>
          )}
        </Stack>
      </div>
    </>
  );
}

function showError(err: unknown): void {
  if (err instanceof ApiError) toastApiError(err);
  else toastNetworkError();
}

/**
 * A refusal for a missing proof of delivery (the customer requires one) asks the dispatcher whether
 * to complete it anyway, which the load's history records; any other error is shown as usual.
 */
async function podWaiverAsked(err: unknown): Promise<boolean> {
  if (!isPodRefusal(err)) {
    showError(err);
    return false;
  }
  return confirmAction({
    title: 'Complete without a proof of delivery?',
    message: `${err.body.message}. Completing it anyway is written in the load’s history.`,
    confirmLabel: 'Complete without it',
    cancelLabel: 'Wait for it',
    danger: false,
  });
}

/** The stops in order: window, ETA against it, arrival and departure, and the buttons to record them. */
function StopsTable({ load, canEdit }: { load: Load; canEdit: boolean }) {
  const mark = useLoadMutation(setStopStatus);
  const record = (s: LoadStop, event: 'ARRIVE' | 'DEPART', podWaived?: boolean): void =>
    mark.mutate(
      { id: load.id, stopId: s.id, body: { event, podWaived } },
      {
        onSuccess: () =>
          notify({ type: 'success', title: `${event === 'ARRIVE' ? 'Arrival' : 'Departure'} at stop ${stopNumber(load.stops, s)} recorded`, timeout: 3000 }),
        // A delivery waiting for its proof of delivery: the dispatcher may complete it anyway.
        onError: async (err) => {
          if (await podWaiverAsked(err)) record(s, event, true);
        },
      },
    );
  // Only the next stop can be arrived at or left: earlier ones are done, later ones wait.
  const current = load.stops.find((s) => !s.departedAt);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table fz="sm" verticalSpacing={6} aria-label="Stops">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Stop</Table.Th>
            <Table.Th>Appointment</Table.Th>
            <Table.Th>ETA or arrival</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {load.stops.map((s, i) => (
            <Table.Tr key={s.id}>
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {STOP_KIND_LABELS[s.kind]}: {stopName(s)}
                </Text>
                {s.address && s.address !== stopName(s) && (
                  <Text size="xs" c="dimmed">
                    {s.address}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {formatMinutes(s.serviceMinutes)} {s.kind === 'PICKUP' ? 'loading' : 'unloading'}
                </Text>
              </Table.Td>
              <Table.Td>{windowText(s.windowStart, s.windowEnd)}</Table.Td>
              <Table.Td>
                {s.arrivedAt ? (
                  <Stack gap={0}>
                    <Text size="sm">Arrived {formatShortDateTime(s.arrivedAt)}</Text>
                    {s.departedAt && <Text size="xs">Departed {formatShortDateTime(s.departedAt)}</Text>}
                  </Stack>
                ) : s.eta ? (
                  <Group gap={6}>
                    <Text size="sm">{formatShortDateTime(s.eta)}</Text>
                    <EtaBadge eta={s.eta} stop={s} />
                  </Group>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td>
                {canEdit && current?.id === s.id && load.drivers.length > 0 && (
                  <Button
                    size="xs"
                    variant="light"
                    loading={mark.isPending}
                    onClick={() => record(s, s.arrivedAt ? 'DEPART' : 'ARRIVE')}
                    aria-label={`${s.arrivedAt ? 'Mark departed' : 'Mark arrived'} at stop ${i + 1}`}
                  >
                    {s.arrivedAt ? 'Mark departed' : 'Mark arrived'}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
