import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Badge, Button, CloseButton, FileButton, Group, Image, Loader, Paper, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { IconCamera, IconCheck, IconChecks, IconClockHour4, IconSend } from '@tabler/icons-react';
import type { DriverMessage, MessageSide } from '@fleet/api-contract';
import { ApiError, NetworkError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { isOnline, useOnline } from '../../lib/online.ts';
import { newKey, ownRecords, sendRecord, useOutbox, type OutboxRecord, type OutboxUpload } from '../../lib/outbox.ts';
import { formatShortDateTime } from '../../lib/dates.ts';
import { errorWords } from '../../i18n/error-words.ts';
import { photoForUpload } from '../../lib/photo-resize.ts';
import { messagePaths, newClientId, threadQuery, uploadMessagePhoto, useMarkRead, useSendMessage } from './messages-api.ts';
import classes from './messages.module.css';

export interface ConversationProps {
  orgId: string;
  driverId: string;
  /** Only this load's messages, and new ones tied to it. */
  loadId?: string | null;
  /** Which side the viewer writes for: the driver, or the office. */
  side: MessageSide;
  /** Shown above the thread (the driver's name in the office, "Dispatch" on the phone). */
  title?: string;
  /** The thread's height on screen (it scrolls inside). */
  height?: number | string;
}

const MAX_PHOTOS = 5;

/**
 * One driver's conversation with dispatch (issue 44): oldest at the top, the newest at the bottom by
 * the composer; the other side's messages are marked read as they are shown, and the viewer's own
 * show "Sent" or "Read" with the time the other side read them.
 */
export function Conversation({ orgId, driverId, loadId = null, side, title, height = 420 }: ConversationProps) {
  const { t } = useTranslation();
  const thread = useInfiniteQuery(threadQuery(orgId, driverId, loadId));
  const online = useOnline();
  // Never loaded on this device and no signal: the thread is unknown, not empty (issue 66).
  const unknown = !thread.data && !online;
  const markRead = useMarkRead(orgId);
  const messages = useMemo(() => (thread.data?.pages.flatMap((p) => p.content) ?? []).slice().reverse(), [thread.data]);
  const newestTheirs = useMemo(() => messages.filter((m) => m.side !== side && !m.readAt).at(-1) ?? null, [messages, side]);
  const scroller = useRef<HTMLDivElement>(null);
  // The driver's messages written without signal, waiting on the phone (issue 44).
  const user = useCurrentUser();
  const outbox = useOutbox();
  // One the server already holds (its answer was lost: a timeout under load, the signal gone just
  // then) shows once, as stored: its resend is answered with the same message (its client id).
  const waiting = useMemo(() => {
    if (side !== 'DRIVER') return [];
    const stored = new Set(messages.flatMap((m) => (m.clientId ? [m.clientId] : [])));
    return ownRecords(outbox, user?.id).filter((r) => {
      const b = r.body as MessageBody;
      return r.kind === 'MESSAGE' && r.state === 'WAITING' && b.driverId === driverId && (b.loadId ?? null) === loadId && !stored.has(b.clientId);
    });
  }, [outbox, user?.id, side, driverId, loadId, messages]);
  const newestId = waiting.at(-1)?.id ?? messages.at(-1)?.id;

  // Marks what the viewer now sees as read (the other side sees the mark live).
  const { mutate: mark } = markRead;
  useEffect(() => {
    if (newestTheirs && document.visibilityState === 'visible') mark({ driverId, upTo: newestTheirs.sentAt });
  }, [newestTheirs, driverId, mark]);

  // The newest message in view when it arrives.
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newestId]);

  return (
    <Stack gap="xs" className={classes.conversation}>
      {title && (
        <Text fw={600} size="sm">
          {title}
        </Text>
      )}
      <div
        ref={scroller}
        className={classes.thread}
        style={unknown ? { maxHeight: height } : { height }}
        role="log"
        aria-label={title ? t('messages.logWith', { name: title }) : t('messages.log')}
        aria-live="polite"
      >
        {thread.isLoading && <Loader size="sm" m="md" aria-label={t('messages.log')} />}
        {thread.error && (
          <Alert color="red" variant="light" m="xs">
            {t('messages.loadFailed')}{' '}
            <Button variant="subtle" size="compact-sm" onClick={() => void thread.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Alert>
        )}
        {thread.hasNextPage && (
          <Group justify="center" py={4}>
            <Button variant="subtle" size="compact-sm" onClick={() => void thread.fetchNextPage()} loading={thread.isFetchingNextPage}>
              {t('messages.older')}
            </Button>
          </Group>
        )}
        {unknown && (
          <Alert color="orange" variant="light" m="xs" data-testid="messages-offline">
            {t('messages.offlineNotLoaded')} {side === 'DRIVER' && t('messages.offlineWrite')}
          </Alert>
        )}
        {!unknown && !thread.isLoading && !thread.error && messages.length === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="lg">
            {t('messages.none')} {side === 'DRIVER' ? t('messages.noneDriver') : t('messages.noneOffice')}
          </Text>
        )}
        {messages.map((m) => (
          <Bubble key={m.id} message={m} mine={m.side === side} />
        ))}
        {waiting.map((r) => (
          <WaitingBubble key={r.id} record={r} />
        ))}
      </div>
      <Composer orgId={orgId} driverId={driverId} loadId={loadId} side={side} />
    </Stack>
  );
}

