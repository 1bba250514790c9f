import { Badge, Button, Card, Checkbox, Group, NumberInput, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { IconCalendarClock, IconCircleCheck, IconClockPlay, IconAlertTriangle } from '@tabler/icons-react';
import { dataRetentionInputSchema, hasPermission, type DataRetention } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAccessUser } from '../../lib/control-store.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { retentionQuery, useSaveRetention } from './data-retention-api.ts';

/** 183 -> "about 6 months", 1461 -> "4 years". */
export function describeDays(days: number | null): string {
  if (days === null) return 'Kept forever';
  if (days >= 365 && days % 365 <= 1) return `${Math.round(days / 365)} year${Math.round(days / 365) > 1 ? 's' : ''}`;
  if (days >= 360) return `about ${(days / 365).toFixed(1)} years`;
  if (days >= 28) {
    const months = Math.round(days / 30.4);
    return `about ${months} month${months > 1 ? 's' : ''}`;
  }
  return `${days} days`;
}

function JobCard({ job }: { job: DataRetention['job'] }) {
  const color = job.lastRunStatus === 'FAILED' ? 'red' : job.lastRunStatus === 'RUNNING' ? 'blue' : 'teal';
  const removed = Object.entries(job.lastRemoved).filter(([, n]) => n > 0);
  return (
    <Paper withBorder radius="md" p="md" mb="lg">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color={color} size="lg" radius="md">
            {job.lastRunStatus === 'FAILED' ? <IconAlertTriangle size={20} /> : <IconCircleCheck size={20} />}
          </ThemeIcon>
          <div>
            <Text size="xs" c="dimmed">
              Last purge run
            </Text>
            <Text fw={600}>{job.lastRunStartedAt ? formatDateTime(job.lastRunStartedAt) : 'Not run yet'}</Text>
            {job.lastRunStatus && (
              <Badge size="sm" variant="light" color={color}>
                {job.lastRunStatus === 'OK' ? 'Completed' : job.lastRunStatus === 'RUNNING' ? 'Running' : 'Failed'}
              </Badge>
            )}
          </div>
        </Group>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="md">
            <IconClockPlay size={20} />
          </ThemeIcon>
          <div>
            <Text size="xs" c="dimmed">
              Next purge run
            </Text>
            <Text fw={600}>{formatDateTime(job.nextRunAt)}</Text>
            <Text size="xs" c="dimmed">
              Daily, in small batches
            </Text>
          </div>
        </Group>
        <div>
          <Text size="xs" c="dimmed">
            Removed by the last run
          </Text>
          {removed.length === 0 ? (
            <Text fw={600}>Nothing past its period</Text>
          ) : (
            removed.map(([kind, n]) => (
              <Text key={kind} size="sm">
                {n.toLocaleString('en-US')} {kind.toLowerCase().replace(/_/g, ' ')}
              </Text>
            ))
          )}
        </div>
      </SimpleGrid>
    </Paper>
  );
}

function RetentionForm({ orgId, data, canEdit }: { orgId: string; data: DataRetention; canEdit: boolean }) {
  const save = useSaveRetention(orgId);
  const defaults = { policies: data.policies.map((p) => ({ kind: p.kind, retentionDays: p.retentionDays })) };
  const form = useZodForm(dataRetentionInputSchema, { defaultValues: defaults, mode: 'onChange' });
  const onSubmit = form.handleSubmit(async (input) => {
    const out = await save.mutateAsync(input).catch(() => null);
    if (!out) return;
    form.reset({ policies: out.policies.map((p) => ({ kind: p.kind, retentionDays: p.retentionDays })) });
    notify({ type: 'success', title: 'Retention periods saved', timeout: 4000 });
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Retention periods">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {data.policies.map((p, i) => (
          <Card key={p.kind} withBorder radius="md" padding="md">
            <Group justify="space-between" align="flex-start" wrap="nowrap" mb={4}>
              <Title order={2} fz="md">
                {p.label}
              </Title>
              {!p.stored && (
                <Badge size="sm" variant="outline" color="gray">
                  Not stored yet
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" mb="sm">
              {p.description}
            </Text>
            <Controller
              control={form.control}
              name={`policies.${i}.retentionDays`}
              render={({ field: f, fieldState }) => (
                <Stack gap={6}>
                  <NumberInput
                    label="Keep for (days)"
                    min={p.minimumDays}
                    max={36500}
                    step={1}
                    allowDecimal={false}
                    disabled={!canEdit || f.value === null}
                    value={f.value ?? ''}
                    onChange={(v) => f.onChange(typeof v === 'number' ? v : v === '' ? p.minimumDays : Number(v))}
                    onBlur={f.onBlur}
                    error={fieldState.error?.message}
                    description={`${describeDays(f.value ?? null)} · legal minimum ${p.minimumDays} days (${describeDays(p.minimumDays)})`}
                  />
                  <Checkbox
                    label="Keep forever"
                    disabled={!canEdit}
                    checked={f.value === null}
                    onChange={(e) => f.onChange(e.currentTarget.checked ? null : p.defaultDays)}
                  />
                </Stack>
              )}
            />
            <Group gap={6} mt="sm" wrap="nowrap" align="flex-start">
              <IconCalendarClock size={14} style={{ flex: 'none', marginTop: 3 }} aria-hidden />
              <Text size="xs" c="dimmed">
                {p.basis}
              </Text>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {canEdit && (
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => form.reset(defaults)} disabled={!form.formState.isDirty}>
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            Save periods
          </Button>
        </Group>
      )}
    </form>
  );
}

/** Retention period per data kind with the legal minimums, and the daily purge job's last and next run. */
export default function DataRetentionPage() {
  const orgId = useEffectiveOrganizationId();
  const me = useAccessUser();
  const q = useQuery({ ...retentionQuery(orgId ?? ''), enabled: !!orgId });
  const canEdit = hasPermission(me, 'RET_UPDATE');
  return (
    <>
      <PageHeader
        title="Data Retention"
        description="How long each kind of record is kept. Older records are removed by a daily purge; legal minimums cannot be shortened."
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Data Retention' }]}
      />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && orgId && (
          <>
            <JobCard job={q.data.job} />
            <RetentionForm key={q.dataUpdatedAt} orgId={orgId} data={q.data} canEdit={canEdit} />
          </>
        )}
      </DataState>
    </>
  );
}
