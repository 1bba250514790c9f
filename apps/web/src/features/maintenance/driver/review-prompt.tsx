import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import type { Dvir } from '@fleet/api-contract';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { fieldMessages } from '../../../lib/registry-api.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { errorWords, fieldWords } from '../../../i18n/error-words.ts';
import { imageUploadError, uploadDvirImage, useReviewDvir } from '../dvir-api.ts';
import { itemWords } from './dvir-items.ts';
import { defectStatusWords, kindWords } from './dvir-report.tsx';
import { SignatureField, signaturePng, signatureProblem, useSignature } from './signature-field.tsx';
import classes from './dvir-driver.module.css';

// 396.13(c): before driving, the driver reviews the last report and, where a defect was repaired (or
// certified as not needing repair), signs that they reviewed the certification.

export interface ReviewPromptProps {
  orgId: string;
  dvir: Dvir;
  driverName: string;
  timeZone: string;
}

export function ReviewPrompt({ orgId, dvir, driverName, timeZone }: ReviewPromptProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const signature = useSignature(driverName);
  const review = useReviewDvir(orgId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const sign = async () => {
    const problem = signatureProblem(signature, t);
    if (problem) {
      setErrors({ [problem.field]: problem.message });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const png = await signaturePng(signature);
      let imageId: string | null = null;
      if (png) {
        try {
          imageId = (await uploadDvirImage(orgId, png, 'signature.png')).id;
        } catch (err) {
          setErrors({ drawing: errorWords(t, err, imageUploadError(err)) });
          return;
        }
      }
      await review.mutateAsync({ id: dvir.id, signature: { name: signature.name.trim(), imageId } });
      notify({ type: 'success', timeout: 5000, title: t('inspection.reviewDone'), category: t('inspection.reviewDoneBody', { unit: dvir.asset.unitNumber }) });
    } catch (err) {
      const body = err instanceof ApiError ? err.body : null;
      const pairs = body ? fieldMessages(body.technicalMessage ?? '') : [];
      const name = pairs.find((p) => p.path === 'signature.name')?.message;
      const drawing = pairs.find((p) => p.path === 'signature.imageId')?.message;
      setErrors(
        name || drawing
          ? { name: body && name ? fieldWords(t, body, name) : '', drawing: body && drawing ? fieldWords(t, body, drawing) : '' }
          : { '': err instanceof ApiError ? errorWords(t, err) : t('inspection.reviewNotSent') },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="sm" className={classes.reviewPrompt} data-testid="review-prompt">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconTool size={20} aria-hidden />
          <Title order={3} size="h5">
            {t('inspection.reviewTitle')}
          </Title>
        </Group>
        <Text size="sm">
          {t('inspection.reportOf', {
            kind: kindWords(t, dvir.kind),
            time: formatDateTime(dvir.inspectedAt, timeZone, lng),
            name: dvir.driver?.name ?? dvir.signature.name,
          })}
        </Text>
        {dvir.defects.map((d) => (
          <div key={d.id} className={classes.defect} data-status={d.status}>
            <Text size="sm" fw={600}>{`${itemWords(t, d)} (${d.asset.unitNumber}): ${defectStatusWords(t, d.status)}`}</Text>
            {d.note && <Text size="sm">{t('inspection.reported', { note: d.note })}</Text>}
            {d.certifiedAt && (
              <Text size="sm">{`${t('inspection.certifiedBy', { name: d.certifiedBy?.name ?? t('inspection.aMechanic'), time: formatDateTime(d.certifiedAt, timeZone, lng) })}${d.certification ? `: ${d.certification}` : ''}`}</Text>
            )}
          </div>
        ))}
        <SignatureField state={signature} id={`review-${dvir.id}`} nameError={errors.name || null} drawingError={errors.drawing || null} />
        {errors[''] && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {errors['']}
          </Text>
        )}
        <Button size="md" fullWidth loading={busy} onClick={() => void sign()} classNames={{ root: classes.wrapButton, label: classes.wrapLabel }}>
          {t('inspection.iReviewed')}
        </Button>
      </Stack>
    </Paper>
  );
}
