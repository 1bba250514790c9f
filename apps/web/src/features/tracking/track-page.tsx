import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { Alert, Badge, Box, Button, Container, Group, Loader, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import type { PublicTracking, TrackingStop } from '@fleet/api-contract/tracking';
import type { Language } from '../../i18n/language.ts';
import { tokenFromPath, useTracking } from './track-api.ts';
import { clockTime, dayText, localeFor, speedText, temperatureText, viewerZone, when, windowText, zoneName, type TrackClock } from './track-format.ts';
import { TRACK_WORDS, type TrackWords } from './track-words.ts';
import classes from './track.module.css';

// `/track/{token}` (issue 69): what a shipper or broker sees of one load (or one truck for a while)
// on their phone, without a sign-in and with no way into the app. Its own bundle (decision 0286).

const TrackMap = lazy(() => import('./track-map.tsx'));

export function TrackPage({ lng }: { lng: Language }) {
  const w = TRACK_WORDS[lng];
  const token = useMemo(() => tokenFromPath(window.location.pathname), []);
  const { state, retry } = useTracking(token);
  const clock = useMemo<TrackClock>(() => ({ locale: localeFor(lng), zone: viewerZone() }), [lng]);

  const data = state.kind === 'ready' ? state.data : null;
  useEffect(() => {
    if (state.kind === 'expired') document.title = w.expiredTitle;
    else if (data)
      document.title = `${data.load ? w.load(data.load.number) : data.vehicle ? w.truck(data.vehicle.unitNumber) : w.title} · ${data.carrier.name}`;
  }, [state.kind, data, w]);

  return (
    <div className={classes.page}>
      {state.kind === 'loading' && (
        <Box h="60dvh" style={{ display: 'grid', placeItems: 'center' }}>
          <Loader aria-label={w.loading} />
        </Box>
      )}
      {state.kind === 'expired' && <Ended title={w.expiredTitle} body={w.expiredBody} />}
      {state.kind === 'failed' && (
        <Ended title={w.failedTitle} body={w.failedBody}>
          <Button onClick={retry}>{w.retry}</Button>
        </Ended>
      )}
      {state.kind === 'ready' && <Tracking data={state.data} w={w} clock={clock} updatedAt={state.at} stale={state.stale} />}
    </div>
  );
}

function Ended({ title, body, children }: { title: string; body: string; children?: ReactNode }) {
  return (
    <Container size={520} py={64} px="md">
      <Paper withBorder radius="md" p="xl" ta="center" data-testid="track-ended">
        <Box
          mx="auto"
          mb="md"
          w={56}
          h={56}
          style={{ borderRadius: '50%', display: 'grid', placeItems: 'center', background: 'var(--mantine-color-default-hover)' }}
        >
          <ClockIcon />
        </Box>
        <Title order={1} fz={24} mb="xs">
          {title}
        </Title>
        <Text c="dimmed" mb={children ? 'lg' : 0}>
          {body}
        </Text>
        {children}
      </Paper>
    </Container>
  );
}

/** An outline clock (Tabler's "clock-off" shape drawn inline: the icon set would weigh more than the page's words). */
function ClockIcon() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M5.63 5.64a9 9 0 1 0 12.73 12.73M20.12 16.12A9 9 0 0 0 7.88 3.88" />
      <path d="M12 7v1M3 3l18 18" />
    </svg>
  );
}

/** Tabler's file-type-pdf outline, drawn here: the page's bundle loads no icon library. */
function DocumentIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M14 3v4a1 1 0 0 0 1 1h4" />
      <path d="M5 12v-7a2 2 0 0 1 2 -2h7l5 5v4" />
      <path d="M5 18h1.5a1.5 1.5 0 0 0 0 -3h-1.5v6" />
      <path d="M17 18h2" />
      <path d="M20 15h-3v6" />
      <path d="M11 15v6h1a2 2 0 0 0 2 -2v-2a2 2 0 0 0 -2 -2h-1z" />
    </svg>
  );
}

function stopTitle(s: TrackingStop, w: TrackWords): string {
  return s.name ?? ([s.city, s.state].filter(Boolean).join(', ') || w.stopKind[s.kind]);
}
const place = (s: TrackingStop) => [s.city, s.state].filter(Boolean).join(', ');

