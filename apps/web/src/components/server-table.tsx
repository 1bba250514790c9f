import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Box,
  Card,
  Checkbox,
  Group,
  Menu,
  Pagination,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconColumns3, IconSearch, IconX } from '@tabler/icons-react';
import type { Page } from '@fleet/api-contract';
import { local } from '../lib/storage.ts';
import type { TableState } from '../lib/table-state.ts';
import { DataState } from './data-state.tsx';

export interface TableColumn<T> {
  /** Field name sent as `sort=key,asc` when sortable. */
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  sortable?: boolean;
  /** Hidden until the user picks it in the column menu. */
  hiddenByDefault?: boolean;
  /** The column that titles a row in the mobile card layout. */
  primary?: boolean;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
}

/** What the table reads of a list query: the API's page object (undefined while the first load runs). */
export interface ListQuery<T> {
  data: Page<T> | undefined;
  isLoading: boolean;
  /** True while a newer page loads over the one shown. */
  isFetching?: boolean;
  error?: unknown;
  refetch?: () => unknown;
}

export interface ServerTableProps<T> {
  /** Stable id: remembers the chosen columns in localStorage. */
  id: string;
  columns: TableColumn<T>[];
  /** The list's query (a TanStack `useQuery` result fits): its page, loading, error and retry. */
  query: ListQuery<T>;
  state: TableState;
  onStateChange: (patch: Partial<TableState>) => void;
  rowKey: (row: T) => string;
  onRowClick?: (row: T) => void;
  /** Accessible name of the table, e.g. "Vehicles". */
  label: string;
  searchPlaceholder?: string;
  /** Hides the search box for lists the API cannot search. */
  searchable?: boolean;
  pageSizes?: number[];
  emptyTitle?: string;
  emptyDescription?: ReactNode;
  emptyAction?: ReactNode;
  /** Extra controls on the toolbar's right (filters, export). */
  toolbar?: ReactNode;
}

function nextSort(current: string | undefined, key: string): string | undefined {
  const [field, dir] = (current ?? '').split(',');
  if (field !== key) return `${key},asc`;
  return dir === 'asc' ? `${key},desc` : undefined;
}

/**
 * The list of every registry screen: server-side paging (`{content, page, size, totalElements,
 * totalPages}`), sorting, search, page size, column choice, row click, and loading/empty/error states.
 * Below the small breakpoint the rows become cards.
 */
