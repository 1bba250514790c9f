import type { ReactNode } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import type { SearchHit } from '@fleet/api-contract';
import { MatchReason } from './match-reason.tsx';

/**
 * One search hit, as the search page and the spotlight show it: its title (a link or the action's
 * text), subtitle, why it matched, and a badge when the record is inactive.
 */
export function HitRow({ hit: h, query, title, badgeSize, w }: { hit: SearchHit; query: string; title: ReactNode; badgeSize: 'sm' | 'xs'; w?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" w={w}>
      <div style={{ minWidth: 0 }}>
        {title}
        {h.subtitle && (
          <Text size="xs" c="dimmed" truncate>
            {h.subtitle}
          </Text>
        )}
        <MatchReason match={h.match} query={query} />
      </div>
      {h.status === 'INACTIVE' && (
        <Badge size={badgeSize} variant="light" color="gray" style={{ color: 'var(--mantine-color-text)' }}>
          Inactive
        </Badge>
      )}
    </Group>
  );
}
