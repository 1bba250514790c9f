import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, NativeSelect, Paper, Stack } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { LOAD_DOCUMENT_TYPES, type Load, type LoadDocument, type LoadDocumentType, type LoadStop } from '@fleet/api-contract';
import { errorWords } from '../../i18n/error-words.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { sendRecord, type OutboxUpload } from '../../lib/outbox.ts';
import { PagePhotos, usePagePhotos } from '../../components/page-photos.tsx';
import { loadDocumentsPath, loadKeys, loadPhotoUploadPath } from './dispatch-api.ts';
import { stopNumber } from './dispatch-format.ts';

// The driver photographs a paper at a stop page by page (issue 70): a type, the pages in the order
// taken (each shown, each removable, moved earlier if taken out of order), then one send. The pages
// and the paper are one record of the phone's outbox (issue 44): sent now, or kept on the phone and
// sent once when the network returns (the pages first, each with its own key; then the paper, whose
// key the server stores with it).

/** The most pages a paper takes (the API's LOAD_DOCUMENT_MAX_PAGES). */
const MAX_PAGES = 15;

export function DocumentCapture({ orgId, load, stop, onClose }: { orgId: string; load: Load; stop: LoadStop; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [type, setType] = useState<LoadDocumentType>(stop.kind === 'PICKUP' ? 'BOL' : 'POD');
  const photos = usePagePhotos(MAX_PAGES);
  const { pages, reading } = photos;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const n = stopNumber(load.stops, stop);

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
        <PagePhotos state={photos} />
        {(error ?? (photos.unreadable ? t('loads.pageUnreadable') : null)) && (
          <Alert color="red" variant="light" py={6} role="alert">
            {error ?? t('loads.pageUnreadable')}
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
