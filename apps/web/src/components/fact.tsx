import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';

/** One labelled value of a detail view; an empty value shows a dash. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children === null || children === undefined || children === '' ? '—' : children}</Text>
    </Stack>
  );
}
