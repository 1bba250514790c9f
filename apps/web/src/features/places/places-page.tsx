import { useCallback, useMemo, useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, NativeSelect, Text } from '@mantine/core';
import { IconCircle, IconClick, IconDownload, IconFileImport, IconPencil, IconPlus, IconPolygon, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { PLACE_CATEGORIES, PLACE_CATEGORY_LABELS } from '@fleet/api-contract/places';
import type { Group as FleetGroup, Place, PlaceCategory } from '@fleet/api-contract';
import tones from '../../components/badge-tones.module.css';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { useFilterParam } from '../../components/registry-toolbar.tsx';
import { useGroups } from '../../lib/map/map-api.ts';
import { geometryBounds, PLACE_COLORS } from '../../lib/map/place-shapes.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useTableState } from '../../lib/table-state.ts';
import { formatShortDistance, useUnits, type UnitSystem } from '../../lib/units.ts';
import type { EditShape } from './place-draw.ts';
import { PlaceForm, shapeOfPlace, type EditorMode } from './place-form.tsx';
import { PlaceImportDrawer } from './place-import.tsx';
import { PlaceMap } from './place-map.tsx';
import { deletePlace, exportPlacesGeoJson, usePlace, usePlaceMutation, usePlaces } from './places-api.ts';
import classes from './places.module.css';
import { useSearchParams } from '../../lib/search-params.ts';

const NO_GROUPS: FleetGroup[] = [];
const NO_PLACES: Place[] = [];
/** A circle placed by a click starts this big (metres): a yard or a customer's lot. */
const POINT_RADIUS_M = 150;

/** "Circle, 500 ft radius", "Circle, 1.5 mi radius" or "Polygon, 6 corners". */
export function shapeText(p: Pick<Place, 'geometry' | 'radiusMeters'>, units: UnitSystem): string {
  return p.geometry.type === 'Point'
    ? `Circle, ${formatShortDistance(p.radiusMeters, units)} radius`
    : `Polygon, ${p.geometry.coordinates[0]!.length - 1} corners`;
}

export function CategoryBadge({ category }: { category: PlaceCategory }) {
  return (
    <Badge
      variant="outline"
      radius="sm"
      className={category === 'RESTRICTED' ? tones.danger : tones.muted}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 8, background: PLACE_COLORS[category] }} />}
    >
      {PLACE_CATEGORY_LABELS[category]}
    </Badge>
  );
}

