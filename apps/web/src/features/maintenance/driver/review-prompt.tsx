import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import type { Dvir } from '@fleet/api-contract';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { fieldMessages } from '../../../lib/registry-api.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { imageUploadError, uploadDvirImage, useReviewDvir } from '../dvir-api.ts';
import { DEFECT_STATUS_WORDS, KIND_WORDS } from './dvir-report.tsx';
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
  const signature = useSignature(driverName);
  const review = useReviewDvir(orgId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const sign = async () => {
    const problem = signatureProblem(signature);
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
          setErrors({ drawing: imageUploadError(err) });
          return;
        }
      }
      await review.mutateAsync({ id: dvir.id, signature: { name: signature.name.trim(), imageId } });
      notify({ type: 'success', timeout: 5000, title: 'Repair certification reviewed', category: `${dvir.asset.unitNumber}: your review is signed.` });
    } catch (err) {
      const pairs = err instanceof ApiError && err.body ? fieldMessages(err.body.technicalMessage ?? '') : [];
      const name = pairs.find((p) => p.path === 'signature.name')?.message;
      const drawing = pairs.find((p) => p.path === 'signature.imageId')?.message;
      setErrors(name || drawing ? { name: name ?? '', drawing: drawing ?? '' } : { '': err instanceof ApiError ? (err.body?.message ?? err.message) : 'The review could not be sent; try again' });
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
            Review the repair certification
          </Title>
        </Group>
        <Text size="sm">{`${KIND_WORDS[dvir.kind]} report of ${formatDateTime(dvir.inspectedAt, timeZone)} by ${dvir.driver?.name ?? dvir.signature.name}:`}</Text>
        {dvir.defects.map((d) => (
          <div key={d.id} className={classes.defect} data-status={d.status}>
            <Text size="sm" fw={600}>{`${d.label} (${d.asset.unitNumber}): ${DEFECT_STATUS_WORDS[d.status]}`}</Text>
            {d.note && <Text size="sm">{`Reported: ${d.note}`}</Text>}
            {d.certifiedAt && <Text size="sm">{`Certified by ${d.certifiedBy?.name ?? 'a mechanic'}, ${formatDateTime(d.certifiedAt, timeZone)}${d.certification ? `: ${d.certification}` : ''}`}</Text>}
          </div>
        ))}
        <SignatureField state={signature} id={`review-${dvir.id}`} nameError={errors.name || null} drawingError={errors.drawing || null} />
        {errors[''] && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {errors['']}
          </Text>
        )}
        <Button size="md" fullWidth loading={busy} onClick={() => void sign()} classNames={{ root: classes.wrapButton, label: classes.wrapLabel }}>
          I reviewed the repair certification
        </Button>
      </Stack>
    </Paper>
  );
}
