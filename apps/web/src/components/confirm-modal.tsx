import { Button, Group, Modal, Text } from '@mantine/core';

// A chunk of its own: confirm-dialog.tsx's host loads it the first time an action asks (issue 67).

/** What confirmAction asks (confirm-dialog.tsx's ConfirmOptions). */
interface ConfirmQuestion {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

/** The question of confirmAction, with its two answers. */
export default function ConfirmModal({ pending: p, onSettle: settle }: { pending: ConfirmQuestion | null; onSettle: (ok: boolean) => void }) {
  return (
    <Modal opened={!!p} onClose={() => settle(false)} title={p?.title} centered>
      <Text size="sm">{p?.message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => settle(false)}>
          {p?.cancelLabel ?? 'Cancel'}
        </Button>
        <Button color={p?.danger === false ? undefined : 'red.8'} onClick={() => settle(true)} data-autofocus>
          {p?.confirmLabel ?? 'Delete'}
        </Button>
      </Group>
    </Modal>
  );
}