/** What a message record carries (POST messages). */
interface MessageBody {
  driverId: string;
  loadId: string | null;
  body: string;
  imageIds: string[];
  clientId: string;
  /** When the driver wrote it: a message sent late keeps that time (issue 66). */
  recordedAt?: string;
}

/** A message kept on the phone until the network returns: shown in place, marked as waiting. */
function WaitingBubble({ record }: { record: OutboxRecord }) {
  const { t, i18n } = useTranslation();
  const m = record.body as MessageBody;
  return (
    <div className={classes.rowMine}>
      <Paper className={classes.bubbleMine} radius="md" px="sm" py={6} data-testid="message" data-waiting>
        <Text size="sm" className={classes.body}>
          {m.body}
        </Text>
        {m.imageIds.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('messages.photosWaiting', { count: m.imageIds.length })}
          </Text>
        )}
        <Group gap={4} justify="flex-end" mt={2}>
          <Text size="xs" c="dimmed">
            {formatShortDateTime(record.madeAt, undefined, i18n.language)}
          </Text>
          <Text size="xs" c="dimmed" component="span" className={classes.mark}>
            <IconClockHour4 size={14} aria-hidden /> {t('messages.waiting')}
          </Text>
        </Group>
      </Paper>
    </div>
  );
}

/** A message that reached the server more than this after it was written says when it arrived. */
const LATE_MS = 60_000;

function Bubble({ message: m, mine }: { message: DriverMessage; mine: boolean }) {
  const { t, i18n } = useTranslation();
  const time = (iso: string) => formatShortDateTime(iso, undefined, i18n.language);
  const late = Date.parse(m.receivedAt) - Date.parse(m.sentAt) > LATE_MS;
  const who = [m.sender?.firstName, m.sender?.lastName].filter(Boolean).join(' ') || (m.side === 'OFFICE' ? t('messages.dispatch') : t('messages.driver'));
  return (
    <div className={mine ? classes.rowMine : classes.rowTheirs}>
      <Paper className={mine ? classes.bubbleMine : classes.bubbleTheirs} radius="md" px="sm" py={6} data-testid="message">
        {!mine && (
          <Text size="xs" fw={600}>
            {who}
          </Text>
        )}
        {m.loadRef && (
          <Badge size="xs" variant="light" mb={2}>
            {m.loadRef}
          </Badge>
        )}
        <Text size="sm" className={classes.body}>
          {m.body}
        </Text>
        {m.imageUrls.length > 0 && (
          <Group gap={4} mt={4}>
            {m.imageUrls.map((url, i) => (
              <a key={url} href={url} target="_blank" rel="noreferrer">
                <Image src={url} alt={t('messages.photo', { n: i + 1 })} w={96} h={96} fit="cover" radius="sm" />
              </a>
            ))}
          </Group>
        )}
        <Group gap={4} justify="flex-end" mt={2}>
          <Text size="xs" c="dimmed">
            {time(m.sentAt)}
          </Text>
          {late && (
            <Text size="xs" c="dimmed" component="span" className={classes.mark} data-testid="message-received">
              <IconClockHour4 size={14} aria-hidden /> {t('messages.receivedAt', { time: time(m.receivedAt) })}
            </Text>
          )}
          {mine &&
            (m.readAt ? (
              <Tooltip label={t('messages.readAt', { time: time(m.readAt) })}>
                <Text size="xs" c="dimmed" component="span" aria-label={t('messages.readAt', { time: time(m.readAt) })} className={classes.mark}>
                  <IconChecks size={14} aria-hidden /> {t('messages.readMark')}
                </Text>
              </Tooltip>
            ) : (
              <Text size="xs" c="dimmed" component="span" className={classes.mark}>
                <IconCheck size={14} aria-hidden /> {t('messages.sent')}
              </Text>
            ))}
        </Group>
      </Paper>
    </div>
  );
}

