import { Anchor, Button, Card, Container, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconBell, IconChartBar, IconClock, IconGasStation, IconMap2, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';

const FEATURES = [
  {
    icon: IconMap2,
    title: 'Live map and route history',
    text: 'Every vehicle where it is now, moving, idling or stopped, and where it went, from phones running Traccar Client or any OsmAnd tracker.',
  },
  {
    icon: IconClock,
    title: 'Hours of service',
    text: 'Drivers’ logs built from driving, with FMCSA and Canadian rules: remaining hours for every driver, violations, certification and annotated edits.',
  },
  {
    icon: IconBell,
    title: 'Told when it matters',
    text: 'A violation, a driver under 30 minutes of driving, a device gone quiet: in the app within seconds, and by e-mail if you like.',
  },
  { icon: IconGasStation, title: 'IFTA fuel tax', text: 'Miles per state and province from GPS, fuel purchases, and the quarter’s return.' },
  {
    icon: IconChartBar,
    title: 'Fleet performance',
    text: 'Distance, driving and idle time, utilization, speeding and stops per vehicle and group, exported as CSV.',
  },
  { icon: IconSearch, title: 'Find anything', text: 'Ctrl+K from any screen: a unit, part of a VIN, a driver, a device, a log day.' },
];

/** The public page about the product that the login footer's "Learn more" opens (spec section 2). */
export default function LearnMorePage() {
  useDocumentTitle('About Fleetline');
  return (
    <Container size="md" py="xl">
      <Stack gap="xl">
        <Stack gap="xs">
          <Title order={1}>Fleetline: your fleet and your drivers’ hours, at a glance</Title>
          <Text size="lg" c="dimmed">
            For trucking companies of every size: dispatchers see where every truck is and who can still drive; safety managers keep logs compliant; owners file
            IFTA on time.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          {FEATURES.map((f) => (
            <Card key={f.title} withBorder radius="md" padding="md">
              <ThemeIcon variant="light" size="lg" radius="md" mb="sm">
                <f.icon size={20} aria-hidden />
              </ThemeIcon>
              <Title order={2} fz="md" mb={4}>
                {f.title}
              </Title>
              <Text size="sm" c="dimmed">
                {f.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Card withBorder radius="md" padding="lg">
          <Title order={2} fz="lg" mb="xs">
            Start in minutes
          </Title>
          <List size="sm" spacing={4} mb="md">
            <List.Item>Create your company’s account and invite your team.</List.Item>
            <List.Item>Add drivers and vehicles, or import them from a spreadsheet.</List.Item>
            <List.Item>Put Traccar Client on a phone in each truck, or pair your trackers.</List.Item>
          </List>
          <Group gap="sm">
            <Button component={Link} to="/getting-started">
              Create an account
            </Button>
            <Anchor component={Link} to="/" size="sm">
              I already have one: log in
            </Anchor>
          </Group>
        </Card>
      </Stack>
    </Container>
  );
}