function Tracking({ data, w, clock, updatedAt, stale }: { data: PublicTracking; w: TrackWords; clock: TrackClock; updatedAt: Date; stale: boolean }) {
  const zone = zoneName(updatedAt, clock);
  const heading = data.load ? `${w.load(data.load.number)}` : data.vehicle ? w.truck(data.vehicle.unitNumber) : w.title;
  return (
    <>
      <header className={classes.bar}>
        <Container size={760} px="md" py="sm">
          <Text fw={700} size="lg" lh={1.2} data-testid="track-carrier">
            {data.carrier.name}
          </Text>
          <Text size="sm" c="dimmed">
            {data.load ? w.title : w.vehicleTitle}
          </Text>
        </Container>
      </header>
      <Container size={760} px="md" py="md" component="main">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="xs">
            <div>
              <Title order={1} fz={{ base: 22, sm: 26 }}>
                {heading}
              </Title>
              {data.load?.customerReference && (
                <Text size="sm" c="dimmed">
                  {w.reference}: {data.load.customerReference}
                </Text>
              )}
              {data.load && data.vehicle && (
                <Text size="sm" c="dimmed">
                  {w.truck(data.vehicle.unitNumber)}
                </Text>
              )}
            </div>
            {data.load && (
              <Badge size="lg" variant="light" color={data.load.status === 'CANCELLED' ? 'gray' : data.load.status === 'DELIVERED' ? 'green' : 'fleet'}>
                {w.loadStatus[data.load.status]}
              </Badge>
            )}
          </Group>
          {stale && (
            <Alert color="yellow" py={6} role="status">
              {w.refreshFailed}
            </Alert>
          )}
          {data.load && <EtaCard data={data} w={w} clock={clock} />}
          {data.proofOfDelivery.length > 0 && <ProofOfDelivery data={data} w={w} clock={clock} />}
          {data.temperature && <TemperatureCard data={data} w={w} clock={clock} />}
          <PositionCard data={data} w={w} clock={clock} />
          {data.stops.length > 0 && <Stops stops={data.stops} w={w} clock={clock} />}
          {data.load && <History data={data} w={w} clock={clock} />}
          <Stack gap={2} component="footer" pb="lg">
            <Text size="xs" c="dimmed" data-testid="track-zone">
              {w.timesIn(zone === clock.zone ? zone : `${clock.zone} (${zone})`)} · {w.updated(clockTime(updatedAt.toISOString(), clock))}
            </Text>
            <Text size="xs" c="dimmed">
              {w.expires(when(data.expiresAt, clock))}
            </Text>
            <Text size="xs" c="dimmed">
              {w.poweredBy}
            </Text>
          </Stack>
        </Stack>
      </Container>
    </>
  );
}

