import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Badge, Button, Group as Row, Select } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import type { Group } from '@fleet/api-contract';
import type { QueryValue } from '../lib/query-string.ts';
import { downloadCsv, STATUS_OPTIONS, usePagedList } from '../lib/registry-api.ts';
import { withParams, useSearchParams } from '../lib/search-params.ts';

/** A list filter kept in the URL (`?status=ACTIVE`); changing it goes back to the first page. */
export function useFilterParam(name: string): [string | null, (v: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback((v: string | null) => setParams((prev) => withParams(prev, { [name]: v }, 'page'), { replace: true }), [name, setParams]);
  return [params.get(name), set];
}

/**
 * The record whose detail is open. A link may open one with `?open=<id>` (an activity-log entry
 * links its record so); the parameter is then taken out of the URL, because opening a row also
 * applies a pending search to the URL in the same tick and two search-param updates in one tick
 * keep only the last.
 */
export function useOpenParam(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const linked = params.get('open');
  const [openId, setOpenId] = useState<string | null>(linked);
  useEffect(() => {
    if (linked === null) return;
    setOpenId(linked);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('open');
        return next;
      },
      { replace: true },
    );
  }, [linked, setParams]);
  return [openId, setOpenId];
}

/** A URL flag such as `?addVehicle=true`, with a setter that removes it. */
export function useFlagParam(name: string): [boolean, (on: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback((on: boolean) => setParams((prev) => withParams(prev, { [name]: on ? 'true' : null }), { replace: true }), [name, setParams]);
  return [params.get(name) === 'true', set];
}

export function StatusFilter({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  return (
    <Select
      aria-label="Filter by status"
      placeholder="Any status"
      data={STATUS_OPTIONS}
      value={value}
      onChange={onChange}
      clearable
      style={{ flex: '1 1 120px', maxWidth: 160 }}
    />
  );
}

export function GroupFilter({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  const groups = usePagedList<Group>('groups', { size: 500, sort: 'name,asc' });
  return (
    <Select
      aria-label="Filter by group"
      placeholder="Any group"
      data={(groups.data?.content ?? []).map((g) => ({ value: g.id, label: g.name }))}
      value={value}
      onChange={onChange}
      clearable
      searchable
      style={{ flex: '1 1 130px', maxWidth: 190 }}
      nothingFoundMessage="No groups"
    />
  );
}

/** Downloads the list as CSV with the same filters, search and sort as the screen. */
export function ExportButton({ path, query, fileName }: { path: string; query: Record<string, QueryValue>; fileName: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadCsv(path, { ...query, page: undefined, size: undefined }, fileName);
        } catch {
          // The API client already showed the error toast.
        } finally {
          setBusy(false);
        }
      }}
    >
      Export CSV
    </Button>
  );
}

/** A registry list's toolbar: the status filter, any other filters (`children`), the group filter, and the CSV export of what they show. */
export function RegistryFilters(p: {
  status: string | null;
  onStatus: (v: string | null) => void;
  group: string | null;
  onGroup: (v: string | null) => void;
  exportPath: string;
  query: Record<string, QueryValue>;
  fileName: string;
  children?: ReactNode;
}) {
  return (
    <Row gap="xs" wrap="wrap" style={{ flex: '1 1 auto' }} justify="flex-end">
      <StatusFilter value={p.status} onChange={p.onStatus} />
      {p.children}
      <GroupFilter value={p.group} onChange={p.onGroup} />
      <ExportButton path={p.exportPath} query={p.query} fileName={p.fileName} />
    </Row>
  );
}

/** Opens a registry list's CSV import drawer (header action). */
export function ImportCsvButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="default" leftSection={<IconUpload size={16} />} onClick={onClick}>
      Import CSV
    </Button>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={status === 'ACTIVE' ? 'teal' : 'gray'} radius="sm">
      {status === 'ACTIVE' ? 'Active' : 'Inactive'}
    </Badge>
  );
}
