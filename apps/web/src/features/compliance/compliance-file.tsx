import { Suspense, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconDots, IconDownload, IconFileTypePdf, IconPencil, IconPlus, IconRefresh, IconTrash, IconX } from '@tabler/icons-react';
import { MULTIPLE_COMPLIANCE_KINDS, type ComplianceChecklistRow, type ComplianceItem, type ComplianceKind } from '@fleet/api-contract/compliance';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { lazyPart } from '../../components/on-first-use.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCan } from '../../lib/registry-api.ts';
import { approveItem, deleteItem, downloadItemPdf, useComplianceMutation } from './compliance-api.ts';
import { FailedItems } from './failed-items.tsx';
import { ApprovalBadge, ComplianceStatusBadge, dayText, DueText, kindLabel } from './compliance-words.tsx';
import type { ItemDialogProps } from './item-dialog.tsx';

// A driver's qualification file or a unit's papers (issue 71): the checklist of what the subject must
// hold with each paper's status, the drivers' renewals waiting for the office, and the papers
// replaced or refused. The dialogs load on first use.

const ItemDialog = lazyPart(() => import('./item-dialog.tsx').then((m) => ({ default: m.ItemDialog })));
const RejectDialog = lazyPart(() => import('./reject-dialog.tsx').then((m) => ({ default: m.RejectDialog })));

export type FileSubject = ItemDialogProps['subject'];

export interface ComplianceFileData {
  today: string;
  expiringDays: number;
  items: ComplianceItem[];
  checklist: ComplianceChecklistRow[];
}

/** The facts of a paper in a line ("CDL A · IL · H, N · 12 pages"). */
function factsOf(i: ComplianceItem, withFailedItems = true): string {
  const facts = [
    i.title,
    i.issuer,
    i.number,
    i.class && `Class ${i.class}`,
    i.state,
    i.endorsements && `Endorsements ${i.endorsements}`,
    i.restrictions && `Restrictions ${i.restrictions}`,
    i.examinerRegistryNumber && `Examiner ${i.examinerRegistryNumber}`,
    i.inspector && `Inspector ${i.inspector}`,
    i.result && (i.result === 'PASS' ? 'Passed' : `Failed${withFailedItems && i.failedItems.length ? `: ${i.failedItems.join(', ')}` : ''}`),
    i.issuedOn && `Issued ${dayText(i.issuedOn)}`,
  ];
  return facts.filter(Boolean).join(' · ');
}

const pagesText = (n: number) => (n === 0 ? 'No document' : n === 1 ? '1 page' : `${n} pages`);

type Dialog = { kind: 'item'; item: ComplianceItem | null; start: ComplianceKind | null } | { kind: 'reject'; item: ComplianceItem } | null;

