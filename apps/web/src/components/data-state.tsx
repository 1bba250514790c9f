import type { ReactNode } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api-client.ts';
import { formatDateTime } from '../lib/dates.ts';

export type DataStatus = 'loading' | 'empty' | 'error' | 'content';

export interface DataStateProps {
  /** True while the first load runs (a refetch keeps showing the content). */
  isLoading?: boolean;
  /** The query error, if any: shown with the spec's generic error display. */
  error?: unknown;
  /** True when the load finished with nothing to show. */
  isEmpty?: boolean;
  /** Retry button on the error state. */
  onRetry?: () => void;
  emptyTitle?: string;
  emptyDescription?: ReactNode;
  /** Call to action on the empty state (e.g. an Add button). */
  emptyAction?: ReactNode;
  /** Shown while loading instead of the spinner (skeletons). */
  loadingFallback?: ReactNode;
  children?: ReactNode;
}

export function dataStatus({ isLoading, error, isEmpty }: Pick<DataStateProps, 'isLoading' | 'error' | 'isEmpty'>): DataStatus {
  if (isLoading) return 'loading';
  if (error) return 'error';
  if (isEmpty) return 'empty';
  return 'content';
}

/** Spec section 4, data container: one of loading, no data, error or content. Every page uses it. */
export function DataState(props: DataStateProps) {
  const { t } = useTranslation();
  const status = dataStatus(props);
  if (status === 'loading') {
    return (
      props.loadingFallback ?? (
        <Center py="xl" role="status" aria-live="polite">
          <Loader size="md" aria-label={t('common.loading')} />
        </Center>
      )
    );
  }
  if (status === 'error') {
    const e = describeError(props.error);
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title={e.title} role="alert">
        <Stack gap={4}>
          {e.details && e.details !== e.title && <Text size="sm">{e.details}</Text>}
          {e.status !== undefined && (
            <Text size="xs" c="dimmed">
              Status {e.status}
              {e.timestamp ? ` · ${formatDateTime(e.timestamp)}` : ''}
            </Text>
          )}
          {props.onRetry && (
            <Group>
              <Button size="xs" variant="default" onClick={props.onRetry}>
                Try again
              </Button>
            </Group>
          )}
        </Stack>
      </Alert>
    );
  }
  if (status === 'empty') {
    return (
      <Stack align="center" gap="xs" py="xl" data-testid="data-state-empty">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconInbox size={26} />
        </ThemeIcon>
        <Text fw={600}>{props.emptyTitle ?? 'No data'}</Text>
        {props.emptyDescription && (
          <Text c="dimmed" size="sm" ta="center" maw={420}>
            {props.emptyDescription}
          </Text>
        )}
        {props.emptyAction}
      </Stack>
    );
  }
  return <>{props.children}</>;
}