/** The next stop's ETA in large type (or where the load is when it is not heading anywhere). */
function EtaCard({ data, w, clock }: { data: PublicTracking; w: TrackWords; clock: TrackClock }) {
  const next = data.stops.find((s) => s.status !== 'DEPARTED');
  const last = data.stops.at(-1);
  let body: ReactNode;
  if (data.load?.status === 'CANCELLED') {
    body = <Text className={classes.eta}>{w.cancelled}</Text>;
  } else if (!next || data.load?.status === 'DELIVERED') {
    const at = last?.departedAt ?? last?.arrivedAt ?? null;
    body = (
      <>
        <Text className={classes.eta}>{w.delivered}</Text>
        {at && <Text c="dimmed">{when(at, clock)}</Text>}
      </>
    );
  } else if (next.status === 'ARRIVED') {
    body = (
      <>
        <Text size="sm" c="dimmed" fw={600} tt="uppercase">
          {w.stopKind[next.kind]}
        </Text>
        <Text className={classes.eta}>{w.atStop(stopTitle(next, w))}</Text>
        {next.arrivedAt && (
          <Text c="dimmed">
            {w.arrivedAt} {when(next.arrivedAt, clock)} {zoneName(next.arrivedAt, clock)}
          </Text>
        )}
      </>
    );
  } else {
    const day = next.eta ? dayText(next.eta, clock) : '';
    body = (
      <>
        <Text size="sm" c="dimmed" fw={600}>
          {w.eta} · {w.nextStop}: {stopTitle(next, w)}
          {place(next) && next.name ? ` (${place(next)})` : ''}
        </Text>
        {next.eta ? (
          <Group gap="xs" align="baseline" wrap="wrap">
            <Text className={classes.eta} data-testid="track-eta">
              {clockTime(next.eta, clock)}
            </Text>
            <Text fw={600} c="dimmed">
              {[day, zoneName(next.eta, clock)].filter(Boolean).join(' · ')}
            </Text>
          </Group>
        ) : (
          <Text className={classes.eta} data-testid="track-eta">
            {w.noEta}
          </Text>
        )}
        <Group gap="xs" mt={4}>
          {next.etaConfidence && (
            <Badge variant="light" color={next.etaConfidence === 'HIGH' ? 'green' : next.etaConfidence === 'MEDIUM' ? 'yellow' : 'gray'}>
              {w.confidence[next.etaConfidence]}
            </Badge>
          )}
          {next.eta && (
            <Badge variant={next.late ? 'filled' : 'light'} color={next.late ? 'red' : 'green'}>
              {next.late ? w.late : w.onTime}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          {w.appointment}: {windowText(next.windowStart, next.windowEnd, clock)}
        </Text>
      </>
    );
  }
  return (
    <Paper withBorder radius="md" p="md" data-testid="track-eta-card">
      <Stack gap={2}>{body}</Stack>
    </Paper>
  );
}

/** The truck on the map (its chunk loads after the data shows) with when it was there. */
/** The hours the small chart covers (the API's PUBLIC_TEMPERATURE_HOURS). */
const TEMPERATURE_HOURS = 6;

/** The load's reefer temperature where the carrier shows it (issue 73): now, the band, the last hours. */
function TemperatureCard({ data, w, clock }: { data: PublicTracking; w: TrackWords; clock: TrackClock }) {
  const t = data.temperature!;
  const band = t.setPointC !== null && t.toleranceC !== null ? { setPointC: t.setPointC, toleranceC: t.toleranceC } : null;
  const out = band ? Math.abs(t.celsius - band.setPointC) > band.toleranceC : false;
  return (
    <Paper withBorder radius="md" p="md" data-testid="track-temperature">
      <Group justify="space-between" align="flex-start" gap="xs">
        <div>
          <Text size="sm" c="dimmed">
            {w.temperature.title}
          </Text>
          <Text fw={700} fz={28} lh={1.1} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {temperatureText(t.celsius, data.unitSystem)}
          </Text>
          {band && (
            <Text size="sm">
              {w.temperature.setPoint(`${temperatureText(band.setPointC, data.unitSystem)} ± ${temperatureText(band.toleranceC, data.unitSystem, true)}`)}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {w.temperature.readAt(clockTime(t.at, clock))}
          </Text>
        </div>
        {band && (
          <Badge variant="light" color={out ? 'red' : 'green'}>
            {out ? w.temperature.outOfRange : w.temperature.inRange}
          </Badge>
        )}
      </Group>
      {t.readings.length > 1 && <TemperatureSpark readings={t.readings} band={band} label={w.temperature.chart(TEMPERATURE_HOURS)} />}
    </Paper>
  );
}

/** A small line of the readings over the set point band (green), drawn to fit the card's width. */
function TemperatureSpark({
  readings,
  band,
  label,
}: {
  readings: Array<{ at: string; celsius: number }>;
  band: { setPointC: number; toleranceC: number } | null;
  label: string;
}) {
  const W = 600;
  const H = 80;
  const times = readings.map((r) => Date.parse(r.at));
  const values = readings.map((r) => r.celsius);
  const lo = Math.min(...values, ...(band ? [band.setPointC - band.toleranceC] : [])) - 1;
  const hi = Math.max(...values, ...(band ? [band.setPointC + band.toleranceC] : [])) + 1;
  const t0 = Math.min(...times);
  const span = Math.max(1, Math.max(...times) - t0);
  const x = (ms: number) => ((ms - t0) / span) * W;
  const y = (c: number) => H - ((c - lo) / (hi - lo)) * H;
  const line = readings.map((r, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]!).toFixed(1)},${y(r.celsius).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" height={H} preserveAspectRatio="none" role="img" aria-label={label} style={{ marginTop: 8, display: 'block' }}>
      {band && (
        <rect
          x={0}
          width={W}
          y={y(band.setPointC + band.toleranceC)}
          height={y(band.setPointC - band.toleranceC) - y(band.setPointC + band.toleranceC)}
          fill="var(--mantine-color-green-5)"
          opacity={0.18}
        />
      )}
      <path d={line} fill="none" stroke="var(--mantine-color-fleet-6)" strokeWidth={2} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

function PositionCard({ data, w, clock }: { data: PublicTracking; w: TrackWords; clock: TrackClock }) {
  const p = data.position;
  if (!p) {
    return data.load?.status === 'DELIVERED' || data.load?.status === 'CANCELLED' ? null : (
      <Text size="sm" c="dimmed">
        {data.load ? w.noPosition : w.noVehiclePosition}
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      <div className={classes.mapSlot}>
        <Suspense
          fallback={
            <Paper withBorder h={{ base: 240, sm: 340 }} style={{ display: 'grid', placeItems: 'center' }}>
              <Loader aria-label={w.map.loading} />
            </Paper>
          }
        >
          <TrackMap latitude={p.latitude} longitude={p.longitude} heading={p.heading} words={w} />
        </Suspense>
      </div>
      <Text size="sm" data-testid="track-position">
        {w.lastPosition}: {when(p.at, clock)} {zoneName(p.at, clock)}
        {p.speedKmh !== null && p.speedKmh > 0 ? ` · ${speedText(p.speedKmh, data.unitSystem)}` : ''}
      </Text>
    </Stack>
  );
}

function Stops({ stops, w, clock }: { stops: TrackingStop[]; w: TrackWords; clock: TrackClock }) {
  // The line is drawn up to the last stop reached.
  const reached = stops.reduce((n, s, i) => (s.status !== 'PENDING' ? i : n), -1);
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="md" mb="sm">
        {w.stops}
      </Title>
      <Timeline active={reached} bulletSize={22} lineWidth={2} aria-label={w.stops}>
        {stops.map((s, i) => (
          <Timeline.Item
            key={s.seq}
            bullet={
              <Text size="xs" fw={700}>
                {i + 1}
              </Text>
            }
            title={
              <Group gap={6} wrap="wrap">
                <Text fw={600} size="sm">
                  {w.stopKind[s.kind]}: {stopTitle(s, w)}
                </Text>
                <Badge size="xs" variant="light" color={s.status === 'PENDING' ? 'gray' : s.status === 'ARRIVED' ? 'fleet' : 'green'}>
                  {w.stopStatus[s.status]}
                </Badge>
                {s.late && s.status === 'PENDING' && (
                  <Badge size="xs" color="red">
                    {w.late}
                  </Badge>
                )}
              </Group>
            }
            data-testid="track-stop"
          >
            {s.name && place(s) && (
              <Text size="sm" c="dimmed">
                {place(s)}
              </Text>
            )}
            <Text size="sm">
              {w.appointment}: {windowText(s.windowStart, s.windowEnd, clock)}
            </Text>
            {s.arrivedAt && (
              <Text size="sm">
                {w.arrivedAt} {when(s.arrivedAt, clock)}
                {s.departedAt ? ` · ${w.departedAt} ${when(s.departedAt, clock)}` : ''}
              </Text>
            )}
            {s.status === 'PENDING' && s.eta && (
              <Text size="sm" fw={600} c={s.late ? 'red' : undefined}>
                {w.eta}: {when(s.eta, clock)}
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}

/** A delivered load's proofs of delivery: each opens its PDF through this same link. */
function ProofOfDelivery({ data, w, clock }: { data: PublicTracking; w: TrackWords; clock: TrackClock }) {
  const several = data.proofOfDelivery.length > 1;
  return (
    <Paper withBorder radius="md" p="md" data-testid="track-pod">
      <Title order={2} fz="md" mb="sm">
        {w.proofTitle}
      </Title>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.proofOfDelivery.map((d) => (
          <Group key={d.id} component="li" justify="space-between" gap="xs">
            <Button component="a" href={d.url} target="_blank" rel="noopener noreferrer" variant="light" leftSection={<DocumentIcon />}>
              {w.proofOpen(d.pageCount)}
            </Button>
            <Text size="sm" c="dimmed">
              {several && d.stopSeq !== null ? `${w.proofAtStop(d.stopSeq + 1)} · ` : ''}
              {when(d.createdAt, clock)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

function History({ data, w, clock }: { data: PublicTracking; w: TrackWords; clock: TrackClock }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="md" mb="sm">
        {w.history}
      </Title>
      {data.statusHistory.length === 0 ? (
        <Text size="sm" c="dimmed">
          {w.noHistory}
        </Text>
      ) : (
        <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {[...data.statusHistory].reverse().map((h, i) => (
            <Group key={i} component="li" justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={i === 0 ? 600 : 400}>
                {w.loadStatus[h.status]}
              </Text>
              <Text size="sm" c="dimmed" ta="right">
                {when(h.at, clock)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
