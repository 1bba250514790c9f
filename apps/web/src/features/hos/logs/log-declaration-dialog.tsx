import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { HosDeclarationKind } from '@fleet/api-contract';
import { AnnotatedChange } from './annotated-change.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { useChangeDeclaration, type DeclarationsOwner } from '../hos-declarations-api.ts';
import type { DeclarationEditing } from './log-declarations-data.ts';
import { fromLocalInput, toLocalInput, zoneAbbreviation } from './log-format.ts';

// A declaration on the log (issue 72, decisions 0314, 0315): the driver's explicit choice of a cycle
// switch, adverse driving conditions or an emergency, always with an annotation; or its withdrawal.
// A modal loaded on first use (log-declarations.tsx).

export function DeclarationDialog({
  orgId,
  owner,
  kinds,
  editing,
  dayStart,
  timeZone,
  onClose,
}: {
  orgId: string;
  owner: DeclarationsOwner;
  kinds: HosDeclarationKind[];
  editing: DeclarationEditing | null;
  dayStart: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={editing !== null} onClose={onClose} title={editing ? t(`driver.declarations.${editing.kind}Title`) : ''} size="md">
      {editing && <DeclarationForm orgId={orgId} owner={owner} kinds={kinds} editing={editing} dayStart={dayStart} timeZone={timeZone} onClose={onClose} />}
    </Modal>
  );
}

/** Now, or the day's last minute for a past day: a declaration cannot be dated in the future. */
function defaultAt(dayStart: string): string {
  const now = Date.now();
  const end = Date.parse(dayStart) + 24 * 3_600_000 - 60_000;
  return new Date(Math.min(now, end)).toISOString();
}

function DeclarationForm({
  orgId,
  owner,
  kinds,
  editing,
  dayStart,
  timeZone,
  onClose,
}: {
  orgId: string;
  owner: DeclarationsOwner;
  kinds: HosDeclarationKind[];
  editing: DeclarationEditing;
  dayStart: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const change = useChangeDeclaration(orgId, owner);
  const startAt = defaultAt(dayStart);
  const [kind, setKind] = useState<HosDeclarationKind>(kinds[0] ?? 'ADVERSE_DRIVING');
  const [at, setAt] = useState(toLocalInput(startAt, timeZone));
  const [until, setUntil] = useState(toLocalInput(startAt, timeZone));
  const [cycle, setCycle] = useState<'1' | '2'>('2');
  const [annotation, setAnnotation] = useState('');
  const [errors, setErrors] = useState<{ at?: string; until?: string; annotation?: string }>({});
  const length = annotation.trim().length;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const instant = fromLocalInput(at, timeZone);
    const end = fromLocalInput(until, timeZone);
    const adding = editing.kind === 'add';
    const next = {
      at: adding && !instant ? t('driver.declarations.timeInvalid') : undefined,
      until: adding && kind === 'EMERGENCY' && (!end || !instant || Date.parse(end) <= Date.parse(instant)) ? t('driver.declarations.untilInvalid') : undefined,
      annotation: length < 4 || length > 60 ? t('driver.declarations.annotationShort') : undefined,
    };
    setErrors(next);
    if (next.at || next.until || next.annotation) return;
    try {
      if (editing.kind === 'add')
        await change.mutateAsync({
          kind: 'add',
          declaration: {
            kind,
            at: instant!,
            annotation: annotation.trim(),
            ...(kind === 'CYCLE_SWITCH' ? { cycle: cycle === '1' ? 1 : 2 } : {}),
            ...(kind === 'EMERGENCY' ? { until: end! } : {}),
          },
        });
      else await change.mutateAsync({ kind: 'remove', id: editing.declaration.id, annotation: annotation.trim() });
      notify({ type: 'success', timeout: 5000, title: editing.kind === 'remove' ? t('driver.declarations.withdrawn') : t('driver.declarations.saved') });
      onClose();
    } catch {
      // The server's words are shown below.
    }
  };
  const zone = zoneAbbreviation(startAt, timeZone, i18n.language);
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t(`driver.declarations.${editing.kind}Title`)}>
      <Stack gap="sm">
        {editing.kind === 'add' && (
          <>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('driver.declarations.what')}
              </Text>
              <SegmentedControl
                value={kind}
                onChange={(v) => setKind(v as HosDeclarationKind)}
                orientation={kinds.length > 2 ? 'vertical' : 'horizontal'}
                data={kinds.map((k) => ({ value: k, label: t(`driver.declarations.kind.${k}`) }))}
                data-testid="declaration-kind"
              />
              <Text size="xs" c="dimmed">
                {t(`driver.declarations.rule.${kind}`)}
              </Text>
            </Stack>
            {kind === 'CYCLE_SWITCH' && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('driver.declarations.cycle')}
                </Text>
                <SegmentedControl
                  value={cycle}
                  onChange={(v) => setCycle(v === '1' ? '1' : '2')}
                  data={[
                    { value: '1', label: t('driver.declarations.cycleName', { cycle: 1 }) },
                    { value: '2', label: t('driver.declarations.cycleName', { cycle: 2 }) },
                  ]}
                />
              </Stack>
            )}
            <TextInput
              label={t(kind === 'EMERGENCY' ? 'driver.declarations.from' : 'driver.declarations.time', { zone })}
              type="datetime-local"
              step={1}
              withAsterisk
              value={at}
              onChange={(e) => setAt(e.currentTarget.value)}
              error={errors.at}
            />
            {kind === 'EMERGENCY' && (
              <TextInput
                label={t('driver.declarations.until', { zone })}
                type="datetime-local"
                step={1}
                withAsterisk
                value={until}
                onChange={(e) => setUntil(e.currentTarget.value)}
                error={errors.until}
              />
            )}
          </>
        )}
        <AnnotatedChange
          words="driver.declarations"
          annotation={annotation}
          onAnnotation={setAnnotation}
          annotationError={errors.annotation}
          error={change.error}
          pending={change.isPending}
          removing={editing.kind === 'remove'}
          removeLabel={t('driver.declarations.withdraw')}
          onClose={onClose}
        />
      </Stack>
    </form>
  );
}
