import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Button, FileButton, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconCamera, IconSend, IconX } from '@tabler/icons-react';
import { LOAD_DOCUMENT_TYPES, type Load, type LoadDocument, type LoadDocumentType, type LoadStop } from '@fleet/api-contract';
import { errorWords } from '../../i18n/error-words.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { sendRecord, type OutboxUpload } from '../../lib/outbox.ts';
import { pagePhoto } from '../../lib/photo-resize.ts';
import { loadDocumentsPath, loadKeys, loadPhotoUploadPath } from './dispatch-api.ts';
import { stopNumber } from './dispatch-format.ts';
import classes from './dispatch.module.css';

// The driver photographs a paper at a stop page by page (issue 70): a type, the pages in the order
// taken (each shown, each removable, moved earlier if taken out of order), then one send. The pages
// and the paper are one record of the phone's outbox (issue 44): sent now, or kept on the phone and
// sent once when the network returns (the pages first, each with its own key; then the paper, whose
// key the server stores with it).

/** The most pages a paper takes (the API's LOAD_DOCUMENT_MAX_PAGES). */
const MAX_PAGES = 15;
const READABLE = ['image/jpeg', 'image/png'];

interface Page {
  key: string;
  blob: Blob;
  url: string;
}

let pageSeq = 0;

export function DocumentCapture({ orgId, load, stop, onClose }: { orgId: string; load: Load; stop: LoadStop; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [type, setType] = useState<LoadDocumentType>(stop.kind === 'PICKUP' ? 'BOL' : 'POD');
  const [pages, setPages] = useState<Page[]>([]);
  const [reading, setReading] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const urls = useRef(new Set<string>());
  // The thumbnails' object URLs go with the panel.
  useEffect(() => {
    const held = urls.current;
    return () => held.forEach((u) => URL.revokeObjectURL(u));
  }, []);
  const n = stopNumber(load.stops, stop);

  const addPages = async (files: File[]) => {
    if (files.length === 0) return;
    setError(null);
    setReading(true);
    try {
      const added: Page[] = [];
      for (const file of files.slice(0, MAX_PAGES - pages.length)) {
        const blob = await pagePhoto(file);
        // Not turned into a JPEG and not one already: a PDF page cannot hold it (a HEIC photo from a gallery).
        if (!READABLE.includes(blob.type)) {
          setError(t('loads.pageUnreadable'));
          continue;
        }
        const url = URL.createObjectURL(blob);
        urls.current.add(url);
        added.push({ key: `p${++pageSeq}`, blob, url });
      }
      setPages((p) => [...p, ...added]);
    } finally {
      setReading(false);
    }
  };
  const remove = (key: string) =>
    setPages((p) => {
      const gone = p.find((x) => x.key === key);
      if (gone) {
        URL.revokeObjectURL(gone.url);
        urls.current.delete(gone.url);
      }
      return p.filter((x) => x.key !== key);
    });
  const earlier = (i: number) => setPages((p) => (i <= 0 ? p : [...p.slice(0, i - 1), p[i]!, p[i - 1]!, ...p.slice(i + 1)]));

  const send = async () => {
    setError(null);
    setSending(true);
    const madeAt = Date.now();
    const document = t(`loads.document.${type}`);
    try {
      // The pages go up first; their ids replace these placeholders in the paper's body, in order.
      const uploads: OutboxUpload[] = pages.map((p, i) => ({
        placeholder: `local:page-${i + 1}`,
        path: loadPhotoUploadPath(orgId),
        blob: p.blob,
        name: `page-${i + 1}.jpg`,
      }));
      const out = await sendRecord<LoadDocument>({
        kind: 'DOCUMENT',
        madeAt,
        label: t('loads.outboxDocument', { document, n, pages: t('loads.pages', { count: pages.length }) }),
        path: loadDocumentsPath(orgId, load.id),
        body: { type, stopId: stop.id, imageIds: uploads.map((u) => u.placeholder) },
        uploads,
      });
      if (out.sent) await qc.invalidateQueries({ queryKey: loadKeys.all(orgId) });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        title: t('loads.documentSaved', { document }),
        category: out.sent ? undefined : t('offline.kept', { time: formatTime(madeAt) }),
        timeout: 3000,
      });
      onClose();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 413
          ? errorWords(t, err, err.body?.message ?? 'The photo is larger than the upload limit')
          : err instanceof ApiError
            ? errorWords(t, err)
            : t('loads.notRecorded'),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="sm" data-testid="document-capture">
      <Stack gap="xs">
        <NativeSelect
          label={t('loads.documentType')}
          value={type}
          onChange={(e) => setType(e.currentTarget.value as LoadDocumentType)}
          data={LOAD_DOCUMENT_TYPES.map((v) => ({ value: v, label: t(`loads.document.${v}`) }))}
        />
        <Text size="xs" c="dimmed">
          {t('loads.pagesHint')}
        </Text>
        {pages.length > 0 && (
          <ol className={classes.pages} aria-label={t('loads.pagesTaken')}>
            {pages.map((p, i) => (
              <li key={p.key} data-testid="document-page">
                <img src={p.url} alt={t('loads.pageN', { n: i + 1 })} />
                <Group justify="space-between" gap={2} wrap="nowrap">
                  {i > 0 ? (
                    <ActionIcon variant="subtle" size="md" aria-label={t('loads.pageEarlier', { n: i + 1 })} onClick={() => earlier(i)}>
                      <IconArrowLeft size={16} aria-hidden />
                    </ActionIcon>
                  ) : (
                    <span />
                  )}
                  <Text size="xs" fw={600}>
                    {i + 1}
                  </Text>
                  <ActionIcon variant="subtle" color="red" size="md" aria-label={t('loads.removePage', { n: i + 1 })} onClick={() => remove(p.key)}>
                    <IconX size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </li>
            ))}
          </ol>
        )}
        {pages.length < MAX_PAGES && (
          <FileButton onChange={(f) => void addPages(f)} accept="image/*" capture="environment" multiple>
            {(props) => (
              <Button {...props} variant="default" loading={reading} leftSection={<IconCamera size={16} aria-hidden />}>
                {t('loads.takePage', { n: pages.length + 1 })}
              </Button>
            )}
          </FileButton>
        )}
        {error && (
          <Alert color="red" variant="light" py={6} role="alert">
            {error}
          </Alert>
        )}
        <Stack gap={4}>
          <Button
            fullWidth
            onClick={() => void send()}
            disabled={pages.length === 0 || reading}
            loading={sending}
            leftSection={<IconSend size={16} aria-hidden />}
          >
            {t('loads.sendPages', { count: pages.length })}
          </Button>
          <Button fullWidth variant="subtle" onClick={onClose} disabled={sending}>
            {t('loads.cancel')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
