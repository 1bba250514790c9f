import { ActionIcon, List, Popover, Stack, Text, Title } from '@mantine/core';
import { IconHelp } from '@tabler/icons-react';

/** What the four clocks mean, their colours, and strict against provisional, in a popover. */
export function ClockHelp() {
  return (
    <Popover width={360} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <ActionIcon variant="default" size="lg" aria-label="About the clocks">
          <IconHelp size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Title order={3} size="h5">
            The four clocks
          </Title>
          <List size="sm" spacing={4}>
            <List.Item>
              <b>Drive</b>: driving time left in the shift (11 h for US property carriers after 10 h off).
            </List.Item>
            <List.Item>
              <b>Window</b>: time left before the shift window closes (14 consecutive hours after coming on duty; on-duty hours for passenger and Texas rules).
              Off-duty time inside it does not stop it.
            </List.Item>
            <List.Item>
              <b>Break</b>: driving left before a 30-minute break is due (after 8 h of driving).
            </List.Item>
            <List.Item>
              <b>Cycle</b>: on-duty time left in the 60 h / 7 days or 70 h / 8 days; a 34-hour restart sets it back to zero.
            </List.Item>
          </List>
          <Text size="sm">
            <b>Available now</b> is the smallest of them: how long the driver may still drive. Bars are green, amber under 2 h and red under 30 min.
          </Text>
          <Text size="sm">
            Times are strict: they count only completed split-sleeper pairs. Where pairing the last rest would give more time, the provisional figure shows
            under the bar (&quot;if split&quot;).
          </Text>
          <Text size="xs" c="dimmed">
            Clocks of drivers who are driving or on duty count down live; the list is refreshed from the logs every minute.
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
