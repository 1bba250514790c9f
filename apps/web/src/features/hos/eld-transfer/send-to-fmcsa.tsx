import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, List, Modal, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ELD_OUTPUT_FILE_COMMENT_MAX, type EldTransfer, type EldTransferMethod, type EldValidationMessage } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { formatDateTime, useViewerZone } from '../../../lib/dates.ts';
import { useOnline } from '../../../lib/online.ts';
import { errorWords } from '../../../i18n/error-words.ts';
import { useCan } from '../../../lib/registry-api.ts';
import { eldTransferStatusQuery, eldTransfersQuery, useEldTransfer } from './eld-transfer-api.ts';
import { outcomeWords } from './eld-transfer-outcome.ts';

// "Send to an officer" (issue 45, 49 CFR 395 Appendix A 4.10.1): the officer's output file comment,
// web service or e-mail, today and the previous 7 days, and FMCSA's answer in plain words. The same
// modal serves the driver in the cab (375 px, one hand: large controls) and the office on a log page.

interface SendProps {
  orgId: string;
  driverId: string;
  /** The comment typed beside the download, carried over. */
  initialComment?: string;
  opened: boolean;
  onClose: () => void;
  size?: 'md' | 'lg';
}

export function SendToFmcsaModal({ orgId, driverId, initialComment = '', opened, onClose, size = 'lg' }: SendProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('fmcsa.sendTitle')} centered size="md">
      {/* Mounted per opening: a new send starts from an empty outcome. */}
      {opened && <SendForm orgId={orgId} driverId={driverId} initialComment={initialComment} onClose={onClose} size={size} />}
    </Modal>
  );
}

