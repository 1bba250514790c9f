import { useState } from 'react';
import { Accordion, Card, Code, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useWebConfig } from '../../lib/web-config.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { HELP_ARTICLES, searchArticles, type HelpArticle } from './help-articles.ts';
import { QrCode } from './qr-code.tsx';
import { useSearchParams } from '../../lib/search-params.ts';

function Paragraph({ text }: { text: string }) {
  if (text.startsWith('- ')) {
    return (
      <List size="sm" spacing={4}>
        {text.split('\n').map((line) => (
          <List.Item key={line}>{line.replace(/^- /, '')}</List.Item>
        ))}
      </List>
    );
  }
  const [first, ...rest] = text.split('\n');
  return (
    <Stack gap={4}>
      <Text size="sm">{first}</Text>
      {rest.length > 0 && (
        <List size="sm" spacing={4}>
          {rest.map((line) => (
            <List.Item key={line}>{line.replace(/^- /, '')}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function PhoneSetup() {
  const config = useWebConfig();
  const [deviceId, setDeviceId] = useState('');
  const port = config.data?.osmandPort;
  const host = typeof window === 'undefined' ? 'localhost' : window.location.hostname;
  const server = port ? `${window.location.protocol}//${host}:${port}` : `${window.location.origin}/api/v1/ingest/osmand`;
  const qrText = deviceId.trim() ? `${server}?id=${encodeURIComponent(deviceId.trim())}` : server;
  return (
    <Card withBorder radius="md" padding="md" mt="sm">
      <Group align="flex-start" wrap="wrap" gap="lg">
        <QrCode text={qrText} label={`QR code of the server URL ${qrText}`} />
        <Stack gap="xs" style={{ flex: '1 1 240px' }}>
          <Text size="sm" fw={600}>
            Server URL
          </Text>
          <Code block data-testid="server-url">
            {server}
          </Code>
          <TextInput
            label="Device identifier (optional)"
            description="The device's unique id in Fleetline; it is added to the QR code."
            value={deviceId}
            onChange={(e) => setDeviceId(e.currentTarget.value)}
          />
        </Stack>
      </Group>
    </Card>
  );
}

function Article({ a }: { a: HelpArticle }) {
  return (
    <Accordion.Item value={a.id} data-testid={`help-${a.id}`}>
      <Accordion.Control>
        <Text fw={600}>{a.title}</Text>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          {a.body.map((p) => (
            <Paragraph key={p} text={p} />
          ))}
          {a.qr && <PhoneSetup />}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** `/help`: searchable articles written for Fleetline. */
export default function HelpPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const found = searchArticles(q);
  const [open, setOpen] = useState<string[]>(params.get('article') ? [params.get('article')!] : []);
  return (
    <>
      <PageHeader title="Help" description="How to set up your fleet, connect devices and read hours of service." />
      <Stack gap="md" maw={860}>
        <TextInput
          size="md"
          aria-label="Search help"
          placeholder="Search help, e.g. QR code, 14-hour, pairing"
          leftSection={<IconSearch size={18} />}
          value={q}
          onChange={(e) => setParams(e.currentTarget.value ? { q: e.currentTarget.value } : {}, { replace: true })}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {q ? `${found.length} of ${HELP_ARTICLES.length} articles` : `${HELP_ARTICLES.length} articles`}
        </Text>
        {found.length === 0 ? (
          <Card withBorder padding="lg">
            <Title order={2} fz="md">
              Nothing found for “{q}”
            </Title>
            <Text size="sm" c="dimmed">
              Try another word: device, clock, violation, IFTA, role.
            </Text>
          </Card>
        ) : (
          <Accordion
            multiple
            variant="separated"
            value={
              q
                ? found
                    .slice(0, 1)
                    .map((a) => a.id)
                    .concat(open)
                : open
            }
            onChange={setOpen}
          >
            {found.map((a) => (
              <Article key={a.id} a={a} />
            ))}
          </Accordion>
        )}
      </Stack>
    </>
  );
}