/** `/places`: the organization's places as a list and on a map; drawing, editing, import and export. */
export default function PlacesPage() {
  const orgId = useEffectiveOrganizationId();
  const units = useUnits();
  const canEdit = useCan('PLACE_UPDATE');
  const [state, setState, query] = useTableState({ sort: 'name,asc' });
  const [category, setCategory] = useFilterParam('category');
  const listQuery = { ...query, category: (category as PlaceCategory | null) ?? undefined };
  const list = usePlaces(listQuery);
  const groups = useGroups().data?.content ?? NO_GROUPS;
  const [bbox, setBbox] = useState<string | null>(null);
  const inView = usePlaces({ bbox: bbox ?? undefined, category: listQuery.category, size: 500 }, !!bbox);
  const [importing, setImporting] = useState(false);
  const remove = usePlaceMutation(deletePlace);
  const navigate = useNavigate();

  // The place being edited: `?edit=<id>` (a place's page links so) or `?edit=new`.
  const [params, setParams] = useSearchParams();
  const editId = params.get('edit');
  const setEditId = useCallback(
    (id: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set('edit', id);
          else next.delete('edit');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const editing = usePlace(editId && editId !== 'new' ? editId : null);
  const [shape, setShape] = useState<EditShape | null>(null);
  const [mode, setMode] = useState<EditorMode>('select');
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [fit, setFit] = useState<[number, number, number, number] | null>(null);
  // Opening a place for editing puts its shape on the map once (later edits are the user's).
  if (editing.data && loadedFor !== editing.data.id) {
    setLoadedFor(editing.data.id);
    setShape(shapeOfPlace(editing.data));
    setMode('select');
    setFit(geometryBounds(editing.data.geometry, editing.data.radiusMeters));
  }
  const open = editId === 'new' || (!!editId && !!editing.data);

  const start = (m: EditorMode) => {
    setShape(null);
    setLoadedFor(null);
    setMode(m);
    setEditId('new');
  };
  const close = () => {
    setEditId(null);
    setShape(null);
    setLoadedFor(null);
    setMode('select');
  };
  const confirmDelete = async (p: Place) => {
    if (
      await confirmAction({
        title: `Delete place “${p.name}”?`,
        message: 'Its visits stay in the reports; no new arrivals or departures are recorded there. The activity log keeps a record.',
      })
    ) {
      remove.mutate(p.id, {
        onSuccess: () => {
          notify({ type: 'success', title: `Place ${p.name} deleted`, timeout: 4000 });
          if (editId === p.id) close();
        },
      });
    }
  };

  const columns: TableColumn<Place>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      primary: true,
      render: (p) => (
        <Anchor component={Link} to={`/places/${p.id}`} fw={600} size="sm" onClick={(e) => e.stopPropagation()}>
          {p.name}
        </Anchor>
      ),
    },
    { key: 'category', header: 'Category', sortable: true, render: (p) => <CategoryBadge category={p.category} /> },
    { key: 'shape', header: 'Shape', render: (p) => shapeText(p, units) },
    {
      key: 'group',
      header: 'Group',
      render: (p) => (p.groupId ? (groups.find((g) => g.id === p.groupId)?.name ?? 'A group') : 'Whole organization'),
      hiddenByDefault: true,
    },
    { key: 'address', header: 'Address', render: (p) => p.address ?? '—', hiddenByDefault: true },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right' as const,
            render: (p: Place) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit place ${p.name}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditId(p.id);
                  }}
                >
                  <IconPencil size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red.8"
                  aria-label={`Delete place ${p.name}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    void confirmDelete(p);
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ),
          },
        ]
      : []),
  ];

  const mapPlaces = useMemo(() => (inView.data?.content ?? NO_PLACES).filter((p) => !open || p.id !== editId), [inView.data, open, editId]);
  const focusRow = (p: Place) => setFit(geometryBounds(p.geometry, p.radiusMeters));

  return (
    <>
      <PageHeader
        title="Places"
        description="Customers, terminals, yards, fuel stops and restricted areas. A vehicle arrives at a place after staying inside it for the arrival dwell, and departs after staying outside for the departure dwell."
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => orgId && void exportPlacesGeoJson(orgId, { category: listQuery.category, search: query.search })}
            >
              Export GeoJSON
            </Button>
            {canEdit && (
              <>
                <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                  Import
                </Button>
                <Menu position="bottom-end">
                  <Menu.Target>
                    <Button leftSection={<IconPlus size={16} />}>Add place</Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPolygon size={16} />} onClick={() => start('polygon')}>
                      Draw a polygon
                    </Menu.Item>
                    <Menu.Item leftSection={<IconCircle size={16} />} onClick={() => start('circle')}>
                      Draw a circle
                    </Menu.Item>
                    <Menu.Item leftSection={<IconClick size={16} />} onClick={() => start('point')}>
                      From a point
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </>
            )}
          </Group>
        }
      />
      <div className={classes.split}>
        <div>
          {open && canEdit ? (
            <PlaceForm
              key={editId ?? 'new'}
              place={editId === 'new' ? null : (editing.data ?? null)}
              shape={shape}
              onShape={(s) => {
                setShape(s);
                if (mode === 'polygon' || mode === 'circle') setMode('select');
              }}
              mode={mode}
              onMode={setMode}
              groups={groups}
              onClose={close}
              onDelete={editing.data && editId !== 'new' ? () => void confirmDelete(editing.data!) : undefined}
            />
          ) : (
            <ServerTable
              id="places"
              label="Places"
              columns={columns}
              query={list}
              state={state}
              onStateChange={setState}
              rowKey={(p) => p.id}
              onRowClick={focusRow}
              searchPlaceholder="Name or address"
              toolbar={
                <NativeSelect
                  aria-label="Category"
                  value={category ?? ''}
                  onChange={(e) => setCategory(e.currentTarget.value || null)}
                  data={[{ value: '', label: 'Every category' }, ...PLACE_CATEGORIES.map((c) => ({ value: c, label: PLACE_CATEGORY_LABELS[c] }))]}
                />
              }
              emptyTitle="No places yet"
              emptyDescription={
                canEdit ? 'Draw a customer, terminal or yard on the map, or import them from a CSV or GeoJSON file.' : 'Nobody has drawn a place yet.'
              }
            />
          )}
        </div>
        <div className={classes.map}>
          <PlaceMap
            label="Places map"
            places={mapPlaces}
            onBoundsChange={setBbox}
            fitBounds={fit}
            onPlaceClick={(id) => (canEdit ? setEditId(id) : navigate(`/places/${id}`))}
            editor={
              open && canEdit
                ? {
                    mode,
                    shape,
                    onShape: (s) => {
                      setShape(s);
                      if (mode !== 'point') setMode('select');
                    },
                    pointRadiusM: shape?.kind === 'circle' ? shape.radiusM : POINT_RADIUS_M,
                  }
                : null
            }
          />
          {inView.data && inView.data.totalElements > inView.data.content.length && (
            <Text size="xs" c="dimmed" mt={4}>
              Showing {inView.data.content.length} of {inView.data.totalElements} places in this area: zoom in to see them all.
            </Text>
          )}
        </div>
      </div>
      <PlaceImportDrawer opened={importing} onClose={() => setImporting(false)} />
    </>
  );
}
