import { Button, Group, Modal, Text } from '@mantine/core';
import { createStore, useStore } from '../lib/create-store.ts';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions (default true). */
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

const pendingStore = createStore<Pending | null>(null);

/**
 * Asks before a destructive action: `if (await confirmAction({title, message})) remove.mutate(id)`.
 * Needs <ConfirmHost /> once in the tree (the signed-in shell renders it).
 */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  pendingStore.get()?.resolve(false);
  return new Promise((resolve) => pendingStore.set({ ...options, resolve }));
}

function settle(ok: boolean) {
  const p = pendingStore.get();
  pendingStore.set(null);
  p?.resolve(ok);
}

export function ConfirmHost() {
  const p = useStore(pendingStore);
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