export function ServerTable<T>(p: ServerTableProps<T>) {
  const mobile = useMediaQuery('(max-width: 56.5em)') ?? false;
  const storageKey = `fleet.table.${p.id}.columns`;
  const [visible, setVisible] = useState<string[]>(() => local.getJson<string[]>(storageKey) ?? p.columns.filter((c) => !c.hiddenByDefault).map((c) => c.key));
  const columns = useMemo(() => p.columns.filter((c) => visible.includes(c.key)), [p.columns, visible]);
  const [search, setSearch] = useState(p.state.search ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const { onStateChange, state } = p;
  // A row opened while a search is still debouncing may navigate away: applying the search afterwards
  // would navigate back to the list. So opening a row applies it at once and typing again re-arms it.
  const openedRow = useRef(false);
  useEffect(() => {
    if (openedRow.current) return;
    if ((debounced.trim() || undefined) !== (state.search?.trim() || undefined)) onStateChange({ search: debounced });
  }, [debounced, state.search, onStateChange]);
  const typeSearch = (value: string) => {
    openedRow.current = false;
    setSearch(value);
  };
  const openRow = p.onRowClick
    ? (row: T) => {
        // Apply a pending search first (a drawer keeps the list on screen), then stop listening.
        if ((search.trim() || undefined) !== (state.search?.trim() || undefined)) onStateChange({ search });
        openedRow.current = true;
        p.onRowClick?.(row);
      }
    : undefined;

  const toggleColumn = (key: string) => {
    const next = visible.includes(key) ? visible.filter((k) => k !== key) : [...visible, key];
    if (next.length === 0) return;
    setVisible(next);
    local.setJson(storageKey, next);
  };

  const [sortField, sortDir] = (p.state.sort ?? '').split(',');
  const content = p.query.data?.content ?? [];
  const total = p.query.data?.totalElements ?? 0;
  const from = total === 0 ? 0 : p.state.page * p.state.size + 1;
  const to = Math.min(total, (p.state.page + 1) * p.state.size);
  const primary = columns.find((c) => c.primary) ?? columns[0];

  const skeleton = (
    <Stack gap="xs" p="sm" role="status" aria-label="Loading">
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} height={28} />
      ))}
    </Stack>
  );

  return (
    <Paper withBorder radius="md">
      <Group justify="space-between" p="sm" gap="sm" wrap="wrap">
        {p.searchable !== false ? (
          <TextInput
            aria-label={`Search ${p.label}`}
            placeholder={p.searchPlaceholder ?? 'Search'}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => typeSearch(e.currentTarget.value)}
            rightSection={
              search ? (
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Clear search" onClick={() => typeSearch('')}>
                  <IconX size={14} />
                </ActionIcon>
              ) : null
            }
            style={{ flex: '1 1 220px', maxWidth: 360 }}
          />
        ) : (
          <span />
        )}
        <Group gap="xs">
          {p.toolbar}
          <Menu closeOnItemClick={false} position="bottom-end">
            <Menu.Target>
              <ActionIcon variant="default" size="lg" aria-label="Choose columns">
                <IconColumns3 size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Columns</Menu.Label>
              {p.columns.map((c) => (
                <Menu.Item key={c.key} onClick={() => toggleColumn(c.key)}>
                  <Checkbox readOnly checked={visible.includes(c.key)} label={c.header} size="xs" tabIndex={-1} />
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>

      <DataState
        isLoading={p.query.isLoading}
        loadingFallback={skeleton}
        error={p.query.error}
        onRetry={p.query.refetch && (() => void p.query.refetch?.())}
        isEmpty={content.length === 0}
        emptyTitle={p.state.search ? 'No matches' : (p.emptyTitle ?? 'Nothing here yet')}
        emptyDescription={p.state.search ? `Nothing matches "${p.state.search}".` : p.emptyDescription}
        emptyAction={p.state.search ? undefined : p.emptyAction}
      >
        {/* Dimmed while a newer page loads, and said so to assistive technology. */}
        <Box aria-busy={p.query.isFetching} style={{ opacity: p.query.isFetching ? 0.6 : 1, transition: 'opacity 120ms' }}>
          {mobile ? (
            <Stack gap="xs" p="sm" aria-label={p.label} role="list">
              {content.map((row) => (
                <Card
                  key={p.rowKey(row)}
                  withBorder
                  padding="sm"
                  role="listitem"
                  tabIndex={p.onRowClick ? 0 : undefined}
                  onClick={openRow && (() => openRow(row))}
                  onKeyDown={openRow && ((e) => e.key === 'Enter' && openRow(row))}
                  style={p.onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {primary && <Text fw={600}>{primary.render(row)}</Text>}
                  {columns
                    .filter((c) => c !== primary)
                    .map((c) => (
                      <Group key={c.key} justify="space-between" gap="xs" wrap="nowrap">
                        <Text size="xs" c="dimmed">
                          {c.header}
                        </Text>
                        <Text size="sm" ta="right">
                          {c.render(row)}
                        </Text>
                      </Group>
                    ))}
                </Card>
              ))}
            </Stack>
          ) : (
            // A table wider than the screen scrolls sideways: the region takes keyboard focus (arrow keys scroll it) and has a name.
            <Table.ScrollContainer minWidth={600} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `${p.label} table` } }}>
              {/* Many columns sit closer together, so the last one still shows at 1280 px beside the open side menu. */}
              <Table highlightOnHover={!!p.onRowClick} verticalSpacing="sm" horizontalSpacing={columns.length > 8 ? 6 : 'xs'} aria-label={p.label}>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => {
                      const active = sortField === c.key;
                      const ariaSort = active ? (sortDir === 'desc' ? 'descending' : 'ascending') : undefined;
                      return (
                        <Table.Th key={c.key} w={c.width} ta={c.align} aria-sort={ariaSort}>
                          {c.sortable ? (
                            <UnstyledButton
                              onClick={() => p.onStateChange({ sort: nextSort(p.state.sort, c.key) })}
                              style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600, fontSize: 'inherit' }}
                            >
                              {c.header}
                              {active ? (
                                sortDir === 'desc' ? (
                                  <IconArrowDown size={14} aria-hidden />
                                ) : (
                                  <IconArrowUp size={14} aria-hidden />
                                )
                              ) : (
                                <IconArrowsSort size={14} aria-hidden opacity={0.5} />
                              )}
                            </UnstyledButton>
                          ) : (
                            c.header
                          )}
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {content.map((row) => (
                    <Table.Tr
                      key={p.rowKey(row)}
                      onClick={openRow && (() => openRow(row))}
                      onKeyDown={openRow && ((e) => e.key === 'Enter' && openRow(row))}
                      tabIndex={p.onRowClick ? 0 : undefined}
                      style={p.onRowClick ? { cursor: 'pointer' } : undefined}
                    >
                      {columns.map((c) => (
                        <Table.Td key={c.key} ta={c.align}>
                          {c.render(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Box>
      </DataState>

      <Group justify="space-between" p="sm" gap="sm" wrap="wrap">
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {total > 0 ? `${from}–${to} of ${total}` : '0 results'}
          </Text>
          <Select
            aria-label="Rows per page"
            size="xs"
            w={84}
            data={(p.pageSizes ?? [15, 30, 50, 100]).map(String)}
            value={String(p.state.size)}
            onChange={(v) => v && p.onStateChange({ size: Number(v) })}
            allowDeselect={false}
          />
        </Group>
        {(p.query.data?.totalPages ?? 0) > 1 && (
          <Pagination
            size="sm"
            total={p.query.data?.totalPages ?? 1}
            value={p.state.page + 1}
            onChange={(v) => p.onStateChange({ page: v - 1 })}
            siblings={mobile ? 0 : 1}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        )}
      </Group>
    </Paper>
  );
}
