import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Accordion,
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Menu,
  Modal,
  Pagination,
  Paper,
  ScrollArea,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconCheck,
  IconClockExclamation,
  IconCopy,
  IconDots,
  IconList,
  IconPencil,
  IconPlus,
  IconRefresh,
  IconSend,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import { webhookInputSchema, type Webhook, type WebhookDelivery } from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages } from '../../lib/registry-api.ts';
import { useDeleteWebhook, useDeliveries, useEventTypes, useResend, useRotateSecret, useSaveWebhook, useSendTest, useWebhooks } from './integrations-api.ts';

const ORG_SETTINGS = '/settings/organization-settings';
const STATUS_COLOR: Record<WebhookDelivery['status'], string> = { PENDING: 'yellow', DELIVERED: 'teal', FAILED: 'red' };

/**
 * `.../webhooks` (issue 48): the organization's webhook endpoints. Each subscribes a URL to event types
 * (each with an example payload); the signing secret is shown when created or rotated; "Send test
 * event" sends a sample; the deliveries list shows status, attempts, the answer's code and time, and
 * resends one.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const list = useWebhooks();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<{ secret: string; until?: string } | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const hooks = list.data?.content ?? [];
  const limit = list.data?.limit ?? null;
  // At the organization's limit (WEBHOOK_MAX_PER_ORG, issue 66) "Add" is off, and the alert below says why.
  const full = limit !== null && hooks.length >= limit;
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={full} aria-describedby={full ? 'webhooks-limit' : undefined}>
      {t('integrations.hooks.create')}
    </Button>
  );
  return (
    <>
      <PageHeader
        title={t('integrations.hooks.title')}
        description={t('integrations.hooks.description')}
        breadcrumbs={[{ label: t('integrations.breadcrumb'), to: ORG_SETTINGS }, { label: t('integrations.hooks.title') }]}
        actions={addButton}
      />
      <DataState
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        isEmpty={hooks.length === 0}
        emptyTitle={t('integrations.hooks.empty')}
        emptyDescription={t('integrations.hooks.emptyHint')}
        emptyAction={addButton}
      >
        <Stack gap="sm">
          {full ? (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} id="webhooks-limit">
              {t('integrations.hooks.limitReached', { limit })}
            </Alert>
          ) : (
            limit !== null && (
              <Text size="sm" c="dimmed">
                {t('integrations.hooks.used', { count: hooks.length, limit })}
              </Text>
            )
          )}
          {hooks.map((h) => (
            <HookCard key={h.id} hook={h} onEdit={() => setEditing(h)} onDeliveries={() => setViewing(h)} onSecret={setSecret} />
          ))}
        </Stack>
      </DataState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('integrations.hooks.addTitle') : t('integrations.hooks.editTitle')}
        centered
        size="xl"
      >
        {editing !== null && (
          <HookForm
            hook={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
            onCreated={(s) => {
              setEditing(null);
              setSecret({ secret: s });
            }}
          />
        )}
      </Modal>
      <Modal
        opened={secret !== null}
        onClose={() => setSecret(null)}
        title={t('integrations.hooks.secretTitle')}
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        {secret && <SecretShownOnce secret={secret.secret} until={secret.until} onClose={() => setSecret(null)} />}
      </Modal>
      {viewing && <DeliveriesModal hook={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}

function HookCard({
  hook: h,
  onEdit,
  onDeliveries,
  onSecret,
}: {
  hook: Webhook;
  onEdit: () => void;
  onDeliveries: () => void;
  onSecret: (s: { secret: string; until: string }) => void;
}) {
  const { t } = useTranslation();
  const test = useSendTest();
  const rotate = useRotateSecret();
  const remove = useDeleteWebhook();
  const state = h.enabled
    ? t('integrations.hooks.on')
    : h.disabledReason === 'GONE'
      ? t('integrations.hooks.offGone')
      : h.disabledReason === 'FAILING'
        ? t('integrations.hooks.offFailing')
        : t('integrations.hooks.off');
  const onRotate = async () => {
    if (
      !(await confirmAction({
        title: t('integrations.hooks.rotateTitle'),
        message: t('integrations.hooks.rotateMessage'),
        confirmLabel: t('integrations.hooks.rotate'),
        cancelLabel: t('common.cancel'),
        danger: false,
      }))
    )
      return;
    const r = await rotate.mutateAsync(h.id);
    onSecret({ secret: r.secret, until: r.previousSecretExpiresAt });
  };
  const onDelete = async () => {
    if (
      await confirmAction({
        title: t('integrations.hooks.deleteTitle'),
        message: t('integrations.hooks.deleteMessage', { url: h.url }),
        confirmLabel: t('integrations.hooks.delete'),
        cancelLabel: t('common.cancel'),
      })
    )
      remove.mutate(h.id, { onSuccess: () => notify({ type: 'success', title: t('integrations.hooks.deleted'), timeout: 4000 }) });
  };
  return (
    <Paper withBorder radius="md" p="md" aria-label={h.url} component="section">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap">
            <IconWebhook size={18} aria-hidden />
            <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
              {h.url}
            </Text>
          </Group>
          {h.description && (
            <Text size="sm" c="dimmed">
              {h.description}
            </Text>
          )}
          <Group gap={6}>
            <Badge color={h.enabled ? 'teal' : 'gray'} variant="light">
              {state}
            </Badge>
            {h.pendingDeliveries > 0 && (
              <Badge color="yellow" variant="light">
                {t('integrations.hooks.pending', { count: h.pendingDeliveries })}
              </Badge>
            )}
            {h.failingSince && (
              <Badge color="red" variant="light">
                {t('integrations.hooks.failingSince', { time: formatDateTime(h.failingSince) })}
              </Badge>
            )}
            {h.enabled && h.consecutiveTimeouts > 0 && (
              <Tooltip
                label={t('integrations.hooks.timingOutHint', { count: h.consecutiveTimeouts })}
                multiline
                w={300}
                withArrow
                events={{ hover: true, focus: true, touch: true }}
              >
                <Badge
                  color="orange"
                  variant="light"
                  leftSection={<IconClockExclamation size={12} aria-hidden />}
                  tabIndex={0}
                  aria-label={`${t('integrations.hooks.timingOut')}: ${t('integrations.hooks.timingOutHint', { count: h.consecutiveTimeouts })}`}
                >
                  {t('integrations.hooks.timingOut')}
                </Badge>
              </Tooltip>
            )}
          </Group>
          <Group gap={4} mt={4}>
            {h.events.map((e) => (
              <Code key={e} fz="xs">
                {e}
              </Code>
            ))}
          </Group>
          {h.previousSecretExpiresAt && (
            <Text size="xs" c="dimmed">
              {t('integrations.hooks.rotatedUntil', { time: formatDateTime(h.previousSecretExpiresAt) })}
            </Text>
          )}
        </Stack>
        <Group gap={6} wrap="nowrap">
          <Button
            variant="light"
            size="xs"
            leftSection={<IconSend size={14} />}
            loading={test.isPending}
            disabled={!h.enabled}
            onClick={() => test.mutate(h.id, { onSuccess: () => notify({ type: 'success', title: t('integrations.hooks.testSent'), timeout: 3000 }) })}
            visibleFrom="sm"
          >
            {t('integrations.hooks.test')}
          </Button>
          <Button variant="default" size="xs" leftSection={<IconList size={14} />} onClick={onDeliveries} visibleFrom="sm">
            {t('integrations.hooks.deliveries')}
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`${t('integrations.hooks.edit')} ${h.url}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconSend size={14} />}
                disabled={!h.enabled}
                onClick={() => test.mutate(h.id, { onSuccess: () => notify({ type: 'success', title: t('integrations.hooks.testSent'), timeout: 3000 }) })}
                hiddenFrom="sm"
              >
                {t('integrations.hooks.test')}
              </Menu.Item>
              <Menu.Item leftSection={<IconList size={14} />} onClick={onDeliveries} hiddenFrom="sm">
                {t('integrations.hooks.deliveries')}
              </Menu.Item>
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={onEdit}>
                {t('integrations.hooks.edit')}
              </Menu.Item>
              <Menu.Item leftSection={<IconRefresh size={14} />} onClick={() => void onRotate()}>
                {t('integrations.hooks.rotate')}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconTrash size={14} />}
                color="red"
                onClick={() => void onDelete()}
                aria-label={t('integrations.hooks.deleteLabel', { url: h.url })}
              >
                {t('integrations.hooks.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}

function HookForm({ hook, onClose, onCreated }: { hook: Webhook | null; onClose: () => void; onCreated: (secret: string) => void }) {
  const { t } = useTranslation();
  const types = useEventTypes();
  const save = useSaveWebhook();
  const [url, setUrl] = useState(hook?.url ?? '');
  const [description, setDescription] = useState(hook?.description ?? '');
  const [events, setEvents] = useState<string[]>(hook?.events ?? []);
  const [enabled, setEnabled] = useState(hook?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = { url, events, description: description || null, enabled };
    const parsed = webhookInputSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: hook?.id, body: parsed.data });
      if ('secret' in saved) onCreated(saved.secret);
      else {
        notify({ type: 'success', title: t('integrations.hooks.saved'), timeout: 3000 });
        onClose();
      }
    } catch (err) {
      const found = err instanceof ApiError && err.body ? fieldMessages(err.body.technicalMessage ?? '') : [];
      setErrors(found.length ? Object.fromEntries(found.map((f) => [f.path.split('.')[0]!, f.message])) : { root: (err as Error).message });
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={hook ? t('integrations.hooks.editTitle') : t('integrations.hooks.addTitle')}>
      <Stack gap="sm">
        <TextInput
          label={t('integrations.hooks.url')}
          placeholder={t('integrations.hooks.urlPlaceholder')}
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url}
          data-autofocus
        />
        <TextInput
          label={t('integrations.hooks.descriptionField')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors.description}
        />
        <Switch label={t('integrations.hooks.enabled')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Checkbox.Group
          label={t('integrations.hooks.events')}
          description={t('integrations.hooks.eventsHint')}
          value={events}
          onChange={setEvents}
          error={errors.events}
          required
        >
          <DataState isLoading={types.isLoading} error={types.error} onRetry={() => void types.refetch()}>
            <Accordion variant="separated" mt="xs" chevronPosition="right" multiple>
              {(types.data?.content ?? []).map((x) => (
                <Accordion.Item key={x.type} value={x.type}>
                  <Group wrap="nowrap" gap="xs" pl="sm">
                    <Checkbox value={x.type} aria-label={x.type} />
                    <Accordion.Control>
                      <Text size="sm" ff="monospace">
                        {x.type}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {x.description}
                      </Text>
                    </Accordion.Control>
                  </Group>
                  <Accordion.Panel>
                    <Text size="xs" fw={600} mb={4}>
                      {t('integrations.hooks.example')}
                    </Text>
                    <Code block fz="xs">
                      {JSON.stringify(x.example, null, 2)}
                    </Code>
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </DataState>
        </Checkbox.Group>
        {errors.root && (
          <Alert color="red" variant="light" role="alert">
            {errors.root}
          </Alert>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SecretShownOnce({ secret, until, onClose }: { secret: string; until?: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        {t('integrations.hooks.secretBody')}
      </Alert>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('integrations.tokens.copied') : t('integrations.tokens.copy')}>
              <ActionIcon variant="light" size="lg" onClick={copy} aria-label={t('integrations.tokens.copy')} color={copied ? 'teal' : undefined}>
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {until && (
        <Text size="sm" c="dimmed">
          {t('integrations.hooks.rotatedUntil', { time: formatDateTime(until) })}
        </Text>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>{t('integrations.tokens.close')}</Button>
      </Group>
    </Stack>
  );
}

function DeliveriesModal({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const list = useDeliveries(hook.id, page);
  const resend = useResend();
  const small = useMediaQuery('(max-width: 36em)');
  const rows = list.data?.content ?? [];
  const pages = list.data?.totalPages ?? 0;
  return (
    <Modal opened onClose={onClose} title={t('integrations.hooks.deliveriesOf', { url: hook.url })} size="xl" fullScreen={small} centered>
      <DataState
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        isEmpty={rows.length === 0}
        emptyTitle={t('integrations.hooks.noDeliveries')}
        emptyDescription={t('integrations.hooks.noDeliveriesHint')}
      >
        <Accordion variant="separated" aria-label={t('integrations.hooks.deliveries')}>
          {rows.map((d) => (
            <Accordion.Item key={d.id} value={d.id} data-testid="delivery">
              <Accordion.Control>
                <Group gap="xs" wrap="wrap" justify="space-between">
                  <Group gap="xs" wrap="nowrap">
                    <Badge color={STATUS_COLOR[d.status]} variant="light">
                      {t(`integrations.hooks.status${d.status}`)}
                    </Badge>
                    <Text size="sm" ff="monospace">
                      {d.eventType}
                    </Text>
                  </Group>
                  <Group gap="md" wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {t('integrations.hooks.attempts')}: {d.attempts}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('integrations.hooks.response')}: {d.responseCode ?? t('integrations.hooks.noAnswer')}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(d.lastAttemptAt ?? d.createdAt)}
                    </Text>
                  </Group>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  <Text size="xs" c="dimmed">
                    webhook-id: <Code fz="xs">{d.messageId}</Code>
                    {d.durationMs !== null ? ` · ${d.durationMs} ms` : ''}
                  </Text>
                  {d.lastError && (
                    <Text size="xs" c="red">
                      {d.lastError}
                    </Text>
                  )}
                  {d.nextAttemptAt && (
                    <Text size="xs" c="dimmed">
                      {t('integrations.hooks.nextAttempt', { time: formatDateTime(d.nextAttemptAt) })}
                    </Text>
                  )}
                  <ScrollArea.Autosize mah={240}>
                    <Code block fz="xs">
                      {JSON.stringify(d.payload, null, 2)}
                    </Code>
                  </ScrollArea.Autosize>
                  <Group justify="flex-end">
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconSend size={14} />}
                      loading={resend.isPending}
                      onClick={() =>
                        resend.mutate(
                          { id: hook.id, deliveryId: d.id },
                          { onSuccess: () => notify({ type: 'success', title: t('integrations.hooks.resent'), timeout: 3000 }) },
                        )
                      }
                    >
                      {t('integrations.hooks.resend')}
                    </Button>
                  </Group>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        {pages > 1 && (
          <Group justify="center" mt="md">
            <Pagination
              total={pages}
              value={page + 1}
              onChange={(p) => setPage(p - 1)}
              size="sm"
              aria-label={t('integrations.hooks.page', { page: page + 1, pages })}
            />
          </Group>
        )}
      </DataState>
      <Group justify="space-between" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('integrations.hooks.back')}
        </Button>
        <Button variant="subtle" leftSection={<IconRefresh size={14} />} onClick={() => void list.refetch()}>
          {t('integrations.hooks.refresh')}
        </Button>
      </Group>
    </Modal>
  );
}
