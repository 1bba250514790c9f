import { Badge, Group, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { ELD_ENGINE_ATTRIBUTES, ENGINE_ATTRIBUTES, ENGINE_ATTRIBUTE_NAMES, type EngineDataSeen } from '@fleet/api-contract';

// What a device's newest positions carried from the engine (decision 0154): an ELD needs the
// engine's ignition, odometer and hours; without them the device is a GPS tracker.

/** Whole words, never cut: the state is the point of the column. */
const WHOLE = { root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible' } } as const;

export function EngineBadge({ data }: { data: EngineDataSeen }) {
  if (data.lastPositionAt === null)
    return (
      <Badge variant="light" color="gray" radius="sm" tt="none" styles={WHOLE}>
        No data yet
      </Badge>
    );
  if (data.gpsOnly) {
    const missing = ELD_ENGINE_ATTRIBUTES.filter((n) => !data.attributes[n]).map((n) => ENGINE_ATTRIBUTES[n].label);
    return (
      <Tooltip label={`Missing: ${missing.join(', ')}`} withArrow>
        <Badge variant="light" color="orange" radius="sm" tt="none" styles={WHOLE}>
          GPS only: not an ELD
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Badge variant="light" color="teal" radius="sm" tt="none" styles={WHOLE}>
      Engine connected
    </Badge>
  );
}

/** Yes or no per engine attribute, in the contract's order. */
export function EngineAttributes({ data }: { data: EngineDataSeen }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing={6} role="group" aria-label="Engine data seen">
      {ENGINE_ATTRIBUTE_NAMES.map((n) => {
        const seen = data.attributes[n];
        return (
          <Group key={n} gap={6} wrap="nowrap" data-testid={`engine-${n}`} data-seen={seen ? 'yes' : 'no'}>
            {seen ? (
              <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
            ) : (
              <IconX size={16} color="var(--mantine-color-dimmed)" aria-hidden />
            )}
            <Text size="sm" c={seen ? undefined : 'dimmed'}>
              {ENGINE_ATTRIBUTES[n].label}: {seen ? 'yes' : 'no'}
            </Text>
          </Group>
        );
      })}
    </SimpleGrid>
  );
}
