import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { BorderCountry } from '@fleet/api-contract';
import { AnnotatedChange } from './annotated-change.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { useChangeCrossing, type CrossingsOwner } from '../hos-crossings-api.ts';
import type { Editing } from './log-crossings-data.ts';
import { fromLocalInput, toLocalInput, zoneAbbreviation } from './log-format.ts';

// A border crossing's correction (issue 72): move, remove or add, each with an annotation, in a
// modal loaded on first use (log-crossings.tsx).

export function CrossingDialog({
  orgId,
  owner,
  editing,
  dayStart,
  timeZone,
  onClose,
}: {
  orgId: string;
  owner: CrossingsOwner;
  editing: Editing | null;
  dayStart: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={editing !== null} onClose={onClose} title={editing ? t(`driver.crossings.${editing.kind}Title`) : ''} size="md">
      {editing && <CrossingForm orgId={orgId} owner={owner} editing={editing} dayStart={dayStart} timeZone={timeZone} onClose={onClose} />}
    </Modal>
  );
}

function CrossingForm({
  orgId,
  owner,
  editing,
  dayStart,
  timeZone,
  onClose,
}: {
  orgId: string;
  owner: CrossingsOwner;
  editing: Editing;
  dayStart: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const change = useChangeCrossing(orgId, owner);
  const startAt = editing.kind === 'add' ? dayStart : editing.crossing.at;
  const [at, setAt] = useState(toLocalInput(startAt, timeZone));
  const [to, setTo] = useState<BorderCountry>('CA');
  const [annotation, setAnnotation] = useState('');
  const [errors, setErrors] = useState<{ at?: string; annotation?: string }>({});
  const length = annotation.trim().length;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const instant = fromLocalInput(at, timeZone);
    const next = {
      at: editing.kind !== 'remove' && !instant ? t('driver.crossings.timeInvalid') : undefined,
      annotation: length < 4 || length > 60 ? t('driver.crossings.annotationShort') : undefined,
    };
    setErrors(next);
    if (next.at || next.annotation) return;
    try {
      if (editing.kind === 'add') await change.mutateAsync({ kind: 'add', at: instant!, to, annotation: annotation.trim() });
      else if (editing.kind === 'move') await change.mutateAsync({ kind: 'move', id: editing.crossing.id, at: instant!, annotation: annotation.trim() });
      else await change.mutateAsync({ kind: 'remove', id: editing.crossing.id, annotation: annotation.trim() });
      notify({ type: 'success', timeout: 5000, title: editing.kind === 'remove' ? t('driver.crossings.removed') : t('driver.crossings.saved') });
      onClose();
    } catch {
      // The server's words are shown below.
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t(`driver.crossings.${editing.kind}Title`)}>
      <Stack gap="sm">
        {editing.kind !== 'remove' && (
          <TextInput
            label={t('driver.crossings.time', { zone: zoneAbbreviation(startAt, timeZone, i18n.language) })}
            type="datetime-local"
            step={1}
            withAsterisk
            value={at}
            onChange={(e) => setAt(e.currentTarget.value)}
            error={errors.at}
          />
        )}
        {editing.kind === 'add' && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('driver.crossings.to')}
            </Text>
            <SegmentedControl
              value={to}
              onChange={(v) => setTo(v as BorderCountry)}
              data={[
                { value: 'CA', label: t('driver.crossings.country.CA') },
                { value: 'US', label: t('driver.crossings.country.US') },
              ]}
            />
          </Stack>
        )}
        <AnnotatedChange
          words="driver.crossings"
          annotation={annotation}
          onAnnotation={setAnnotation}
          annotationError={errors.annotation}
          error={change.error}
          pending={change.isPending}
          removing={editing.kind === 'remove'}
          removeLabel={t('driver.crossings.remove')}
          onClose={onClose}
        />
      </Stack>
    </form>
  );
}
