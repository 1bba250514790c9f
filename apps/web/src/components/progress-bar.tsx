import { Group, Progress, Text } from '@mantine/core';

export interface ProgressBarProps {
  /** Percentage 0..100 (default 0); shown rounded with a percent sign. */
  value?: number;
  /** Moving bar without a value. */
  indeterminate?: boolean;
  label?: string;
}

/** Spec section 9, progress bar. */
export function ProgressBar({ value = 0, indeterminate = false, label }: ProgressBarProps) {
  const pct = Math.max(0, Math.min(100, value));
  return (
    <Group gap="sm" wrap="nowrap">
      <Progress
        value={indeterminate ? 100 : pct}
        animated={indeterminate}
        striped={indeterminate}
        style={{ flex: 1 }}
        aria-label={label ?? 'Progress'}
        aria-valuetext={indeterminate ? 'Loading' : `${Math.round(pct)}%`}
      />
      {!indeterminate && (
        <Text size="sm" fw={500} w={44} ta="right">
          {Math.round(pct)}%
        </Text>
      )}
    </Group>
  );
}
