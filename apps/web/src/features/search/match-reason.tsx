import { Text } from '@mantine/core';
import type { SearchHit } from '@fleet/api-contract';

/** Why a search hit matched: "Matched unit number: 117", the searched text in bold. Nothing when the server gave no reason. */
export function MatchReason({ match, query }: { match: SearchHit['match']; query: string }) {
  if (!match) return null;
  const needle = query.trim().toLowerCase();
  const at = needle ? match.value.toLowerCase().indexOf(needle) : -1;
  return (
    <Text size="xs" c="dimmed" truncate data-testid="match-reason">
      Matched {match.field}:{' '}
      {at < 0 ? (
        match.value
      ) : (
        <>
          {match.value.slice(0, at)}
          <Text span inherit fw={700} c="var(--mantine-color-text)">
            {match.value.slice(at, at + needle.length)}
          </Text>
          {match.value.slice(at + needle.length)}
        </>
      )}
    </Text>
  );
}
