import { Button, Group, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useCan } from '../../lib/registry-api.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { Conversation } from './conversation.tsx';

// The conversation as a section of other screens (issue 44), composed in by the app shell: the load's
// page (its messages only, new ones tied to it) and the driver's log page (the whole conversation).

/** On a load's page: the messages about this load with its lead driver. */
export function LoadMessages({ driverId, loadId, driverName }: { driverId: string; loadId: string; driverName: string }) {
  const orgId = useEffectiveOrganizationId() ?? '';
  const can = useCan('MESSAGE_LIST');
  if (!can) return null;
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="md">
          Messages with {driverName}
        </Title>
        <Button component={Link} to={`/messages?driverId=${driverId}`} variant="subtle" size="compact-sm">
          Whole conversation
        </Button>
      </Group>
      <Conversation orgId={orgId} driverId={driverId} loadId={loadId} side="OFFICE" height={280} />
    </>
  );
}

/** On a driver's log page: the conversation with the driver. */
export function DriverLogMessages({ driverId, driverName }: { driverId: string; driverName: string }) {
  const orgId = useEffectiveOrganizationId() ?? '';
  const can = useCan('MESSAGE_LIST');
  if (!can) return null;
  return (
    <>
      <Title order={2} size="h4" mb="sm">
        Messages with {driverName}
      </Title>
      <Conversation orgId={orgId} driverId={driverId} side="OFFICE" height={300} />
    </>
  );
}
