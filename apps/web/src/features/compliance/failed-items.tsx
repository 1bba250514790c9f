import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ComplianceItem } from '@fleet/api-contract/compliance';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { makeDefect, useComplianceMutation } from './compliance-api.ts';

// A failed annual inspection's items (49 CFR 396.17, issue 71): each can be made a defect of the unit,
// which then waits on the maintenance pages for a repair and a mechanic's certification like a
// driver's. Made once: the item then links to its defect.

const DEFECT_WORDS = { OPEN: 'Defect open', REPAIRED: 'Repaired', NOT_NEEDED: 'No repair needed' } as const;

export function FailedItems({ item, unitName, canUpdate }: { item: ComplianceItem; unitName: string; canUpdate: boolean }) {
  const make = useComplianceMutation(makeDefect);
  const defectOf = new Map(item.defects.map((d) => [d.failedItem, d]));

  const open = async (failedItem: string) => {
    const ok = await confirmAction({
      title: 'Open a defect?',
      message: `"${failedItem}" becomes a safety defect of ${unitName}: it shows on the maintenance pages until a mechanic certifies it repaired.`,
      confirmLabel: 'Open defect',
      danger: false,
    });
    if (!ok) return;
    make.mutate(
      { id: item.id, failedItem, safety: true },
      { onSuccess: () => notify({ type: 'success', title: `Defect opened on ${unitName}`, timeout: 4000 }) },
    );
  };

  return (
    <Stack gap={4} mt={4} role="list" aria-label="Failed items">
      {item.failedItems.map((f) => {
        const d = defectOf.get(f);
        return (
          <Group key={f} gap={6} wrap="nowrap" justify="space-between" role="listitem" data-testid="failed-item">
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              {f}
            </Text>
            {d ? (
              <Anchor
                component={Link}
                to={`/maintenance/defects?assetId=${encodeURIComponent(item.subject.id)}`}
                size="xs"
                style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              >
                <Badge size="xs" variant="light" color={d.status === 'OPEN' ? 'orange' : 'green'} style={{ cursor: 'pointer' }}>
                  {DEFECT_WORDS[d.status]}
                </Badge>
              </Anchor>
            ) : (
              canUpdate && (
                <Button
                  size="compact-xs"
                  variant="light"
                  color="orange"
                  leftSection={<IconTool size={12} aria-hidden />}
                  aria-label={`Open defect for ${f}`}
                  loading={make.isPending && make.variables?.failedItem === f}
                  onClick={() => void open(f)}
                  style={{ flexShrink: 0 }}
                >
                  Open defect
                </Button>
              )
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
