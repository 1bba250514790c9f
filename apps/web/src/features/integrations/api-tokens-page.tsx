import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { apiTokenInputSchema, PERMISSION_AREAS, TOKEN_PERMISSIONS, type ApiToken, type ApiTokenCreated } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { formatDateTime, fromZoneInput } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages } from '../../lib/registry-api.ts';
import { useApiTokens, useCreateToken, useRevokeToken } from './integrations-api.ts';

const ORG_SETTINGS = '/settings/organization-settings';

/**
 * `.../api-tokens` (issue 48): the organization's API tokens. An administrator creates one with some
 * of their own permissions (the secret is shown once, to copy), sees each one's last use, and revokes
 * it after a confirmation.
 */
export default function ApiTokensPage() {
  const { t } = useTranslation();
  const list = useApiTokens();
  const revoke = useRevokeToken();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const tokens = list.data?.content ?? [];
  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      {t('integrations.tokens.create')}
    </Button>
  );
  const onRevoke = async (x: ApiToken) => {
    if (
      await confirmAction({
        title: t('integrations.tokens.revokeTitle', { name: x.name }),
        message: t('integrations.tokens.revokeMessage'),
        confirmLabel: t('integrations.tokens.revoke'),
        cancelLabel: t('common.cancel'),
      })
    )
      revoke.mutate(x.id, { onSuccess: () => notify({ type: 'success', title: t('integrations.tokens.revoked', { name: x.name }), timeout: 4000 }) });
  };
  return (
    <>
      <PageHeader
        title={t('integrations.tokens.title')}
        description={t('integrations.tokens.description')}
        breadcrumbs={[{ label: t('integrations.breadcrumb'), to: ORG_SETTINGS }, { label: t('integrations.tokens.title') }]}
        actions={createButton}
      />
      <DataState
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        isEmpty={tokens.length === 0}
        emptyTitle={t('integrations.tokens.empty')}
        emptyDescription={t('integrations.tokens.emptyHint')}
        emptyAction={createButton}
      >
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="sm" highlightOnHover aria-label={t('integrations.tokens.title')}>
              <Table.Thead visibleFrom="sm">
                <Table.Tr>
                  <Table.Th>{t('integrations.tokens.name')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.permissions')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.lastUsed')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.expiresAt')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.map((x) => (
                  <TokenRow key={x.id} token={x} onRevoke={() => void onRevoke(x)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      </DataState>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('integrations.tokens.create')} centered size="lg">
        {creating && (
          <TokenForm
            onClose={() => setCreating(false)}
            onCreated={(c) => {
              setCreating(false);
              setCreated(c);
            }}
          />
        )}
      </Modal>
      <Modal
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={t('integrations.tokens.createdTitle')}
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        {created && <ShownOnce token={created} onClose={() => setCreated(null)} />}
      </Modal>
    </>
  );
}

