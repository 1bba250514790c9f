import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Anchor, Card, Chip, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { SearchTag } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { HitRow } from './search-hit.tsx';
import { useSearch, useSearchFilters, useSearchTags } from './search-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

/** Up and Down move between the results' links (Tab works too). */
function arrowNavigation(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-result]')];
  const i = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = links[e.key === 'ArrowDown' ? Math.min(links.length - 1, i + 1) : Math.max(0, i - 1)];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

/** `/search`: the search box with its tags and filters; each result opens its record. */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(text, 200);
  const tags = (params.get('tags')?.split(',').filter(Boolean) ?? []) as SearchTag[];
  const status = (params.get('status') as 'ACTIVE' | 'INACTIVE' | null) ?? undefined;
  const group = params.get('group') ?? undefined;
  const tagList = useSearchTags();
  const filters = useSearchFilters();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    setParams((prev) => withParams(prev, { q: debounced.trim() ? debounced : null }), { replace: true });
  }, [debounced, setParams]);
  const set = (key: string, value: string | null) => setParams((prev) => withParams(prev, { [key]: value }), { replace: true });
  const results = useSearch({ q: debounced, tags: tags.length ? tags : undefined, status, group, limit: 20 });
  const groups = results.data?.groups ?? [];
  return (
    <>
      <PageHeader
        title="Search"
        description="Vehicles (unit, plate or any part of the VIN), trailers, drivers, devices, users, groups and drivers' log days. Ctrl+K (⌘K) opens this from any screen."
      />
      <Stack gap="md">
        <TextInput
          ref={input}
          size="md"
          aria-label="Search"
          placeholder="e.g. 107, 1FUJ, Lopez, demo-truck-07, Lopez 6/1"
          leftSection={<IconSearch size={18} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              document.querySelector<HTMLAnchorElement>('a[data-result]')?.focus();
            }
          }}
        />
        <Group gap="xs" wrap="wrap" align="center">
          <Chip.Group multiple value={tags} onChange={(v) => set('tags', v.length ? v.join(',') : null)}>
            <Group gap={6} wrap="wrap" role="group" aria-label="Record types">
              {(tagList.data?.tags ?? [])
                .filter((t) => t.allowed)
                .map((t) => (
                  <Chip key={t.tag} value={t.tag} size="sm" variant="outline">
                    {t.label}
                  </Chip>
                ))}
            </Group>
          </Chip.Group>
          <Select
            aria-label="Status"
            placeholder="Any status"
            clearable
            data={(filters.data?.statuses ?? []).map((s) => ({ value: s.value, label: s.label }))}
            value={status ?? null}
            onChange={(v) => set('status', v)}
            w={150}
          />
          {(filters.data?.groups.length ?? 0) > 0 && (
            <Select
              aria-label="Group"
              placeholder="Any group"
              clearable
              data={(filters.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
              value={group ?? null}
              onChange={(v) => set('group', v)}
              w={170}
            />
          )}
        </Group>
        {!debounced.trim() ? (
          <Text c="dimmed" size="sm">
            Type to search. Arrow keys move through the results; Enter opens one.
          </Text>
        ) : (
          <DataState
            isLoading={results.isLoading}
            error={results.error}
            onRetry={() => void results.refetch()}
            isEmpty={!!results.data && groups.length === 0}
            emptyTitle={`Nothing found for “${debounced}”`}
            emptyDescription="Try part of a name, a unit number or a few characters of the VIN."
          >
            <Stack gap="md" onKeyDown={arrowNavigation} data-testid="search-results">
              {groups.map((g) => (
                <Card key={g.tag} withBorder radius="md" padding="md" component="section" aria-label={g.label}>
                  <Group justify="space-between" mb="xs">
                    <Title order={2} fz="md">
                      {g.label}
                    </Title>
                    <Text size="xs" c="dimmed">
                      {g.hits.length < g.total ? `first ${g.hits.length} of ${g.total}` : `${g.total}`}
                    </Text>
                  </Group>
                  <Stack gap={6}>
                    {g.hits.map((h) => (
                      <HitRow
                        key={h.id}
                        hit={h}
                        query={results.data?.q ?? ''}
                        badgeSize="sm"
                        title={
                          <Anchor component={Link} to={h.link} data-result fw={600} size="sm">
                            {h.title}
                          </Anchor>
                        }
                      />
                    ))}
                  </Stack>
                </Card>
              ))}
            </Stack>
          </DataState>
        )}
      </Stack>
    </>
  );
}
