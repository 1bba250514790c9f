import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ActivityRecord } from '@fleet/api-contract';

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The record an entry concerns ("Vehicle 117"), as a link to the screen that shows it; plain text
 * when it no longer exists. Inside a clickable row the link opens the record, not the row.
 */
export function ActivityRecordLink({ record }: { record: ActivityRecord | null }) {
  if (!record) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  if (!record.path) {
    return (
      <Text span size="sm" c="dimmed">
        {capitalized(record.label)}
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to={record.path}
      size="sm"
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
      style={{ wordBreak: 'break-word' }}
    >
      {capitalized(record.label)}
    </Anchor>
  );
}
