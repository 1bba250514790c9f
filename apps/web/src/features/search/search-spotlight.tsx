import '@mantine/spotlight/styles.css';
import { useState } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useSearch } from './search-api.ts';

/**
 * Ctrl+K / ⌘K from any screen (Mantine spotlight): one box over the organization's records, arrow
 * keys move through the results, Enter opens one. "See every result" opens /search with the text.
 */
export function SearchSpotlight() {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 150);
  const navigate = useNavigate();
  const results = useSearch({ q: debounced, limit: 5 });
  const groups = debounced.trim() ? (results.data?.groups ?? []) : [];
  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={460}>
      <Spotlight.Search placeholder="Search vehicles, VINs, drivers, devices, users, groups, logs…" leftSection={<IconSearch size={18} />} aria-label="Search everything" />
      <Spotlight.ActionsList>
        {groups.map((g) => (
          <Spotlight.ActionsGroup key={g.tag} label={`${g.label} (${g.total})`}>
            {g.hits.map((h) => (
              <Spotlight.Action key={`${h.tag}-${h.id}`} onClick={() => navigate(h.link)} data-testid="spotlight-hit">
                <Group wrap="nowrap" justify="space-between" w="100%" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {h.title}
                    </Text>
                    {h.subtitle && (
                      <Text size="xs" c="dimmed" truncate>
                        {h.subtitle}
                      </Text>
                    )}
                  </div>
                  {h.status === 'INACTIVE' && (
                    <Badge size="xs" variant="light" color="gray" style={{ color: 'var(--mantine-color-text)' }}>
                      Inactive
                    </Badge>
                  )}
                </Group>
              </Spotlight.Action>
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {debounced.trim() && results.isFetched && groups.length === 0 && <Spotlight.Empty>Nothing found for “{debounced}”.</Spotlight.Empty>}
        {!debounced.trim() && <Spotlight.Empty>Type a unit number, part of a VIN, a name, a device id or a date.</Spotlight.Empty>}
        {debounced.trim() && (
          <Spotlight.Action onClick={() => navigate(`/search?q=${encodeURIComponent(debounced)}`)}>
            <Text size="sm" c="blue">
              See every result for “{debounced}”
            </Text>
          </Spotlight.Action>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
