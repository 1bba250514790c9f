import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { COMPLIANCE_LIMITS, type ComplianceItem } from '@fleet/api-contract/compliance';
import { describeError } from '../../lib/api-client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { rejectItem, useComplianceMutation } from './compliance-api.ts';
import { kindLabel } from './compliance-words.tsx';

/** Refuses a driver's renewal with the reason the driver is told (issue 71). */
export function RejectDialog({ item, onClose }: { item: ComplianceItem; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reject = useComplianceMutation(rejectItem);
  const submit = () => {
    if (!reason.trim()) {
      setError('Say why, so the driver can send it again right.');
      return;
    }
    reject.mutate(
      { id: item.id, reason: reason.trim() },
      {
        onSuccess: () => {
          notify({ type: 'success', title: `${kindLabel(item.kind)} rejected`, timeout: 4000 });
          onClose();
        },
        onError: (err) => {
          const d = describeError(err);
          setError([d.title, d.details].filter(Boolean).join(': '));
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={`Reject ${item.subject.name}'s ${kindLabel(item.kind).toLowerCase()}?`}>
      <form
        noValidate
        aria-label="Reject"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description="The driver reads it in the app."
            withAsterisk
            autosize
            minRows={2}
            maxLength={COMPLIANCE_LIMITS.reason}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={reject.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={reject.isPending}>
              Reject
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
