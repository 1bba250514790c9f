import { Alert, Progress, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { StartupProgressInfo } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';

/** While a first start seeds the demo data: asked again every few seconds, then not at all. */
const POLL_MS = 3_000;

/**
 * On a first start the dashboard opens while the demo fleet is still being written, and its counts
 * show part of it: this says so, with the progress, and refreshes the dashboard when seeding ends.
 */
export function DemoSeedingNotice() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['startup-progress'],
    queryFn: ({ signal }) => api<StartupProgressInfo>('/startup-progress', { signal, toast: false }),
    refetchInterval: (query) => (query.state.data?.seeding ? POLL_MS : false),
    staleTime: 0,
  });
  const seeding = q.data?.seeding ?? false;
  const wasSeeding = useRef(false);
  useEffect(() => {
    if (seeding) wasSeeding.current = true;
    else if (wasSeeding.current) {
      wasSeeding.current = false;
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    }
  }, [seeding, client]);
  if (!q.data?.seeding) return null;
  const { percent } = q.data;
  return (
    <Alert color="blue" variant="light" title={`Preparing demo data (${percent} %)`} mb="md" role="status" data-testid="demo-seeding-notice">
      <Text size="sm" mb="xs">
        The demo fleet's week of history is still being written, so these counts show only part of it. The dashboard refreshes itself when it is done.
      </Text>
      <Progress value={percent} size="sm" aria-label="Demo data prepared" />
    </Alert>
  );
}