function TokenRow({ token: x, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const { t } = useTranslation();
  const expired = x.expiresAt !== null && Date.parse(x.expiresAt) <= Date.now();
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <IconKey size={16} aria-hidden />
            <Text fw={600} size="sm">
              {x.name}
            </Text>
          </Group>
          <Code fz="xs" w="fit-content">
            {x.prefix}
          </Code>
          <Text size="xs" c="dimmed">
            {t('integrations.tokens.createdBy')} {x.createdBy.label} · {formatDateTime(x.createdAt)}
          </Text>
          {x.lostPermissions.length > 0 && (
            <Tooltip label={t('integrations.tokens.lostHint')} multiline maw={320}>
              <Group gap={4} wrap="nowrap" align="flex-start" data-testid="token-lost">
                <IconAlertTriangle size={14} color="var(--mantine-color-orange-text)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                <Text size="xs" c="var(--mantine-color-orange-text)">
                  {t('integrations.tokens.lost', { codes: x.lostPermissions.join(', ') })}
                </Text>
              </Group>
            </Tooltip>
          )}
          {x.allowedIps.length > 0 && (
            <Text size="xs" c="dimmed">
              {t('integrations.tokens.allowedIps')}: {x.allowedIps.join(', ')}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Tooltip label={x.permissions.join(', ')} multiline maw={320}>
          <Badge variant="light">{t('integrations.tokens.permissionCount', { count: x.permissions.length })}</Badge>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={x.lastUsedAt ? undefined : 'dimmed'}>
          {t('integrations.tokens.lastUsed')}: {x.lastUsedAt ? formatDateTime(x.lastUsedAt) : t('integrations.tokens.never')}
        </Text>
        {x.lastUsedIp && (
          <Text size="xs" c="dimmed">
            {x.lastUsedIp}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {expired ? (
          <Badge color="red" variant="light">
            {t('integrations.tokens.expired')}
          </Badge>
        ) : (
          <Text size="sm">{x.expiresAt ? formatDateTime(x.expiresAt) : t('integrations.tokens.noExpiry')}</Text>
        )}
      </Table.Td>
      <Table.Td ta="right">
        <Button
          variant="subtle"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} />}
          onClick={onRevoke}
          aria-label={t('integrations.tokens.revokeLabel', { name: x.name })}
        >
          {t('integrations.tokens.revoke')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** The permission picker: the catalogue's areas, only the codes a token may carry and the creator holds. */
function TokenForm({ onClose, onCreated }: { onClose: () => void; onCreated: (c: ApiTokenCreated) => void }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [ips, setIps] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const held = useMemo(() => new Set(me?.permissions ?? []), [me]);
  const areas = PERMISSION_AREAS.map((a) => ({
    ...a,
    permissions: a.permissions.filter((p) => TOKEN_PERMISSIONS.includes(p.code) && held.has(p.code)),
  })).filter((a) => a.permissions.length > 0);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = {
      name,
      permissions,
      expiresAt: expires ? fromZoneInput(expires) : null,
      allowedIps: ips
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    };
    const parsed = apiTokenInputSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      onCreated(await create.mutateAsync(parsed.data));
    } catch (err) {
      const found = err instanceof ApiError && err.body ? fieldMessages(err.body.technicalMessage ?? '') : [];
      setErrors(found.length ? Object.fromEntries(found.map((f) => [f.path.split('.')[0]!, f.message])) : { root: (err as Error).message });
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('integrations.tokens.create')}>
      <Stack gap="sm">
        <TextInput
          label={t('integrations.tokens.name')}
          placeholder={t('integrations.tokens.namePlaceholder')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <Checkbox.Group
          label={t('integrations.tokens.permissions')}
          description={t('integrations.tokens.permissionsHint')}
          value={permissions}
          onChange={setPermissions}
          error={errors.permissions}
          required
        >
          <Stack gap="xs" mt="xs">
            {areas.map((a) => (
              <Paper key={a.area} withBorder p="xs" radius="sm">
                <Text size="sm" fw={600} mb={4}>
                  {a.label}
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6}>
                  {a.permissions.map((p) => (
                    <Checkbox key={p.code} value={p.code} label={p.label} description={p.code} />
                  ))}
                </SimpleGrid>
              </Paper>
            ))}
          </Stack>
        </Checkbox.Group>
        <TextInput
          type="datetime-local"
          label={t('integrations.tokens.expiresAt')}
          description={t('integrations.tokens.expiresHint')}
          value={expires}
          onChange={(e) => setExpires(e.currentTarget.value)}
          error={errors.expiresAt}
        />
        <Textarea
          label={t('integrations.tokens.allowedIps')}
          description={t('integrations.tokens.allowedIpsHint')}
          autosize
          minRows={2}
          value={ips}
          onChange={(e) => setIps(e.currentTarget.value)}
          error={errors.allowedIps}
          placeholder="203.0.113.0/24"
        />
        {errors.root && (
          <Alert color="red" variant="light" role="alert">
            {errors.root}
          </Alert>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('integrations.tokens.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ShownOnce({ token, onClose }: { token: ApiTokenCreated; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        {t('integrations.tokens.createdBody')}
      </Alert>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="new-token">
          {token.token}
        </Code>
        <CopyButton value={token.token}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('integrations.tokens.copied') : t('integrations.tokens.copy')}>
              <ActionIcon variant="light" size="lg" onClick={copy} aria-label={t('integrations.tokens.copy')} color={copied ? 'teal' : undefined}>
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>{t('integrations.tokens.close')}</Button>
      </Group>
    </Stack>
  );
}