export function ComplianceFile({ subject, data }: { subject: FileSubject; data: ComplianceFileData }) {
  const canUpdate = useCan('COMPLIANCE_UPDATE');
  const [dialog, setDialog] = useState<Dialog>(null);
  const approve = useComplianceMutation(approveItem);
  const remove = useComplianceMutation(deleteItem);
  const [showOthers, setShowOthers] = useState(false);

  const currentIds = new Set(data.checklist.map((r) => r.current?.id).filter(Boolean));
  const pending = data.items.filter((i) => i.approval === 'PENDING');
  const others = data.items.filter((i) => i.approval !== 'PENDING' && !currentIds.has(i.id));

  const del = async (i: ComplianceItem) => {
    const ok = await confirmAction({
      title: `Delete this ${kindLabel(i.kind).toLowerCase()}?`,
      message: `It is taken out of ${subject.name}'s file with its document; the activity log keeps a record of it.`,
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(i.id);
      notify({ type: 'success', title: `${kindLabel(i.kind)} deleted`, timeout: 4000 });
    } catch {
      // The API client showed the error.
    }
  };
  const download = (i: ComplianceItem) => void downloadItemPdf(i).catch(() => undefined);

  const itemMenu = (i: ComplianceItem, label: string) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`More for ${label}`}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {i.pageCount > 0 && (
          <Menu.Item leftSection={<IconFileTypePdf size={16} />} onClick={() => download(i)}>
            Download document
          </Menu.Item>
        )}
        {canUpdate && (
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setDialog({ kind: 'item', item: i, start: null })}>
            Edit or add pages
          </Menu.Item>
        )}
        {canUpdate && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void del(i)}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );

  const row = (r: ComplianceChecklistRow, n: number) => {
    const label = kindLabel(r.kind);
    const i = r.current;
    // A paper that runs out is renewed; one held several times gets another; one that never expires is replaced.
    const verb = !i ? 'Add' : r.dueDate ? 'Renew' : MULTIPLE_COMPLIANCE_KINDS.includes(r.kind) ? 'Add another' : 'Replace';
    return (
      <Paper key={i?.id ?? `${r.kind}-${n}`} withBorder radius="sm" p="xs" data-testid="compliance-row" data-kind={r.kind} data-status={r.status}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={2} miw={0}>
            <Group gap={6} wrap="wrap">
              <Text size="sm" fw={600}>
                {label}
              </Text>
              <ComplianceStatusBadge status={r.status} />
            </Group>
            <Text size="xs" c="dimmed">
              {r.dueDate ? (
                <>
                  Due <DueText dueDate={r.dueDate} daysLeft={r.daysLeft} status={r.status} size="xs" />
                </>
              ) : i ? (
                'No expiry'
              ) : (
                'Not on file'
              )}
            </Text>
            {i && (
              <Text size="xs" c="dimmed">
                {[factsOf(i, false), pagesText(i.pageCount)].filter(Boolean).join(' · ')}
              </Text>
            )}
            {i?.kind === 'ANNUAL_INSPECTION' && i.result === 'FAIL' && i.failedItems.length > 0 && (
              <FailedItems item={i} unitName={subject.name} canUpdate={canUpdate} />
            )}
          </Stack>
          <Group gap={4} wrap="nowrap">
            {canUpdate && (
              <Button
                size="compact-sm"
                variant={i ? 'subtle' : 'light'}
                leftSection={i ? <IconRefresh size={14} aria-hidden /> : <IconPlus size={14} aria-hidden />}
                aria-label={`${verb} ${label}`}
                onClick={() => setDialog({ kind: 'item', item: null, start: r.kind })}
              >
                {verb}
              </Button>
            )}
            {i && itemMenu(i, label)}
          </Group>
        </Group>
      </Paper>
    );
  };

  return (
    <Stack gap="sm">
      {pending.length > 0 && (
        <Stack gap="xs" aria-label="Waiting for approval" role="region">
          {pending.map((i) => (
            <Alert key={i.id} color="yellow" variant="light" title={`${kindLabel(i.kind)} sent for approval`} data-testid="compliance-pending">
              <Stack gap={6}>
                <Text size="sm">
                  {[
                    i.submittedByName && `From ${i.submittedByName}, ${formatDateTime(i.createdAt)}`,
                    i.expiresOn && `expires ${dayText(i.expiresOn)}`,
                    factsOf(i),
                    pagesText(i.pageCount),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                <Group gap="xs">
                  {i.pageCount > 0 && (
                    <Button size="compact-sm" variant="default" leftSection={<IconDownload size={14} aria-hidden />} onClick={() => download(i)}>
                      Document
                    </Button>
                  )}
                  {canUpdate && (
                    <>
                      <Button
                        size="compact-sm"
                        color="green"
                        leftSection={<IconCheck size={14} aria-hidden />}
                        loading={approve.isPending && approve.variables === i.id}
                        onClick={() =>
                          approve.mutate(i.id, { onSuccess: () => notify({ type: 'success', title: `${kindLabel(i.kind)} approved`, timeout: 4000 }) })
                        }
                      >
                        Approve
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        leftSection={<IconX size={14} aria-hidden />}
                        onClick={() => setDialog({ kind: 'reject', item: i })}
                      >
                        Reject
                      </Button>
                    </>
                  )}
                </Group>
              </Stack>
            </Alert>
          ))}
        </Stack>
      )}
      <Stack gap={6} role="list" aria-label="Checklist">
        {data.checklist.map((r, n) => (
          <div role="listitem" key={r.current?.id ?? `${r.kind}-${n}`}>
            {row(r, n)}
          </div>
        ))}
      </Stack>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          Statuses as of {dayText(data.today)}; expiring within {data.expiringDays} days.
        </Text>
        {canUpdate && (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setDialog({ kind: 'item', item: null, start: null })}
          >
            Add a paper
          </Button>
        )}
      </Group>
      {others.length > 0 && (
        <Stack gap={6}>
          <Button variant="subtle" size="compact-sm" onClick={() => setShowOthers((v) => !v)} style={{ alignSelf: 'flex-start' }} aria-expanded={showOthers}>
            {showOthers ? 'Hide' : 'Show'} earlier and refused papers ({others.length})
          </Button>
          {showOthers &&
            others.map((i) => (
              <Paper key={i.id} withBorder radius="sm" p="xs" data-testid="compliance-other">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack gap={2} miw={0}>
                    <Group gap={6}>
                      <Text size="sm">{kindLabel(i.kind)}</Text>
                      <ApprovalBadge approval={i.approval} />
                    </Group>
                    <Text size="xs" c="dimmed">
                      {[i.dueDate && `Due ${dayText(i.dueDate)}`, factsOf(i), pagesText(i.pageCount)].filter(Boolean).join(' · ')}
                    </Text>
                    {i.rejectReason && <Text size="xs">Refused: {i.rejectReason}</Text>}
                  </Stack>
                  {itemMenu(i, kindLabel(i.kind))}
                </Group>
              </Paper>
            ))}
        </Stack>
      )}
      <Suspense fallback={null}>
        {dialog?.kind === 'item' && <ItemDialog subject={subject} item={dialog.item} kind={dialog.start} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'reject' && <RejectDialog item={dialog.item} onClose={() => setDialog(null)} />}
      </Suspense>
    </Stack>
  );
}

/** A file with its loading and error states. */
export function ComplianceFileState({
  subject,
  query,
}: {
  subject: FileSubject;
  query: { data: ComplianceFileData | undefined; isLoading: boolean; error: unknown; refetch: () => unknown };
}) {
  return (
    <DataState isLoading={query.isLoading} error={query.error} onRetry={() => void query.refetch()}>
      {query.data && <ComplianceFile subject={subject} data={query.data} />}
    </DataState>
  );
}
