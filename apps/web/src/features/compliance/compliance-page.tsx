import { useCallback, useMemo } from 'react';
import { Anchor, Chip, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import {
  COMPLIANCE_KINDS,
  COMPLIANCE_STATUSES,
  DEFAULT_CALENDAR_STATUSES,
  kindsOfSubject,
  type ComplianceCalendarRow,
  type ComplianceKind,
  type ComplianceStatus,
} from '@fleet/api-contract/compliance';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { useFilterParam } from '../../components/registry-toolbar.tsx';
import { useSearchParams, withParams } from '../../lib/search-params.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useComplianceCalendar } from './compliance-api.ts';
import { ComplianceStatusBadge, DueText, kindLabel, STATUS_WORDS } from './compliance-words.tsx';
import { subjectPath } from './subject-links.ts';
import { QualificationZipButton } from './qualification-zip-button.tsx';

// `/compliance` (issue 71): the compliance calendar, every paper of the fleet's drivers, vehicles and
// trailers that is running out, has run out or is missing, soonest first (the server's order), with
// the way to each driver's or unit's file.

const SUBJECT_WORDS = { DRIVER: 'Driver', VEHICLE: 'Vehicle', TRAILER: 'Trailer' } as const;
const SUBJECT_OPTIONS = [
  { value: 'DRIVER', label: 'Drivers' },
  { value: 'VEHICLE', label: 'Vehicles' },
  { value: 'TRAILER', label: 'Trailers' },
];

/** The statuses shown, kept in the URL (`?status=EXPIRED,MISSING`); none given: the default three. */
function useStatuses(): [ComplianceStatus[], (v: ComplianceStatus[]) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const statuses = useMemo(
    () =>
      raw === null
        ? [...DEFAULT_CALENDAR_STATUSES]
        : raw.split(',').filter((s): s is ComplianceStatus => (COMPLIANCE_STATUSES as readonly string[]).includes(s)),
    [raw],
  );
  const set = useCallback(
    (v: ComplianceStatus[]) => {
      const same = v.length === DEFAULT_CALENDAR_STATUSES.length && DEFAULT_CALENDAR_STATUSES.every((s) => v.includes(s));
      // Ordered as the chips are, so the address (and the list's key) does not depend on the order of the clicks.
      const ordered = COMPLIANCE_STATUSES.filter((s) => v.includes(s));
      setParams((prev) => withParams(prev, { status: same ? null : ordered.join(',') || 'none' }, 'page'), { replace: true });
    },
    [setParams],
  );
  return [statuses, set];
}

export default function CompliancePage() {
  const [state, setState, pageQuery] = useTableState();
  const [statuses, setStatuses] = useStatuses();
  const [kindParam, setKind] = useFilterParam('kind');
  const [subject, setSubject] = useFilterParam('subject');
  const navigate = useNavigate();
  const kinds = useMemo(
    () => (kindParam ? kindParam.split(',').filter((k): k is ComplianceKind => (COMPLIANCE_KINDS as readonly string[]).includes(k)) : []),
    [kindParam],
  );
  const kindOptions = useMemo(() => {
    const of = subject === 'DRIVER' ? kindsOfSubject('DRIVER') : subject ? kindsOfSubject('VEHICLE') : COMPLIANCE_KINDS;
    return of.map((k) => ({ value: k, label: kindLabel(k) }));
  }, [subject]);
  const none = statuses.length === 0;
  const query = useMemo(
    () => ({
      page: pageQuery.page,
      size: pageQuery.size,
      q: pageQuery.search,
      status: statuses.join(','),
      kind: kinds.length ? kinds.join(',') : undefined,
      subject: subject ?? undefined,
    }),
    [pageQuery, statuses, kinds, subject],
  );
  const calendar = useComplianceCalendar(query, !none);
  // No status chosen: nothing to ask the server (it would answer its default three).
  const list = none ? { data: { content: [], page: 0, size: query.size, totalElements: 0, totalPages: 0 }, isLoading: false } : calendar;

  const columns: TableColumn<ComplianceCalendarRow>[] = [
    {
      key: 'subject',
      header: 'Driver or unit',
      primary: true,
      render: (r) => (
        <Stack gap={0}>
          <Anchor component={Link} to={subjectPath(r.subject)} size="sm" fw={600} onClick={(e) => e.stopPropagation()}>
            {r.subject.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {SUBJECT_WORDS[r.subject.type]}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'kind',
      header: 'Paper',
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{kindLabel(r.kind)}</Text>
          {(r.title || r.number) && (
            <Text size="xs" c="dimmed">
              {[r.title, r.number].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', render: (r) => <ComplianceStatusBadge status={r.status} /> },
    { key: 'dueDate', header: 'Due', render: (r) => <DueText dueDate={r.dueDate} daysLeft={r.daysLeft} status={r.status} /> },
  ];

  return (
    <>
      <PageHeader
        title="Compliance"
        description="Drivers' qualification files and the papers of vehicles and trailers: what runs out soonest, what has run out, and what is missing."
        breadcrumbs={[{ label: 'Safety', to: '/safety' }, { label: 'Compliance' }]}
        actions={<QualificationZipButton />}
      />
      <Stack gap="sm" mb="sm">
        <Chip.Group multiple value={statuses} onChange={(v) => setStatuses(v as ComplianceStatus[])}>
          <Group gap={6} role="group" aria-label="Statuses shown">
            {COMPLIANCE_STATUSES.map((s) => (
              <Chip key={s} value={s} size="sm" variant="outline">
                {STATUS_WORDS[s]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Stack>
      <ServerTable
        id="compliance"
        label="Compliance calendar"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(r) => r.itemId ?? `${r.subject.type}:${r.subject.id}:${r.kind}`}
        onRowClick={(r) => void navigate(subjectPath(r.subject))}
        searchPlaceholder="Name, unit or number"
        emptyTitle={none ? 'No status chosen' : 'Nothing to do'}
        emptyDescription={none ? 'Choose at least one status above.' : 'No paper matches: every file is in order for these filters.'}
        toolbar={
          <Group gap="xs" wrap="wrap">
            <Select
              aria-label="Drivers or units"
              placeholder="Drivers and units"
              data={SUBJECT_OPTIONS}
              value={subject}
              onChange={(v) => {
                setSubject(v);
                // A kind of the other side's papers would match nothing.
                if (kinds.length) setKind(null);
              }}
              clearable
              style={{ flex: '1 1 140px', maxWidth: 180 }}
            />
            <MultiSelect
              aria-label="Papers"
              placeholder={kinds.length ? undefined : 'Every paper'}
              data={kindOptions}
              value={kinds}
              onChange={(v) => setKind(v.length ? v.join(',') : null)}
              clearable
              searchable
              style={{ flex: '1 1 200px', maxWidth: 320 }}
            />
          </Group>
        }
      />
    </>
  );
}
