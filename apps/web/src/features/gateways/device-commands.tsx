import { useRef, useState } from 'react';
import { Badge, Button, Card, Center, Code, Group, Loader, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DEVICE_COMMAND_EXPIRY_HOURS,
  DEVICE_COMMAND_MAX_LENGTH,
  DEVICE_COMMON_COMMANDS,
  type DeviceCommand,
  type DeviceCommandStatus,
} from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { describeError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { isWaiting, useDeviceCommands, useSendCommand } from './gateways-api.ts';

// The device page's command console (issue 73, decision 0318): the common commands of the device's
// protocol as quick buttons, a free text command, and the commands sent with their status and the
// device's answers, read again while any waits for the device.

const STATUS_COLORS: Record<DeviceCommandStatus, string> = { QUEUED: 'gray', SENT: 'blue', ANSWERED: 'green', EXPIRED: 'orange' };

/** Props: the device, its protocol (which common commands to offer; none for a protocol without a list) and whether the user may send (GAT_COMMAND). */
export function DeviceCommands({ gatewayId, protocol, canSend }: { gatewayId: string; protocol: string | null; canSend: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const q = useDeviceCommands(gatewayId, page);
  const data = q.data;
  const common = (protocol && DEVICE_COMMON_COMMANDS[protocol]) || [];
  const waiting = data?.content.some(isWaiting) ?? false;

  return (
    <Card component="section" withBorder radius="md" aria-label={t('deviceCommands.title')}>
      <Group justify="space-between" mb={4}>
        <Title order={2} fz="md">
          {t('deviceCommands.title')}
        </Title>
        {waiting && (
          <Group gap={6}>
            <Loader size={12} />
            <Text size="xs" c="dimmed">
              {t('deviceCommands.refreshing')}
            </Text>
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('deviceCommands.description', { hours: DEVICE_COMMAND_EXPIRY_HOURS })}
      </Text>
      {canSend && <CommandForm gatewayId={gatewayId} common={common} onSent={() => setPage(0)} />}
      <DataState
        isLoading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        isEmpty={data?.totalElements === 0}
        emptyTitle={t('deviceCommands.emptyTitle')}
        emptyDescription={t(canSend ? 'deviceCommands.emptyDescription' : 'deviceCommands.emptyDescriptionReadOnly')}
        loadingFallback={
          <Center py="md">
            <Loader size="sm" aria-label={t('deviceCommands.loading')} />
          </Center>
        }
      >
        {data && (
          <Stack gap="sm">
            <Table aria-label={t('deviceCommands.listLabel')} verticalSpacing="xs" layout="fixed" visibleFrom="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={160}>{t('deviceCommands.command')}</Table.Th>
                  <Table.Th w={140}>{t('deviceCommands.status')}</Table.Th>
                  <Table.Th>{t('deviceCommands.answer')}</Table.Th>
                  <Table.Th w={190} visibleFrom="md">
                    {t('deviceCommands.queued')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.content.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Code>{c.text}</Code>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge c={c} />
                    </Table.Td>
                    <Table.Td>
                      <Answer c={c} />
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Queued c={c} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Stack gap="xs" hiddenFrom="sm" aria-label={t('deviceCommands.listLabel')} role="list">
              {data.content.map((c) => (
                <Stack key={c.id} gap={4} role="listitem" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
                  <Group justify="space-between" wrap="nowrap">
                    <Code>{c.text}</Code>
                    <StatusBadge c={c} />
                  </Group>
                  <Answer c={c} />
                  <Queued c={c} />
                </Stack>
              ))}
            </Stack>
            {data.totalPages > 1 && (
              <Group justify="flex-end">
                <Pagination
                  size="sm"
                  total={data.totalPages}
                  value={page + 1}
                  onChange={(p) => setPage(p - 1)}
                  getControlProps={(c) => ({ 'aria-label': t(`deviceCommands.page.${c}`) })}
                  getItemProps={(p) => ({ 'aria-label': t('deviceCommands.page.number', { page: p }) })}
                />
              </Group>
            )}
          </Stack>
        )}
      </DataState>
    </Card>
  );
}

/** The quick buttons and the free text: a common command ending in a space (`readio `) is a template, put in the field to complete. */
function CommandForm({ gatewayId, common, onSent }: { gatewayId: string; common: readonly string[]; onSent: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const send = useSendCommand(gatewayId);

  /** The field's rule in the user's language (the server checks the same and answers in English). */
  const check = (v: string): string | null => {
    const s = v.trim();
    if (!s) return t('deviceCommands.required');
    if (s.length > DEVICE_COMMAND_MAX_LENGTH) return t('deviceCommands.tooLong', { max: DEVICE_COMMAND_MAX_LENGTH });
    if (!/^[\x20-\x7e]+$/.test(s)) return t('deviceCommands.ascii');
    return null;
  };

  const submit = async (v: string) => {
    const problem = check(v);
    setError(problem);
    if (problem) return;
    try {
      await send.mutateAsync(v.trim());
      setText('');
      onSent();
    } catch (err) {
      setError(describeError(err).title);
    }
  };

  return (
    <Stack gap="xs" mb="md">
      {common.length > 0 && (
        <Group gap={6} role="group" aria-label={t('deviceCommands.common')}>
          {common.map((c) => (
            <Button
              key={c}
              size="compact-sm"
              variant="light"
              ff="monospace"
              disabled={send.isPending}
              onClick={() => {
                if (c.endsWith(' ')) {
                  setText(c);
                  setError(null);
                  input.current?.focus();
                } else void submit(c);
              }}
            >
              {c.endsWith(' ') ? `${c}…` : c}
            </Button>
          ))}
        </Group>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit(text);
        }}
      >
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            ref={input}
            style={{ flex: 1 }}
            label={t('deviceCommands.command')}
            placeholder={t('deviceCommands.placeholder')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={text}
            error={error}
            maxLength={DEVICE_COMMAND_MAX_LENGTH + 50}
            onChange={(e) => {
              setText(e.currentTarget.value);
              if (error) setError(null);
            }}
          />
          <Button type="submit" mt={25} leftSection={<IconSend size={16} />} loading={send.isPending}>
            {t('deviceCommands.send')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

function StatusBadge({ c }: { c: DeviceCommand }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[c.status]} radius="sm">
      {t(`deviceCommands.statuses.${c.status}`)}
    </Badge>
  );
}

function Answer({ c }: { c: DeviceCommand }) {
  const { t } = useTranslation();
  if (c.answer !== null)
    return (
      <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {c.answer}
      </Text>
    );
  const note =
    c.status === 'EXPIRED'
      ? t('deviceCommands.expiredNote')
      : c.status === 'SENT'
        ? t('deviceCommands.sentNote', { time: formatDateTime(c.sentAt ?? c.createdAt) })
        : t('deviceCommands.queuedNote', { time: formatDateTime(c.expiresAt) });
  return (
    <Text size="sm" c="dimmed">
      {note}
    </Text>
  );
}

function Queued({ c }: { c: DeviceCommand }) {
  const { t } = useTranslation();
  const who = c.queuedBy.token ? t('deviceCommands.byToken', { token: c.queuedBy.token }) : (c.queuedBy.email ?? t('deviceCommands.byDeleted'));
  return (
    <Text size="xs" c="dimmed">
      {formatDateTime(c.createdAt)} · {who}
    </Text>
  );
}
