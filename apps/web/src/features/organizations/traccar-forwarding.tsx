import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import type { OrgIngestTokenCreated, OrgIngestTokenStatus } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { confirmAction } from '../../components/confirm-dialog.tsx';

// "Device forwarding (Traccar)" on the organization account (decision 0154): the organization's
// ingest token, shown once, and the traccar.xml lines that forward every position here.

const tokenKey = (orgId: string) => ['organizations', 'ingest-token', orgId] as const;

/** The lines to paste into traccar.xml; Traccar retries a refused or failed forward. */
export function traccarXml(url: string, token: string): string {
  return [
    `<entry key='forward.enable'>true</entry>`,
    `<entry key='forward.type'>json</entry>`,
    `<entry key='forward.url'>${url}</entry>`,
    `<entry key='forward.header'>Authorization: ${token}</entry>`,
    `<entry key='forward.retry.enable'>true</entry>`,
    `<entry key='forward.retry.delay'>1000</entry>`,
    `<entry key='forward.retry.count'>20</entry>`,
    `<entry key='forward.retry.limit'>10000</entry>`,
  ].join('\n');
}

function CopyBlock({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Code block data-testid={testId} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {value}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
            >
              {copied ? 'Copied' : label}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

export function TraccarForwarding({ orgId }: { orgId: string }) {
  const qc = useQueryClient();
  const status = useQuery({ queryKey: tokenKey(orgId), queryFn: ({ signal }) => api<OrgIngestTokenStatus>(`${orgPathFor(orgId)}/ingest-token`, { signal }) });
  const [created, setCreated] = useState<OrgIngestTokenCreated | null>(null);
  const rotate = useMutation({
    mutationFn: () => api<OrgIngestTokenCreated>(`${orgPathFor(orgId)}/ingest-token`, { method: 'POST' }),
    onSuccess: (r) => {
      setCreated(r);
      void qc.invalidateQueries({ queryKey: tokenKey(orgId) });
    },
  });
  const s = created ?? status.data;
  if (!s)
    return (
      <Text size="sm" c="dimmed">
        {status.error ? 'The forwarding token could not be read.' : 'Loading…'}
      </Text>
    );
  const onRotate = async () => {
    if (
      s.exists &&
      !(await confirmAction({
        title: 'Replace the forwarding token?',
        message: 'The current token stops working within seconds: every Traccar server using it must be given the new one.',
        confirmLabel: 'Replace token',
      }))
    )
      return;
    rotate.mutate();
  };
  return (
    <Stack gap="sm">
      <Text size="sm">
        A Traccar server decodes more than 200 device protocols. Forwarding sends each position here; devices are matched by their unique id among this
        organization&apos;s devices only, and ids not registered here are refused and listed on the devices screen.
      </Text>
      <Text size="sm" data-testid="forwarding-status">
        {s.exists
          ? `Token created ${formatDateTime(s.createdAt)}; ${s.lastUsedAt ? `last used ${formatDateTime(s.lastUsedAt)}` : 'not used yet'}.`
          : 'No forwarding token yet.'}
      </Text>
      {created && (
        <>
          <Alert color="yellow" variant="light" title="Copy the token now">
            It is shown only once; only its fingerprint is kept. Paste these lines into Traccar&apos;s conf/traccar.xml and restart Traccar.
          </Alert>
          <CopyBlock value={created.token} label="Copy token" testId="forwarding-token" />
          <CopyBlock value={traccarXml(created.ingestUrl, created.token)} label="Copy traccar.xml lines" testId="traccar-xml" />
        </>
      )}
      {!created && (
        <Code block data-testid="traccar-xml" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {traccarXml(s.ingestUrl, '<token>')}
        </Code>
      )}
      <Group justify="flex-end">
        <Button leftSection={<IconKey size={16} />} variant={s.exists ? 'default' : 'filled'} loading={rotate.isPending} onClick={() => void onRotate()}>
          {s.exists ? 'Replace token' : 'Create forwarding token'}
        </Button>
      </Group>
    </Stack>
  );
}
