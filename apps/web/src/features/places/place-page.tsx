import { useMemo } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import type { VisitRow } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { geometryBounds } from '../../lib/map/place-shapes.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useUnits } from '../../lib/units.ts';
import { PlaceMap } from './place-map.tsx';
import { CategoryBadge, shapeText } from './places-page.tsx';
import { useDetentionTotals, usePlace, usePlaceVisits } from './places-api.ts';

/** "2 h 05 min" / "45 min" of seconds. */
function duration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {value}
      </Text>
    </Group>
  );
}

/** `/places/:id`: the place's shape, details, detention totals and every visit to it. */
export default function PlacePage() {
  const { id = '' } = useParams();
  const units = useUnits();
  const canEdit = useCan('PLACE_UPDATE');
  const place = usePlace(id);
  const [state, setState, page] = useTableState({ sort: 'arrivedAt,desc' });
  const visits = usePlaceVisits({ ...page, placeId: id });
  const detention = useDetentionTotals({ placeId: id });
  const p = place.data;
  const places = useMemo(() => (p ? [p] : []), [p]);
  const fit = useMemo(() => (p ? geometryBounds(p.geometry, p.radiusMeters) : null), [p]);
  const total = detention.data?.content.find((t) => t.placeId === id);

  const columns: TableColumn<VisitRow>[] = [
    {
      key: 'unitNumber',
      header: 'Vehicle',
      sortable: true,
      primary: true,
      render: (v) => (
        <Text size="sm" fw={600}>
          {v.unitNumber}
        </Text>
      ),
    },
    { key: 'driverName', header: 'Driver', render: (v) => v.driverName ?? 'No driver' },
    { key: 'arrivedAt', header: 'Arrived', sortable: true, render: (v) => formatDateTime(v.arrivedAt) },
    { key: 'departedAt', header: 'Departed', sortable: true, render: (v) => (v.departedAt ? formatDateTime(v.departedAt) : 'Still there') },
    { key: 'dwellSeconds', header: 'Dwell', sortable: true, align: 'right', render: (v) => duration(v.dwellSeconds) },
    {
      key: 'detentionSeconds',
      header: 'Detention',
      sortable: true,
      align: 'right',
      render: (v) =>
        v.detentionSeconds > 0 ? (
          <Badge variant="outline" radius="sm" tt="none" className={tones.danger}>
            {duration(v.detentionSeconds)}
          </Badge>
        ) : (
          'None'
        ),
    },
  ];

  return (
    <DataState isLoading={place.isLoading} error={place.error} onRetry={() => void place.refetch()}>
      {p && (
        <>
          <PageHeader
            title={p.name}
            description={p.address ?? undefined}
            breadcrumbs={[{ label: 'Places', to: '/places' }, { label: p.name }]}
            actions={
              canEdit && (
                <Button component={Link} to={`/places?edit=${p.id}`} leftSection={<IconPencil size={16} />} variant="default">
                  Edit place
                </Button>
              )
            }
          />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mb="md">
            <PlaceMap label={`${p.name} on the map`} places={places} fitBounds={fit} height={{ base: 260, sm: 340 }} />
            <Stack gap="md">
              <Paper withBorder p="md">
                <Stack gap={6}>
                  <Fact label="Category" value={<CategoryBadge category={p.category} />} />
                  <Fact label="Shape" value={shapeText(p, units)} />
                  <Fact label="Arrival dwell" value={duration(p.arrivalDwellSeconds)} />
                  <Fact label="Departure dwell" value={duration(p.departureDwellSeconds)} />
                  {p.notes && <Fact label="Notes" value={p.notes} />}
                </Stack>
              </Paper>
              <Paper withBorder p="md" data-testid="place-detention">
                <Text fw={600} mb={6}>
                  Detention
                </Text>
                {p.category !== 'CUSTOMER' ? (
                  <Text size="sm" c="dimmed">
                    Detention counts at customer places only.
                  </Text>
                ) : (
                  <Stack gap={6}>
                    <Fact label="Free time" value={detention.data ? duration(detention.data.freeMinutes * 60) : '—'} />
                    <Fact label="Visits" value={(total?.visits ?? 0).toLocaleString('en-US')} />
                    <Fact label="Visits with detention" value={(total?.visitsWithDetention ?? 0).toLocaleString('en-US')} />
                    <Fact label="Total dwell" value={duration(total?.dwellSeconds ?? 0)} />
                    <Fact label="Total detention" value={duration(total?.detentionSeconds ?? 0)} />
                  </Stack>
                )}
              </Paper>
            </Stack>
          </SimpleGrid>
          <ServerTable
            id="place-visits"
            label="Visits"
            columns={columns}
            query={visits}
            state={state}
            onStateChange={setState}
            rowKey={(v) => v.id}
            searchable={false}
            emptyTitle="No visits yet"
            emptyDescription="A vehicle's arrival and departure here appear once it has stayed inside for the arrival dwell."
          />
        </>
      )}
    </DataState>
  );
}