function Composer({ orgId, driverId, loadId, side }: { orgId: string; driverId: string; loadId: string | null; side: MessageSide }) {
  const { t } = useTranslation();
  const send = useSendMessage(orgId);
  const [body, setBody] = useState('');
  const [photos, setPhotos] = useState<Array<{ id: string; url: string }>>([]);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per message being written: a resend after a lost answer is the same message.
  const clientId = useRef(newClientId());

  // A driver's photo taken without signal stays on the phone and goes up with the message (issue 44).
  const kept = useRef(new Map<string, { blob: Blob; name: string }>());
  const attach = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    setError(null);
    let photo: Blob = file;
    const keep = () => {
      const id = `local-photo:${newKey()}`;
      kept.current.set(id, { blob: photo, name: file.name });
      setPhotos((p) => [...p, { id, url: URL.createObjectURL(photo) }]);
    };
    try {
      photo = await photoForUpload(file);
      if (side === 'DRIVER' && !isOnline()) keep();
      else {
        const uploaded = await uploadMessagePhoto(orgId, photo, file.name);
        setPhotos((p) => [...p, uploaded]);
      }
    } catch (err) {
      if (side === 'DRIVER' && err instanceof NetworkError) keep();
      else setError(err instanceof ApiError ? (err.body?.message ?? err.message) : t('messages.photoNotSent'));
    } finally {
      setUploading(false);
    }
  };
  const [sending, setSending] = useState(false);

  const submit = () => {
    const text = body.trim();
    if (!text) {
      setError(t('messages.writeFirst'));
      return;
    }
    setError(null);
    const input = { driverId, loadId, body: text, imageIds: photos.map((p) => p.id), clientId: clientId.current };
    const done = () => {
      setBody('');
      setPhotos([]);
      clientId.current = newClientId();
    };
    if (side === 'DRIVER') {
      // The driver's message is a record of the phone: sent now, or kept and sent when the network returns.
      const paths = messagePaths(orgId);
      const uploads: OutboxUpload[] = input.imageIds.flatMap((id) => {
        const k = kept.current.get(id);
        return k ? [{ placeholder: id, path: paths.images, blob: k.blob, name: k.name }] : [];
      });
      setSending(true);
      // The time it was written goes with it: sent late, it keeps that time (issue 66).
      const madeAt = Date.now();
      const body: MessageBody = { ...input, recordedAt: new Date(madeAt).toISOString() };
      sendRecord({
        id: input.clientId,
        kind: 'MESSAGE',
        madeAt,
        label: `${t('messages.toDispatch')}: ${text.slice(0, 40)}`,
        path: paths.messages,
        body,
        uploads,
      })
        .then(done, (err: unknown) => setError(err instanceof ApiError ? errorWords(t, err) : t('messages.notSent')))
        .finally(() => setSending(false));
      return;
    }
    send.mutate(input, {
      onSuccess: () => {
        setBody('');
        setPhotos([]);
        clientId.current = newClientId();
      },
      onError: (err) => setError(err instanceof ApiError ? (err.body?.message ?? err.message) : t('messages.notSent')),
    });
  };

  return (
    <Stack gap={6}>
      {photos.length > 0 && (
        <Group gap={6}>
          {photos.map((p, i) => (
            <div key={p.id} className={classes.attached}>
              <Image src={p.url} alt={t('messages.attached', { n: i + 1 })} w={56} h={56} fit="cover" radius="sm" />
              <CloseButton
                size="xs"
                className={classes.remove}
                aria-label={t('messages.removePhoto', { n: i + 1 })}
                onClick={() => setPhotos((x) => x.filter((y) => y.id !== p.id))}
              />
            </div>
          ))}
        </Group>
      )}
      <Group gap={6} align="flex-end" wrap="nowrap">
        <FileButton
          onChange={(f) => void attach(f)}
          accept="image/png,image/jpeg,image/gif,image/webp"
          capture={side === 'DRIVER' ? 'environment' : undefined}
          disabled={photos.length >= MAX_PHOTOS}
        >
          {(props) => (
            <ActionIcon {...props} size="lg" variant="default" loading={uploading} aria-label={t('messages.addPhoto')}>
              <IconCamera size={18} aria-hidden />
            </ActionIcon>
          )}
        </FileButton>
        <Textarea
          className={classes.input}
          aria-label={side === 'DRIVER' ? t('messages.toDispatch') : t('messages.toDriver')}
          placeholder={side === 'DRIVER' ? t('messages.toDispatch') : t('messages.toDriver')}
          autosize
          minRows={1}
          maxRows={5}
          maxLength={2000}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter breaks the line (as every messaging app).
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <Button onClick={submit} loading={send.isPending || sending} leftSection={<IconSend size={16} aria-hidden />} aria-label={t('messages.sendMessage')}>
          {t('common.send')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" py={6} role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
