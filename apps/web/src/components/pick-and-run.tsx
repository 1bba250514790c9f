import { useState } from 'react';
import { Button, Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { usePagedList } from '../lib/registry-api.ts';

/** A searchable picker over a server list plus the button that runs the action on the chosen record. */
export function PickAndRun<T extends { id: string }>(p: {
  label: string;
  resource: string;
  toOption: (row: T) => { value: string; label: string };
  extraQuery: Record<string, string>;
  exclude?: string[];
  button: string;
  onRun: (id: string, label: string) => Promise<void>;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [value, setValue] = useState<string | null>(null);
  const list = usePagedList<T>(p.resource, { ...p.extraQuery, size: 20, search: debounced || undefined });
  const options = (list.data?.content ?? []).filter((r) => !p.exclude?.includes(r.id)).map(p.toOption);
  const chosen = options.find((o) => o.value === value);
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        label={p.label}
        placeholder="Type to search"
        searchable
        data={chosen && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options}
        value={value}
        onChange={setValue}
        onSearchChange={setSearch}
        searchValue={search}
        filter={({ options: o }) => o}
        nothingFoundMessage={list.isFetching ? 'Searching…' : 'Nothing found'}
        style={{ flex: 1 }}
      />

      <Button
        disabled={!value}
        onClick={async () => {
          if (!value) return;
          await p.onRun(value, chosen?.label ?? '');
          setValue(null);
          setSearch('');
        }}
      >
        {p.button}
      </Button>
    </Group>
  );
}
