import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { DUTY_STATUSES, hosEventEditSchema, type HosEvent } from '@fleet/api-contract';
import { describeError } from '../../../lib/api-client.ts';
import { field, useZodForm } from '../../../lib/form.ts';
import { showServerError } from '../../../lib/registry-api.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useEditHosEvent } from '../hos-logs-api.ts';
import { clockSecondsIn, eventName, fromLocalInput, STATUS_NAMES, toLocalInput, zoneAbbreviation } from './log-format.ts';

// The contract's edit schema, with the time typed as a wall clock in the driver's home zone.
const formSchema = hosEventEditSchema.pick({ status: true, annotation: true }).extend({
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'Time must be a date and time'),
});

export interface EventEditModalProps {
  orgId: string;
  driverId: string;
  logId: string;
  /** The duty-status event to edit; null keeps the modal closed. */
  event: HosEvent | null;
  /** The driver's home-terminal zone: the time is shown and typed in it. */
  timeZone: string;
  onClose: () => void;
}

/** Edits a duty-status event: status, time and the annotation the ELD rule requires (4-60 characters). */
export function EventEditModal({ event, onClose, ...p }: EventEditModalProps) {
  return (
    <Modal opened={event !== null} onClose={onClose} title="Edit duty status" size="md">
      {event && <EditForm key={event.id} event={event} onClose={onClose} {...p} />}
    </Modal>
  );
}

function EditForm({ orgId, driverId, logId, event, timeZone, onClose }: Omit<EventEditModalProps, 'event'> & { event: HosEvent }) {
  const edit = useEditHosEvent(orgId);
  const shownAt = toLocalInput(event.at, timeZone);
  const form = useZodForm(formSchema, {
    defaultValues: { status: event.status ?? 'OFF', at: shownAt, annotation: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    // A time left as shown is the record's own instant, to the millisecond.
    const at = v.at === shownAt ? event.at : fromLocalInput(v.at, timeZone);
    if (!at) {
      form.setError('at', { type: 'manual', message: 'Time must be a date and time' });
      return;
    }
    try {
      await edit.mutateAsync({
        driverId,
        logId,
        eventId: event.id,
        body: { status: v.status, at, annotation: v.annotation, locationDescription: event.locationDescription },
      });
      notify({ type: 'success', title: 'Edit proposed to the driver', category: 'It takes effect when the driver accepts it.', timeout: 5000 });
      onClose();
    } catch (err) {
      showServerError(form, err, ['status', 'at', 'annotation']);
    }
  });
  const fieldErrorShown = Object.keys(form.formState.errors).length > 0;
  const annotation = form.watch('annotation') ?? '';

  return (
    <form onSubmit={submit} aria-label="Edit duty status" noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {`${eventName(event)} at ${clockSecondsIn(event.at, timeZone)} ${zoneAbbreviation(event.at, timeZone)}. The change goes to the driver, who accepts or rejects it; until then the original stays in force (49 CFR 395 Appendix A 4.4.4.2.6).`}
        </Text>
        <Controller
          control={form.control}
          name="status"
          render={({ field: f, fieldState }) => (
            <Select
              label="Status"
              withAsterisk
              data={DUTY_STATUSES.map((s) => ({ value: s, label: STATUS_NAMES[s] }))}
              value={f.value}
              onChange={(v) => v && f.onChange(v)}
              onBlur={f.onBlur}
              allowDeselect={false}
              error={fieldState.error?.message}
            />
          )}
        />
        <TextInput label={`Time (${zoneAbbreviation(event.at, timeZone)})`} type="datetime-local" step={1} withAsterisk {...field(form, 'at')} />
        <Textarea
          label="Annotation"
          description={`Why the record changes: 4 to 60 characters (${annotation.trim().length}/60)`}
          withAsterisk
          autosize
          minRows={2}
          maxLength={60}
          {...field(form, 'annotation')}
        />
        {edit.error && !fieldErrorShown && (
          <Alert color="red" title="The edit was not proposed">
            {describeError(edit.error).details ?? describeError(edit.error).title}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={edit.isPending}>
            Propose edit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
