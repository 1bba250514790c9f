import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import type { BorderCountry, BorderCrossing } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useChangeCrossing, type CrossingsOwner } from '../hos-crossings-api.ts';
import { useDayCrossings } from './log-crossings-data.ts';
import { clockIn, fromLocalInput, toLocalInput, zoneAbbreviation } from './log-format.ts';

// A log day's border crossings (issue 72): one line per crossing with the ruleset in force on each
// side, and the driver's (or office's) correction with an annotation. The graph grid marks them.

export interface LogCrossingsProps {
  orgId: string;
  owner: CrossingsOwner;
  dayStart: string;
  dayEnd: string;
  timeZone: string;
  /** Whether the viewer may correct the crossings. */
  canEdit: boolean;
}

/** The crossings of the day (for the graph grid's markers and the list). */
type Editing = { kind: 'add' } | { kind: 'move'; crossing: BorderCrossing } | { kind: 'remove'; crossing: BorderCrossing };

export function LogCrossings({ orgId, owner, dayStart, dayEnd, timeZone, canEdit }: LogCrossingsProps) {
  const { t, i18n } = useTranslation();
  const crossings = useDayCrossings(orgId, owner, dayStart, dayEnd);
  const [editing, setEditing] = useState<Editing | null>(null);
  const time = (iso: string) => `${clockIn(iso, timeZone, i18n.language)} ${zoneAbbreviation(iso, timeZone, i18n.language)}`;
  return (
    <Stack gap="xs" data-testid="log-crossings">
      {crossings.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('driver.crossings.none')}
        </Text>
      )}
      {crossings.map((c) => (
        <Group key={c.id} justify="space-between" wrap="nowrap" gap="xs" align="flex-start" data-testid="crossing-line">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconFlag size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            <Stack gap={2}>
              <Text size="sm" fw={600}>{`${time(c.at)} · ${t(`driver.crossings.into.${c.to}`)}`}</Text>
              <Text size="sm">{t('driver.crossings.rules', { before: t(`rulesets.${c.rulesetBefore}`), after: t(`rulesets.${c.rulesetAfter}`) })}</Text>
              <Group gap={6}>
                <Badge size="sm" variant="light" color={c.source === 'POSITIONS' ? 'blue' : 'grape'}>
                  {c.source === 'POSITIONS' ? t('driver.crossings.fromPositions') : t('driver.crossings.entered')}
                </Badge>
                {c.annotation && (
                  <Text size="xs" c="dimmed">
                    {c.annotation}
                  </Text>
                )}
              </Group>
            </Stack>
          </Group>
          {canEdit && (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-sm" variant="light" onClick={() => setEditing({ kind: 'move', crossing: c })}>
                {t('driver.crossings.move')}
              </Button>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setEditing({ kind: 'remove', crossing: c })}>
                {t('driver.crossings.remove')}
              </Button>
            </Group>
          )}
        </Group>
      ))}
      {canEdit && (
        <Group>
          <Button size="compact-sm" variant="default" onClick={() => setEditing({ kind: 'add' })}>
            {t('driver.crossings.add')}
          </Button>
        </Group>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? t(`driver.crossings.${editing.kind}Title`) : ''} size="md">
        {editing && <CrossingForm orgId={orgId} owner={owner} editing={editing} dayStart={dayStart} timeZone={timeZone} onClose={() => setEditing(null)} />}
      </Modal>
    </Stack>
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
        <Textarea
          label={t('driver.crossings.annotation')}
          description={t('driver.crossings.annotationHelp', { count: length })}
          withAsterisk
          autosize
          minRows={2}
          maxLength={60}
          value={annotation}
          onChange={(e) => setAnnotation(e.currentTarget.value)}
          error={errors.annotation}
        />
        {change.error && (
          <Alert color="red" title={t('driver.crossings.failed')}>
            {describeError(change.error).details ?? describeError(change.error).title}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('driver.crossings.cancel')}
          </Button>
          <Button type="submit" color={editing.kind === 'remove' ? 'red' : undefined} loading={change.isPending}>
            {editing.kind === 'remove' ? t('driver.crossings.remove') : t('driver.crossings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