function SendForm({ orgId, driverId, initialComment, onClose, size }: Omit<SendProps, 'opened'> & { size: 'md' | 'lg' }) {
  const { t } = useTranslation();
  const online = useOnline();
  const status = useQuery(eldTransferStatusQuery(orgId));
  const send = useEldTransfer(orgId, driverId);
  const [method, setMethod] = useState<EldTransferMethod>('WEB_SERVICE');
  const [comment, setComment] = useState((initialComment ?? '').slice(0, ELD_OUTPUT_FILE_COMMENT_MAX));
  const [commentError, setCommentError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<EldTransfer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // The office reads what to configure and cannot send until it is; the driver reads what to do, and
  // may still send, so the attempt is recorded and the office learns of it (issue 66, decision 0242).
  const office = useCan('HOS_READ');
  const readiness = status.data ? (method === 'WEB_SERVICE' ? status.data.webService : status.data.email) : null;
  const blocked = !online || (office && readiness !== null && !readiness.ready);

  const submit = async () => {
    const text = comment.trim();
    if (!text) {
      setCommentError(t('fmcsa.commentRequired'));
      return;
    }
    setCommentError(null);
    setFailure(null);
    try {
      setOutcome(await send.mutateAsync({ method, outputFileComment: text }));
    } catch (err) {
      const e = describeError(err);
      setFailure(!office && (e.status === 409 || e.status === 502) ? t(e.status === 409 ? 'fmcsa.notReadyDriver' : 'fmcsa.failedDriver') : errorWords(t, err));
    }
  };

  if (outcome) {
    return (
      <Stack gap="md">
        <TransferOutcome transfer={outcome} />
        <Button size={size} onClick={onClose} data-autofocus>
          {t('fmcsa.close')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Text size="sm">{t('fmcsa.body')}</Text>
      <TextInput
        label={t('roadside.comment')}
        description={t('roadside.commentHelp')}
        maxLength={ELD_OUTPUT_FILE_COMMENT_MAX}
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
        error={commentError}
        size={size}
        autoComplete="off"
        data-autofocus
      />
      <div>
        <Text size="sm" fw={500} mb={4} id="fmcsa-method">
          {t('fmcsa.method')}
        </Text>
        <SegmentedControl
          aria-labelledby="fmcsa-method"
          fullWidth
          size={size}
          value={method}
          onChange={(v) => setMethod(v as EldTransferMethod)}
          data={[
            { value: 'WEB_SERVICE', label: t('fmcsa.webService') },
            { value: 'EMAIL', label: t('fmcsa.email') },
          ]}
        />
      </div>
      {status.data?.test && (
        <Text size="sm" c="dimmed" data-testid="fmcsa-test-mode">
          {t('fmcsa.test')}
        </Text>
      )}
      {!online && (
        <Alert color="orange" variant="light">
          {t('fmcsa.offline')}
        </Alert>
      )}
      {online && readiness && !readiness.ready && !failure && (
        <Alert color="orange" variant="light" data-testid="fmcsa-not-ready">
          {office ? t('fmcsa.notReady', { missing: readiness.missing.join('; ') }) : t('fmcsa.notReadyDriver')}
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="fmcsa-failure">
          {office ? t('fmcsa.failed', { reason: failure }) : failure}
        </Alert>
      )}
      <Group grow>
        <Button variant="default" size={size} onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button size={size} loading={send.isPending} disabled={blocked} onClick={() => void submit()}>
          {t('common.send')}
        </Button>
      </Group>
    </Stack>
  );
}

/** FMCSA's answer to one send: what happened in words, the submission id, and each message with its line. */
export function TransferOutcome({ transfer }: { transfer: EldTransfer }) {
  const { t } = useTranslation();
  const words = outcomeWords(transfer);
  return (
    <Alert
      color={words.color}
      variant="light"
      title={t(`fmcsa.${words.key}`, { reason: transfer.reason ?? '' })}
      data-testid="fmcsa-outcome"
      data-status={transfer.status}
    >
      <Stack gap={4}>
        {transfer.outputFileComment && <Text size="sm">{t('fmcsa.comment', { comment: transfer.outputFileComment })}</Text>}
        {transfer.submissionId && (
          <Text size="sm" c="dimmed">
            {t('fmcsa.submission', { id: transfer.submissionId })}
          </Text>
        )}
        {words.showMessages && transfer.errors.length > 0 && <ValidationMessages messages={transfer.errors} />}
      </Stack>
    </Alert>
  );
}

function ValidationMessages({ messages }: { messages: EldValidationMessage[] }) {
  const { t } = useTranslation();
  const typeWord = (m: EldValidationMessage) => (m.type === 'ERROR' ? t('fmcsa.error') : m.type === 'WARNING' ? t('fmcsa.warning') : t('fmcsa.information'));
  return (
    <List size="sm" spacing={2} data-testid="fmcsa-messages">
      {messages.map((m, i) => (
        <List.Item key={i}>
          <Text span size="sm" fw={600}>
            {typeWord(m)}
          </Text>{' '}
          {t('fmcsa.line', { line: m.line, start: m.start, end: m.end, message: m.detail ? `${m.message} (${m.detail})` : m.message })}
        </List.Item>
      ))}
    </List>
  );
}

/** A driver's last sends to FMCSA with their outcomes, newest first (times in the viewer's zone, labelled). */
export function EldTransferHistory({ orgId, driverId, lng }: { orgId: string; driverId: string; lng?: string }) {
  const { t } = useTranslation();
  const zone = useViewerZone();
  const list = useQuery(eldTransfersQuery(orgId, driverId));
  const rows = list.data?.content ?? [];
  const asDriver = !useCan('HOS_READ');
  return (
    <Paper withBorder radius="md" p="md" data-testid="fmcsa-history">
      <Title order={2} size="h4" mb="xs">
        {t('fmcsa.history')}
      </Title>
      {list.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('fmcsa.noHistory')}
        </Text>
      )}
      {list.isError && (
        <Text size="sm" c="red">
          {errorWords(t, list.error)}
        </Text>
      )}
      <Stack gap="xs">
        {rows.map((r) => {
          const words = outcomeWords(r, asDriver);
          return (
            <div key={r.id} data-testid="fmcsa-history-row" data-status={r.status} data-failure={r.failure ?? undefined}>
              <Group gap="xs" wrap="wrap">
                <Badge color={words.color} variant="light">
                  {r.method === 'WEB_SERVICE' ? t('fmcsa.webService') : t('fmcsa.email')}
                </Badge>
                <Text size="sm" fw={500}>
                  {t(`fmcsa.${words.key}`, { reason: r.reason ?? '' })}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t('fmcsa.sentAt', { time: formatDateTime(r.createdAt, zone, lng), who: r.sentBy ?? '–' })}
                {r.outputFileComment ? ` · ${t('fmcsa.comment', { comment: r.outputFileComment })}` : ''}
              </Text>
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}
