import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { ComplianceItem, DriverQualification } from '@fleet/api-contract';
import { PagePhotos, usePagePhotos } from '../../components/page-photos.tsx';
import { errorWords } from '../../i18n/error-words.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { sendRecord, type OutboxUpload } from '../../lib/outbox.ts';
import { complianceKeys } from './compliance-keys.ts';

// The driver sends a renewed medical certificate or licence from the phone (issue 71): the paper
// photographed page by page (as a load's papers are), its new expiry date (and a licence's number and
// state), one send. It is one record of the phone's outbox (issue 44): sent now, or kept and sent once
// the network returns, the pages first. The API files it as PENDING until the office approves it.

/** The most pages a renewal takes (the contract's COMPLIANCE_LIMITS.pages; not imported: no zod here). */
const MAX_PAGES = 20;

type Renewable = 'MEDICAL_CERTIFICATE' | 'CDL';

/**
 * Where a page is uploaded before the paper names it: the product's one image store, through the path
 * the Driver role may call (`dvirs/images`, as the load documents' pages go).
 */
const uploadPath = (orgId: string) => orgPathFor(orgId, '/dvirs/images');

export function RenewDialog({
  orgId,
  driverId,
  qualification,
  kind: startKind,
  onClose,
}: {
  orgId: string;
  driverId: string;
  qualification: DriverQualification;
  kind: Renewable;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [kind, setKind] = useState<Renewable>(startKind);
  const licence: ComplianceItem | null = qualification.checklist.find((r) => r.kind === 'CDL')?.current ?? null;
  const [issuedOn, setIssuedOn] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [number, setNumber] = useState(licence?.number ?? '');
  const [state, setState] = useState(licence?.state ?? '');
  const photos = usePagePhotos(MAX_PAGES);
  const [error, setError] = useState<string | null>(null);
  // Asked for pages with none taken: said until one is.
  const [needPages, setNeedPages] = useState(false);
  const [sending, setSending] = useState(false);
  const paper = t(`compliance.kind.${kind}`);

  const send = async () => {
    setError(null);
    // The date it was issued makes it the newest of its kind on file (the current one once approved).
    if (!issuedOn) return setError(t('compliance.issuedOnRequired'));
    if (!expiresOn) return setError(t('compliance.expiresOnRequired'));
    if (kind === 'CDL' && (!number.trim() || !state.trim())) return setError(t('compliance.numberRequired'));
    if (photos.pages.length === 0) return setNeedPages(true);
    setSending(true);
    const madeAt = Date.now();
    try {
      const uploads: OutboxUpload[] = photos.pages.map((p, i) => ({
        placeholder: `local:page-${i + 1}`,
        path: uploadPath(orgId),
        blob: p.blob,
        name: `page-${i + 1}.jpg`,
      }));
      const body: Record<string, unknown> = { kind, issuedOn, expiresOn, imageIds: uploads.map((u) => u.placeholder) };
      if (kind === 'CDL') Object.assign(body, { number: number.trim().toUpperCase(), state: state.trim().toUpperCase(), class: licence?.class ?? null });
      const out = await sendRecord<ComplianceItem>({
        kind: 'DOCUMENT',
        madeAt,
        label: t('compliance.outbox', { paper, pages: t('loads.pages', { count: uploads.length }) }),
        path: orgPathFor(orgId, `/drivers/${encodeURIComponent(driverId)}/qualification/items`),
        body,
        uploads,
      });
      if (out.sent) await qc.invalidateQueries({ queryKey: complianceKeys.driver(orgId, driverId) });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        title: t('compliance.sent'),
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
            : t('compliance.notSent'),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('compliance.renewTitle')} size="lg">
      <Stack gap="sm" data-testid="renew-dialog">
        <Text size="sm">{t('compliance.renewBody')}</Text>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="renew-kind">
            {t('compliance.which')}
          </Text>
          <SegmentedControl
            aria-labelledby="renew-kind"
            value={kind}
            onChange={(v) => setKind(v as Renewable)}
            data={[
              { value: 'MEDICAL_CERTIFICATE', label: t('compliance.kind.MEDICAL_CERTIFICATE') },
              { value: 'CDL', label: t('compliance.kind.CDL') },
            ]}
            fullWidth
          />
        </Stack>
        <SimpleGrid cols={2} spacing="sm">
          <TextInput type="date" label={t(`compliance.issuedOn.${kind}`)} withAsterisk value={issuedOn} onChange={(e) => setIssuedOn(e.currentTarget.value)} />
          <TextInput type="date" label={t('compliance.expiresOn')} withAsterisk value={expiresOn} onChange={(e) => setExpiresOn(e.currentTarget.value)} />
        </SimpleGrid>
        {kind === 'CDL' && (
          <SimpleGrid cols={2} spacing="sm">
            <TextInput
              label={t('compliance.number')}
              withAsterisk
              value={number}
              onChange={(e) => setNumber(e.currentTarget.value)}
              autoCapitalize="characters"
            />
            <TextInput
              label={t('compliance.state')}
              withAsterisk
              value={state}
              onChange={(e) => setState(e.currentTarget.value)}
              maxLength={2}
              autoCapitalize="characters"
            />
          </SimpleGrid>
        )}
        <PagePhotos state={photos} />
        {(error || photos.unreadable || (needPages && photos.pages.length === 0)) && (
          <Alert color="red" variant="light" py={6} role="alert">
            {error ?? (photos.unreadable ? t('loads.pageUnreadable') : t('compliance.pagesRequired'))}
          </Alert>
        )}
        <Button fullWidth onClick={() => void send()} loading={sending} disabled={photos.reading} leftSection={<IconSend size={16} aria-hidden />}>
          {t('compliance.send')}
        </Button>
        <Button fullWidth variant="subtle" onClick={onClose} disabled={sending}>
          {t('loads.cancel')}
        </Button>
      </Stack>
    </Modal>
  );
}
